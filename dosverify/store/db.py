"""The store: events, audits and their reports in a SQL database (SQLAlchemy 2, Alembic).

Every write is one transaction. The same bytes sent to the same event are the same audit: the
unique constraint on (event, SHA-256) decides it, so that concurrent submissions of one log make
one row whichever commits first (the other finds it and answers with it). A database that cannot
be reached is :class:`StoreUnavailable` (the service's 503), never a crash.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from . import backfill
from .insert import insert_audit
from .judge import Judged, judge
from .schema import aliases, audits, events, reports

DB_FILE = "events.db"
MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0004"


class NotFound(LookupError):
    """No event or audit with that id (or name)."""


class EventExists(ValueError):
    """An event of that name is there already."""


class OtherGame(ValueError):
    """A log of another game than the event's, which is not mixed (the service's 422)."""


class AuditExists(ValueError):
    """An imported audit's id is taken."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached (down, restarting, locked past the timeout)."""


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def readable(stamp: str | None) -> str:
    """A stored time for people: `2026-12-01 10:00:00 UTC` (no microseconds; the zone said)."""
    if not stamp:
        return "-"
    return stamp.replace("T", " ").split(".")[0].rstrip("Z") + " UTC"


def where(url: str) -> str:
    """The store a URL names, for messages: SQLite's file, else the URL with its password masked."""
    try:
        u = sa.engine.make_url(url)
    except sa_exc.ArgumentError:  # not a URL: said without what may be a password in it
        return url.split("://", 1)[0] + "://..." if "@" in url else url
    if u.get_backend_name() == "sqlite":
        return u.database or ":memory:"
    return u.render_as_string(hide_password=True)


def new_id() -> str:
    """An unguessable id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def database_url(data: str | os.PathLike | None = None, url: str | None = None) -> str:
    """The URL given (or DOSVERIFY_DATABASE_URL), else SQLite in the data folder (``data`` or
    DOSVERIFY_DATA, else ./dosverify-data). A bare ``postgresql://`` URL means psycopg 3."""
    url = url or os.environ.get("DOSVERIFY_DATABASE_URL") or None
    if url:
        if url.startswith("postgresql://") or url.startswith("postgres://"):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        return url
    folder = Path(data or os.environ.get("DOSVERIFY_DATA") or "dosverify-data")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(folder / DB_FILE).resolve()}"


def check_url(url: str) -> None:
    """ValueError, in one line, for a URL SQLAlchemy cannot use (a typo, a driver not installed)."""
    try:
        sa.engine.make_url(database_url(url=url)).get_dialect().import_dbapi()
    except (sa_exc.ArgumentError, ImportError) as exc:
        raise ValueError(f"`{url}` is not a database URL dosverify can use: {exc}") from exc


def sqlite_sync() -> str:
    """SQLite's `synchronous` setting: FULL unless DOSVERIFY_SQLITE_SYNC says normal (see make_engine)."""
    raw = os.environ.get("DOSVERIFY_SQLITE_SYNC", "full").strip().lower() or "full"
    if raw not in ("full", "normal"):
        raise ValueError(f"DOSVERIFY_SQLITE_SYNC must be `full` or `normal`, not `{raw}`")
    return raw.upper()


