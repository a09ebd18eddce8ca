"""A round dealt from a written deck (V9: one card at a time clockwise from the dealer's left, 7 each, then
2 to the Center Row; V16: from the first seat): the deck's composition, and the written hands and Center
Row held to the deal.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ..cards import composition, parse_card
from ..events import Center, Dealer, Deck, Hand, Round
from .part import Part, enforces
from .table import CenterCard


class Deal(Part):
    """Deals the round from its `deck` lines and judges the hands and Center Row written beside them."""

    uses = ("engine",)

    def setup_from_deck(
        self,
        rnd: Round,
        deck_ev: Deck,
        deck_cards: list[str],
        hands: dict[str, tuple[Hand, list[str]]],
        center_ev: Center | None,
    ) -> None:
        bases = [parse_card(c).base for c in deck_cards]
        self._check_deck(deck_ev, deck_cards, bases)
        order = list(reversed(bases))
        tb = self.s.table
        tb.pile = Counter(bases)
        tb.pile_size = len(bases)
        tb.pile_order = order
        dealt, how = self._deal(rnd, deck_ev, order, hands)
        center = [order.pop() for _ in range(2) if order]
        if self._written_differs(hands, center_ev, dealt, center, how):
            # trust what the players held as written; the pile keeps the deck's order without those cards
            for p in self.s.players:
                if p in hands:
                    dealt[p] = list(hands[p][1])
            if center_ev is not None:
                center = [parse_card(c).base for c in center_ev.cards]
            used: Counter = Counter()
            for cards in list(dealt.values()) + [center]:
                used.update(cards)
            keep: list[str] = []
            for b in bases:  # from the top
                if used.get(b, 0) > 0:
                    used[b] -= 1
                else:
                    keep.append(b)
            order[:] = list(reversed(keep))
        for p in self.s.players:
            tb.hands[p] = Counter(dealt[p])
            if self.s.deck_alias is not None and self.s.deck_alias[0] in tb.hands[p]:
                # a copy dealt here may be the card written wrong (R66): the hand may hold the missing card
                tb.phantoms[p][self.s.deck_alias[0]] += tb.hands[p][self.s.deck_alias[0]]
                self.s.doubt.add(p)
        tb.center = [CenterCard(b) for b in center]
        tb.pile = Counter(order)
        tb.pile_size = len(order)
        tb.pile_order = order

    @enforces("cards.deck", "notation.card")
    def _check_deck(self, deck_ev: Deck, deck_cards: list[str], bases: list[str]) -> None:
        """The deck holds the composition's 108 cards, each once (one card written wrong: R66)."""
        comp = composition()
        have = Counter(bases)
        if dict(have) != dict(comp):  # neither holds a zero count: dict equality, in C (Counter's == is Python)
            extra = have - comp
            missing = comp - have
            parts = []
            if extra:
                parts.append("too many: " + " ".join(f"{c}x{n}" for c, n in sorted(extra.items())))
            if missing:
                parts.append("missing: " + " ".join(f"{c}x{n}" for c, n in sorted(missing.items())))
            self.r.report(
                "cards.deck",
                f"the deck lists {len(bases)} cards, not the 108 of the composition ({'; '.join(parts)})",
                deck_ev,
                expected="each card of the composition exactly once",
                found=f"{len(bases)} cards",
            )
            if sum(extra.values()) == 1 and sum(missing.values()) == 1:
                # one card written wrong (R66): one copy of the card over the deck stands for the missing card
                self.s.deck_alias = (next(iter(extra)), next(iter(missing)))
        for c in deck_cards:
            if parse_card(c).decl is not None:
                self.r.report(
                    "notation.card",
                    f"`{c}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                    deck_ev,
                    expected=parse_card(c).base,
                    found=c,
                )
                break

    @enforces("setup.deal")
    def _deal(
        self, rnd: Round, deck_ev: Deck, order: list[str], hands: dict[str, tuple[Hand, list[str]]]
    ) -> tuple[dict[str, list[str]], str]:
        """The hands dealt off `order` (the deck, top last), and how the deal went, for the findings."""
        seats = self.s.players
        start = (self.s.seat[self.s.dealer] + 1) % len(seats) if self.s.dealer else 0
        if self.s.rs.opt("deal-from") == "first-seat":  # V16: the deal starts at the first seat of `players`
            start = 0
        how = (
            f"{self.r.spec.option_ref('deal-from', 'first-seat')}; one card at a time clockwise from the first "
            "seat of `players`"
            if start == 0 and self.s.rs.opt("deal-from") == "first-seat"
            else "V9: one card at a time clockwise from the dealer's left"
        )

        def deal(start: int) -> dict[str, list[str]]:
            dealt: dict[str, list[str]] = {p: [] for p in seats}
            for _ in range(7):
                for k in range(len(seats)):
                    if order:
                        dealt[seats[(start + k) % len(seats)]].append(order.pop())
            return dealt

        saved = list(order)
        if hands or not self.s.dealer or self.s.rs.opt("deal-from") == "first-seat":
            return deal(start), how
        # no `hand` lines: does the round show a deal from the first seat (an engine with deal-from=first-seat,
        # V16, R59), or from the dealer the first turn implies (a `dealer` line written wrong, R97)? One finding
        # at the line that shows it; its hands are then taken
        first = deal(0)
        order[:] = saved
        dealt = deal(start)
        pile = order[:-2]
        by_turn = self._dealer_by_first_turn(rnd)
        if by_turn is not None:
            order[:] = saved
            implied = deal((self.s.seat[by_turn] + 1) % len(seats))
            r59 = start != 0 and implied != first and self.parts.engine.deal_from_first_seat(rnd, dealt, first, pile)
            if not r59 and self.parts.engine.deal_from_first_seat(rnd, dealt, implied, pile) is not None:
                self.s.dealer_slip = (next(e for e in rnd.setup if isinstance(e, Dealer)), self.s.dealer)
                self.s.dealer = by_turn
                return implied, how
        shown = self.parts.engine.deal_from_first_seat(rnd, dealt, first, pile) if start != 0 else None
        if shown is not None:
            p, ev = shown
            self.r.report(
                "setup.deal",
                f"the cards were dealt from the first seat of `players`, not the dealer's left: {p} "
                f"plays a card only that deal gave ({self.r.spec.option_ref('deal-from', 'dealer-left')})",
                ev,
                expected=f"a deal starting at {seats[start]}, the dealer's left",
                found=f"a deal starting at {seats[0]}",
                related_to=deck_ev,
                player=p,
            )
            dealt = first
        return dealt, how

    def _dealer_by_first_turn(self, rnd: Round) -> str | None:
        """The player right of the first round's first turn's, when that is not the dealer written (R97; a later
        round's dealer is judged by the one before, R48)."""
        s = self.s
        if s.rounds_seen != 1:
            return None
        first = rnd.turns[0].player if rnd.turns else None
        if first not in s.seat or s.dealer not in s.seat or first == s.left(s.dealer):
            return None
        return s.players[(s.seat[first] - 1) % len(s.players)]

    @enforces("setup.deal")
    def _written_differs(
        self,
        hands: dict[str, tuple[Hand, list[str]]],
        center_ev: Center | None,
        dealt: dict[str, list[str]],
        center: list[str],
        how: str,
    ) -> bool:
        """Whether a written hand or the `center` line disagrees with the deal (each reported)."""
        written_any = False
        for p, (ev, cards) in hands.items():
            if sorted(cards) != sorted(dealt[p]):  # the same multiset
                self.r.report(
                    "setup.deal",
                    f"{p}'s hand does not agree with the deal from the deck ({how})",
                    ev,
                    "player",
                    player=p,
                    expected=" ".join(sorted(dealt[p])),
                    found=" ".join(sorted(cards)),
                )
                written_any = True
        if center_ev is not None and sorted(parse_card(c).base for c in center_ev.cards) != sorted(center):
            self.r.report(
                "setup.deal",
                "the `center` line does not agree with the deal from the deck",
                center_ev,
                expected=" ".join(center),
                found=" ".join(center_ev.cards),
            )
            written_any = True
        return written_any
