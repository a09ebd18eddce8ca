"""The store's tables (SQLAlchemy Core), as the latest migration leaves them.

The migrations (``migrations/versions``) are the truth of the schema; this module describes the
same tables for the queries. Times are ISO 8601 strings in UTC (``2026-12-01T10:00:00.123456Z``):
they sort as they read and come back exactly from SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),  # unguessable (secrets.token_urlsafe)
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("created", sa.String(32), nullable=False),
    # the one game its logs are of (set by its first log that names a game), unless `mixed`:
    # an event created to hold several games, shown one table per game (migration 0004)
    sa.Column("game", sa.String(64), nullable=True),
    sa.Column("mixed", sa.Boolean, nullable=False, server_default=sa.false()),
)

audits = sa.Table(
    "audits",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("sha256", sa.String(64), nullable=False),
    sa.Column("name", sa.String(1024), nullable=False),
    sa.Column("log", sa.LargeBinary, nullable=False),  # the bytes exactly as submitted
    sa.Column("form", sa.String(8), nullable=True),  # "text" / "json" as declared, None: sniffed
    sa.Column("submitted", sa.String(32), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),  # order of submission within the event
    sa.UniqueConstraint("event_id", "sha256", name="uq_audits_event_sha256"),
    sa.Index("ix_audits_event_seq", "event_id", "seq"),  # max(seq) + 1 of a submission (migration 0003)
)

reports = sa.Table(
    "reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("audit_id", sa.String(32), sa.ForeignKey("audits.id", ondelete="CASCADE"), nullable=False),
    sa.Column("spec_version", sa.String(64), nullable=False),
    sa.Column("ruleset", sa.String(64), nullable=True),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("verdict", sa.String(16), nullable=False),
    sa.Column("report", sa.JSON, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),  # GameResult as a dict; None for a malformed log
    sa.Column("judged", sa.String(32), nullable=False),
    sa.Column("current", sa.Boolean, nullable=False),
    sa.Index("ix_reports_audit", "audit_id", "current"),
)

aliases = sa.Table(
    "aliases",
    metadata,
    sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("alias", sa.String(64), primary_key=True),
    sa.Column("player", sa.String(64), nullable=False),
)
