"""an index of the audits by event and order of submission

Revision ID: 0003
Revises: 0002

Each submission numbers its audit with ``max(seq) + 1`` of its event: without this index the
database read every audit of the event (their logs with them) to find it, a submission's cost
growing with the event (bench/store.py: 0.5 ms at 0 audits, 150 ms at 3,000 on SQLite). With
it, the maximum is one index lookup, and the event's games are listed in order from it.
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_audits_event_seq", "audits", ["event_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_audits_event_seq", table_name="audits")
