"""A `match` line: the Center Row card it covers, what its cards add up to, and the bonus and Double
Color Match draws it earns (digest section 3; READINGS R42, R47, R62, R63). The hand cards it plays
leave the hand in :mod:`.handcards`.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ..cards import parse_card
from ..events import Match
from .matching import MatchJudgement as Judgement
from .matching import judge_codes
from .matchline import MatchLine
from .part import Part, enforces
from .table import UNKNOWN


class Matches(Part):
    """Judges a `match` line of the player on turn, and applies it as written where it can."""

    uses = ("engine", "facedown", "handcards", "meant", "plays")

    def on_match(self, ev: Match) -> None:
        # the hot path of a log: each check is called only when its cheap condition holds (tested here)
        parts, s = self.parts, self.s
        plays = parts.plays
        if s.lazy_skip is not None:
            plays.lazy_penalty_shown(self.t.player, ev.cards)
        if s.table.swaps:
            self._take_swapped(ev)
        if (
            (nxt := parts.engine.turn_seems_missing(ev, ev.cards)) is not None
            and not parts.meant.slip_in_turn(ev)
            and not (ev is s.fork_line and s.fork_take == "R42")  # R98: the reading of fewer findings
        ):
            plays.start_implied_turn(nxt, ev)
        t = s.t  # (start_implied_turn may have begun another turn)
        assert t is not None  # a match line is played within a turn
        m = self._read(ev)
        if t.dcm_draw_ev is not None and not t.order_reported:
            self._dcm_draw_before(ev)
        if m.only_refilled and self._refilled_target(m):
            return
        if t.step >= 2 or t.action_done:
            self._after_phase(m)
        if t.drew:
            self._after_draw(m)
        if m.slot is None and not self._cover(m):
            return
        parts.handcards.take(m)
        s.hand_changed(m.player)
        self._apply(m, self._judge(m))

    def _take_swapped(self, ev: Match) -> None:
        """A card p lacks, where a draw.top wrote another: p took this one (R40). Called when swaps exist."""
        tb = self.s.table
        t = self.t
        hand = tb.hands[t.player]
        for c in ev.cards:
            if hand.get(b := parse_card(c).base, 0) <= 0:
                x = tb.unswap(None, t.player, b)
                if x is not None and t.drawn_card == x:
                    t.drawn_card = b  # the draw after no match took this card

    def _read(self, ev: Match) -> MatchLine:
        """The line's cards, and the held cards meant where they are written wrong."""
        s = self.s
        tb, p = s.table, self.t.player
        hand, doubted = tb.hands[p], p in s.doubt
        cards = [parse_card(c) for c in ev.cards]
        meant: dict[int, str] = {}
        if not doubted:
            for card in cards:  # the held card a typo stands for: only where p lacks a card written (likely_meant)
                if hand.get(card.base, 0) <= 0:
                    meant = self.parts.meant.likely_meant(ev, p)
                    break
        m = MatchLine(ev, p, parse_card(ev.target), cards, judge_codes(ev.target, tuple(ev.cards)), meant)
        # a match that does not add up, with cards p holds: the held card meant instead (R42), or which
        # written cards are in doubt (they reach the discard pile as unknown cards) and the cards that may be them
        if (
            not meant
            and not m.written.ok
            and not doubted
            and UNKNOWN not in hand
            and not (Counter(c.base for c in cards) - hand)
        ):
            m.held_meant, m.uncertain = self.parts.meant.held_fits(ev, p)
        # the Center Row card covered: the first of that card not refilled this turn (one loop, no genexpr:
        # this runs for every match); only_refilled when the row holds that card only as one refilled
        base, refilled = m.target.base, False
        for c in tb.center:
            if c.base == base:
                if not c.refilled:
                    if c.guess is not None or c.maybe_was is not None:
                        # a card nobody could check, or a guess: a twin the log showed is the one covered (R87)
                        c = next((d for d in tb.center if d.base == base and d.guess is None and not d.refilled), c)
                    m.slot = c
                    return m
                refilled = True
        m.only_refilled = refilled
        return m

    @enforces("bonus.draw-time")
    def _dcm_draw_before(self, ev: Match) -> None:
        """dcm-draws=end-of-turn (V12): a Double Color Match draw was made before this match."""
        t = self.t
        if t.dcm_draw_ev is None or t.order_reported:
            return
        t.order_reported = True
        self.r.report(
            "bonus.draw-time",
            "a Double Color Match draw before a later match of the turn: the others draw "
            "at the end of the turn (dcm-draws=end-of-turn)",
            t.dcm_draw_ev,
            expected="the draw after the turn's last match and the refill, bonus and penalty steps",
            found="the draw before a match",
            related_to=ev,
        )

    @enforces("match.refilled")
    def _refilled_target(self, m: MatchLine) -> bool:
        """A match on a card refilled this turn: reported and taken back (R47); True when it was."""
        tb, ev = self.s.table, m.ev
        if not m.only_refilled or any(c.base == UNKNOWN for c in tb.center):
            return False
        # R47: a match the rules forbid outright is taken back (the card stays in the Center Row, the
        # player's cards in hand): the later lines were written without it
        self.r.report(
            "match.refilled",
            f"{m.target.base} was refilled this turn and cannot be matched until the next",
            ev,
            "target",
            expected="a Center Row card that was there before the refill",
            found=ev.target,
        )
        slot = next(c for c in tb.center if c.base == m.target.base and c.refilled)
        self.t.taken_back.append((slot, [parse_card(m.meant.get(i, c)).base for i, c in enumerate(ev.cards)]))
        return True

    @enforces("turn.steps")
    def _after_phase(self, m: MatchLine) -> None:
        """A match after the refill, a bonus card or the card placed for no match (V7)."""
        t = self.t
        if not (t.step >= 2 or t.action_done):
            return
        if not m.only_refilled and not t.order_reported:
            t.order_reported = True
            self.r.report(
                "turn.steps",
                "a match after the turn's matching phase ended",
                m.ev,
                expected="matches before the refill, bonus cards and draws",
                found="match",
            )
            m.reported = True

    @enforces("match.after-draw")
    def _after_draw(self, m: MatchLine) -> None:
        """after-draw-match=drawn-only: after the draw only the drawn card, in one single match."""
        t, ev, cards = self.t, m.ev, m.cards
        if not t.drew or self.s.rs.opt("after-draw-match") != "drawn-only" or m.reported:
            return
        if (
            t.drawn_card == UNKNOWN
            and len(cards) == 1
            and t.matches_after_draw == 0
            and cards[0].base not in self.s.table.hands[m.player]
        ):
            self.parts.facedown.unverify("match.after-draw")  # the drawn card is face down: the choice decides it
            return
        # the card meant, where a typo was inferred
        played = parse_card(m.meant.get(0, m.held_meant.get(0, ev.cards[0]))).base
        if len(cards) != 1 or played != t.drawn_card or t.matches_after_draw >= 1:
            self.r.report(
                "match.after-draw",
                "after the draw only the drawn card may be matched, in one single match (after-draw-match=drawn-only)",
                ev,
                "cards",
                0,
                expected=f"match X with {t.drawn_card}" if t.drawn_card else "no match",
                found=" + ".join(ev.cards),
            )
            m.reported = True

    @enforces("match.once", "match.center")
    def _cover(self, m: MatchLine) -> bool:
        """The Center Row card covered where the row holds none of the card named but refilled ones
        (`_read` found none; a card matched this turn has left the row already); False when the line
        cannot have happened."""
        tb, ev, base = self.s.table, m.ev, m.target.base
        if (ph := next((c for c in tb.center if c.base == UNKNOWN), None)) is not None:
            m.slot = ph  # a refill or bonus card the log left out (reported) brought this card: it is the one matched
            ph.base = base
            if ph.src is not None and not tb.remove_from_hand(ph.src, base):
                pass  # a card from a hand in doubt: taken as it is
            elif ph.src is None:
                tb.remove_from_pile(base)
        if m.slot is None:
            m.slot = self.parts.meant.shown_in_row(base)  # a card an earlier finding's guess put there (R76, ...)
        if m.slot is not None:
            return True
        if not self.t.matched_targets.get(base) and self.s.guessed_covers:
            m.slot = self.parts.meant.covered_instead(base)  # R88: an earlier turn's match R63 read as covering it
            if m.slot is not None:
                return True
        if self.t.matched_targets.get(base):
            m.slot = self.parts.meant.covered_instead(base)
            if m.slot is not None:
                return True  # R79: an earlier match R63 read as covering this card covered another
            self.r.report(
                "match.once",
                f"{base} was already matched this turn: each Center Row card is matched once",
                ev,
                "target",
                expected="a Center Row card not yet matched",
                found=ev.target,
            )
            # nothing lies there to cover: the line cannot have happened, and the cards stay in the
            # hand (R39), so that the later lines that play them are not judged against a hand short of them;
            # a row card they match may be the one meant: it leaves the row if the refill shows it covered (R63)
            self.parts.meant.maybe_meant_row_card(ev)
            return False
        self.r.report(
            "match.center",
            f"there is no {base} in the Center Row",
            ev,
            "target",
            expected="one of " + " ".join(c.base for c in tb.center) if tb.center else "a card of the Center Row",
            found=ev.target,
        )
        # R63: a card of the row was covered all the same (the later refill and matches show it):
        # one the hand cards match (none: nothing was covered); which one, and its bonus, stay unsure
        m.slot = self.parts.meant.meant_center(ev)
        m.unsure = m.slot is not None
        if m.slot is not None:
            self.s.guessed_covers[m.slot.base] = ev
            if m.held_meant and judge_codes(m.slot.base, tuple(ev.cards)).ok:
                # R84: the cards as written match the row card covered: they were played, not held cards
                # that add up to the card named (R42 judged them against a card that is not there)
                m.held_meant, m.uncertain = {}, {}
        m.reported = True
        return True

    @enforces("match.single", "match.double", "match.two-cards", "wild.declaration")
    def _judge(self, m: MatchLine) -> Judgement:
        """What the cards played add up to (matching.py judges; the rule broken is its finding)."""
        ev = m.ev
        if not m.meant and not m.held_meant:  # the cards as written: judged already
            j = m.written
        else:
            j = judge_codes(ev.target, tuple(m.meant.get(i, m.held_meant.get(i, c)) for i, c in enumerate(ev.cards)))
        if m.held_meant:
            i, y = next(iter(m.held_meant.items()))
            assert m.written.rule is not None  # a match that does not add up names the rule it breaks
            self.r.report(
                m.written.rule,
                f"{m.written.message}; {y}, which {m.player} holds, seems meant",
                ev,
                "cards",
                i,
                expected=y,
                found=" + ".join(ev.cards),
            )
            m.reported = True
        elif not j.ok:
            assert j.rule is not None
            self.r.report(j.rule, j.message, ev, "cards", 0, expected=j.expected, found=" + ".join(ev.cards))
            m.unsure = True  # R1: which card was meant is unknown, and so is the bonus it earned
            self.parts.meant.maybe_covered(ev)  # and which row card it covered (R85)
        return j

    def _apply(self, m: MatchLine, j: Judgement) -> None:
        """The match made: the row card leaves for the discard, and the bonus and draws it earns are owed."""
        s = self.s
        t, tb, p, n = s.t, s.table, m.player, len(m.cards)
        assert t is not None  # a match line is played within a turn
        t.matches += 1
        if t.drew:
            t.matches_after_draw += 1
        if (slot := m.slot) is not None:
            b = slot.base
            t.matched_targets[b] = t.matched_targets.get(b, 0) + 1
            tb.center.remove(slot)  # CenterCard compares by identity: this is the very card
            tb.pending.append(b)
            if t.discarded:  # a match after the refill began (reported): refilling again is allowed, not owed
                t.refill_maybe = max(t.refill_maybe, t.refilled + max(0, 2 - len(tb.center)) - t.refill_owed)
        if m.unsure and not j.colour and n <= 2:  # R1: a bonus the real card may have earned, not judged
            t.bonus_maybe += 1
            if n == 2:
                for q in s.from_left[p]:
                    t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + 1
        if j.colour and n <= 2:
            self._owe_bonus(j, certain=j.ok and not m.reported)
        if s.discard_at_once:
            tb.flush_pending()  # V17: the matched cards reach the discard pile at once
        if s.end_at_once and tb.hand_size(p) == 0:
            if t.dcm_now and any(k > 0 for k in t.dcm_owed.values()):
                t.end_after_draws = m.ev  # V12 + V15: the at-once draws belong to the match, then the round ends
            else:
                t.ended = m.ev  # V15: the round ends on this line

    def _owe_bonus(self, j: Judgement, certain: bool) -> None:
        """A colour match earns a bonus card; a Double Color Match, a draw of each other player (V12, V13)."""
        t = self.t
        if not j.double and self.s.rs.opt("single-color-bonus") == "optional":
            t.bonus_maybe += 1  # bonus.card: S3's Single Color Match card may be placed, or not
        elif certain:
            t.bonus_earned += 1
        else:
            t.bonus_maybe += 1
        if j.double:
            t.dcm += 1
            owed = t.dcm_owed if certain else t.dcm_maybe
            for q in self.s.dcm_order(t.player):
                owed[q] = owed.get(q, 0) + 1
            if certain and self.s.rs.opt("dcm-draws") == "at-once":
                t.dcm_now = True
