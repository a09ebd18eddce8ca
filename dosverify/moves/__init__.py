"""Ask the rules while playing (issue 33): a table you can ask what may come next, and why a line
may not. One implementation here; each pack supplies its move generator (capability ``moves``).

The shape is python-chess's (``legal_moves``, ``push``/``pop``) and OpenSpiel's (chance outcomes
with probabilities); unlike both, a refused line comes with the findings ``check`` gives for it.
``from_log`` and ``new`` build a :class:`~dosverify.moves.table.Table` (docs/moves.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import IllegalMove, ListingError, MalformedLog, Move, NoMoves, NotAPosition, Prefix, Verdict

if TYPE_CHECKING:
    from .table import Table

__all__ = [
    "IllegalMove",
    "ListingError",
    "MalformedLog",
    "Move",
    "NoMoves",
    "NotAPosition",
    "Prefix",
    "Table",
    "Verdict",
    "from_log",
    "new",
]


def from_log(source, after: int | None = None, **kw) -> Table:
    """The table at the position after the first `after` lines of a log (Table.from_log)."""
    from .table import Table

    return Table.from_log(source, after, **kw)


def new(game: str, players: list[str], **kw) -> Table:
    """A fresh seeded game (Table.new)."""
    from .table import Table

    return Table.new(game, players, **kw)


def __getattr__(name: str):
    if name == "Table":
        from .table import Table

        return Table
    raise AttributeError(name)
