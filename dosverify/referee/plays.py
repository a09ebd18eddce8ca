"""What the player on turn does with cards: matches, the card placed after a fruitless draw or as a bonus, `pass`.

A part of :class:`dosverify.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ..cards import parse_card
from ..events import Match, Pass, Place
from ..hints import plural
from .matching import judge_codes
from .table import UNKNOWN, CenterCard
from .turn import TurnState


class PlaysMixin:
    def likely_meant(self, ev: Match, p: str) -> dict[int, str]:
        """For the cards of a match that p does not hold: the one held card each most likely
        stands for (a typo of colour or number), when exactly one makes the match legal."""
        hand = self.table.hands[p]
        missing = [i for i, c in enumerate(ev.cards) if hand.get(parse_card(c).base, 0) <= 0]
        if len(missing) != 1 or hand.get(UNKNOWN):
            return {}
        i = missing[0]
        x = parse_card(ev.cards[i])
        if x.decl is not None:
            return {}
        rest = [parse_card(c).base for j, c in enumerate(ev.cards) if j != i]
        fits = []
        for y in sorted(hand):
            if hand[y] - rest.count(y) <= 0 or parse_card(y).decl is not None or y in ("W2",) or y.endswith("#"):
                continue
            codes = list(ev.cards)
            codes[i] = y
            if judge_codes(ev.target, tuple(codes)).ok and (y[0] == x.base[0] or y[1:] == x.base[1:]):
                fits.append(y)
        return {i: fits[0]} if len(fits) == 1 else {}

    def turn_seems_missing(self, ev, cards: list[str]) -> str | None:
        """The next player, when this line plainly starts their turn: the player on turn has
        played already and lacks these cards, which the next player holds."""
        t, tb = self.t, self.table
        if not (t.matches or t.action_done):  # after a bare draw the player on turn may still match
            return None
        nxt = self.left(t.player)
        if len(cards) == 1:  # the common case, without a Counter
            b = parse_card(cards[0]).base
            if tb.hands[t.player].get(b, 0) >= 1:
                return None
            return nxt if tb.hands[nxt].get(b, 0) >= 1 else None
        need = Counter(parse_card(c).base for c in cards)
        if not cards or all(tb.hands[t.player].get(b, 0) >= n for b, n in need.items()):
            return None
        if all(tb.hands[nxt].get(b, 0) >= n for b, n in need.items()):
            return nxt
        return None

    def start_implied_turn(self, p: str, ev) -> None:
        """A `turn P` line seems left out before ev: report it once, end the turn before, start P's."""
        turn = self.t.turn
        self.report("turn.order", f"{p}'s turn seems to be missing: a `turn {p}` line before this one", ev,
                    player=p, expected=f"turn {p}", found=f"`{ev.type}` in {self.t.player}'s turn")
        self.close_turn(ev)
        self.turn_no += 1
        self.turns_seen += 1
        self.prev_player = p
        for c in self.table.center:
            c.refilled = False
        self.t = TurnState(p, turn)

    def on_match(self, ev: Match) -> None:
        if (nxt := self.turn_seems_missing(ev, ev.cards)) is not None:
            self.start_implied_turn(nxt, ev)
        t, tb = self.t, self.table
        p = t.player
        meant = {} if p in self.doubt else self.likely_meant(ev, p)
        target = parse_card(ev.target)
        cards = [parse_card(c) for c in ev.cards]
        reported = False
        if t.dcm_draw_ev is not None and not t.order_reported:
            # dcm-draws=end-of-turn (V12): a Double Color Match draw was made before this match
            t.order_reported = True
            self.report("bonus.draw-time", "a Double Color Match draw before a later match of the turn: the others draw "
                        "at the end of the turn (dcm-draws=end-of-turn)", t.dcm_draw_ev,
                        expected="the draw after the turn's last match and the refill, bonus and penalty steps",
                        found="the draw before a match", related_to=ev)
        unsure = False
        if t.step >= 2 or t.action_done:
            refilled_only = any(c.base == target.base and c.refilled for c in tb.center) and not any(
                c.base == target.base and not c.refilled for c in tb.center)
            if not refilled_only and not t.order_reported:
                t.order_reported = True
                self.report("turn.steps", "a match after the turn's matching phase ended", ev,
                            expected="matches before the refill, bonus cards and draws", found="match")
                reported = True
        if (t.drew and self.rs.opt("after-draw-match") == "drawn-only" and not reported and t.drawn_card == UNKNOWN
                and len(cards) == 1 and t.matches_after_draw == 0 and cards[0].base not in tb.hands[p]):
            self.unverify("match.after-draw")  # the drawn card is face down: the choice decides it
        elif t.drew and self.rs.opt("after-draw-match") == "drawn-only" and not reported:
            played = parse_card(meant.get(0, ev.cards[0])).base  # the card meant, where a typo was inferred
            if len(cards) != 1 or played != t.drawn_card or t.matches_after_draw >= 1:
                self.report("match.after-draw", "after the draw only the drawn card may be matched, in one single match "
                            "(after-draw-match=drawn-only)", ev, "cards", 0,
                            expected=f"match X with {t.drawn_card}" if t.drawn_card else "no match", found=" + ".join(ev.cards))
                reported = True
        # the Center Row card (a card matched this turn has left the row already)
        slot = None
        base = target.base
        for c in tb.center:
            if c.base == base and not c.refilled:
                slot = c
                break
        if slot is None and (ph := next((c for c in tb.center if c.base == UNKNOWN), None)) is not None:
            slot = ph  # a refill or bonus card the log left out (reported) brought this card: it is the one matched
            ph.base = target.base
            if ph.src is not None and not tb.remove_from_hand(ph.src, target.base):
                pass  # a card from a hand in doubt: taken as it is
            elif ph.src is None:
                tb.remove_from_pile(target.base)
        if slot is None:
            if any(c.base == target.base and c.refilled for c in tb.center):  # the copy lying there now was refilled
                self.report("match.refilled", f"{target.base} was refilled this turn and cannot be matched until the next",
                            ev, "target", expected="a Center Row card that was there before the refill", found=ev.target)
                slot = next(c for c in tb.center if c.base == target.base and c.refilled)  # applied as written
            elif t.matched_targets.get(target.base):
                self.report("match.once", f"{target.base} was already matched this turn: each Center Row card is matched once",
                            ev, "target", expected="a Center Row card not yet matched", found=ev.target)
            else:
                self.report("match.center", f"there is no {target.base} in the Center Row", ev, "target",
                            expected="one of " + " ".join(c.base for c in tb.center) if tb.center else "a card of the Center Row",
                            found=ev.target)
            reported = True
        # the hand cards
        for i, c in enumerate(cards):
            if i in meant:  # a typo: the held card it stands for is the one played
                self.report("match.held", f"{p} does not hold {c.base}: {meant[i]}, which {p} holds, seems meant", ev,
                            "cards", i, expected=meant[i], found=c.code)
                tb.remove_from_hand(p, meant[i])
                tb.pending.append(meant[i])
                reported = True
                continue
            if tb.remove_from_hand(p, c.base):
                if tb.from_hidden:
                    self.hidden_reveal(p, c.base, ev, "cards", i, "match.held")
            else:
                unsure = True  # which card was really played is unknown: so is its colour bonus
                where = tb.where(c.base)
                self.report("match.held", f"{p} does not hold {c.base}" + (f" (it is in {where})" if where != "nowhere seen" else ""), ev, "cards", i,
                            expected="a card from " + (" ".join(sorted(tb.hands[p].elements())) or "an empty hand"), found=c.code)
                reported = True
            tb.pending.append(c.base)
        self.hand_changed(p)
        j = judge_codes(ev.target, tuple(meant.get(i, c) for i, c in enumerate(ev.cards)))
        if not j.ok:
            field, idx = ("cards", 0)
            self.report(j.rule, j.message, ev, field, idx, expected=j.expected, found=" + ".join(ev.cards))
        t.matches += 1
        if t.drew:
            t.matches_after_draw += 1
        if slot is not None:
            t.matched_targets[slot.base] = t.matched_targets.get(slot.base, 0) + 1
            tb.center.remove(slot)  # CenterCard compares by identity: this is the very card
            tb.pending.append(slot.base)
            if t.discarded:  # a match after the refill began (reported): refilling again is allowed, not owed
                t.refill_maybe = max(t.refill_maybe, t.refilled + max(0, 2 - len(tb.center)) - t.refill_owed)
        if unsure and not j.colour and len(cards) <= 2:  # R1: a bonus the real card may have earned, not judged
            t.bonus_maybe += 1
            if len(cards) == 2:
                for q in self._seats_from_left(p):
                    t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + 1
        if j.colour and len(cards) <= 2:
            certain = j.ok and not reported
            if not j.double and self.rs.opt("single-color-bonus") == "optional":
                t.bonus_maybe += 1  # bonus.card: S3's Single Color Match card may be placed, or not
            elif certain:
                t.bonus_earned += 1
            else:
                t.bonus_maybe += 1
            if j.double:
                t.dcm += 1
                owed = t.dcm_owed if certain else t.dcm_maybe
                for q in self.dcm_order(p):
                    owed[q] = owed.get(q, 0) + 1
                if certain and self.rs.opt("dcm-draws") == "at-once":
                    t.dcm_now = True
        if self.rs.opt("discard-matched") == "at-once":
            tb.flush_pending()  # V17: the matched cards reach the discard pile at once
        if self.rs.opt("round-end") == "at-once" and tb.hand_size(p) == 0:
            t.ended = ev  # V15: the round ends on this line

    def on_place(self, ev: Place) -> None:
        t, tb = self.t, self.table
        p = t.player
        card = parse_card(ev.card)
        if card.decl is not None:
            self.report("wild.declaration", f"{ev.card}: a declaration is made only when a wild card is matched", ev, "card",
                        expected=card.base, found=ev.card)
        if t.bonus_owed() > 0 or t.bonus_maybe > 0:
            self.step(ev, 3, "a bonus card")
            self.arrive(3, ev)
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            else:
                t.bonus_maybe -= 1
        elif not t.drew and t.matches == 0 and not t.action_done and t.step == 0 and self.refill_possible():
            self.report("draw.no-match", f"{p} places a card without having matched or drawn: a player who makes no match "
                        "draws one card first", ev, expected="draw C, then place", found=f"place {ev.card}")
            t.drew = t.action_done = True
        elif (t.drew or not self.refill_possible()) and t.matches == 0 and not t.action_done:
            if self.rs.opt("no-match-after-draw") == "pass":
                self.report("place.no-match", "under this ruleset a player who still cannot match keeps the card and passes "
                            "(no-match-after-draw=pass)", ev, expected="pass", found=f"place {ev.card}")
            else:
                self.arrive("no-match", ev)  # a DOS penalty drawn before it came too early (V7, turn.steps)
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
            self.report("bonus.card", f"a card placed that was never earned: {msg}", ev, "card",
                        expected="no place", found=f"place {ev.card}")
        if tb.remove_from_hand(p, card.base):
            if tb.from_hidden:
                self.hidden_reveal(p, card.base, ev, "card", None, "cards.held")
        else:
            self.report("cards.held", f"{p} does not hold {card.base}", ev, "card",
                        expected="a card from " + (" ".join(sorted(tb.hands[p].elements())) or "an empty hand"), found=ev.card)
        self.hand_changed(p)
        tb.center.append(CenterCard(card.base))
        if self.rs.opt("round-end") == "at-once" and tb.hand_size(p) == 0:
            t.ended = ev  # V15: the round ends on this line

    def on_pass(self, ev: Pass) -> None:
        t = self.t
        if self.rs.opt("no-match-after-draw") != "pass":
            self.report("turn.pass", "this ruleset has no `pass`: a player who cannot match after the draw puts a card into "
                        "the Center Row (no-match-after-draw=place)", ev, expected="place C", found="pass")
        elif not ((t.drew or not self.refill_possible()) and t.matches == 0) or t.action_done:
            # with both piles empty the draw cannot happen (V5): the pass follows no draw, as a place does
            self.report("turn.pass", "`pass` ends a turn only after a draw that brought no match", ev,
                        expected="a match, or a draw first", found="pass")
        t.action_done = True
