"""Ask the rules while playing (issue 33): a table you can ask what may come next, and why a line
may not. One implementation here; each pack supplies its move generator (capability ``moves``).

The shape is python-chess's (``legal_moves``, ``push``/``pop``) and OpenSpiel's (chance outcomes
with probabilities); unlike both, a refused line comes with the findings ``check`` gives for it.
"""

from __future__ import annotations

from .model import IllegalMove, Move, NotAPosition, Verdict

__all__ = ["IllegalMove", "Move", "NotAPosition", "Verdict"]
