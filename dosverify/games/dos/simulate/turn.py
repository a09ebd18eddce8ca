"""One turn (V1-V7): the matches, or the draw and what follows it, then the end of the turn's
steps in order (discard, refill, bonus cards, the DOS penalty, the others' Double Color Match draws)."""

from __future__ import annotations

from .calls import Calls
from .matches import Opt, match_options
from .state import RoundOver


class Turns(Calls):
    """Plays a turn for the player on turn."""

    def emptied(self) -> None:
        """A line emptied the hand of the player on turn: under round-end=at-once the round ends there (V15)."""
        if self.opt["round-end"] == "at-once" and not self.hands[self.on_turn]:
            raise RoundOver

    def place_step3(self, p: str, hand: list[str]) -> None:
        """p places a card of the hand in the Center Row at step 3 (for no match, V1, or a colour bonus)."""
        c = self.choose_place(hand)
        hand.remove(c)
        self.cr.append(c)
        with self.at_step(3):
            self.emit("place", c)
        self.last_dcm = False
        self.emptied()
        with self.at_step(3):
            self.after_change(p)

    def do_match(self, o: Opt) -> None:
        """The player on turn makes match `o`: what it owes (bonus cards, Double Color Match draws) and when."""
        p = self.on_turn
        self.covered.append(self.cr.pop(o.ci))
        for b in o.bases:
            self.hands[p].remove(b)
        self.used.extend(o.bases)
        with self.at_step(0):
            self.emit("match", o.target, list(o.cards))
        if self.opt["discard-matched"] == "at-once":  # V17: to the discard pile at once
            self.matched_in_discard += len(self.covered) + len(self.used)
            self.matched_now.extend(self.covered + self.used)
            self.discard.extend(self.covered + self.used)
            self.covered, self.used = [], []
        dcm_now = o.colour and o.double and self.opt["dcm-draws"] == "at-once"
        # a Double Color Match that empties the hand owes draws the round's end at once leaves out (V15), unless
        # they are made at once: then they belong to the match, and come before the round ends (V12 + V15)
        self.last_dcm = o.colour and o.double and not dcm_now
        if not dcm_now:  # at-once draws belong to the match: they come, then the round ends (digest, V12+V15)
            self.emptied()
        if o.colour:
            if o.double:
                self.bonus += 1
                if not dcm_now:
                    self.dcm += 1
            elif self.opt["single-color-bonus"] == "required" or self.rng.random() < 0.6:
                self.bonus += 1  # S3: the Single Color Match card may be placed, or not
        if dcm_now:  # V12: the others draw at once, on the next lines
            start = len(self.turn_events)
            with self.at_step(5):
                for q in self.dcm_order(p):
                    if self.take(1, "draw", q):
                        self.after_change(q)
                    else:  # both piles empty: the draw lapses (V5), where `official` would draw at the end
                        self.lapsed.append(q)
            if (first := self.first_draw(start)) is not None:
                self.cand_dcm.append(first)
            self.dcm_groups.append((start, len(self.turn_events)))
            if not self.hands[p]:
                self.moments["hand emptied by a Double Color Match whose draws are made at once"] += 1
            self.emptied()
        with self.at_step(0):
            self.after_change(p)

    def matching(self, must: bool, only: str | None = None, limit: int | None = None) -> int:
        """Matches, one after another while the agent likes (`must`: at least one); how many were made."""
        p = self.on_turn
        n = 0
        while limit is None or n < limit:
            if n == 0 and not must and self.hoarding:
                break  # declines (and spares the search over a long round's big Center Row)
            opts = match_options(self.cr, self.hands[p], self.rng, only=only)
            if not opts:
                break
            if n == 0 and not must and self.rng.random() < self.p_stop_after_draw:
                break
            if n > 0 and self.rng.random() > 0.85:
                break
            if n > 0:
                self.matching_now = True
                self.others_hook()
                self.matching_now = False
            self.do_match(self.pick(opts))
            n += 1
        return n

    def play_turn(self, p: str) -> bool:
        """Play p's turn; True when the round ended with it (V11)."""
        self.start_turn(p)
        self.dos_hook(at_start=True)
        hand = self.hands[p]
        forbid_decline = self.opt["decline-match"] == "forbidden"
        made = 0
        if (forbid_decline or not self.hoarding) and match_options(self.cr, hand, self.rng):
            if forbid_decline or self.rng.random() >= self.p_decline:
                made = self.matching(must=True)
        if made == 0:  # no match (or declined): draw one (V2)
            self.draw_instead(p, hand, forbid_decline)
        self.end_of_turn(p, hand)
        ended = not hand
        if ended and self.dcm:
            self.moments["round ends with Double Color Match draws"] += 1
        if not ended:
            self.dos_hook(at_start=False)
        return ended

    def start_turn(self, p: str) -> None:
        """A new turn for p: nothing of it emitted, matched or owed yet."""
        self.on_turn = p
        self.turn_events = []
        self.turn_cls = []
        self.cand_dcm, self.cand_penalty, self.dcm_groups = [], [], []  # for the departures (V12-V14)
        self.matched_in_discard = 0
        self.matched_now = []
        self.last_dcm = False
        self.v17_shuffles = []
        self.reshuffles_mid = []
        self.penalty_lapsed = False
        self.lapsed = []
        self.pending = False
        self.past_penalty = False
        self.matching_now = False
        self.discarded = False
        self.covered, self.used = [], []
        self.bonus = self.dcm = 0

    def draw_instead(self, p: str, hand: list[str], forbid_decline: bool) -> None:
        """No match made: draw one (V2), then match (V3), or pass, or place a card (V1)."""
        with self.at_step(0):
            drawn = self.take(1, "draw", None, "no-match")
        if drawn:  # with both piles empty nothing is drawn, and the hand has not changed
            self.after_change(p)
        made = 0
        if self.opt["after-draw-match"] == "drawn-only":
            if drawn and drawn[0] in hand:
                made = self.matching(must=forbid_decline, only=drawn[0], limit=1)
        else:
            made = self.matching(must=forbid_decline)
        if made == 0:
            if self.opt["no-match-after-draw"] == "pass":
                with self.at_step(3):
                    self.emit("pass")
                self.moments["pass"] += 1
            elif hand:
                self.place_step3(p, hand)

    def end_of_turn(self, p: str, hand: list[str]) -> None:
        """The end of the turn's steps, in order (V7)."""
        self.discard.extend(self.covered + self.used)  # 1. discard
        self.discarded = True
        if len(self.cr) < 2:  # 2. refill to 2
            with self.at_step(2):
                self.cr.extend(self.take(2 - len(self.cr), "refill", None, "refill"))
        for _ in range(self.bonus):  # 3. bonus cards; one with no card left lapses (V10)
            if not hand:
                break
            self.place_step3(p, hand)
        if self.pending:  # 4. DOS penalty
            self.past_penalty = True
            if len(self.pile) < 2:
                self.moments[f"penalty at the step with the pile at {len(self.pile)}"] += 1
            with self.at_step(4):
                if self.take(2, "draw", p, "penalty-step"):
                    self.after_change(p)
        self.past_penalty = True
        if self.dcm:  # 5. the others' Double Color Match draws, seat order from p's left
            start = len(self.turn_events)
            with self.at_step(5):
                for q in self.dcm_order(p):
                    if self.take(self.dcm, "draw", q, "dcm"):
                        self.after_change(q)
            self.dcm_groups.append((start, len(self.turn_events)))