def make_engine(url: str) -> sa.Engine:
    """An engine with the store's settings: SQLite in WAL mode, every write taking the write lock
    at once (BEGIN IMMEDIATE: concurrent writers queue on the busy timeout instead of failing;
    reads stay deferred, never waiting for a writer in WAL mode); other databases with
    connections checked before use after a second idle (a restarted server is reconnected to).

    SQLite's sync is FULL by default: a commit is on the disk before the client is answered, so an
    audit acknowledged is never lost, not even to the machine losing power (PostgreSQL's default,
    synchronous_commit=on, promises the same). `DOSVERIFY_SQLITE_SYNC=normal` trades that for
    speed: in WAL mode a commit is then flushed at the next checkpoint, not at once; the process
    killed loses nothing and the database is never corrupted (tests/core/test_store_kill.py), but
    a power loss or kernel crash may roll back the last commits, each whole. FULL costs 7 to 9 ms
    of wall time per submission here (the flush, with the write lock held)."""
    if url.startswith("sqlite"):
        sync = sqlite_sync()
        engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, pool_size=16)

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:
            dbapi_conn.isolation_level = None  # the driver leaves transactions to us (BEGIN below)
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")  # the docstring says what each costs
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn) -> None:
            write = conn.get_execution_options().get("store_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    engine = sa.create_engine(url, pool_size=16, max_overflow=8, pool_timeout=10)
    _ping_when_idle(engine)
    return engine


IDLE_PING_SECONDS = 1.0


def _ping_when_idle(engine: sa.Engine) -> None:
    """Check a connection before use when it has been idle for a second, not at every checkout
    (``pool_pre_ping``): a connection back in use within the second was working a moment ago,
    and under load every checkout was a round trip and a query of the server's for nothing (0.3
    ms of the service's CPU and 0.2 of PostgreSQL's a submission). One that fails the check is
    replaced (SQLAlchemy's DisconnectionError at checkout), so a restarted server is reconnected
    to; one that breaks within the second fails its request as unavailable (503) and is dropped."""

    @sa.event.listens_for(engine, "checkin")
    def _idle(_dbapi_conn, record) -> None:
        record.info["idle_since"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _check(dbapi_conn, record, _proxy) -> None:
        if time.monotonic() - record.info.get("idle_since", 0.0) < IDLE_PING_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_conn)
        except engine.dialect.loaded_dbapi.Error as exc:
            raise sa_exc.DisconnectionError(f"a pooled connection is gone: {exc}") from exc


def migrate(engine: sa.Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with the package's Alembic scripts (PostgreSQL: under an
    advisory lock, so that servers starting together migrate once)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(2114202601)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def revision_of(engine: sa.Engine) -> str | None:
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("alembic_version"):
            return None
        return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()


def open_store(data: str | os.PathLike | None = None, url: str | None = None) -> Store:
    """The store the configuration names, migrated to the latest schema."""
    return Store(database_url(data, url))


def _unavailable(exc: Exception) -> bool:
    """A failure of the database's reachability, not of the request."""
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, (sa_exc.InterfaceError, sa_exc.TimeoutError)):
        return True
    if not isinstance(exc, sa_exc.OperationalError):
        return False
    if exc.orig is not None and type(exc.orig).__module__.startswith("sqlite3"):
        # SQLite's OperationalError is also a wrong query (`no such column`): only these are the file's
        text = str(exc.orig).lower()
        return any(w in text for w in ("unable to open", "locked", "disk", "i/o", "readonly", "busy"))
    return True  # psycopg: a connection that failed or was lost


