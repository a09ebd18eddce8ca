"""The end of a turn: what a closing turn left undone (a step left out, a draw never made), and a round
ended at once on the line that emptied the hand (V7, V11, V15; READINGS R27, R44, R55).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from typing import Any

from ....hints import plural
from ..cards import value
from ..events import Score, Turn
from .part import Part, enforces
from .table import UNKNOWN, CenterCard, owed_line
from .turn import TurnState

#: what an unneeded reshuffle's finding expects (the move table knows it by this: a cut owes its draw)
UNNEEDED_RESHUFFLE = "`reshuffle` right before the draw or refill that needs it"


class Closing(Part):
    """Closes the turn being played when the next line of another turn, the score or the log's end comes."""

    uses = ("engine", "steps")

    def close_turn(self, closing) -> None:
        """The turn ends at `closing` (the next turn, score, round) or at the end of the log."""
        s = self.s
        t = s.t
        if t is None:
            return
        line = closing._line if closing is not None else s.log._end_line
        ptr = closing._pointer if closing is not None else None
        kw: dict[str, Any] = dict(line=line, pointer=ptr, related_to=t.turn)
        p, tb = t.player, s.table
        steps = self.parts.steps
        if t.reshuffled is not None:
            self.unneeded_reshuffle()
        if t.end_after_draws is not None:  # V12 + V15: the turn closes on the at-once draws of the last match
            self.draws_before_end_missing(p, kw, closing)
            t.ended, t.end_after_draws = t.end_after_draws, None
        if isinstance(closing, Score) and closing.player == p and p in self.s.doubt:
            self.s.table.hands[p].clear()  # R77: the score line says p went out; a hand in doubt is taken as empty
        if t.ended is None:  # round-end=at-once (V15) ends the round there: no refill, no later step
            # each check is called only when what it judges is there (this runs once a turn)
            if t.immediate or not t.matches:
                self._no_match_steps(t, kw)
            steps.flush()
            if t.reserved or t.skipped:
                self._left_out_steps(t, kw)
            # whether p's hand is empty, kept while no check below changes the hand (None once one may have)
            empty: bool | None = tb.hand_size(p) == 0
            if empty:
                self.round_ended_at_once(p, kw, closing)
            if t.refill_owed > t.refilled:
                self._missing_refill(t, kw)
            if t.bonus_earned > t.bonus_placed or t.bonus_maybe:
                steps.lapse_bonus()
                if t.bonus_earned > t.bonus_placed:
                    self._missing_bonus(t, kw)  # (a bonus card left out leaves the hand)
                    empty = None
            if t.penalty_owed > 0 or t.dcm_owed:
                self._missing_end_draws(t, kw, closing)  # (a penalty left out comes into the hand)
                empty = None
        else:
            empty = None
        if t.ended is not None or (empty if empty is not None else tb.hand_size(p) == 0):
            s.round_over = True
            s.round_winner = p
        s.t = None
        if s.watch is not None:
            s.watch()

    @enforces("dos.penalty", "draw.no-match", "place.no-match")
    def _no_match_steps(self, t: TurnState, kw: dict[str, Any]) -> None:
        """A penalty owed at once that was never drawn; no match and no draw; a draw and no card placed."""
        p = t.player
        can_draw = self.parts.steps.refill_possible()  # V5: with both piles empty nothing is drawn, nor owed
        if t.immediate and can_draw:
            q, n = t.immediate
            self.r.report(
                "dos.penalty",
                f"{q} was caught and never drew the {plural(n, 'penalty card')}",
                player=q,
                expected=owed_line(f"draw {q}", n),
                found="no penalty draw",
                **kw,
            )
            self.parts.steps.draw_left_out(q, n)
        if t.matches == 0 and not t.drew and not t.action_done and can_draw:
            self.r.report(
                "draw.no-match",
                f"{p} made no match and drew no card",
                expected="a match, or `draw C`",
                found="nothing",
                **kw,
            )
        elif t.drew and t.matches == 0 and not t.action_done and self.s.rs.opt("no-match-after-draw") == "place":
            self.r.report(
                "place.no-match",
                f"{p} drew, made no match and put no card into the Center Row",
                expected="place C",
                found="nothing",
                **kw,
            )
            # R96: the place was made, its line left out (as R50's pass): an unknown card of p's hand enters the
            # Center Row, which a later match may name (taken from p's hand then); p's hand is in doubt
            self.s.table.center.append(CenterCard(UNKNOWN, src=p))
            self.s.doubt.add(p)

    @enforces("center.refill", "dos.penalty", "bonus.draw")
    def _left_out_steps(self, t: TurnState, kw: dict[str, Any]) -> None:
        """Steps left out whose cards later lines show were taken (R27), and cards set aside for a draw
        no later line made (R44): one finding each, the cards taken as drawn."""
        tb = self.s.table
        for (kind, q), cards in t.reserved.items():
            if cards:
                for b in cards:
                    tb.hands[q][b] += 1
                self.s.hand_changed(q)
                if kind == "penalty":
                    t.penalty_owed = max(0, t.penalty_owed - len(cards))
                else:
                    t.dcm_owed[q] = max(0, t.dcm_owed.get(q, 0) - len(cards))
                t.skipped.append((kind, q, len(cards)))
        t.reserved.clear()
        for kind, who, n in t.skipped:
            rule, what = {
                "refill": ("center.refill", "refill"),
                "penalty": ("dos.penalty", "DOS penalty draw"),
                "dcm": ("bonus.draw", "Double Color Match draw"),
            }[kind]
            self.r.report(
                rule,
                f"the {what} of {plural(n, 'card')}" + (f" by {who}" if who else "") + " is missing: a later line "
                "draws the card below them",
                player=who or t.player,
                expected=owed_line(f"draw {who}" if who else "refill", n),
                found="no line",
                **kw,
            )

    @enforces("center.refill")
    def _missing_refill(self, t: TurnState, kw: dict[str, Any]) -> None:
        """The Center Row not refilled to 2 cards: reported, and the refill taken as made."""
        tb = self.s.table
        if not (t.refill_owed > t.refilled and self.parts.steps.refill_possible()):
            return
        need = t.refill_owed - t.refilled
        self.r.report(
            "center.refill",
            f"after the discard the Center Row held {plural(2 - t.refill_owed, 'card')} and {t.refilled} "
            f"{'was' if t.refilled == 1 else 'were'} refilled: {need} more needed to make 2",
            expected=owed_line("refill", need),
            found="no refill",
            **kw,
        )
        for b in tb.take_owed(need):  # the refill left out happened all the same (one mistake, one finding)
            tb.center.append(CenterCard(b))

    @enforces("bonus.card")
    def _missing_bonus(self, t: TurnState, kw: dict[str, Any]) -> None:
        """Bonus cards earned and not placed."""
        p, owed_bonus = t.player, self.parts.steps.bonus_due()
        if owed_bonus <= 0:
            return
        self.r.report(
            "bonus.card",
            f"{p} earned {plural(t.bonus_earned, 'colour bonus', 'colour bonuses')} and placed {plural(t.bonus_placed, 'card')}",
            expected=f"{plural(owed_bonus, 'more `place C` line')}",
            found="no bonus card",
            **kw,
        )
        # which card went into the Center Row is unknown: a placeholder, and p's hand in doubt
        self.s.table.center.extend(CenterCard(UNKNOWN, src=p) for _ in range(owed_bonus))
        self.s.doubt.add(p)

    @enforces("dos.penalty", "bonus.draw")
    def _missing_end_draws(self, t: TurnState, kw: dict[str, Any], closing) -> None:
        """The DOS penalty of the player on turn and the others' Double Color Match draws, never drawn."""
        p, steps = t.player, self.parts.steps
        can_draw = steps.refill_possible()  # after step 1 this turn's matched cards are in the discard pile
        if t.penalty_owed > 0 and can_draw:
            self.r.report(
                "dos.penalty",
                f"{p} was caught and never drew the {plural(t.penalty_owed, 'penalty card')}",
                expected=owed_line(f"draw {p}", t.penalty_owed),
                found="no penalty draw",
                **kw,
            )
            steps.draw_left_out(p, t.penalty_owed)
        never = None  # the draws were never made, not just left out of the log: asked at the first one missing
        for q in self.s.dcm_order_of[p]:
            if t.dcm_owed.get(q, 0) > 0 and can_draw:
                if never is None:
                    never = self.parts.engine.next_card_is_top(closing)
                self.r.report(
                    "bonus.draw",
                    f"{q} did not draw for {p}'s Double Color Match",
                    player=q,
                    expected=owed_line(f"draw {q}", t.dcm_owed[q]),
                    found="no draw",
                    **kw,
                )
                if not never:
                    steps.draw_left_out(q, t.dcm_owed[q])

    @enforces("bonus.draw", "center.refill", "dos.penalty")
    def round_ended_at_once(self, p: str, kw: dict, closing) -> None:
        """p went out with end-of-turn steps still owed (refill, DOS penalty, the others' Double Color Match
        draws): the round was ended on the line that emptied the hand (an engine with round-end=at-once, V15).
        One finding, for the first step owed; the steps are not taken as made (R55). Unless the `score` line
        counts cards those draws would have brought: then they were left out of the log (R27)."""
        t = self.t
        if isinstance(closing, Turn) or (isinstance(closing, Score) and closing.player != p):
            return  # the round went on, or another player went out: p did not end it, a step was left out (R27)
        if isinstance(closing, Score) and closing.player == p:
            pts = sum(
                value(b) * n for q, h in self.s.table.hands.items() if q != p for b, n in h.items() if b != UNKNOWN
            )
            if pts != closing.points:
                return
        can_draw = self.parts.steps.refill_possible()
        refill = t.refill_owed - t.refilled if can_draw else 0
        dcm = {q: n for q in self.s.dcm_order(p) if (n := t.dcm_owed.get(q, 0)) > 0} if can_draw else {}
        penalty = t.penalty_owed if can_draw else 0
        why = f"{p}'s hand is empty, but the round ends after every step ({self.r.spec.option_ref('round-end', 'end-of-turn')})"
        if refill > 0:
            self.r.report(
                "center.refill",
                f"the Center Row ({plural(len(self.s.table.center), 'card')}) is refilled to 2 first: {why}",
                expected=owed_line("refill", refill),
                found="no refill",
                **kw,
            )
        elif dcm:
            q, n = next(iter(dcm.items()))
            self.r.report(
                "bonus.draw",
                f"{', '.join(dcm)} did not draw for {p}'s Double Color Match: {why}",
                player=q,
                expected=owed_line(f"draw {q}", n),
                found="no draw",
                **kw,
            )
        elif penalty > 0:
            self.r.report(
                "dos.penalty",
                f"{p} was caught and never drew the {plural(penalty, 'penalty card')}: {why}",
                expected=owed_line(f"draw {p}", penalty),
                found="no penalty draw",
                **kw,
            )
        else:
            return
        t.refill_owed, t.penalty_owed = t.refilled, 0
        t.dcm_owed.clear()

    @enforces("bonus.draw")
    def draws_before_end_missing(self, p: str, kw: dict, closing) -> None:
        """dcm-draws=at-once with round-end=at-once (digest, after V17): the match that emptied p's hand
        owed the others' Double Color Match draws, which come before the round ends. One finding for the
        draws left out (none when both piles were empty, V5)."""
        owed = {q: n for q in self.s.dcm_order(p) if (n := self.t.dcm_owed.get(q, 0)) > 0}
        if not owed or not self.parts.steps.refill_possible():
            return
        q, n = next(iter(owed.items()))
        self.r.report(
            "bonus.draw",
            f"{', '.join(owed)} did not draw for {p}'s Double Color Match: under dcm-draws=at-once the draws "
            "belong to the match, so they come before the round ends (round-end=at-once)",
            player=q,
            expected=owed_line(f"draw {q}", n),
            found="no draw",
            **kw,
        )
        self.t.dcm_owed.clear()
        if isinstance(closing, Score) and closing.player == p:
            held = sum(
                value(b) * k for r, h in self.s.table.hands.items() if r != p for b, k in h.items() if b != UNKNOWN
            )
            if held == closing.points:
                return  # the score counts the hands without them: never drawn
        for r, k in owed.items():  # drawn, and left out of the log (R27): the score counts them
            self.parts.steps.draw_left_out(r, k)

    @enforces("reshuffle.when")
    def unneeded_reshuffle(self) -> None:
        """A `reshuffle` that no draw or refill needed at once: it changes which cards form the new pile."""
        ev = self.t.reshuffled
        self.t.reshuffled = None
        self.r.report(
            "reshuffle.when",
            "a reshuffle that no draw or refill needed: the discard pile is turned over only when "
            "a draw or refill finds the draw pile empty, right before it",
            ev,
            expected=UNNEEDED_RESHUFFLE,
            found="reshuffle",
        )
