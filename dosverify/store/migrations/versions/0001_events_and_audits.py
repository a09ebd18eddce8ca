"""events, audits (the bytes as submitted) and their reports

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("created", sa.String(32), nullable=False),
    )
    op.create_table(
        "audits",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("name", sa.String(1024), nullable=False),
        sa.Column("log", sa.LargeBinary, nullable=False),
        sa.Column("form", sa.String(8), nullable=True),
        sa.Column("submitted", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.UniqueConstraint("event_id", "sha256", name="uq_audits_event_sha256"),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("audit_id", sa.String(32), sa.ForeignKey("audits.id", ondelete="CASCADE"), nullable=False),
        sa.Column("spec_version", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("report", sa.JSON, nullable=False),
        sa.Column("judged", sa.String(32), nullable=False),
        sa.Column("current", sa.Boolean, nullable=False),
    )
    op.create_index("ix_reports_audit", "reports", ["audit_id", "current"])


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("audits")
    op.drop_table("events")
