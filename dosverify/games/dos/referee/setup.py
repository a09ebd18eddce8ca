"""The set-up of a round: the deal from a known deck (V9), or the written hands and Center Row.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from ....hints import plural
from ..cards import composition, parse_card
from ..events import Center, Dealer, Deck, FaceDown, Hand, Round, seen
from .part import Part
from .table import UNKNOWN, CenterCard

_SETUP_WORD = {Dealer: "dealer", Hand: "hand", Center: "center"}


class Setup(Part):
    """The deal of a round: the written hands and Center Row, or a known deck dealt out (V9, V16)."""

    def setup(self, rnd: Round, prev_no, prev_dealer, prev_winner) -> None:
        tb = self.s.table
        tb.start_round()
        deck_cards: list[str] = []
        deck_ev = None
        hands: dict[str, tuple[Hand, list[str]]] = {}
        center_ev: Center | None = None
        self.s.dealer = None
        comp = composition()
        prev: Any = None
        self.s.deck_apart = False
        for ev in rnd.setup:
            before, prev = prev, ev
            if isinstance(ev, Dealer):
                if not self.r.known(ev.player, ev):
                    continue
                self.s.dealer = ev.player
                if prev_no is not None:
                    if self.s.rs.opt("next-dealer") == "winner":
                        want, why = prev_winner, "the previous round's winner deals (V4)"
                    else:
                        want, why = (
                            (self.s.left(prev_dealer) if prev_dealer else None),
                            "the deal passes left (V4, next-dealer=left)",
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
            elif isinstance(ev, Deck):
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
        first_turn = rnd.turns[0] if rnd.turns else None
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
        if deck_cards:
            self.setup_from_deck(rnd, deck_ev, deck_cards, hands, center_ev)
        else:
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
            # place the written cards; more copies than the deck holds is cards.composition
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
                    else:
                        tb.pile[base] -= 1
                        tb.pile_size -= 1
                        if self.s.prov is not None:
                            self.s.prov.out(base)
                    if holder is None:
                        tb.center.append(CenterCard(base))
                    else:
                        tb.hands[holder][base] += 1

    def setup_from_deck(self, rnd, deck_ev, deck_cards, hands, center_ev) -> None:
        tb = self.s.table
        comp = composition()
        bases = [parse_card(c).base for c in deck_cards]
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
        for _i, c in enumerate(deck_cards):
            if parse_card(c).decl is not None:
                self.r.report(
                    "notation.card",
                    f"`{c}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                    deck_ev,
                    expected=parse_card(c).base,
                    found=c,
                )
                break
        order = list(reversed(bases))
        tb.pile = Counter(bases)
        tb.pile_size = len(bases)
        tb.pile_order = order
        # V9: one card at a time clockwise from the dealer's left, until each holds 7, then 2 to the Center Row
        seats = self.s.players
        start = (self.s.seat[self.s.dealer] + 1) % len(seats) if self.s.dealer else 0
        if self.s.rs.opt("deal-from") == "first-seat":  # V16: the deal starts at the first seat of `players`
            start = 0
        how = (
            "V16, deal-from=first-seat: one card at a time clockwise from the first seat of `players`"
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
        if start != 0 and not hands and self.s.dealer:
            # no `hand` lines: does the round show a deal from the first seat (an engine with deal-from=first-seat,
            # V16)? One finding at the first line that plays a card only that deal gave; its hands are then taken
            first = deal(0)
            order[:] = saved
            dealt = deal(start)
            shown = self.parts.engine.deal_from_first_seat(rnd, dealt, first, order[:-2])
            if shown is not None:
                p, ev = shown
                self.r.report(
                    "setup.deal",
                    f"the cards were dealt from the first seat of `players`, not from the dealer's "
                    f"left: {p} plays a card only that deal gave them (V9; deal-from=dealer-left)",
                    ev,
                    expected=f"a deal starting at {seats[start]}, the dealer's left",
                    found=f"a deal starting at {seats[0]}",
                    related_to=deck_ev,
                    player=p,
                )
                dealt = first
        else:
            dealt = deal(start)
        center = [order.pop() for _ in range(2) if order]
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
        if written_any:
            # trust what the players held as written; the pile keeps the deck's order without those cards
            for p in seats:
                if p in hands:
                    dealt[p] = list(hands[p][1])
            if center_ev is not None:
                center = [parse_card(c).base for c in center_ev.cards]
            used: Counter = Counter()
            for cards in list(dealt.values()) + [center]:
                used.update(cards)
            rest = []
            for b in reversed(bases):  # bottom first, as pile_order keeps the top last
                rest.append(b)
            keep: list[str] = []
            for b in reversed(rest):  # from the top
                if used.get(b, 0) > 0:
                    used[b] -= 1
                else:
                    keep.append(b)
            order[:] = list(reversed(keep))
        for p in seats:
            tb.hands[p] = Counter(dealt[p])
            if self.s.deck_alias is not None and self.s.deck_alias[0] in tb.hands[p]:
                # a copy dealt here may be the card written wrong (R66): the hand may hold the missing card
                tb.phantoms[p][self.s.deck_alias[0]] += tb.hands[p][self.s.deck_alias[0]]
                self.s.doubt.add(p)
        tb.center = [CenterCard(b) for b in center]
        tb.pile = Counter(order)
        tb.pile_size = len(order)
        tb.pile_order = order
