"""The values the move API hands out: a move, a verdict on a tried line, its errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..findings import Finding
    from ..report import Report

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

    def to_dict(self) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
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


@dataclass
class Prefix:
    """``check``'s verdict and findings for the lines a table was built from, less the steps a
    prefix ending inside a turn still owes (they are owed, not missing)."""

    verdict: str
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "findings": [f.to_dict() for f in self.findings]}


class NoMoves(ValueError):
    """A game whose pack has no move generator (capability ``moves``): a usage error naming it."""


class MalformedLog(ValueError):
    """The lines a table is built from cannot be read (exit 2, HTTP 422): carries ``check``'s report."""

    def __init__(self, report: Report) -> None:
        first = next((f for f in report.findings if f.severity == "error"), None)
        why = f"line {first.line}: {first.message}" if first and first.line else (first.message if first else "")
        super().__init__(f"the log cannot be read{': ' + why if why else ''}")
        self.report = report


class ListingError(AssertionError):
    """``legal_moves(checked=True)``: a listed line the referee refuses (the generator and the
    referee disagree: a bug in the pack's move generator)."""

    def __init__(self, move: Move, verdict: Verdict) -> None:
        why = "; ".join(f"{f.rule}: {f.message}" for f in verdict.findings) or "not listed as its canonical form"
        super().__init__(f"listed `{move.line}` is refused by the referee: {why}")
        self.move, self.verdict = move, verdict
