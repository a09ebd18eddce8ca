"""each event's game, or its being mixed (logs of several games, one table per game)

Revision ID: 0004
Revises: 0003

An event holds the logs of one game unless it was created mixed: ``game`` is the game of its
first log that names one (set by that submission), ``mixed`` says the organiser let it hold
several. An event of 0003 has neither: the upgrade leaves ``game`` NULL and ``mixed`` false, and
the store fills them in when it next opens (dosverify.store.backfill.games) from the
logs kept: an event whose logs already name two games becomes mixed, never refused.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE ... ADD COLUMN, never a batch copy: on SQLite that copies the table, drops the
    # old one and renames the copy, and dropping `events` deletes every audit by its ON DELETE
    # CASCADE (the foreign keys are on). SQLite adds a NOT NULL column with a constant default.
    op.add_column("events", sa.Column("game", sa.String(64), nullable=True))
    op.add_column("events", sa.Column("mixed", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("events", "mixed")
    op.drop_column("events", "game")
