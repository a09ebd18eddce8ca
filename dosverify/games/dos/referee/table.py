"""The state of the table: the draw pile, the Center Row, the discard pile and the hands.

State changes here only; the referee's checks read it and name the rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..cards import composition

UNKNOWN = "?"  # a card the log did not name (a bare draw without a known pile)


def owed_line(line: str, n: int) -> str:
    """The line a finding expects for n cards owed: `draw bob C C`, `refill C` (`C`: a card not named)."""
    return f"{line} " + " ".join(["C"] * n)


@dataclass(slots=True, eq=False)
class CenterCard:
    """One card of the Center Row (identity matters: two R3s are two cards)."""

    base: str
    refilled: bool = False  # refilled this turn: cannot be matched (match.refilled)
    src: str | None = None  # for a card the log left out (base UNKNOWN): the hand it came from, None for the pile
    maybe_gone: bool = False  # perhaps the card a match naming a card not there covered (R63)
    # its code is only as good as a line nobody could check: "" for a refill from a pile of unknown order
    # (R75), a player's name for the card R64 took as meant in a `place` not held (R76)
    guess: str | None = None
    written: str | None = None  # for R64's card meant: the card the `place` line wrote (R76)
    top_was: str | None = None  # refilled where the known pile's top was this card (draw.top): maybe it (R80)
    top_at: int = -1  # and where in the pile order R2 put that card back
    dealt: bool = False  # a card of a `center` line
    placed_by: str | None = None  # the player whose `place` put it there, held as written (R92)
    in_doubt: bool = False  # maybe another card after an earlier finding: it judges no declined match (R85)
    maybe_was: str | None = None  # the card R75 took as the refill written wrong, which this one may be (R86)


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
    # draws of a card below the top of a known pile (draw.top, reported): (player, card written, top card,
    # the top card's new place in pile_order). Which of the two the player took is in doubt until a later
    # line shows it (R40): the player plays the top card, or a later draw takes the written one
    swaps: list = field(default_factory=list)
    maybe_held: dict = field(default_factory=dict)  # player -> Counter: cards of unowed draws not taken (R41)
    # player -> Counter: cards the referee puts in a hand that may not be there (a wrong match's other fits,
    # the copies of a hand beyond the deck): a card the player lacks is taken out in place of one (R42)
    phantoms: dict = field(default_factory=dict)
    phantom_dealt: dict = field(default_factory=dict)  # of those, copies the deal took out of the pile's count
    swap_at: int = 0  # where the last draw.top put the top card

    # ---- set-up -------------------------------------------------------------------------

    def start_round(self) -> None:
        self.hands = {p: Counter() for p in self.players}
        self.center = []
        self.discard = Counter()
        self.pending = []
        self.pile = composition().copy()
        self.pile_size = sum(self.pile.values())
        self.pile_order = None
        self.swaps = []
        self.maybe_held = {p: Counter() for p in self.players}
        self.phantoms = {p: Counter() for p in self.players}
        self.phantom_dealt = {p: Counter() for p in self.players}

    def row_has_every(self, base: str) -> bool:
        """Whether the Center Row holds every copy of `base` the deck has (R99: a card placed as another
        copy of it is one the log made up, and is not added)."""
        left = composition().get(base)
        if left is None:  # no card of the deck (reported where it was read)
            return False
        for c in self.center:  # a plain loop: once a `place` line
            if c.base == base:
                left -= 1
        return left <= 0

    def hand_size(self, p: str) -> int:
        """The cards p holds: a card of p's hand that went into the Center Row unnamed (a line left
        out, R27, R50) has left the hand, though which card it was is not known yet."""
        held = sum(self.hands[p].values())
        for c in self.center:  # a plain loop: this runs several times a turn, and UNKNOWN is rare
            if c.base == UNKNOWN and c.src == p:
                held -= 1
        return max(0, held)

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
        if self.pile.get(base, 0) <= 0 and self.pile.get(UNKNOWN, 0) > 0 and self.pile_order is None:
            self.pile[UNKNOWN] -= 1  # a card whose identity was in doubt when it was discarded (R42): this one
            self.pile_size -= 1
            return base, None
        if self.pile.get(base, 0) <= 0:
            for q, ph in self.phantoms.items():
                if ph.get(base, 0) > 0 and self.hands[q].get(base, 0) > 0:
                    # a copy the referee put in q's hand (R43) is this card: q's card there is an unknown one
                    ph[base] -= 1
                    self.hands[q][base] -= 1
                    if not self.hands[q][base]:
                        del self.hands[q][base]
                    self.hands[q][UNKNOWN] += 1
                    self.pile_size = max(0, self.pile_size - 1)
                    if self.pile_order:  # a known pile: its top card is what left it
                        self.pile[self.pile_order.pop()] -= 1
                    return base, None
            problem = "unseen"
            if self.pile_order is not None and self.pile_order:
                # the log drew a card the pile does not hold: the top card is what left the pile
                self.pile[self.pile_order.pop()] -= 1
            self.pile_size = max(0, self.pile_size - 1)
            return base, problem
        if self.pile_order is not None:
            top = self.pile_order[-1] if self.pile_order else None
            if top != base and base not in self.pile_order:  # pragma: no cover - the count and the order disagree
                # never raise: the top card left the pile, and the written card is one nobody saw
                if top is not None:
                    self.pile_order.pop()
                    self.pile[top] -= 1
                self.pile_size = max(0, self.pile_size - 1)
                return base, "unseen"
            if top != base:
                problem = "top"
                idx = len(self.pile_order) - 1 - self.pile_order[::-1].index(base)
                assert top is not None  # base is in the pile order, so it has a top
                self.pile_order[idx] = top
                self.swap_at = idx
            self.pile_order.pop()
        self.pile[base] -= 1
        self.pile_size -= 1
        return base, problem

    def record_swap(self, player: str | None, written: str, top: str) -> None:
        """A draw.top: `written` went to `player`, `top` took its place in the pile (see `swaps`)."""
        if player is not None and self.pile_order is not None:
            self.swaps.append((player, written, top, self.swap_at))

    def unswap(self, written: str | None, player: str | None, top: str | None = None) -> str | None:
        """R40: a later line shows that a draw.top's player took the top card, not the card written: the
        player holds the top card and the written one lies in the pile where the top card was put. Either
        `written` is drawn again (player None), or `player` plays `top`. The card written, when a swap was undone."""
        order = self.pile_order
        for k, (p, x, t, idx) in enumerate(self.swaps):
            if (written is not None and x != written) or (player is not None and (p != player or t != top)):
                continue
            if order is None or self.hands[p].get(x, 0) <= 0 or self.pile.get(t, 0) <= 0:
                continue
            at = (
                idx
                if idx < len(order) and order[idx] == t
                else next((i for i in range(len(order) - 1, -1, -1) if order[i] == t), None)
            )
            if at is None:
                continue
            order[at] = x
            self.pile[t] -= 1
            self.pile[x] += 1
            self.hands[p][x] -= 1
            if not self.hands[p][x]:
                del self.hands[p][x]
            self.hands[p][t] += 1
            del self.swaps[k]
            return x
        return None

    def phantom_of(self, p: str) -> str | None:
        """A card of p's hand that may not really be there (R42), if any."""
        ph = self.phantoms.get(p)
        if ph:
            for y, n in ph.items():
                if n > 0 and self.hands[p].get(y, 0) > 0:
                    return y
        return None

    def plain_row(self) -> list[str]:
        """The Center Row cards not refilled this turn whose code is no guess after an earlier finding (R63's card
        maybe covered, R64's card meant, a refill not of the known pile's top, a card in doubt): only they judge a
        declined match (R85)."""
        return [
            c.base
            for c in self.center
            if not c.refilled and not c.maybe_gone and not c.guess and c.top_was is None and not c.in_doubt
        ]

    def guessed_place(self, p: str, base: str) -> CenterCard | None:
        """The Center Row card `base` that R64 took as the card p placed, if it is still there (R76)."""
        return next((c for c in self.center if c.guess == p and c.base == base), None)

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
        self.pile = self.discard if order is None else Counter(order)
        self.pile_size = sum(self.discard.values())
        self.discard = Counter()
        self.pile_order = list(reversed(order)) if order is not None else None
        self.swaps = []

    def flush_pending(self) -> None:
        """End-of-turn step 1: the matched cards go to the discard pile."""
        if self.pending:
            self.discard.update(self.pending)  # counts a list in C
            self.pending.clear()

    # ---- hands ------------------------------------------------------------------------------

    def remove_from_hand(self, p: str, base: str, unseen: bool = True) -> bool:
        """Take a card out of p's hand; a card not held is taken from the unseen cards (not with
        `unseen` False) or an unknown card of the hand, so that the state stays whole. False when not held."""
        hand = self.hands[p]
        self.from_hidden = False
        if hand.get(base, 0) <= 0 and self.swaps:
            self.unswap(None, p, base)  # p drew this card where the log wrote another (R40)
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
        if (guessed := self.guessed_place(p, base)) is not None:
            # R76: the card R64 took as placed is played from the hand: another card of it went into the row
            guessed.base, guessed.src, guessed.guess = UNKNOWN, p, None
            return True
        if (
            self.maybe_held[p].get(base, 0) > 0
        ):  # a card of a draw nobody owed, taken as not drawn (R41): drawn after all
            self.maybe_held[p][base] -= 1
        elif (y := self.phantom_of(p)) is not None:
            # a card the referee wrongly put in this hand stands for it (R42); the pile keeps its cards
            self.phantoms[p][y] -= 1
            hand[y] -= 1
            if not hand[y]:
                del hand[y]
            if self.pile.get(base, 0) > 0 and sum(self.pile.values()) > self.pile_size:
                self.pile[base] -= 1  # a pile counted with cards whose place is unknown: base was one of them
            if self.phantom_dealt[p][y] > self.phantoms[p][y]:  # a copy the deal took from the pile was never dealt
                self.phantom_dealt[p][y] -= 1
                self.pile[y] += 1
            return False
        if unseen and self.pile.get(base, 0) > 0:
            self.pile[base] -= 1
            self.pile_size = max(0, self.pile_size - 1)
            if self.pile_order is not None and base in self.pile_order:
                self.pile_order.remove(base)
        return False
