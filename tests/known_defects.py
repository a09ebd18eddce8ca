"""Referee defects of issue 8 (items 1-9) that another branch fixes: which generated games and
renderings meet them, so that the properties over generated games can tell a known defect from a
new one.

A failure is put down to an item only when the game (the simulator's `moments`) or the rendering
(`Rendering.did`) did what the item is about and the first finding has one of the rules that item
gets wrong; anything else fails the property. Remove an entry once its item is fixed in `main`
(the tests then pass without it, or name what is left).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Known:
    item: str
    exposed: Callable  # (sim, rendering or None) -> bool
    rules: frozenset


def _moment(*names: str) -> Callable:
    return lambda sim, r: any(sim.moments[n] for n in names)


KNOWN = (
    Known("issue 8 item 2 (a required reshuffle before or inside an at-once penalty)",
          _moment("reshuffle before penalty-now", "reshuffle inside penalty-now", "reshuffle inside penalty-step"),
          frozenset({"dos.penalty", "bonus.draw", "draw.reason"})),
    Known("issue 8 item 3 (an at-once penalty the piles cannot pay)",
          _moment("catch with the pile at 0", "catch with the pile at 1", "penalty at the step with the pile at 0",
                  "penalty at the step with the pile at 1", "both piles empty"),
          frozenset({"dos.penalty"})),
    Known("issue 8 item 7 (a mid-turn reshuffle takes this turn's matched cards)",
          _moment("reshuffle before this turn's matched cards are discarded"),
          frozenset({"reshuffle.cards", "cards.unseen", "center.refill", "draw.top", "dos.penalty", "reshuffle.when",
                     "draw.reason", "bonus.draw"})),
)


def known_item(sim, rendering, report) -> str | None:
    """The known item that explains why `report` (of a legal game) is not legal, or None."""
    first = next((f for f in report.findings if f.severity == "error"), None)
    if first is None:
        return None
    for k in KNOWN:
        if first.rule in k.rules and k.exposed(sim, rendering):
            return k.item
    return None