class Store:
    """Events, audits and reports. Every method is one transaction; an unreachable database is
    :class:`StoreUnavailable`."""

    def __init__(self, url: str, *, migrate_to: str | None = "head") -> None:
        self.url = url
        check_url(url)
        self.engine = make_engine(url)
        self.writer = self.engine.execution_options(store_write=True)
        # a submission's write is one statement on PostgreSQL (dosverify.store.insert): in
        # autocommit it is its own transaction, with no BEGIN and COMMIT round trips of its own
        pg = self.engine.dialect.name == "postgresql"
        self.submitter = self.engine.execution_options(isolation_level="AUTOCOMMIT") if pg else self.writer
        if migrate_to:
            with self._guard():
                migrate(self.writer, migrate_to)
                if migrate_to == "head":
                    self.backfill()

    def close(self) -> None:
        self.engine.dispose()

    def backfill(self) -> None:
        """What the migrations leave to the store: results (0002) and events' games (0004)."""
        with self._tx(write=True) as conn:
            backfill.results(conn)
            backfill.games(conn)

    @property
    def where(self) -> str:
        """Which store this is (a file, or a URL with its password masked), for messages."""
        return where(self.url)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError, sa_exc.DBAPIError) as exc:
            if _unavailable(exc):
                raise StoreUnavailable(f"the database is not available: {getattr(exc, 'orig', None) or exc}") from exc
            raise

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[sa.Connection]:
        with self._guard(), (self.writer if write else self.engine).begin() as conn:
            yield conn

    # ---- events --------------------------------------------------------------------------
    def create_event(self, name: str, *, mixed: bool = False) -> dict:
        """A new event: of one game (its first log's) unless ``mixed``, which holds several."""
        name = name.strip()
        if not name:
            raise ValueError("an event needs a name")
        row = {"id": new_id(), "name": name, "created": now(), "game": None, "mixed": bool(mixed)}
        try:
            with self._tx(write=True) as conn:
                conn.execute(events.insert().values(**row))
        except sa_exc.IntegrityError as exc:
            raise EventExists(f"there is already an event named `{name}`") from exc
        return row

    def event(self, ref: str) -> dict:
        """The event whose id, else whose name, is ``ref``."""
        with self._tx() as conn:
            row = conn.execute(sa.select(events).where(events.c.id == ref)).mappings().first()
            if row is None:
                row = conn.execute(sa.select(events).where(events.c.name == ref)).mappings().first()
            if row is None:
                raise NotFound(f"no event `{ref}`")
            out = dict(row)
            out["games"] = conn.execute(
                sa.select(sa.func.count()).select_from(audits).where(audits.c.event_id == out["id"])
            ).scalar_one()
            out["aliases"] = self._aliases(conn, out["id"])
        return out

    def list_events(self) -> list[dict]:
        games = sa.select(audits.c.event_id, sa.func.count().label("games")).group_by(audits.c.event_id).subquery("g")
        q = (
            sa.select(events, sa.func.coalesce(games.c.games, 0).label("games"))
            .outerjoin(games, games.c.event_id == events.c.id)
            .order_by(events.c.created)
        )
        with self._tx() as conn:
            return [dict(r) for r in conn.execute(q).mappings()]

    def merge_alias(self, event_id: str, alias: str, player: str) -> None:
        """Count ``alias`` (a name as written in some logs) as ``player`` in the event's standings."""
        if alias == player:
            raise ValueError("a name cannot be its own alias")
        with self._tx(write=True) as conn:
            known = self._aliases(conn, event_id)
            if known.get(player) == alias:
                raise ValueError(f"`{player}` is already an alias of `{alias}`")
            conn.execute(aliases.delete().where(aliases.c.event_id == event_id, aliases.c.alias == alias))
            conn.execute(aliases.insert().values(event_id=event_id, alias=alias, player=known.get(player, player)))
            # names that were merged into the alias follow it
            conn.execute(
                aliases.update()
                .where(aliases.c.event_id == event_id, aliases.c.player == alias)
                .values(player=known.get(player, player))
            )

    @staticmethod
    def _aliases(conn: sa.Connection, event_id: str) -> dict[str, str]:
        q = sa.select(aliases.c.alias, aliases.c.player).where(aliases.c.event_id == event_id)
        return {a: p for a, p in conn.execute(q)}

    # ---- audits --------------------------------------------------------------------------
    def submit(
        self,
        event_id: str,
        data: bytes,
        name: str | None = None,
        *,
        form: str | None = None,
        judged: Judged | None = None,
    ) -> tuple[dict, bool]:
        """Keep ``data`` as an audit of the event: (the audit, True) when new, (the audit that
        has the same bytes, False) when the event has it already. ``judged`` is the judgement
        made elsewhere (the service's worker pool): the write is then the only trip to the
        database. Without it the log is judged here, after a lookup, so that bytes the event
        has already are not judged again."""
        digest = hashlib.sha256(data).hexdigest()
        if judged is None:
            if (existing := self.lookup(event_id, digest)) is not None:
                return existing, False
            judged = judge(data, name or digest[:12], form)
        stamp = now()
        row: dict[str, Any] = {
            "id": new_id(),
            "event_id": event_id,
            "sha256": digest,
            "name": name or digest[:12],
            "log": data,
            "form": form,
            "submitted": stamp,
        }
        rep = {**_report_row(judged), "judged": stamp, "current": True}
        for _ in range(2):  # again once: a first log of the same game committed at the same time
            try:
                with self._guard(), self.submitter.begin() as conn:
                    # the order of submission (two concurrent PostgreSQL transactions may share a
                    # number: the order is then by time)
                    row["seq"] = insert_audit(conn, row, rep, judged.game)
            except sa_exc.IntegrityError:  # no such event, or (other databases) the same bytes
                row["seq"] = None
            if row["seq"] is not None:
                return _audit_dict(row, [rep], False), True
            existing = self.lookup(event_id, digest)  # NotFound when there is no event
            if existing is not None:  # the same bytes committed first, here or elsewhere
                return existing, False
            ev = self.event(event_id)  # the log was refused: its game is not the event's
            if ev["game"] != judged.game:
                raise OtherGame(other_game(ev, judged.game, row["name"]))
        raise RuntimeError(f"the audit of {digest} was neither written nor found")  # pragma: no cover

    def lookup(self, event_id: str, digest: str) -> dict | None:
        """The event's audit of the bytes whose SHA-256 is ``digest``, or None; NotFound when
        there is no such event. One query, before a log is judged."""
        with self._tx() as conn:
            row = conn.execute(_LOOKUP, {"e": event_id, "h": digest}).mappings().first()
        if row is None:
            raise NotFound(f"no event `{event_id}`")
        if row["id"] is None:
            return None
        return _audit_dict(dict(row), [dict(row)], False)

    def audit(self, audit_id: str, *, history: bool = False) -> dict:
        """An audit with its current report (and, with ``history``, every report it has had)."""
        cols = [audits.c[k] for k in _AUDIT_KEYS]
        with self._tx() as conn:
            row = conn.execute(sa.select(*cols).where(audits.c.id == audit_id)).mappings().first()
            if row is None:
                raise NotFound(f"no audit `{audit_id}`")
            reps = (
                conn.execute(sa.select(reports).where(reports.c.audit_id == audit_id).order_by(reports.c.id))
                .mappings()
                .all()
            )
        return _audit_dict(dict(row), [dict(r) for r in reps], history)

    def log_bytes(self, audit_id: str) -> bytes:
        with self._tx() as conn:
            got = conn.execute(sa.select(audits.c.log).where(audits.c.id == audit_id)).scalar()
        if got is None:
            raise NotFound(f"no audit `{audit_id}`")
        return bytes(got)

    def games(self, event_id: str) -> list[dict]:
        """The event's audits in the order they were submitted, each with its current report."""
        rep_cols = [
            reports.c[k] for k in ("spec_version", "ruleset", "options", "verdict", "report", "result", "judged")
        ]
        q = (
            sa.select(*[audits.c[k] for k in _AUDIT_KEYS], *rep_cols)
            .join(reports, sa.and_(reports.c.audit_id == audits.c.id, reports.c.current.is_(True)))
            .where(audits.c.event_id == event_id)
            .order_by(audits.c.seq, audits.c.submitted)
        )
        with self._tx() as conn:
            rows = conn.execute(q).mappings().all()
        return [_audit_dict(dict(r), [dict(r)], False) for r in rows]

    def results(self, event_id: str) -> list[tuple[str, dict | None]]:
        """(verdict, result) of every audit of the event: all the standings need."""
        q = (
            sa.select(reports.c.verdict, reports.c.result)
            .join(audits, audits.c.id == reports.c.audit_id)
            .where(audits.c.event_id == event_id, reports.c.current.is_(True))
            .order_by(audits.c.seq)
        )
        with self._tx() as conn:
            return [(v, r) for v, r in conn.execute(q)]

    def standings(self, event_id: str, **how: Any) -> list[dict]:
        """The standings' rows in rank order (see :meth:`ranking`)."""
        rows: list[dict] = self.ranking(event_id, **how)["standings"]
        return rows

    def ranking(self, event_id: str, **how: Any) -> dict:
        """The standings with how their points were ranked: each game's rule (standings.ranking)."""
        from .standings import ranking

        with self._tx() as conn:
            names = self._aliases(conn, event_id)
        return ranking(self.results(event_id), aliases=names, **how)

    # ---- recomputing -----------------------------------------------------------------------
    def recompute(self, audit_id: str, judged: Judged | None = None) -> dict:
        """Judge an audit's bytes again (under the spec installed now); the new report becomes
        the current one when it differs in spec version, and every earlier report is kept."""
        audit = self.audit(audit_id)
        data = self.log_bytes(audit_id)
        if judged is None:
            with self._tx() as conn:  # the form as sent (None: sniffed), which the audit's answer leaves out
                form = conn.execute(sa.select(audits.c.form).where(audits.c.id == audit_id)).scalar()
            judged = judge(data, audit["name"], form)
        if judged.spec_version == audit["spec_version"] and judged.report == audit["report"]:
            return audit
        with self._tx(write=True) as conn:
            conn.execute(reports.update().where(reports.c.audit_id == audit_id).values(current=False))
            conn.execute(reports.insert().values(audit_id=audit_id, current=True, judged=now(), **_report_row(judged)))
        return self.audit(audit_id)

    # ---- export and import ---------------------------------------------------------------
    def dump(self, event_id: str) -> tuple[dict, list[tuple[dict, bytes]]]:
        """The event (with its aliases) and each audit with every report and its bytes."""
        event = self.event(event_id)
        out = []
        with self._tx() as conn:
            rows = (
                conn.execute(sa.select(audits).where(audits.c.event_id == event["id"]).order_by(audits.c.seq))
                .mappings()
                .all()
            )
            for row in rows:
                reps = (
                    conn.execute(sa.select(reports).where(reports.c.audit_id == row["id"]).order_by(reports.c.id))
                    .mappings()
                    .all()
                )
                meta = {k: row[k] for k in ("id", "sha256", "name", "form", "submitted", "seq")}
                meta["reports"] = [{k: r[k] for k in _REPORT_KEYS} for r in reps]
                out.append((meta, bytes(row["log"])))
        return event, out

    def load(self, event: dict, items: list[tuple[dict, bytes]]) -> dict:
        """Put back what :meth:`dump` gave (ids, times and reports as they were), in one transaction."""
        try:
            with self._tx(write=True) as conn:
                conn.execute(
                    events.insert().values(
                        id=event["id"],
                        name=event["name"],
                        created=event["created"],
                        game=event.get("game"),
                        mixed=bool(event.get("mixed", False)),
                    )
                )
                for alias, player in event.get("aliases", {}).items():
                    conn.execute(aliases.insert().values(event_id=event["id"], alias=alias, player=player))
                for meta, data in items:
                    if hashlib.sha256(data).hexdigest() != meta["sha256"]:
                        raise ValueError(f"the bytes of `{meta['name']}` do not have the SHA-256 the index gives")
                    row = {k: meta[k] for k in ("id", "sha256", "name", "form", "submitted", "seq")}
                    conn.execute(audits.insert().values(event_id=event["id"], log=data, **row))
                    for rep in meta["reports"]:
                        conn.execute(reports.insert().values(audit_id=meta["id"], **rep))
        except sa_exc.IntegrityError as exc:
            raise EventExists(f"the event `{event['name']}` (or one of its audits) is in this store already") from exc
        if "game" not in event and "mixed" not in event:  # an export of a store before 0004
            with self._tx(write=True) as conn:
                backfill.games(conn)
        return self.event(event["id"])


