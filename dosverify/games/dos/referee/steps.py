"""The end of a turn (V7): discard, refill, bonus cards, DOS penalty, the others' draws; and what a turn left undone.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from ....findings import Position
from .part import Part, enforces
from .table import UNKNOWN

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
        s = self.s
        t = s.t
        if t is None or not t.matches:
            return  # before any match the end of the turn has not begun (a reshuffle for the draw after no match)
        tb = s.table
        if tb.pending:
            t.flushed.extend(tb.pending)
            tb.flush_pending()
        if not t.discarded:
            t.discarded = True
            t.refill_owed = max(0, 2 - len(tb.center))
            # a card a match may have covered (R63): one refill card more is allowed, and takes its place
            t.refill_maybe += sum(1 for c in tb.center if c.maybe_gone)

    def refill_possible(self) -> bool:
        tb = self.s.table
        return tb.pile_size > 0 or sum(tb.discard.values()) > 0

    def step(self, ev, n: int, what: str) -> None:
        """Enter end-of-turn step n; report (once a turn) a step that comes before an unfinished earlier one."""
        t = self.t
        self.flush()
        if n > 3:
            self.lapse_bonus()
        missing: int | str | None = None
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
        t = self.t
        due = min(t.bonus_owed(), self.s.table.hand_size(t.player))
        return due if t.bonus_cap is None else max(0, min(due, t.bonus_cap - t.bonus_placed))

    def no_match_place_owed(self) -> bool:
        """The player drew, still made no match and has not yet placed the card that V1 asks for."""
        t = self.t
        return (
            t.drew
            and t.matches == 0
            and not t.action_done
            and self.s.rs.opt("no-match-after-draw") == "place"
            and self.s.table.hand_size(t.player) > 0
        )

    @enforces("turn.steps")
    def arrive(self, key, ev) -> None:
        """A step arrives: if an event came before it too early, report that now, at the early event."""
        t = self.t
        if t.early is None or t.order_reported or t.early[1] != key:
            return
        early, _, message, expected, found = t.early
        t.order_reported = True
        self.r.report(
            "turn.steps",
            f"{message}: the steps run discard, refill, bonus cards, DOS penalty, others' Double Color Match "
            f"draws ({self.r.spec.variant_ref('V7')})",
            early,
            expected=expected,
            found=found,
            related=[Position(line=ev._line, column=ev._column, pointer=ev._pointer)],
        )

    def lapse_bonus(self) -> None:
        """V10: bonuses still owed when the hand is empty at the bonus step lapse silently."""
        t = self.t
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
