"""DOS calls: a call owed at two cards, made or forgotten, late calls, and catches with their
penalty (V6), drawn at once or at the turn's penalty step (V7, V14)."""

from __future__ import annotations

from .piles import Piles


class Calls(Piles):
    """Who owes a call, who calls, who is caught, and when the penalty is drawn."""

    def after_change(self, p: str) -> None:
        """A completed action changed p's hand: a call is owed at exactly 2 cards (V6)."""
        if len(self.hands[p]) != 2 or self.opt["dos-call"] == "off":  # S3's game has no call
            self.status[p] = None
            return
        self.status[p] = "owed"
        if self.rng.random() < self.p_call:
            self.emit("dos", None if p == self.on_turn else p)
            self.status[p] = "called"
        elif p == self.on_turn and not self.past_penalty and not self.pending and self.rng.random() < self.p_self_catch:
            self.catch(p)

    def catch(self, q: str) -> None:
        """Someone other than q calls DOS first: q is caught."""
        by = self.rng.choice([x for x in self.names if x != q])
        self.emit("catch", q, by)
        self.status[q] = "caught"
        with self.at_step(4 if q == self.on_turn else None):
            self._penalty(q)

    def _penalty(self, q: str) -> None:
        """q draws the penalty of 2: now, or at the penalty step when q is on turn and the option says so."""
        if q == self.on_turn and not self.past_penalty and self.opt["own-penalty"] == "penalty-step":
            self.pending = True  # drawn at the turn's penalty step (V6, V7)
            self.moments["catch of the player on turn, penalty at the step"] += 1
        else:
            self.moments["catch with the pile at %s" % (len(self.pile) if len(self.pile) < 2 else "2+")] += 1
            if q != self.on_turn and self.matching_now:
                self.moments["catch of another player while the player on turn is matching"] += 1
            start = len(self.turn_events)
            if self.take(2, "draw", q, "penalty-now"):  # at once: the next line(s)
                # own-penalty=at-once (V14): a departure if an earlier step follows
                if q == self.on_turn and (first := self.first_draw(start)) is not None:
                    self.cand_penalty.append(first)
                self.after_change(q)
            elif q == self.on_turn and not self.discarded:  # both piles empty: lapsed, where `official` draws later
                self.penalty_lapsed = True

    def dos_hook(self, at_start: bool) -> None:
        """Late calls and catches of forgotten calls, at the start or the end of a turn."""
        for q in self.names:
            if self.status[q] != "owed":
                continue
            if not at_start and q == self.on_turn:
                continue  # the player on turn is caught out of turn at the start of the next one
            r = self.rng.random()
            if r < self.p_catch(0.35, mid_match=False):
                if q == self.on_turn and self.pending:
                    continue
                self.catch(q)
            elif r < self.p_catch(0.35, mid_match=False) + self.p_late(0.15):
                self.emit("dos", None if q == self.on_turn else q)
                self.status[q] = "called"
                self.moments["late call"] += 1

    def others_hook(self) -> None:
        """Between two matches of the player on turn: another player's forgotten call is caught
        (the penalty is drawn at once, before the next match), or called late."""
        for q in self.names:
            if q == self.on_turn or self.status[q] != "owed":
                continue
            r = self.rng.random()
            if r < self.p_catch(0.6):
                self.catch(q)
            elif r < self.p_catch(0.6) + self.p_late(0.1):
                self.emit("dos", q)
                self.status[q] = "called"
                self.moments["late call"] += 1
