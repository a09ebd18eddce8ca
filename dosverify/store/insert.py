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

from .schema import audits, events, reports

_AUDIT_COLS = ("id", "event_id", "sha256", "name", "log", "form", "submitted")
_REPORT_COLS = ("spec_version", "ruleset", "options", "verdict", "report", "result", "judged", "current")
_JSON_COLS = ("options", "report", "result")

# INSERT ... SELECT: the audit's number is max(seq) + 1 of its event, read from the index
# ix_audits_event_seq in the same statement (migration 0003), so no read comes before the write;
# ON CONFLICT on (event, SHA-256) makes the same bytes to the same event insert nothing and return
# no row, whichever of two concurrent submissions commits first. (SQLite needs the SELECT's WHERE
# before ON CONFLICT to parse it: it has one.)
#
# One game an event (migration 0004): the log's game (:game, None when it names none) must be the
# event's, unless the event is mixed; an event without a game yet takes the first log's. A log
# refused so inserts nothing and returns no row either (the store tells the two apart after).
# SQLite: the writer holds the write lock (BEGIN IMMEDIATE), so the event's game set by the
# UPDATE is the one the INSERT's condition reads.
_SQLITE_GAME = (
    "UPDATE events SET game = :game WHERE id = :event_id AND game IS NULL AND NOT mixed AND :game IS NOT NULL"
)
_SQLITE_AUDIT = (
    f"INSERT INTO audits ({', '.join(_AUDIT_COLS)}, seq) "
    f"SELECT {', '.join(':' + c for c in _AUDIT_COLS)}, n.seq "
    "FROM (SELECT coalesce(max(seq), 0) + 1 AS seq FROM audits WHERE event_id = :event_id) AS n "
    "WHERE EXISTS (SELECT 1 FROM events WHERE id = :event_id AND (mixed OR :game IS NULL OR game = :game)) "
    "ON CONFLICT (event_id, sha256) DO NOTHING RETURNING seq"
)
_SQLITE_REPORT = (
    f"INSERT INTO reports (audit_id, {', '.join(_REPORT_COLS)}) "
    f"VALUES (:id, {', '.join(':' + c for c in _REPORT_COLS)})"
)

# PostgreSQL: both inserts in one statement (the report's row from the audit's RETURNING, so an
# audit not inserted has no report inserted either); every parameter cast, since in a SELECT
# list nothing else gives it a type. The foreign keys are checked at the statement's end, when
# the audit's row is there. The event's game: `g` sets it when the event has none; `ok` is the
# event taking the log, as the statement's snapshot shows it or by `g` having set it. Two first
# logs of an event at once: the second's UPDATE waits for the first's and finds the game set, and
# its snapshot shows none, so it inserts nothing; the store then reads the event and sends the
# log again when it is of the event's game (Store.submit).
_PG_TYPES = {"log": "bytea", "options": "json", "report": "json", "result": "json", "current": "boolean"}


def _pg(col: str) -> str:
    return f"%({col})s::{_PG_TYPES.get(col, 'varchar')}"


_PG_SUBMIT = (
    "WITH g AS (UPDATE events SET game = %(game)s::varchar WHERE id = %(event_id)s::varchar "
    "AND game IS NULL AND NOT mixed AND %(game)s::varchar IS NOT NULL RETURNING id), "
    "ok AS (SELECT 1 FROM events WHERE id = %(event_id)s::varchar "
    "AND (mixed OR %(game)s::varchar IS NULL OR game = %(game)s::varchar) UNION ALL SELECT 1 FROM g), "
    f"a AS (INSERT INTO audits ({', '.join(_AUDIT_COLS)}, seq) "
    f"SELECT {', '.join(_pg(c) for c in _AUDIT_COLS)}, n.seq "
    "FROM (SELECT coalesce(max(seq), 0) + 1 AS seq FROM audits WHERE event_id = %(event_id)s::varchar) AS n "
    "WHERE EXISTS (SELECT 1 FROM ok) "
    "ON CONFLICT (event_id, sha256) DO NOTHING RETURNING id, seq), "
    f"r AS (INSERT INTO reports (audit_id, {', '.join(_REPORT_COLS)}) "
    f"SELECT a.id, {', '.join(_pg(c) for c in _REPORT_COLS)} FROM a) "
    "SELECT seq FROM a"
)


def params(row: dict, rep: dict, game: str | None = None) -> dict:
    """The statement's parameters from the audit's row, its report's (JSON columns as text) and
    the game its log names."""
    out = {c: row[c] for c in _AUDIT_COLS}
    out["game"] = game
    for c in _REPORT_COLS:
        out[c] = json.dumps(rep[c]) if c in _JSON_COLS else rep[c]
    return out


def insert_audit(conn: sa.Connection, row: dict, rep: dict, game: str | None = None) -> int | None:
    """Insert the audit and its report: the audit's number, or None when nothing was written (the
    event has these bytes already, it holds another game than ``game``, or it is not there)."""
    dialect = conn.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return _insert_core(conn, row, rep, game)
    p = params(row, rep, game)
    cur = conn.connection.cursor()  # in the transaction conn began
    sql = _PG_SUBMIT if dialect == "postgresql" else _SQLITE_GAME
    try:
        if dialect == "sqlite":
            cur.execute(sql, p)
            sql = _SQLITE_AUDIT
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


def _insert_core(conn: sa.Connection, row: dict, rep: dict, game: str | None) -> int | None:
    """Any other database: the event's game read (and set by a first log), the number read, then
    the inserts (the same bytes already there are the unique constraint's IntegrityError)."""
    ev = conn.execute(sa.select(events.c.game, events.c.mixed).where(events.c.id == row["event_id"])).first()
    if ev is None or not (ev.mixed or game is None or ev.game in (None, game)):
        return None
    if ev.game is None and game is not None and not ev.mixed:
        conn.execute(events.update().where(events.c.id == row["event_id"]).values(game=game))
    seq = conn.execute(_NEXT_SEQ, {"e": row["event_id"]}).scalar_one()
    conn.execute(audits.insert(), {**row, "seq": seq})
    conn.execute(reports.insert(), {"audit_id": row["id"], **rep})
    return seq


def plan_sql(dialect: str) -> str:
    """The audit's insert as the database runs it (for EXPLAIN in the tests)."""
    return _PG_SUBMIT if dialect == "postgresql" else _SQLITE_AUDIT
