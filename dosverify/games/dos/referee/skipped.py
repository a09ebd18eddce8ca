"""A line the reader skipped for an unreadable card, taken as made (R54, R93): the turn goes on from the
state the line most likely left, so one slip is one finding (the reader's), not a cascade."""

from __future__ import annotations

from ..cards import parse_card
from .matching import judge_codes
from .part import Part
from .table import UNKNOWN, CenterCard


class Skipped(Part):
    """Applies a skipped `match`, `place` or `refill` line to the state; reports nothing (the reader did)."""

    uses = ("steps",)

    def skipped_line(self, kw: str, n: int, words: tuple[str, ...] = ()) -> None:
        """R54: a `place` or `refill` line skipped for an unreadable card is taken as made: a card
        of the hand into the Center Row (unnamed, as a bonus card left out, R27), or n cards off the pile;
        R93: a `match` line, as a match of the player's cards (those unreadable unknown)."""
        t, tb = self.t, self.s.table
        if kw == "match":
            self._skipped_match(words)
        elif kw == "place":
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            elif t.bonus_maybe > 0:
                t.bonus_maybe -= 1
            elif t.drew and t.matches == 0:
                t.action_done = True
            tb.center.append(CenterCard(UNKNOWN, src=t.player))
            self.s.doubt.add(t.player)
        else:
            self.parts.steps.flush()
            t.step = max(t.step, 2)
            got = tb.take_owed(max(1, n))
            tb.center.extend(CenterCard(b, refilled=True) for b in got)
            t.refilled += len(got)

    def _skipped_match(self, words: tuple[str, ...]) -> None:
        """R93: a `match` line skipped for an unreadable card word is taken as made. The row card named
        leaves the row (not in it, or unreadable: the first row card is marked, to leave when the refill
        shows it covered, R63); each readable card the player holds leaves the hand, and for each other word
        one card of the hand, unknown which: one is taken out (one that makes the match add up, where one
        does), the others may be it (R42's cards that may not be in the hand). The hand is in doubt (R28),
        and the bonus is R1's: it may be honoured or not."""
        s, t = self.s, self.t
        tb, p = s.table, t.player
        target, cards = (words[0], words[1:]) if words else ("", ())

        def base(code: str) -> str | None:
            try:
                return parse_card(code).base
            except ValueError:
                return None

        t.matches += 1
        if t.drew:
            t.matches_after_draw += 1
        named = base(target)
        known = [b for b in map(base, cards) if b is not None]
        row = [c for c in tb.center if not c.refilled and c.base != UNKNOWN and not c.maybe_gone]
        slot = next((c for c in row if c.base == named), None)
        if slot is None and named is None and len(known) == len(cards):  # the cards tell which (R63)
            slot = next((c for c in row if judge_codes(c.base, tuple(cards)).ok), None)
        if slot is not None:
            t.matched_targets[slot.base] = t.matched_targets.get(slot.base, 0) + 1
            tb.center.remove(slot)
            tb.pending.append(slot.base)
        elif row:
            row[0].maybe_gone = True
        hand = tb.hands[p]
        unread = len(cards) - len(known)
        for b in known:
            if hand.get(b, 0) > 0:
                tb.remove_from_hand(p, b)
                tb.pending.append(b)
            else:
                unread += 1
        for _ in range(unread):
            if not hand:
                break
            held = sorted(hand)
            fit = None
            if named is not None and unread == 1:
                fit = next((y for y in held if y != UNKNOWN and judge_codes(target, (*known, y)).ok), None)
            y = fit or (UNKNOWN if UNKNOWN in hand else held[0])
            tb.remove_from_hand(p, y)
            tb.phantoms[p].update({x: k for x, k in hand.items() if x != UNKNOWN})
            tb.pending.append(UNKNOWN)
        s.doubt.add(p)
        s.hand_changed(p)
        if len(cards) <= 2:  # R1: a bonus the real cards may have earned, not judged
            t.bonus_maybe += 1
            if len(cards) == 2:
                for q in s.from_left[p]:
                    t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + 1
        if s.discard_at_once:
            tb.flush_pending()
