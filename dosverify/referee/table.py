"""The state of the table: the draw pile, the Center Row, the discard pile and the hands.

State changes here only; the referee's checks read it and name the rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import composition

UNKNOWN = "?"  # a card the log did not name (a bare draw without a known pile)


@dataclass(slots=True, eq=False)
class CenterCard:
    """One card of the Center Row (identity matters: two R3s are two cards)."""

    base: str
    refilled: bool = False  # refilled this turn: cannot be matched (match.refilled)
    src: str | None = None  # for a card the log left out (base UNKNOWN): the hand it came from, None for the pile


@dataclass
class Table:
    players: list[str]
    hands: dict[str, Counter] = field(default_factory=dict)
    center: list[CenterCard] = field(default_factory=list)
    discard: Counter = field(default_factory=Counter)
    pending: list = field(default_factory=list)  # this turn's matched cards, not yet discarded
    pile: Counter = field(default_factory=Counter)  # what the draw pile holds, as a multiset
    pile_size: int = 0
    pile_order: list[str] | None = None  # known order, top LAST; None when unknown
    from_hidden: bool = False  # the last card taken out of a hand was an UNKNOWN one (a `?`)

    # ---- set-up -------------------------------------------------------------------------

    def start_round(self) -> None:
        self.hands = {p: Counter() for p in self.players}
        self.center = []
        self.discard = Counter()
        self.pending = []
        self.pile = composition().copy()
        self.pile_size = sum(self.pile.values())
        self.pile_order = None

    def hand_size(self, p: str) -> int:
        """The cards p holds: a card of p's hand that went into the Center Row unnamed (a line left
        out, R27, R42) has left the hand, though which card it was is not known yet."""
        gone = sum(1 for c in self.center if c.src == p and c.base == UNKNOWN)
        return max(0, sum(self.hands[p].values()) - gone)

    def where(self, base: str) -> str:
        """Say where the copies of a card are, for messages."""
        parts = [f"{p}'s hand ({n})" for p, h in self.hands.items() if (n := h.get(base, 0))]
        if n := sum(1 for c in self.center if c.base == base):
            parts.append(f"the Center Row ({n})")
        if n := self.discard.get(base, 0):
            parts.append(f"the discard pile ({n})")
        if n := self.pending.count(base):
            parts.append(f"this turn's matches ({n})")
        return ", ".join(parts) or "nowhere seen"

    # ---- the draw pile --------------------------------------------------------------------

    def top(self) -> str | None:
        return self.pile_order[-1] if self.pile_order else None

    def take(self, base: str | None) -> tuple[str, str | None]:
        """Take a card from the pile; `base` None takes the top of a known pile.

        Returns (card taken, problem) where problem is None, "top" (not the top card
        of a known pile: the two are swapped in the pile, so later draws line up again),
        "unseen" (no such card left in the pile: taken anyway) or "unknown" (a bare draw
        from a pile of unknown order).
        """
        problem = None
        if base is None:
            if self.pile_order:
                base = self.pile_order.pop()
                self.pile[base] -= 1
                self.pile_size -= 1
                return base, None
            self.pile_size = max(0, self.pile_size - 1)
            return UNKNOWN, "unknown"
        if self.pile.get(base, 0) <= 0:
            problem = "unseen"
            if self.pile_order is not None and self.pile_order:
                # the log drew a card the pile does not hold: the top card is what left the pile
                self.pile[self.pile_order.pop()] -= 1
            self.pile_size = max(0, self.pile_size - 1)
            return base, problem
        if self.pile_order is not None:
            top = self.pile_order[-1] if self.pile_order else None
            if top != base:
                problem = "top"
                idx = len(self.pile_order) - 1 - self.pile_order[::-1].index(base)
                self.pile_order[idx] = top
            self.pile_order.pop()
        self.pile[base] -= 1
        self.pile_size -= 1
        return base, problem

    def remove_from_pile(self, base: str) -> None:
        """A card of the pile turns out to have left it unseen (drawn by a line the log left out)."""
        if self.pile.get(base, 0) > 0:
            self.pile[base] -= 1
            if self.pile_order is not None and base in self.pile_order:
                self.pile_order.remove(base)

    def take_owed(self, n: int) -> list[str]:
        """n cards a draw or refill the log left out took: the top of a known pile, else unknown cards."""
        got = []
        for _ in range(n):
            if self.pile_size <= 0:
                break
            got.append(self.take(None)[0])
        return got

    def reshuffle(self, order: list[str] | None) -> None:
        """The discard pile becomes the draw pile (V5); `order` top first, when known."""
        self.pile = self.discard
        self.pile_size = sum(self.discard.values())
        self.discard = Counter()
        self.pile_order = list(reversed(order)) if order is not None else None

    def flush_pending(self) -> None:
        """End-of-turn step 1: the matched cards go to the discard pile."""
        if self.pending:
            self.discard.update(self.pending)  # counts a list in C
            self.pending.clear()

    # ---- hands ------------------------------------------------------------------------------

    def remove_from_hand(self, p: str, base: str) -> bool:
        """Take a card out of p's hand; a card not held is taken from the unseen cards
        (or an unknown card of the hand) so that the state stays whole. False when not held."""
        hand = self.hands[p]
        self.from_hidden = False
        if hand.get(base, 0) > 0:
            hand[base] -= 1
            if not hand[base]:
                del hand[base]
            return True
        if hand.get(UNKNOWN, 0) > 0:  # a card the log never named may be this one
            self.from_hidden = True
            hand[UNKNOWN] -= 1
            if not hand[UNKNOWN]:
                del hand[UNKNOWN]
            return True
        if self.pile.get(base, 0) > 0:
            self.pile[base] -= 1
            self.pile_size = max(0, self.pile_size - 1)
            if self.pile_order is not None and base in self.pile_order:
                self.pile_order.remove(base)
        return False
