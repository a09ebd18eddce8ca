"""each report's game result (for standings) and the event's player aliases

Revision ID: 0002
Revises: 0001

A report judged under 0001 has no result: the upgrade leaves it NULL and the store fills it in
when it next reads the audit (dosverify.store.backfill.results), from the bytes kept.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.add_column(sa.Column("result", sa.JSON, nullable=True))
    op.create_table(
        "aliases",
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("alias", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("aliases")
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("result")
