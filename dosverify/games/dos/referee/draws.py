"""Draw lines: why each draw is owed (no match, DOS penalty, Double Color Match), in which order, and
how many cards; a draw that starts the next player's turn (V6, V7, V12-V14).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from ....hints import plural
from ..cards import parse_card
from ..events import Draw, FaceDown, word
from .matching import any_match
from .part import Part, enforces
from .table import UNKNOWN


class Draws(Part):
    """Judges `draw` lines: the reason each is owed and the cards it brings."""

    uses = ("engine", "facedown", "pile", "plays", "steps")

    def on_draw(self, ev: Draw) -> None:
        t = self.t
        q = ev.player or t.player
        if not self.r.known(q, ev):
            return
        n = max(1, len(ev.cards))
        written: list[str | FaceDown | None] = list(ev.cards) if ev.cards else [None]
        if q == t.player and t.penalty_owed > 0:  # (the cheap half of the check's condition)
            self._own_penalty_at_once(ev, q)
        reason, owed = self._reason(q, n)
        if (
            reason is None
            and ev.player is None
            and (t.matches or t.action_done)
            and self.parts.engine.draw_starts_next_turn(ev)
        ):
            # the player on turn has played: this draw starts the next player's turn (its line left out)
            self.parts.plays.start_implied_turn(self.s.left(t.player), ev)
            return self.on_draw(ev)
        if reason is not None and 0 < owed < len(ev.cards) and not t.turn._damaged:
            # notation.md: one line may carry one player's draws for two reasons that follow each other
            # directly; its cards fill them in that order (the rest, if no reason follows, is reported)
            head, tail = self.parts.engine.split_draw(ev, owed)
            self.on_draw(head)
            if self.s.t is not None:
                self.on_draw(tail)
            return
        if reason is None:
            self._no_reason(ev, q, n)
        elif reason == "no-match":
            self._declined(ev, q)
        elif reason == "penalty":
            self.parts.steps.step(ev, 4, "the DOS penalty draw")
            self.parts.steps.arrive(4, ev)
        elif reason == "dcm":
            self._dcm_draw_time(ev, q)
            self.dcm_draw_order(ev, q)
        if reason in ("penalty", "dcm", "immediate") and ev.cards:
            own = max(
                0, owed - len(ev.cards) - sum(max(1, len(e.cards)) for e in self.parts.engine.draws_right_after(ev, q))
            )
            self.parts.pile.catch_up(ev, ev.cards[0], q if reason == "dcm" else None, q, own)
        taken = self._take(ev, q, reason, owed, written)
        self.s.hand_changed(q)
        self._settle(q, reason, n, written, taken)

    @enforces("turn.steps")
    def _own_penalty_at_once(self, ev: Draw, q: str) -> None:
        """The player on turn draws the DOS penalty at once, in the middle of the turn (an engine with
        own-penalty=at-once, V14): one finding here, then the cards count as drawn, as written."""
        t = self.t
        if not (
            q == t.player
            and t.penalty_owed > 0
            and not t.immediate
            and self.s.rs.opt("own-penalty") == "penalty-step"
            and self.parts.engine.penalty_mid_turn(ev)
        ):
            return
        self.r.report(
            "turn.steps",
            f"{q} draws the DOS penalty mid-turn, not at the penalty step after the bonus cards "
            f"({self.r.spec.option_ref('own-penalty', 'penalty-step')})",
            ev,
            "player" if ev.player else None,
            expected="the penalty draw at the end of the turn",
            found=f"draw {q} in the middle of the turn",
        )
        t.immediate, t.penalty_owed = (q, t.penalty_owed), 0
        if t.bonus_cap is None:  # the bonus cards still owed are judged by the hand before these cards (R51)
            t.bonus_cap = t.bonus_placed + self.s.table.hand_size(t.player)

    def _reason(self, q: str, n: int) -> tuple[str | None, int]:
        """Why q draws n cards here, and how many that reason owes (None: nobody owes them)."""
        t = self.t
        if t.immediate and t.immediate[0] == q:
            return "immediate", t.immediate[1]
        if (
            t.penalty_maybe.get(q, 0)
            and n == t.penalty_maybe[q]
            and not (q == t.player and t.penalty_owed)
            and not (q != t.player and t.dcm_owed.get(q, 0))
        ):
            return "maybe-penalty", t.penalty_maybe[q]  # the penalty of a catch that did not stand
        if q == t.player and not t.drew and t.matches == 0 and t.step == 0 and not t.action_done:
            return "no-match", 1
        if q == t.player and t.penalty_owed > 0:
            return "penalty", t.penalty_owed
        if q != t.player and (t.dcm_owed.get(q, 0) > 0 or t.dcm_maybe.get(q, 0) > 0):
            return "dcm", t.dcm_owed.get(q, 0) + t.dcm_maybe.get(q, 0)
        if t.penalty_maybe.get(q, 0) > 0:
            return "maybe-penalty", t.penalty_maybe[q]
        return None, 0

    @enforces("draw.reason")
    def _no_reason(self, ev: Draw, q: str, n: int) -> None:
        """A draw nobody owes (notation.md, draw-order; READINGS R10)."""
        t = self.t
        found = f"draw {q} {' '.join(map(word, ev.cards))}".strip()
        if q == t.player:
            why = (
                "the draw after no match was already made"
                if t.drew
                else ("matches were made" if t.matches else "no draw is owed")
            )
            self.r.report(
                "draw.reason",
                f"{q} draws {plural(n, 'card')} that nobody owes ({why})",
                ev,
                "player" if ev.player else None,
                player=q,
                expected="no draw",
                found=found,
            )
            return
        # another player drawing in this turn: a draw with no reason
        why = (
            f"{t.player} made {plural(t.dcm, 'Double Color Match', 'Double Color Matches')} and {q} drew for them already"
            if t.dcm
            else f"{t.player} made no Double Color Match this turn"
        )
        self.r.report(
            "draw.reason",
            f"{q} draws {plural(n, 'card')} that nobody owes: {why}",
            ev,
            "player",
            player=q,
            expected="no draw",
            found=found,
        )

    @enforces("match.decline")
    def _declined(self, ev: Draw, q: str) -> None:
        """decline-match=forbidden: a player who can match may not draw instead."""
        if self.s.rs.opt("decline-match") != "forbidden":
            return
        tb = self.s.table
        center = tb.plain_row()  # not a card only guessed after an earlier finding (R85)
        hand = [b for b in tb.hands[q].elements() if b != UNKNOWN]
        if UNKNOWN in center:  # a Center Row card left out (R27): not judged
            return
        if UNKNOWN in tb.hands[q] and not any_match(center, hand, parse_card):
            self.parts.facedown.unverify("match.decline")  # whether a face-down card matches: the choice decides
            if self.s.prov is not None:  # the witness chooses the `?` held here to match nothing (R34)
                self.s.prov.declines.append((q, self.s.prov.now, tuple(center), tuple(hand)))
        elif any_match(center, hand, parse_card):
            self.r.report(
                "match.decline",
                f"{q} could match and may not decline to draw (decline-match=forbidden)",
                ev,
                player=q,
                expected="a match",
                found="draw",
            )

    @enforces("bonus.draw-time")
    def _dcm_draw_time(self, ev: Draw, q: str) -> None:
        """dcm-draws=end-of-turn: the others draw for a Double Color Match at the end of the turn (V12)."""
        t = self.t
        if self.s.rs.opt("dcm-draws") != "end-of-turn":
            return
        if not self.parts.engine.dcm_draw_mid_turn(ev):
            self.parts.steps.step(ev, 5, "a Double Color Match draw")
            if t.dcm_draw_ev is None:
                t.dcm_draw_ev = ev  # a later match makes it early (bonus.draw-time)
            return
        if not t.dcm_early:  # drawn at once (an engine with dcm-draws=at-once, V12)
            t.dcm_early = True
            self.r.report(
                "bonus.draw-time",
                f"{q} draws for the Double Color Match in the middle of the turn: "
                "the others draw at the end of the turn, its last step (dcm-draws=end-of-turn)",
                ev,
                "player",
                player=q,
                expected="the draw after the turn's matches, refill, bonus cards and penalty",
                found=f"draw {q} in the middle of the turn",
            )

    @enforces("draw.reason")
    def _take(self, ev: Draw, q: str, reason: str | None, owed: int, written: list) -> list[str | None]:
        """The cards the draw takes from the pile (a bare draw from a known pile takes its top); cards
        beyond those owed are reported once and taken as not drawn."""
        t, tb = self.t, self.s.table
        n = max(1, len(ev.cards))
        extra_reported = False
        taken: list[str | None] = []
        damaged, hand, draw_from_pile = t.turn._damaged, tb.hands[q], self.parts.pile.draw_from_pile
        for i, w in enumerate(written):
            if reason is not None and i >= owed and not extra_reported:
                extra_reported = True
                self.r.report(
                    "draw.reason",
                    f"{q} draws {plural(n, 'card')} but owes {owed} here",
                    ev,
                    "cards",
                    i,
                    player=q,
                    expected=plural(owed, "card"),
                    found=plural(n, "card"),
                )
            if (reason is None or i >= owed) and isinstance(w, str) and not damaged:
                # a card nobody owes (reported): taken as not drawn, since the later lines of an engine or
                # scribe that wrote one line too many play on without it; if q plays it later, it came
                # from the unseen cards after all (R41). q's hand is in doubt either way
                tb.maybe_held[q][parse_card(w).base] += 1
                self.s.doubt.add(q)
                continue
            res = t.reserved.get((reason, q)) if t.reserved and reason in ("penalty", "dcm") else None
            if res and (w is None or (isinstance(w, str) and parse_card(w).base == res[0])):
                got: str | None = res.pop(0)  # a card set aside for this draw, written after a later step (R44)
            else:
                got = draw_from_pile(w, ev, i, "draw", q)
            taken.append(got)
            if got is None:
                continue
            if got == UNKNOWN:
                if isinstance(w, FaceDown):
                    self.parts.facedown.hidden_token(q, ev, i)
                elif self.s.prov:
                    self.s.prov.token(q)
            hand[got] += 1
        return taken

    def _settle(self, q: str, reason: str | None, n: int, written: list, taken: list[str | None]) -> None:
        """What the draw leaves owed, and whether q is still drawing for one reason (V6: a call is owed
        once all the cards drawn for one reason are in, not in between)."""
        t = self.t
        still = False  # q is still drawing the cards owed for this reason
        if reason == "no-match":
            t.drew = True
            # the card taken from the pile, not the word written: a bare `draw` from a known deck is its top card
            first = taken[0] if taken else None
            if isinstance(written[0], FaceDown) and first == UNKNOWN:  # drawn face down
                t.drawn_card = UNKNOWN
                if self.s.prov is not None:
                    t.drawn_token = self.s.prov.tokens[-1] if self.s.prov.tokens else None
            else:
                w0 = written[0]  # a `?` that found no card (both piles empty) names none
                t.drawn_card = (
                    first if first not in (None, UNKNOWN) else (parse_card(w0).base if isinstance(w0, str) else None)
                )
        elif reason == "immediate":
            assert t.immediate is not None
            left = t.immediate[1] - n
            t.immediate = (q, left) if left > 0 else None
            still = left > 0
        elif reason == "penalty":
            t.penalty_owed = max(0, t.penalty_owed - n)
            still = t.penalty_owed > 0
        elif reason == "maybe-penalty":
            t.penalty_maybe[q] = max(0, t.penalty_maybe[q] - n)
        elif reason == "dcm":
            certain = min(n, t.dcm_owed.get(q, 0))
            t.dcm_owed[q] = t.dcm_owed.get(q, 0) - certain
            t.dcm_maybe[q] = max(0, t.dcm_maybe.get(q, 0) - (n - certain))
            if t.dcm_now and not any(t.dcm_owed.values()):
                t.dcm_now = False
            still = t.dcm_owed[q] > 0
        if still:
            t.drawing.add(q)
        else:
            t.drawing.discard(q)

    @enforces("turn.steps")
    def dcm_draw_order(self, ev: Draw, q: str) -> None:
        """Seat order from the left of the player on turn, or from the first seat (V13): a draw while a
        player before q still owes is reported at this line once that player draws (else only the
        missing draw is, R9); once for the draws of one Double Color Match (or the turn's end)."""
        t = self.t
        seats = self.s.dcm_order(t.player)
        if t.dcm_order_early is None and not t.dcm_order_reported:
            earlier = [p for p in seats if t.dcm_owed.get(p, 0) > 0 and p != q and seats.index(p) < seats.index(q)]
            if earlier:
                t.dcm_order_early = (ev, earlier[0], q)
        if t.dcm_order_early is not None and t.dcm_order_early[1] == q:
            early, r, first = t.dcm_order_early
            t.dcm_order_early, t.dcm_order_reported = None, True
            start = (
                "from the first seat of `players`"
                if self.s.rs.opt("dcm-order") == "first-seat"
                else f"starting at the left of {t.player}"
            )
            self.r.report(
                "turn.steps",
                f"{first} draws for the Double Color Match before {r}: seat order {start} "
                f"({self.r.spec.option_ref('dcm-order', self.s.rs.opt('dcm-order'))})",
                early,
                "player",
                player=first,
                expected=f"draw {r} first",
                found=f"draw {first}",
                related_to=ev,
            )
