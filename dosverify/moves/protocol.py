"""What a pack supplies for the move API (capability ``moves``): a position that lists and plays.

The core's table (``dosverify.moves.table``) owns the history (``pop``), the log so far, the
prefix's verdict and every judgement (the referee through ``check``); a pack's position only
lists what may come next and plays a listed move fast, which is what self-play needs.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .model import Move

if TYPE_CHECKING:
    from ..findings import Finding


@runtime_checkable
class PackPosition(Protocol):
    """A game's state between two lines, as its move generator keeps it."""

    def legal_moves(self) -> list[Move]:
        """Every line that may come next (docs/moves.md, "What is listed"), canonical, sorted."""
        ...

    def to_move(self) -> str:
        """The player on turn, or ``chance``, or ``table``."""
        ...

    def push(self, move: Move) -> None:
        """Play a listed move (no judgement: the listing is held equal to the referee by tests)."""
        ...

    def canonical(self, line: str) -> str | None:
        """The move a written line is (canonical form), or None when it reads as none."""
        ...

    def copy(self) -> PackPosition: ...

    def key(self) -> Hashable:
        """Equal exactly when two positions are the same state (table equality)."""
        ...

    def lines(self) -> list[str]:
        """The event lines so far, header included, as a log ``check`` reads."""
        ...

    def observation(self, seat: str) -> Any:
        """What ``seat`` may see (DOS: the seat view log; UNO Duo: a structured dict)."""
        ...

    def round_over(self) -> bool: ...

    def game_over(self) -> bool: ...

    def scores(self) -> dict[str, int]:
        """Each player's total so far."""
        ...

    def owed(self, findings: list[Finding]) -> list[Finding]:
        """Of a prefix's findings, those that are steps it still owes beyond the ones the core
        drops itself (any placed after the prefix's last line); [] when there are none."""
        ...

    def deferred(self, line: str) -> list[Finding]:
        """For a line not listed that ``check`` finds no error in at its own line (the referee says so
        only once a later line arrives: READINGS R9 and kin), the finding it will earn; else []."""
        ...


#: A position may also have ``owed(findings) -> list[Finding]``: of ``check``'s findings for the
#: lines it was built from, those that are steps a prefix ending inside a turn still owes (left out
#: of the prefix's findings: owed, not missing). Optional: without it every finding counts.
OPTIONAL_HOOKS = ("owed",)

#: A pack's ``PackMoves`` may also have ``from_judged(source, after, ruleset, options, judge)``: a
#: text log's position read once, with the referee: ``judge(end)`` is ``check``'s report on the
#: first ``end`` lines read whole (the table's verdict on them), and the position is seeded from the
#: log that report's referee read; it returns ``(position, end, report)``, or None for ``from_log``
#: to read it instead. Optional: it spares ``moves --after`` a second reading of the prefix.
OPTIONAL_MOVES_HOOKS = ("from_judged",)


class PackMoves(Protocol):
    """A pack's entry to the move API: ``GamePack.moves()`` returns one."""

    def from_log(
        self,
        source: str | bytes | dict[str, Any],
        form: str | None,
        after: int | None,
        ruleset: str | None,
        options: dict[str, str],
    ) -> tuple[PackPosition, int]:
        """The position after the first ``after`` physical lines of a text log (a JSON log: its first
        ``after`` event objects), all of it when None; and the line (or event index) it ends at.
        Raises NotAPosition naming the valid range."""
        ...

    def new(self, players: list[str], ruleset: str, options: dict[str, str], seed: int) -> PackPosition:
        """A fresh game, its decks fixed by ``seed`` (no global random state)."""
        ...
