"""The end of a turn (V7): discard, refill, bonus cards, DOS penalty, the others' draws; and what a turn left undone.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from ....findings import Position
from ....hints import plural
from ..cards import value
from ..events import Score, Turn
from .part import Part
from .table import UNKNOWN, CenterCard

ORDINAL = {
    2: "the refill",
    3: "the bonus cards",
    "no-match": "the card placed for no match",
    4: "the DOS penalty draws",
    5: "the Double Color Match draws",
}


class Steps(Part):
    """The end-of-turn steps in order (V7) and what a closing turn left undone."""

    def flush(self) -> None:
        """Step 1: this turn's matched cards go to the discard pile; the refill owed is fixed now."""
        t = self.s.t
        if t is None or not t.matches:
            return  # before any match the end of the turn has not begun (a reshuffle for the draw after no match)
        t.flushed.extend(self.s.table.pending)
        self.s.table.flush_pending()
        if not t.discarded:
            t.discarded = True
            t.refill_owed = max(0, 2 - len(self.s.table.center))
            # a card a match may have covered (R63): one refill card more is allowed, and takes its place
            t.refill_maybe += sum(1 for c in self.s.table.center if c.maybe_gone)

    def refill_possible(self) -> bool:
        tb = self.s.table
        return tb.pile_size > 0 or sum(tb.discard.values()) > 0

    def step(self, ev, n: int, what: str) -> None:
        """Enter end-of-turn step n; report (once a turn) a step that comes before an unfinished earlier one."""
        t = self.s.t
        self.flush()
        if n > 3:
            self.lapse_bonus()
        missing = None
        if n > 2 and t.refill_owed > t.refilled and self.refill_possible():
            missing = 2
        elif n > 3 and self.bonus_due() > 0:
            missing = 3
            if t.bonus_cap is None:  # the bonus step is judged by the hand before these drawn cards
                t.bonus_cap = t.bonus_placed + self.s.table.hand_size(t.player)
        elif n > 3 and self.no_match_place_owed():
            missing = "no-match"  # the card placed for no match is step 3 too (V7)
        elif n > 4 and t.penalty_owed > 0:
            missing = 4
        if missing and not t.order_reported and t.early is None:
            # too early, or is the earlier step missing altogether? That is certain only when it comes
            t.early = (ev, missing, f"{what} before {ORDINAL[missing]}", f"{ORDINAL[missing]} first", what)
        t.step = max(t.step, n)

    def bonus_due(self) -> int:
        """Bonus cards still owed: no more than the hand holds, and when cards were drawn before
        the bonus step (reported as too early), no more than the hand held before them."""
        t = self.s.t
        due = min(t.bonus_owed(), self.s.table.hand_size(t.player))
        return due if t.bonus_cap is None else max(0, min(due, t.bonus_cap - t.bonus_placed))

    def no_match_place_owed(self) -> bool:
        """The player drew, still made no match and has not yet placed the card that V1 asks for."""
        t = self.s.t
        return (
            t.drew
            and t.matches == 0
            and not t.action_done
            and self.s.rs.opt("no-match-after-draw") == "place"
            and self.s.table.hand_size(t.player) > 0
        )

    def arrive(self, key, ev) -> None:
        """A step arrives: if an event came before it too early, report that now, at the early event."""
        t = self.s.t
        if t.early is None or t.order_reported or t.early[1] != key:
            return
        early, _, message, expected, found = t.early
        t.order_reported = True
        self.r.report(
            "turn.steps",
            f"{message}: the end of a turn runs discard, refill, bonus cards, DOS penalty, then the "
            "others' Double Color Match draws in seat order (V7)",
            early,
            expected=expected,
            found=found,
            related=[Position(line=ev._line, column=ev._column, pointer=ev._pointer)],
        )

    def lapse_bonus(self) -> None:
        """V10: bonuses still owed when the hand is empty at the bonus step lapse silently."""
        t = self.s.t
        if self.s.table.hand_size(t.player) == 0:
            t.bonus_placed = max(t.bonus_placed, t.bonus_earned)
            t.bonus_maybe = 0

    def draw_left_out(self, q: str, n: int) -> None:
        """A draw the log left out (reported) happened all the same: the top of a known pile, else
        unknown cards, so that the pile and q's hand line up with the lines that follow."""
        for b in self.s.table.take_owed(n):
            self.s.table.hands[q][b] += 1
            if b == UNKNOWN:  # cards nobody saw: q's hand is in doubt, its score taken as written (R28)
                self.s.doubt.add(q)
        self.s.hand_changed(q)

    def round_ended_at_once(self, p: str, kw: dict, closing) -> None:
        """p went out with end-of-turn steps still owed (refill, DOS penalty, the others' Double Color Match
        draws): the round was ended on the line that emptied the hand (an engine with round-end=at-once, V15).
        One finding, for the first step owed; the steps are not taken as made (R55). Unless the `score` line
        counts cards those draws would have brought: then they were left out of the log (R27)."""
        t = self.s.t
        if isinstance(closing, Turn) or (isinstance(closing, Score) and closing.player != p):
            return  # the round went on, or another player went out: p did not end it, a step was left out (R27)
        if isinstance(closing, Score) and closing.player == p:
            pts = sum(
                value(b) * n for q, h in self.s.table.hands.items() if q != p for b, n in h.items() if b != UNKNOWN
            )
            if pts != closing.points:
                return
        can_draw = self.refill_possible()
        refill = t.refill_owed - t.refilled if can_draw else 0
        dcm = {q: n for q in self.s.dcm_order(p) if (n := t.dcm_owed.get(q, 0)) > 0} if can_draw else {}
        penalty = t.penalty_owed if can_draw else 0
        why = (
            f"{p}'s hand is empty, but the round ends when the turn ends, after every step (round-end=end-of-turn, V11)"
        )
        if refill > 0:
            self.r.report(
                "center.refill",
                f"the Center Row is left with {plural(len(self.s.table.center), 'card')}: {why}, "
                f"and the refill to 2 comes first",
                expected="refill " + " ".join(["C"] * refill),
                found="no refill",
                **kw,
            )
        elif dcm:
            q, n = next(iter(dcm.items()))
            self.r.report(
                "bonus.draw",
                f"{', '.join(dcm)} did not draw for {p}'s Double Color Match: {why}",
                player=q,
                expected=f"draw {q} " + " ".join(["C"] * n),
                found="no draw",
                **kw,
            )
        elif penalty > 0:
            self.r.report(
                "dos.penalty",
                f"{p} was caught and never drew the {plural(penalty, 'penalty card')}: {why}",
                expected=f"draw {p} " + " ".join(["C"] * penalty),
                found="no penalty draw",
                **kw,
            )
        else:
            return
        t.refill_owed, t.penalty_owed = t.refilled, 0
        t.dcm_owed.clear()

    def draws_before_end_missing(self, p: str, kw: dict, closing) -> None:
        """dcm-draws=at-once with round-end=at-once (digest, after V17): the match that emptied p's hand
        owed the others' Double Color Match draws, which come before the round ends. One finding for the
        draws left out (none when both piles were empty, V5)."""
        owed = {q: n for q in self.s.dcm_order(p) if (n := self.s.t.dcm_owed.get(q, 0)) > 0}
        if not owed or not self.refill_possible():
            return
        q, n = next(iter(owed.items()))
        self.r.report(
            "bonus.draw",
            f"{', '.join(owed)} did not draw for {p}'s Double Color Match: under dcm-draws=at-once the draws "
            "belong to the match, so they come before the round ends (round-end=at-once)",
            player=q,
            expected=f"draw {q} " + " ".join(["C"] * n),
            found="no draw",
            **kw,
        )
        self.s.t.dcm_owed.clear()
        if isinstance(closing, Score) and closing.player == p:
            held = sum(
                value(b) * k for r, h in self.s.table.hands.items() if r != p for b, k in h.items() if b != UNKNOWN
            )
            if held == closing.points:
                return  # the score counts the hands without them: never drawn
        for r, k in owed.items():  # drawn, and left out of the log (R27): the score counts them
            self.draw_left_out(r, k)

    def close_turn(self, closing) -> None:
        """The turn ends at `closing` (the next turn, score, round) or at the end of the log."""
        t = self.s.t
        if t is None:
            return
        self.s.t = t  # findings below still belong to the closing turn
        tb = self.s.table
        line = closing._line if closing is not None else self.s.log._end_line
        ptr = closing._pointer if closing is not None else None
        kw = dict(line=line, pointer=ptr, related_to=t.turn)
        p = t.player
        if t.reshuffled is not None:
            self.parts.draws.unneeded_reshuffle()
        if t.end_after_draws is not None:  # V12 + V15: the turn closes on the at-once draws of the last match
            self.draws_before_end_missing(p, kw, closing)
            t.ended, t.end_after_draws = t.end_after_draws, None
        if t.ended is not None:  # round-end=at-once (V15): no refill, no later step
            self.s.round_over = True
            self.s.round_winner = p
            self.s.t = None
            if self.s.watch is not None:
                self.s.watch()
            return
        can_draw = self.refill_possible()  # V5: with both piles empty nothing is drawn, and nothing is owed
        if t.immediate and can_draw:
            q, n = t.immediate
            self.r.report(
                "dos.penalty",
                f"{q} was caught and never drew the {plural(n, 'penalty card')}",
                player=q,
                expected=f"draw {q} " + " ".join(["C"] * n),
                found="no penalty draw",
                **kw,
            )
            self.draw_left_out(q, n)
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
        self.flush()
        for (kind, q), cards in t.reserved.items():  # cards set aside for a draw no later line made: left out (R27)
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
        for kind, q, n in t.skipped:  # steps left out whose cards later lines show were taken (R27)
            rule, what = {
                "refill": ("center.refill", "refill"),
                "penalty": ("dos.penalty", "DOS penalty draw"),
                "dcm": ("bonus.draw", "Double Color Match draw"),
            }[kind]
            self.r.report(
                rule,
                f"the {what} of {plural(n, 'card')}" + (f" by {q}" if q else "") + " is missing: a later line "
                "draws the card below them",
                player=q or p,
                expected=(f"draw {q} " if q else "refill ") + " ".join(["C"] * n),
                found="no line",
                **kw,
            )
        if tb.hand_size(p) == 0:
            self.round_ended_at_once(p, kw, closing)
        if t.refill_owed > t.refilled and self.refill_possible():
            need = t.refill_owed - t.refilled
            self.r.report(
                "center.refill",
                f"after the discard the Center Row held {plural(2 - t.refill_owed, 'card')} and {t.refilled} "
                f"{'was' if t.refilled == 1 else 'were'} refilled: {need} more needed to make 2",
                expected="refill " + " ".join(["C"] * need),
                found="no refill",
                **kw,
            )
            for b in tb.take_owed(need):  # the refill left out happened all the same (one mistake, one finding)
                tb.center.append(CenterCard(b))
        self.lapse_bonus()
        owed_bonus = self.bonus_due()
        if owed_bonus > 0:
            self.r.report(
                "bonus.card",
                f"{p} earned {plural(t.bonus_earned, 'colour bonus', 'colour bonuses')} and placed {plural(t.bonus_placed, 'card')}",
                expected=f"{plural(owed_bonus, 'more `place C` line')}",
                found="no bonus card",
                **kw,
            )
            # which card went into the Center Row is unknown: a placeholder, and p's hand in doubt
            tb.center.extend(CenterCard(UNKNOWN, src=p) for _ in range(owed_bonus))
            self.s.doubt.add(p)
        can_draw = self.refill_possible()  # after step 1 this turn's matched cards are in the discard pile
        if t.penalty_owed > 0 and can_draw:
            self.r.report(
                "dos.penalty",
                f"{p} was caught and never drew the {plural(t.penalty_owed, 'penalty card')}",
                expected=f"draw {p} " + " ".join(["C"] * t.penalty_owed),
                found="no penalty draw",
                **kw,
            )
            self.draw_left_out(p, t.penalty_owed)
        never = self.parts.engine.next_card_is_top(closing)  # the draws were never made, not just left out of the log
        for q in self.s.dcm_order(p):
            if t.dcm_owed.get(q, 0) > 0 and can_draw:
                self.r.report(
                    "bonus.draw",
                    f"{q} did not draw for {p}'s Double Color Match",
                    player=q,
                    expected=f"draw {q} " + " ".join(["C"] * t.dcm_owed[q]),
                    found="no draw",
                    **kw,
                )
                if not never:
                    self.draw_left_out(q, t.dcm_owed[q])
        if tb.hand_size(p) == 0:
            self.s.round_over = True
            self.s.round_winner = p
        self.s.t = None
        if self.s.watch is not None:
            self.s.watch()
