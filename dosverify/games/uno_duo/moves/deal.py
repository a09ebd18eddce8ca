"""A round's set-up dealt from a seed (the chance move ``deal``): the deck shuffled, the 14 picks,
the card turned up, written as `round`, `drafter`, `deck`, `draft` and `start` lines so that
``check`` knows the pile (contract, "Set-up"; U2, U3, U4, U11, U17).

Each round's deck comes from ``random.Random`` seeded by the game's seed and the round's number,
never from global state, so a seeded game deals the same rounds whatever was played before."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..cards import COLOURS, full_deck, parse_card
from ..referee.setup import turned_up
from .state import Pile, RoundState

if TYPE_CHECKING:
    from .state import GameState


def deal(pos: GameState, number: int) -> None:
    """Round `number`: its drafter (round 1: the first player; then the roles swap, setup.drafter),
    the picks (draft.order, draft.pick) and the turned-up card with what the first turn faces."""
    rng = pos.rng_for(f"deal{number}")
    prev = pos.st.drafter if pos.st is not None else None
    drafter = pos.players[0] if prev is None else pos.other(prev)
    second = pos.other(drafter)
    deck = full_deck(pos.opts.get("deck", "112"))
    rng.shuffle(deck)
    hands: dict[str, Counter] = {p: Counter() for p in pos.players}
    lines = [f"round {number}", f"drafter {drafter}", "deck " + " ".join(deck)]
    pile, discards = list(deck), []
    for i in range(14):
        p = drafter if i % 2 == 0 else second
        a, b = pile[0], pile[1]
        del pile[:2]
        if rng.random() < 0.5:
            hands[p][a] += 1
            discards.append(b)
            lines.append(f"draft {p} keep {a} discard {b}")
        else:
            hands[p][b] += 1
            discards.append(a)
            lines.append(f"draft {p} discard {a} keep {b}")
    loose = len(discards) if pos.opts.get("pile-order") == "shuffled" else 0
    start = pile.pop(0)
    st = RoundState(number, drafter, hands, Pile(list[str | None]([*pile, *discards]), loose), Counter(), [start])
    card = start if start[0] != "W" else f"{start}={rng.choice(COLOURS)}"  # P1 names the colour
    lines.append(f"start {card}")
    _turned_up(st, parse_card(card), drafter, second)
    pos.st, pos.number = st, number
    pos.body += lines


def _turned_up(st: RoundState, card, drafter: str, second: str) -> None:
    """What the first turn faces: the top card, then as the referee's setup reads it (turned_up)."""
    st.top_colour, st.top_rank = card.colour, card.rank
    turned_up(st, card, drafter, second)
