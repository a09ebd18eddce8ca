"""The values the move API hands out: a move, a verdict on a tried line, its errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..findings import Finding

#: ``Move.actor`` for a line nobody chooses: a card off a pile (``chance``), or the table's own
#: bookkeeping (``table``: ``turn P``, ``score``, ``totals``, ``winner``, ``round N``).
CHANCE = "chance"
TABLE = "table"


@dataclass(frozen=True)
class Move:
    """One line that may come next, in canonical form (docs/moves.md).

    ``kind`` is the line's keyword (``match``, ``place``, ``draw``, ``catch``, ``turn``, ...);
    ``probability`` is set for chance moves only (an unseen card's share of the unseen cards)."""

    line: str
    actor: str  # a player's name, CHANCE or TABLE
    kind: str
    chance: bool = False
    probability: float | None = None

    def to_dict(self) -> dict:
        return {
            "line": self.line,
            "actor": self.actor,
            "kind": self.kind,
            "chance": self.chance,
            "probability": self.probability,
        }


@dataclass
class Verdict:
    """What the referee says of one line tried at a position: ``legal`` exactly when ``canonical``
    is a listed move; ``findings`` are ``check``'s at that line (``deferred`` when the referee would
    only say so once a later line arrives, READINGS R9 and its kin)."""

    line: str
    canonical: str | None
    legal: bool
    findings: list[Finding] = field(default_factory=list)
    deferred: bool = False

    def to_dict(self) -> dict:
        return {
            "line": self.line,
            "canonical": self.canonical,
            "legal": self.legal,
            "findings": [{**f.to_dict(), "deferred": self.deferred} for f in self.findings],
        }


class IllegalMove(ValueError):
    """``play`` of a line the rules refuse; carries the verdict with its findings."""

    def __init__(self, verdict: Verdict) -> None:
        first = verdict.findings[0] if verdict.findings else None
        why = f"{first.rule}: {first.message}" if first else "not a legal move here"
        super().__init__(f"illegal move `{verdict.line}`: {why}")
        self.verdict = verdict


class NotAPosition(ValueError):
    """``--after N`` names no position (before the header is complete, inside a round's set-up,
    past the end): a usage error naming the valid range (exit 2, HTTP 422)."""

    def __init__(self, message: str, valid: list[tuple[int, int]] | None = None) -> None:
        super().__init__(message)
        self.valid = valid or []
