"""The draw pile as a reader of a `uno-duo 1` log knows it (section 3, Draw pile), for the small replayer.

A slot is a card where the order is known (a `deck` line, the draft discards under `pile-order
turned`, a reshuffle), or None where it is not (the deck above the discards without a `deck`
line; everything with `hand` lines; a bare reshuffle under `pile-order shuffled`). The pile's
cards as a multiset are always known: the deck less the hands and the discard pile.
"""

from __future__ import annotations

from collections import Counter


class Pile:
    def __init__(self, slots: list[str | None], cards: Counter):
        self.slots = slots  # top first
        self.cards = cards  # every card in the pile

    def __len__(self) -> int:
        return len(self.slots)

    def top_known(self) -> bool:
        return bool(self.slots) and self.slots[0] is not None

    def judge(self, card: str | None) -> str | None:
        """The rule a card drawn now breaks (None: a bare draw), or None when it stands (section 4, `draw`)."""
        if not self.slots:
            return "reshuffle.when"
        slot = self.slots[0]
        if card is None:
            return None if slot is not None else "cards.known"
        if self.cards[card] <= 0:
            return "cards.unseen"
        if slot is not None:
            return None if slot == card else ("draft.under" if self.under(slot) else "draw.top")
        known = sum(1 for s in self.slots if s == card)
        return None if self.cards[card] - known >= 1 else "draft.under"

    def under(self, slot: str) -> bool:
        """Whether the top slot is one of the draft discards read without a deck (set by the replayer)."""
        return self.discards_known > 0 and len(self.slots) <= self.discards_known

    discards_known = 0  # the number of draft-discard slots at the bottom (no deck, `pile-order turned`)

    def take(self, card: str | None) -> str:
        """Draw the top: the card written (a wrong one is taken and the top card takes its place)."""
        slot = self.slots.pop(0)
        got = card if card is not None else slot
        if got is None:
            raise ValueError("a bare draw from an unknown pile")
        if slot is not None and slot != got and got in self.slots:
            self.slots[self.slots.index(got)] = slot  # DOS's habit: the top card takes its place
        if self.cards[got] > 0:
            self.cards[got] -= 1
        return got
