"""What every part of the referee is given, and the table saying which check enforces which rule.

A part (setup, plays, draws, calls, steps, scoring, face-down cards, engine departures, turns, names)
holds no state of its own: it is handed the :class:`~.state.RefereeState` it reads and changes, the
:class:`~.reporter.Reporter` it reports through, and the other parts it asks (`parts`), so that what it
depends on is written where it is built (:class:`~dosverify.games.dos.referee.Referee`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from .reporter import Reporter
from .state import RefereeState

if TYPE_CHECKING:
    from .calls import Calls
    from .draws import Draws
    from .engine import Engine
    from .facedown import FaceDown
    from .names import Names
    from .plays import Plays
    from .rounds import Rounds
    from .scoring import Scoring
    from .setup import Setup
    from .steps import Steps
    from .turns import Turns

F = TypeVar("F", bound=Callable)

# rule id -> the checks that enforce it ("module.Class.method"), filled by @enforces as the parts are imported
ENFORCED: dict[str, list[str]] = {}


def enforces(*rule_ids: str) -> Callable[[F], F]:
    """Mark a check with the ids of the rules it reports (a test holds each `report` call to them), so
    that "where is match.double enforced" is `ENFORCED["match.double"]`, or a search for its id."""

    def mark(check: F) -> F:
        name = f"{check.__module__.rsplit('.', 1)[-1]}.{check.__qualname__}"
        for rule_id in rule_ids:
            ENFORCED.setdefault(rule_id, []).append(name)
        check.enforces = rule_ids  # type: ignore[attr-defined]
        return check

    return mark


class Parts:
    """The referee's parts, by name: each part reaches the others through this one object."""

    setup: Setup
    plays: Plays
    draws: Draws
    calls: Calls
    steps: Steps
    scoring: Scoring
    facedown: FaceDown
    engine: Engine
    turns: Turns
    names: Names
    rounds: Rounds


class Part:
    """One part of the rules: the state it works on, the reporter, and the other parts."""

    __slots__ = ("s", "r", "parts")

    def __init__(self, state: RefereeState, reporter: Reporter, parts: Parts) -> None:
        self.s = state
        self.r = reporter
        self.parts = parts
