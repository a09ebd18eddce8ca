"""The draw pile: cards taken from it (drafted, turned up, drawn), draws taken as made, and the
U11 reshuffle (contract, "Draw pile"; S2 RÂNDUL UNUI JUCĂTOR)."""

from __future__ import annotations

from typing import Any

from ..events import Draw
from .judge import Judge
from .state import UNSEEN, Pile

_WHERE = {
    "draft.under": "the draft discards lie at the bottom of the pile, first discarded on top",
    "draft.pick": "a pick takes the pile's top two cards, in the order written",
    "setup.start": "the card turned up is the pile's top",
}


def can_draw(j: Judge) -> bool:
    st = j.st
    return bool(st.pile.slots) or len(st.discards) >= 2


def do_reshuffle(j: Judge, order: list[str] | None = None) -> None:
    """U11: the discards less the top become the draw pile, oldest on top."""
    st = j.st
    cards: list[str | None] = list(order) if order is not None else list(st.discards[:-1])
    loose = len(cards) if order is None and j.opt.get("pile-order") == "shuffled" else 0
    st.pile = Pile(slots=cards, loose=loose, under_rule="draw.top")
    st.discards = st.discards[-1:]


def _unseen_pick(j: Judge, card: str, ev: Any, where: dict[str, Any]) -> None:
    """A pick from a pile nobody has seen (no deck, before the start): cards.unseen without a copy."""
    st = j.st
    if st.pool[card] > 0:
        st.pool[card] -= 1
    else:
        j.report("cards.unseen", f"{card}: no copy of it is left in the draw pile", ev, found=card, **where)


def _reshuffle_first(j: Judge, card: str, ev: Any, where: dict[str, Any]) -> bool:
    """reshuffle.when: a draw from an empty draw pile; the referee makes the U11 reshuffle (True),
    or nothing can be drawn (False: cards.unseen)."""
    st = j.st
    if len(st.discards) >= 2:
        j.report("reshuffle.when", "the draw pile is empty: `reshuffle` comes before this draw", ev, **where)
        do_reshuffle(j)
        return True
    j.report("cards.unseen", f"{card}: the draw pile is empty and nothing can be drawn", ev, found=card, **where)
    return False


def draw_from_pile(
    j: Judge, card: str, ev: Any, field: str, player: str | None, misplaced: str | None, index: int | None = None
) -> None:
    """Take `card` from the draw pile for `ev`: cards.unseen, reshuffle.when, and the rule of a card
    out of its place (`misplaced`, else the pile's: draw.top or draft.under)."""
    st = j.st
    where: dict[str, Any] = {"field": field, "index": index, "player": player}
    if not st.started and not st.has_deck:
        return _unseen_pick(j, card, ev, where)
    if not st.pile.slots and not _reshuffle_first(j, card, ev, where):
        return
    status = st.pile.take(card, st.pool)
    if status == "misplaced":
        rule = misplaced or st.pile.under_rule
        msg = f"{card} is in the draw pile, but not where it lies: {_WHERE.get(rule, 'cards are drawn from the top')}"
        j.report(rule, msg, ev, found=card, **where)
    elif status == "unseen":
        j.report("cards.unseen", f"{card} is not in the draw pile (every copy is elsewhere)", ev, found=card, **where)


def take_cards(j: Judge, q: str, ev: Draw) -> list[str]:
    """The cards of a draw line into q's hand (a bare draw: the top card, where it is known)."""
    st = j.st
    hand = j.hand(q)
    if not ev.cards:
        if not st.pile.slots and len(st.discards) >= 2:
            j.report("reshuffle.when", "the draw pile is empty: `reshuffle` comes before this draw", ev, player=q)
            do_reshuffle(j)
        if not st.pile.slots:
            return []
        if st.pile.known_top() is None:
            j.report("cards.known", "a bare `draw` where the pile's order is unknown: write the card", ev, player=q)
            st.doubt.add(q)
        card = st.pile.take_top()
        hand[card] += 1
        st.calls.pop(q, None)
        return [card]
    for i, card in enumerate(ev.cards):
        draw_from_pile(j, card, ev, "cards", q, None, index=i)
        hand[card] += 1
    st.calls.pop(q, None)
    return list(ev.cards)


def take_as_made(j: Judge, p: str, n: int) -> None:
    """Draws left out (READINGS R3): the pile's top cards (unknown ones put the hand in doubt)."""
    st = j.st
    for _ in range(n):
        if not st.pile.slots:
            if len(st.discards) < 2:
                return
            do_reshuffle(j)
        card = st.pile.take_top()
        if card == UNSEEN:
            st.doubt.add(p)
        j.hand(p)[card] += 1
