"""A submission's write, as each database's own SQL: the audit numbered and inserted unless the
event has its bytes already, and its report with it, in one transaction.

Why not Core statements: a submission is the store's hot path, and SQLAlchemy's statements and
results (cache lookup, bind and result processing per column) cost more than SQLite spends
running them: 1.1 ms of CPU a submission through ``exec_driver_sql``, 0.43 ms on the driver's
cursor (SQLite, in process). So the SQL goes to the cursor of the connection SQLAlchemy
checked out, in the transaction it began, and the driver's errors are raised as SQLAlchemy's
(``IntegrityError``, ``OperationalError``), as the store expects. On PostgreSQL it is one
statement, in autocommit: one round trip, no BEGIN and COMMIT of its own. The JSON columns are
written as SQLAlchemy's JSON type writes them (``json.dumps``; None as JSON ``null``), so that
what reads them back (Core, through that type) cannot tell the two writers apart."""

from __future__ import annotations

import json

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from .schema import audits, reports

_AUDIT_COLS = ("id", "event_id", "sha256", "name", "log", "form", "submitted")
_REPORT_COLS = ("spec_version", "ruleset", "options", "verdict", "report", "result", "judged", "current")
_JSON_COLS = ("options", "report", "result")

# INSERT ... SELECT: the audit's number is max(seq) + 1 of its event, read from the index
# ix_audits_event_seq in the same statement (migration 0003), so no read comes before the write;
# ON CONFLICT on (event, SHA-256) makes the same bytes to the same event insert nothing and return
# no row, whichever of two concurrent submissions commits first. (SQLite needs the SELECT's WHERE
# before ON CONFLICT to parse it: it has one.)
_SQLITE_AUDIT = (
    f"INSERT INTO audits ({', '.join(_AUDIT_COLS)}, seq) "
    f"SELECT {', '.join(':' + c for c in _AUDIT_COLS)}, coalesce(max(seq), 0) + 1 "
    "FROM audits WHERE event_id = :event_id "
    "ON CONFLICT (event_id, sha256) DO NOTHING RETURNING seq"
)
_SQLITE_REPORT = (
    f"INSERT INTO reports (audit_id, {', '.join(_REPORT_COLS)}) "
    f"VALUES (:id, {', '.join(':' + c for c in _REPORT_COLS)})"
)

# PostgreSQL: both inserts in one statement (the report's row from the audit's RETURNING, so an
# audit not inserted has no report inserted either); every parameter cast, since in a SELECT
# list nothing else gives it a type. The foreign keys are checked at the statement's end, when
# the audit's row is there.
_PG_TYPES = {"log": "bytea", "options": "json", "report": "json", "result": "json", "current": "boolean"}


def _pg(col: str) -> str:
    return f"%({col})s::{_PG_TYPES.get(col, 'varchar')}"


_PG_SUBMIT = (
    f"WITH a AS (INSERT INTO audits ({', '.join(_AUDIT_COLS)}, seq) "
    f"SELECT {', '.join(_pg(c) for c in _AUDIT_COLS)}, coalesce(max(seq), 0) + 1 "
    "FROM audits WHERE event_id = %(event_id)s::varchar "
    "ON CONFLICT (event_id, sha256) DO NOTHING RETURNING id, seq), "
    f"r AS (INSERT INTO reports (audit_id, {', '.join(_REPORT_COLS)}) "
    f"SELECT a.id, {', '.join(_pg(c) for c in _REPORT_COLS)} FROM a) "
    "SELECT seq FROM a"
)


def params(row: dict, rep: dict) -> dict:
    """The statement's parameters from the audit's row and its report's (JSON columns as text)."""
    out = {c: row[c] for c in _AUDIT_COLS}
    for c in _REPORT_COLS:
        out[c] = json.dumps(rep[c]) if c in _JSON_COLS else rep[c]
    return out


def insert_audit(conn: sa.Connection, row: dict, rep: dict) -> int | None:
    """Insert the audit and its report: the audit's number, or None when the event has these bytes
    already (nothing written). An event that is not there is the foreign key's IntegrityError."""
    dialect = conn.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return _insert_core(conn, row, rep)
    p = params(row, rep)
    cur = conn.connection.cursor()  # in the transaction conn began
    sql = _PG_SUBMIT if dialect == "postgresql" else _SQLITE_AUDIT
    try:
        cur.execute(sql, p)
        got = cur.fetchone()
        if got is not None and dialect == "sqlite":
            sql = _SQLITE_REPORT
            cur.execute(sql, p)
    except conn.dialect.loaded_dbapi.Error as exc:  # as SQLAlchemy would raise it
        gone = conn.dialect.is_disconnect(exc, conn.connection.dbapi_connection, cur)
        if gone:  # not back into the pool
            conn.invalidate(exc)
        raise sa_exc.DBAPIError.instance(
            sql, p, exc, conn.dialect.loaded_dbapi.Error, connection_invalidated=gone
        ) from exc
    finally:
        cur.close()
    return None if got is None else got[0]


_NEXT_SEQ = sa.select(sa.func.coalesce(sa.func.max(audits.c.seq), 0) + 1).where(audits.c.event_id == sa.bindparam("e"))


def _insert_core(conn: sa.Connection, row: dict, rep: dict) -> int:
    """Any other database: the number read, then the inserts (the same bytes already there are
    the unique constraint's IntegrityError)."""
    seq = conn.execute(_NEXT_SEQ, {"e": row["event_id"]}).scalar_one()
    conn.execute(audits.insert(), {**row, "seq": seq})
    conn.execute(reports.insert(), {"audit_id": row["id"], **rep})
    return seq


def plan_sql(dialect: str) -> str:
    """The audit's insert as the database runs it (for EXPLAIN in the tests)."""
    return _PG_SUBMIT if dialect == "postgresql" else _SQLITE_AUDIT
