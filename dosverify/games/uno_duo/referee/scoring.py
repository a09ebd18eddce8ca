"""Rounds, scores, totals and the winner (contract, "End"; S2 PUNCTAJ, CÂȘTIGARE)."""

from __future__ import annotations

from ..cards import value
from .state import UNSEEN, RoundState


class ScoringMixin:
    def round_line(self, rnd) -> None:
        """A new round: the last one's missing things are reported here, then its sequence."""
        prev = self.st
        if prev is not None:
            self.close_turn(rnd)
            self._unscored(rnd)
        want = self.prev_number + 1
        if self.game_over:
            self.report("game.end", "the game is over: a total reached the target", rnd)
        elif prev is not None and not prev.over and not self.seen(rnd):
            self.report("round.sequence", f"round {rnd.number} starts before round {prev.number} ended", rnd)
        elif rnd.number != want:
            self.report(
                "round.sequence", f"round {want} comes next, not round {rnd.number}", rnd, expected=f"round {want}"
            )
        self.rounds_seen += 1
        self.prev_number = rnd.number
        self.st = RoundState(number=rnd.number, not_scored=self.game_over)
        self.t = None
        self.setup(rnd)
        self.prev_drafter = self.st.drafter

    def _unscored(self, at) -> None:
        """A round that ended without its `score` (score.round, at the line in its place)."""
        st = self.st
        if st is not None and st.over and not st.scored:
            st.scored = True
            st.dead = False
            where = {} if at is not None else self.end_at()
            self.report(
                "score.round", f"{st.out} went out: `score {self.other(st.out)} N` follows the round", at, **where
            )

    def round_close(self, rnd) -> None:
        st = self.st
        if rnd.score is not None:
            self.close_turn(rnd.score)
            self.score_line(rnd.score)
        if rnd.totals is not None:
            self.close_turn(rnd.totals)
            self._unscored(rnd.totals)
            self.totals_line(rnd.totals)
        st.dead = False

    def score_line(self, sc) -> None:
        st = self.st
        st.dead = False
        if not st.over:
            self.report("score.round", "no hand was emptied: the round has not ended", sc)
        elif sc.player == st.out:
            self.report(
                "score.round",
                f"{st.out} went out and scores 0 (no line); the score is {self.other(st.out)}'s",
                sc,
                field="player",
            )
        elif not self.in_doubt(sc.player):
            hand = self.hand(sc.player)
            points = sum(value(c) * n for c, n in hand.items() if n > 0 and c != UNSEEN)
            if points != sc.points:
                self.report(
                    "score.values",
                    f"{sc.player}'s hand ({' '.join(sorted(hand.elements()))}) is worth {points}, not {sc.points}",
                    sc,
                    field="points",
                    expected=str(points),
                    found=str(sc.points),
                )
        st.scored = True
        if not st.not_scored:
            self.totals[sc.player] += sc.points
            self.scored_totals[sc.player] += sc.points
            if max(self.totals.values()) >= self.rs.target:
                self.game_over = True

    def totals_line(self, tl) -> None:
        written = {e.player: e.points for e in tl.entries}
        counted = len(tl.entries) == len(self.players) and set(written) == set(self.players)
        if not counted or (written != self.totals and written != self.scored_totals):
            want = " ".join(f"{p} {n}" for p, n in self.totals.items())
            self.report("score.totals", f"the totals are {want}", tl, expected=f"totals {want}")
        if counted:  # the next totals are judged from these too (READINGS R26)
            self.totals = dict(written)
            self.game_over = max(self.totals.values()) >= self.rs.target

    def winner_line(self, w) -> None:
        self.close_turn(w)
        self._unscored(w)
        if not self.game_over:
            self.report("game.winner", "the game has not ended: no total reached the target", w, field="player")
        elif self.totals[w.player] > min(self.totals.values()):
            low = min(self.totals, key=self.totals.get)
            self.report(
                "game.winner",
                f"{low} has the lower total ({self.totals[low]})",
                w,
                field="player",
                expected=f"winner {low}",
            )

    def end_of_log(self) -> None:
        if self.st is None:
            return
        self.close_turn(None)
        self._unscored(None)
