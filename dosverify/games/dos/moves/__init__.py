"""DOS's move generator for the move API (issue 33): what may come next at any position of a game,
and a table to play on (``dosverify.moves.protocol``: ``PackMoves``, ``PackPosition``).

The parts: :mod:`.state` (the table kept), :mod:`.apply` (a line's change), :mod:`.matchgen` (every
match, one per state it leaves), :mod:`.listing` (what is legal, rule by rule), :mod:`.lines` (a
written line as its move), :mod:`.position` (the position), :mod:`.fromlog` (a log's prefix, a new game).
"""

from __future__ import annotations

from .listing import FaceDownView
from .position import DosPosition

__all__ = ["DosMoves", "DosPosition", "FaceDownView"]


class DosMoves:
    """``GamePack.moves()`` for DOS."""

    def from_log(self, source, form, after, ruleset, options) -> tuple[DosPosition, int]:
        from .fromlog import from_log

        return from_log(source, form, after, ruleset, options or {})

    def from_judged(self, source, after, ruleset, options, judge):
        """The optional hook of ``PackMoves``: the position and the referee's report, read once."""
        from .fromlog import judged_position

        return judged_position(source, after, ruleset, options or {}, judge)

    def new(self, players: list[str], ruleset: str, options: dict[str, str], seed: int) -> DosPosition:
        from .fromlog import new_game

        return new_game(players, ruleset, options or {}, seed)
