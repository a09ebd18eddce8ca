"""What the player on turn does with cards: matches, the card placed after a fruitless draw or as a bonus, `pass`.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ....hints import plural
from ..cards import parse_card
from ..events import Draw, Match, Pass, Place, seen
from .part import Part, enforces
from .table import UNKNOWN, CenterCard
from .turn import TurnState


class Plays(Part):
    """Match, place and `pass` lines of the player on turn, and the card meant when one is written wrong."""

    uses = ("closing", "facedown", "steps")

    def _turn_fits(self, turn, p: str) -> bool:
        """Whether p's hand (with the cards p draws in the turn) holds every card the turn plays."""
        need: Counter = Counter()
        gained: Counter = Counter()
        loose = self.s.table.hands[p].get(UNKNOWN, 0)
        for ev in turn.events:
            if isinstance(ev, Match):
                need.update(parse_card(c).base for c in ev.cards)
            elif isinstance(ev, Place):
                need[parse_card(ev.card).base] += 1
            elif isinstance(ev, Draw) and ev.player in (None, turn.player):
                known = seen(ev.cards)
                gained.update(parse_card(c).base for c in known)
                loose += (len(ev.cards) - len(known)) if ev.cards else 1  # unnamed cards may be any
        have = self.s.table.hands[p] + gained
        return sum(max(0, n - have.get(b, 0)) for b, n in need.items()) <= loose

    def turn_meant(self, turn, rnd, want: str) -> bool:
        """R49: whether a `turn W` line out of order names the wrong player for the turn of `want`,
        the player due: the cards the turn plays are want's and not W's, or (when the cards tell
        neither) the next turn, or the round's score, follows want's turn."""
        w = turn.player
        fit_want, fit_w = self._turn_fits(turn, want), self._turn_fits(turn, w)
        if fit_want != fit_w:
            return fit_want
        at = self.s.turn_at
        i: int | None = at
        if not (0 <= at < len(rnd.turns) and rnd.turns[at] is turn):
            # a turn played from elsewhere than Referee.play_round: searched, as before (linear, so
            # once a turn it would be quadratic over many turns out of order)
            i = next((k for k, x in enumerate(rnd.turns) if x is turn), None)
        nxt = rnd.turns[i + 1].player if i is not None and i + 1 < len(rnd.turns) else None
        if nxt is not None:
            return nxt == self.s.left(want) and nxt != self.s.left(w)
        return rnd.score is not None and rnd.score.player == want

    @enforces("turn.order")
    def start_implied_turn(self, p: str, ev) -> None:
        """A `turn P` line seems left out before ev: report it once, end the turn before, start P's."""
        turn = self.t.turn
        self.r.report(
            "turn.order",
            f"{p}'s turn seems to be missing: a `turn {p}` line before this one",
            ev,
            player=p,
            expected=f"turn {p}",
            found=f"`{ev.type}` in {self.t.player}'s turn",
        )
        self.parts.closing.close_turn(ev)
        self.s.turn_no += 1
        self.s.turns_seen += 1
        self.s.prev_player = p
        for c in self.s.table.center:
            c.refilled = False
        self.s.t = TurnState(p, turn)

    def lazy_penalty_shown(self, p: str, codes) -> None:
        """A penalty not drawn at once (reported) whose cards p now plays: it was drawn, the line left out (R27)."""
        tb = self.s.table
        if self.s.lazy_skip is None or self.s.lazy_skip[0] != p or not tb.pile_order:
            return
        n = self.s.lazy_skip[1]
        top = Counter(tb.pile_order[-n:])
        if any(tb.hands[p].get(b := parse_card(c).base, 0) <= 0 and top.get(b) for c in codes):
            self.s.lazy_skip = None
            self.parts.steps.draw_left_out(p, n)

    def stand_taken_back(self) -> None:
        """R47: a refill beyond 2 cards after a match taken back shows that the match stood: it is
        applied now (the row's card and the player's cards go with this turn's matches)."""
        t, tb = self.t, self.s.table
        for slot, cards in t.taken_back:
            if slot in tb.center:
                tb.center.remove(slot)
                tb.pending.append(slot.base)
            for b in cards:
                tb.remove_from_hand(t.player, b)
                tb.pending.append(b)
            t.refill_maybe += 1
            t.bonus_maybe += 1  # R1: the bonus of a match that was not allowed may be honoured or not
        self.s.hand_changed(t.player)
        t.taken_back.clear()

    @enforces("cards.held")
    def _place_not_held(self, ev: Place, p: str, base: str) -> CenterCard:
        """A `place` of a card p does not hold (reported once): the one held card of its colour or
        number is the card meant; else an unnamed card of p's hand went into the row, which a
        later match may name (R64)."""
        hand = self.s.table.hands[p]
        doubted = p in self.s.doubt  # a hand in doubt may hold the card after all (R28, R43): as written
        near = (
            []
            if doubted
            else sorted(
                b
                for b, n in hand.items()
                if n > 0 and b != UNKNOWN and len(b) > 1 and (b[0] == base[0] or b[1:] == base[1:])
            )
        )
        meant = f": {near[0]}, which {p} holds, seems meant" if len(near) == 1 else ""
        self.r.report(
            "cards.held",
            f"{p} does not hold {base}{meant}",
            ev,
            "card",
            expected=near[0] if meant else "a card from " + (" ".join(sorted(hand.elements())) or "an empty hand"),
            found=ev.card,
        )
        if meant:
            self.s.table.remove_from_hand(p, near[0])
            return CenterCard(near[0], guess=p, written=base)  # a guess: a later line may show another card (R76)
        return CenterCard(UNKNOWN, src=p) if hand and not doubted else CenterCard(base)

    @enforces("bonus.card", "draw.no-match", "notation.card", "place.no-match")
    def on_place(self, ev: Place) -> None:
        t, tb = self.t, self.s.table
        if self.s.lazy_skip is not None:
            self.lazy_penalty_shown(t.player, [ev.card])
        p = t.player
        card = parse_card(ev.card)
        if card.decl is not None:
            self.r.report(
                "notation.card",
                f"`{ev.card}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                ev,
                "card",
                expected=card.base,
                found=ev.card,
            )
        if t.bonus_owed() > 0 or t.bonus_maybe > 0:
            self.parts.steps.step(ev, 3, "a bonus card")
            self.parts.steps.arrive(3, ev)
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            else:
                t.bonus_maybe -= 1
        elif not t.drew and t.matches == 0 and not t.action_done and t.step == 0 and self.parts.steps.refill_possible():
            self.r.report(
                "draw.no-match",
                f"{p} places a card without having matched or drawn: a player who makes no match draws one card first",
                ev,
                expected="draw C, then place",
                found=f"place {ev.card}",
            )
            t.drew = t.action_done = True
            for b in tb.take_owed(1):  # R95: the draw was made, its line left out: the pile's top, else unknown
                tb.hands[p][b] += 1
                t.drawn_card = b
        elif (t.drew or not self.parts.steps.refill_possible()) and t.matches == 0 and not t.action_done:
            if self.s.rs.opt("no-match-after-draw") == "pass":
                self.r.report(
                    "place.no-match",
                    "under this ruleset a player who still cannot match keeps the card and passes "
                    "(no-match-after-draw=pass)",
                    ev,
                    expected="pass",
                    found=f"place {ev.card}",
                )
            else:
                self.parts.steps.arrive("no-match", ev)  # a DOS penalty drawn before it came too early (V7, turn.steps)
            t.action_done = True
        else:
            if t.matches and t.bonus_earned:
                msg = f"{p} earned {plural(t.bonus_earned, 'bonus card')} and placed them already"
            elif t.matches:
                msg = "no colour match was made this turn, so no bonus card is owed"
            elif not t.drew:
                msg = "a card is placed only as a colour bonus or after a draw that brought no match"
            else:
                msg = "the card for the unmatched draw was already placed"
            self.r.report(
                "bonus.card",
                f"a card placed that was never earned: {msg}",
                ev,
                "card",
                expected="no place",
                found=f"place {ev.card}",
            )
            return  # R47: taken back, as a referee at the table would have it; the later lines agree
        placed = CenterCard(card.base, placed_by=p)
        # a card not held is taken from the unseen cards only when it is placed as written (R64: else a held card was)
        if tb.remove_from_hand(p, card.base, unseen=p in self.s.doubt or not tb.hands[p]):
            if tb.from_hidden:
                self.parts.facedown.hidden_reveal(p, card.base, ev, "card", None, "cards.held")
        else:
            placed = self._place_not_held(ev, p, card.base)
        self.s.hand_changed(p)
        if placed.base == UNKNOWN or not tb.row_has_every(placed.base):  # R99: else a copy the deck has not
            tb.center.append(placed)
        if self.s.end_at_once and tb.hand_size(p) == 0:
            t.ended = ev  # V15: the round ends on this line

    @enforces("turn.pass")
    def on_pass(self, ev: Pass) -> None:
        t = self.t
        if self.s.rs.opt("no-match-after-draw") != "pass":
            self.r.report(
                "turn.pass",
                "this ruleset has no `pass`: a player who cannot match after the draw puts a card into "
                "the Center Row (no-match-after-draw=place)",
                ev,
                expected="place C",
                found="pass",
            )
            if t.drew and t.matches == 0 and not t.action_done:
                # R50: the card owed was placed all the same, as the later lines show: an unknown card of
                # the player's hand, which a later match may name (as a bonus card left out, R27)
                self.s.table.center.append(CenterCard(UNKNOWN, src=t.player))
                self.s.doubt.add(t.player)
        elif not ((t.drew or not self.parts.steps.refill_possible()) and t.matches == 0) or t.action_done:
            # with both piles empty the draw cannot happen (V5): the pass follows no draw, as a place does
            self.r.report(
                "turn.pass",
                "`pass` ends a turn only after a draw that brought no match",
                ev,
                expected="a match, or a draw first",
                found="pass",
            )
        t.action_done = True
