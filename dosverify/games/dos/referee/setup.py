"""The set-up of a round: its dealer, and the written hands and Center Row (a deck dealt out is deal.py).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ....hints import plural
from ..cards import composition, parse_card
from ..events import Center, Dealer, Deck, FaceDown, Hand, Round, seen
from .part import Part, enforces
from .table import UNKNOWN, CenterCard

_SETUP_WORD = {Dealer: "dealer", Hand: "hand", Center: "center"}


class Setup(Part):
    """The deal of a round: the written hands and Center Row, or a known deck dealt out (V9, V16)."""

    uses = ("deal", "facedown")

    @enforces("notation.repeated")
    def setup(self, rnd: Round, prev_no, prev_dealer, prev_winner) -> None:
        """The round's set-up lines: its dealer, then the hands and Center Row as written or dealt from a deck."""
        self.s.table.start_round()
        deck_cards: list[str] = []
        deck_ev = None
        hands: dict[str, tuple[Hand, list[str]]] = {}
        center_ev: Center | None = None
        self.s.dealer = None
        prev: Any = None
        self.s.deck_apart = False
        for ev in rnd.setup:
            before, prev = prev, ev
            if isinstance(ev, Dealer):
                if self.r.known(ev.player, ev):
                    self._dealer(ev, rnd, prev_no, prev_dealer, prev_winner)
            elif isinstance(ev, Deck):
                self._deck_line(ev, before, deck_ev)
                deck_ev = deck_ev or ev
                deck_cards.extend(ev.cards)
            elif isinstance(ev, Hand):
                if self.r.known(ev.player, ev):
                    if ev.player in hands:
                        self.r.report(
                            "notation.repeated", f"a second `hand` line for {ev.player}", ev, "player", player=ev.player
                        )
                    hands[ev.player] = (
                        ev,
                        [UNKNOWN if isinstance(c, FaceDown) else parse_card(c).base for c in ev.cards],
                    )
            elif isinstance(ev, Center):
                center_ev = ev
        self._check_sizes(rnd, hands, center_ev)
        if deck_cards:
            assert deck_ev is not None  # the deck's cards come from its lines
            self.parts.deal.setup_from_deck(rnd, deck_ev, deck_cards, hands, center_ev)
        else:
            self._written(rnd, hands, center_ev)

    @enforces("setup.dealer")
    def _dealer(self, ev: Dealer, rnd: Round, prev_no, prev_dealer, prev_winner) -> None:
        """Who deals: the previous round's winner (next-dealer=winner) or the previous dealer's left (V4)."""
        self.s.dealer = ev.player
        if prev_no is not None:
            if self.s.rs.opt("next-dealer") == "winner":
                want, why = (
                    prev_winner,
                    f"the previous round's winner deals ({self.r.spec.option_ref('next-dealer', 'winner')})",
                )
            else:
                want, why = (
                    (self.s.left(prev_dealer) if prev_dealer else None),
                    f"the deal passes left ({self.r.spec.option_ref('next-dealer', 'left')})",
                )
            if want is not None and ev.player != want:
                first = rnd.turns[0].player if rnd.turns else None
                meant = want in self.s.seat and first == self.s.left(want) and first != self.s.left(ev.player)
                self.r.report(
                    "setup.dealer",
                    f"{ev.player} deals round {rnd.number}, but {why}"
                    + (f"; {first} plays first, so {want} seems to have dealt" if meant else ""),
                    ev,
                    "player",
                    player=ev.player,
                    expected=want,
                    found=ev.player,
                )
                if meant:  # R48: the name is the slip; the deal and the turns follow the real dealer
                    self.s.dealer = want

    @enforces("notation.placement")
    def _deck_line(self, ev: Deck, before, deck_ev: Deck | None) -> None:
        """A `deck` line continues the deck only right after the one before it."""
        if deck_ev is not None and not isinstance(before, Deck) and not self.s.deck_apart:
            self.s.deck_apart = True  # once a round; the cards still continue the deck
            self.r.report(
                "notation.placement",
                "a `deck` line continues the deck only right after the one before it "
                "(blank and comment lines aside; notation.md, Set-up)",
                ev,
                expected="the `deck` lines one after another",
                found=f"a `{_SETUP_WORD.get(type(before), 'line')}` line between them",
            )

    @enforces("notation.placement", "setup.hand", "setup.center")
    def _check_sizes(self, rnd: Round, hands: dict[str, tuple[Hand, list[str]]], center_ev: Center | None) -> None:
        """A dealer named; 7 cards a hand, 2 in the Center Row."""
        if self.s.dealer is None:
            self.r.report(
                "notation.placement",
                f"round {rnd.number} has no `dealer` line",
                rnd,
                expected="`dealer P` before the first turn",
                found="no dealer",
            )
        for p, (ev, cards) in hands.items():
            if len(cards) != 7:
                self.r.report(
                    "setup.hand",
                    f"{p} is dealt {plural(len(cards), 'card')}, not 7",
                    ev,
                    "player",
                    player=p,
                    expected="7 cards",
                    found=f"{len(cards)} cards",
                )
        if center_ev is not None and len(center_ev.cards) != 2:
            self.r.report(
                "setup.center",
                f"the Center Row starts with {plural(len(center_ev.cards), 'card')}, not 2",
                center_ev,
                expected="2 cards",
                found=f"{len(center_ev.cards)} cards",
            )

    @enforces("setup.hand", "setup.center")
    def _written(self, rnd: Round, hands: dict[str, tuple[Hand, list[str]]], center_ev: Center | None) -> None:
        """No deck: every hand and the Center Row are written, and their cards placed as written."""
        first_turn = rnd.turns[0] if rnd.turns else None
        for p in self.s.players:
            if p not in hands:
                at = first_turn or rnd
                self.r.report(
                    "setup.hand",
                    f"no `hand` line for {p}, and no `deck` line to deal from",
                    at,
                    player=p,
                    expected=f"hand {p} followed by 7 cards",
                    found="no hand line",
                )
        if center_ev is None:
            self.r.report(
                "setup.center",
                "no `center` line, and no `deck` line to deal from",
                first_turn or rnd,
                expected="center C C",
                found="no center line",
            )
        self._place_written(hands, center_ev)

    def _earlier_copies_in_doubt(self, base: str, holder: str | None) -> None:
        """One copy too many of `base`: a copy an earlier `hand` line wrote may be the card written wrong as well
        as one of the line that went over the deck, so those hands are in doubt too, their copies cards they may
        not hold (R90, as R43)."""
        tb = self.s.table
        for q, hand in tb.hands.items():
            if q != holder and hand.get(base, 0) > 0:
                self.s.doubt.add(q)
                self.s.slips[q] += 1
                tb.phantoms[q][base] += hand[base]
                tb.phantom_dealt[q][base] += hand[base]  # all taken from the pile's count: under the deck then

    @enforces("notation.card", "cards.composition")
    def _place_written(self, hands: dict[str, tuple[Hand, list[str]]], center_ev: Center | None) -> None:
        """The written cards placed; more copies than the deck holds is cards.composition."""
        tb = self.s.table
        comp = composition()
        placed: Counter = Counter()
        over: set[str] = set()
        items: list[tuple[Hand | Center, Sequence[str | FaceDown], str | None]]
        items = [(ev, ev.cards, who) for who, (ev, _) in hands.items()] + (
            [(center_ev, center_ev.cards, None)] if center_ev else []
        )
        items.sort(key=lambda x: x[0]._line or 0)
        for ev, line_cards, holder in items:
            for i, code in enumerate(line_cards):
                if isinstance(code, FaceDown):  # a face-down card (only `hand` lines hold one)
                    assert holder is not None
                    tb.pile_size -= 1
                    tb.hands[holder][UNKNOWN] += 1
                    self.parts.facedown.hidden_token(holder, ev, i)
                    continue
                base = parse_card(code).base
                placed[base] += 1
                if parse_card(code).decl is not None:
                    self.r.report(
                        "notation.card",
                        f"`{code}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                        ev,
                        "cards",
                        i,
                        player=holder,
                        expected=base,
                        found=code,
                    )
                if placed[base] > comp[base]:
                    # a card was dealt all the same, but which is unknown: the pile is one card smaller; the
                    # first line that goes over the deck is reported (once a code), its copies are cards the
                    # hand may not hold, and the hand is in doubt (R43, R28)
                    tb.pile_size -= 1
                    if base not in over:
                        over.add(base)
                        self.r.report(
                            "cards.composition",
                            f"one {base} too many: the deck holds {comp[base]}",
                            ev,
                            "cards",
                            i,
                            player=holder,
                            expected=f"at most {comp[base]} {base}",
                            found=f"{placed[base]} {base}",
                        )
                        if holder is not None:
                            k = sum(1 for c in seen(line_cards) if parse_card(c).base == base)
                            tb.phantoms[holder][base] += k
                            # the copies of this line taken from the pile's count (the rest were over the deck)
                            tb.phantom_dealt[holder][base] += k - (placed[base] - comp[base])
                        self._earlier_copies_in_doubt(base, holder)
                else:
                    tb.pile[base] -= 1
                    tb.pile_size -= 1
                    if self.s.prov is not None:
                        self.s.prov.out(base)
                if holder is None:  # a `center` line without a deck: nobody can check it (R87)
                    tb.center.append(CenterCard(base, guess="", dealt=True))
                else:
                    tb.hands[holder][base] += 1
