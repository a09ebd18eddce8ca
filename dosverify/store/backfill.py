"""What the migrations leave to the store to fill in, from the logs kept, when it opens: a
migration changes the schema alone, and what these need (judging a log, reading the game it
names) is the package's code, not the migration's.

- results (schema 0002): reports judged before results were kept get theirs;
- games (schema 0004): events kept before each event had its game get it, or are mixed.
"""

from __future__ import annotations

import sqlalchemy as sa

from .judge import judge, log_game
from .schema import audits, events, reports


def results(conn: sa.Connection) -> int:
    """Reports judged before results were kept (schema 0001) get theirs from the bytes kept."""
    q = (
        sa.select(reports.c.id, audits.c.log, audits.c.name, audits.c.form)
        .join(audits, audits.c.id == reports.c.audit_id)
        .where(reports.c.result.is_(None), reports.c.verdict != "malformed")
    )
    rows = conn.execute(q).all()
    for rid, data, name, form in rows:
        got = judge(bytes(data), name, form).result
        if got is not None:
            conn.execute(reports.update().where(reports.c.id == rid).values(result=got))
    return len(rows)


def games(conn: sa.Connection) -> int:
    """Events kept before each event had its game (schema 0003) get it from their logs: the game
    they name, or mixed when they name several (such an event is shown one table per game, and
    takes logs of either game, as it did: never refused). Only events with no game yet are read,
    and only the head of each log, where its game is named."""
    head = sa.func.substr(audits.c.log, 1, 4096)
    todo = sa.select(events.c.id).where(events.c.game.is_(None), events.c.mixed.is_(False))
    named: dict[str, set[str]] = {}
    for event_id, data in conn.execute(sa.select(audits.c.event_id, head).where(audits.c.event_id.in_(todo))):
        game = log_game(bytes(data))
        named.setdefault(event_id, set()).update([game] if game else [])
    for event_id, held in named.items():
        if held:
            values = {"mixed": True} if len(held) > 1 else {"game": next(iter(held))}
            conn.execute(events.update().where(events.c.id == event_id).values(**values))
    return len(named)