def other_game(event: dict, game: str | None, name: str) -> str:
    """Why a log was refused: its game and the event's, and how to hold both."""
    return (
        f"`{name}` is {_a(game_title(game))} log, and the event `{event['name']}` holds {game_title(event['game'])} "
        f"logs: an event holds one game unless it is created mixed. Add it to an event of "
        f"{game_title(game)} logs, or create a mixed event for both games (`dosverify event create NAME --mixed`; "
        f'over HTTP, POST /v1/events with {{"name": NAME, "mixed": true}})'
    )


def game_title(game: str | None) -> str:
    """A game's name for people (its pack's title: DOS, UNO Duo), else the name as written."""
    from ..games import UnknownGame, find_game

    if game is None:
        return "unnamed game"
    try:
        return find_game(game).title
    except UnknownGame:
        return game


def _a(title: str) -> str:
    return ("an " if title[:1].upper() in "AEIOU" and not title.startswith("UNO") else "a ") + title


def _report_cols() -> list:
    return [reports.c[k] for k in ("spec_version", "ruleset", "options", "verdict", "report", "result", "judged")]


_AUDIT_KEYS = ("id", "event_id", "sha256", "name", "form", "submitted", "seq")
# the lookup by SHA-256, built once (building it costs more than running it)
_LOOKUP = (
    sa.select(events.c.id.label("event"), *[audits.c[k] for k in _AUDIT_KEYS], *_report_cols())
    .select_from(events)
    .outerjoin(audits, sa.and_(audits.c.event_id == events.c.id, audits.c.sha256 == sa.bindparam("h")))
    .outerjoin(reports, sa.and_(reports.c.audit_id == audits.c.id, reports.c.current.is_(True)))
    .where(events.c.id == sa.bindparam("e"))
)
_REPORT_KEYS = ("spec_version", "ruleset", "options", "verdict", "report", "result", "judged", "current")


def _report_row(j: Judged) -> dict:
    return {
        "spec_version": j.spec_version,
        "ruleset": j.ruleset,
        "options": j.options,
        "verdict": j.verdict,
        "report": j.report,
        "result": j.result,
    }


def _audit_dict(row: dict, reps: list[dict], history: bool) -> dict:
    """An audit as the service answers it: id, event, sha256, name, verdict, report, then what
    it was judged under, when, and the game's result."""
    from ..games import default_game

    cur = next((r for r in reversed(reps) if r.get("current", True)), reps[-1])
    out = {
        "id": row["id"],
        "event": row["event_id"],
        "sha256": row["sha256"],
        "name": row["name"],
        "verdict": cur["verdict"],
        "report": cur["report"],
        "spec_version": cur["spec_version"],
        "ruleset": cur["ruleset"],
        "options": cur["options"],
        "submitted": row["submitted"],
        "judged": cur["judged"],
        "result": cur["result"],
        # the game the report was judged as (a report stored before reports named their game: the default's)
        "game": (cur["result"] or {}).get("game") or (cur["report"] or {}).get("game") or default_game(),
    }
    if history:
        out["reports"] = [{k: r[k] for k in ("spec_version", "verdict", "judged", "report")} for r in reps]
    return out
