"""A round begins and ends: its number in sequence, no round after the game ended, its score owed, and
the log's winner."""

from __future__ import annotations

from ..events import Round
from .part import Part, enforces


class Rounds(Part):
    """The rules about rounds as a whole and the game's end (sections 08 of the spec)."""

    uses = ("facedown", "scoring")

    @enforces("round.sequence", "game.end")
    def start(self, rnd: Round) -> tuple[int | None, str | None, str | None]:
        """Close the round before and begin `rnd`; returns the round before's number, dealer and winner."""
        s = self.s
        prev_no, prev_dealer, prev_winner = s.round_no, s.dealer, s.round_winner
        self.end(rnd)
        s.t = None
        s.rounds_seen += 1
        expect_no = (prev_no or 0) + 1
        s.round_no = rnd.number
        s.turn_no = 0
        if rnd.number != expect_no:
            self.r.report(
                "round.sequence",
                f"round {rnd.number} follows round {prev_no or 0}",
                rnd,
                "number",
                expected=f"round {expect_no}",
                found=f"round {rnd.number}",
            )
        elif prev_no is not None and not s.prev_round_over:
            self.r.report(
                "round.sequence",
                f"round {prev_no} has not ended: nobody went out",
                rnd,
                expected=f"more turns of round {prev_no} until a player goes out",
                found=f"round {rnd.number}",
            )
        if s.game_over:
            self.r.report(
                "game.end",
                f"the game ended after round {prev_no}: {s.game_winner} reached the target "
                f"{s.rs.target}; this round is refereed but not scored",
                rnd,
                expected="no further round",
                found=f"round {rnd.number}",
            )
        s.new_round()
        return prev_no, prev_dealer, prev_winner

    def finish(self, rnd: Round) -> None:
        """The lines after the round's last turn: `show`, `score`, `totals`."""
        parts = self.parts
        if rnd.shows:
            parts.facedown.check_shows(rnd)
        if rnd.score is not None:
            parts.scoring.check_score(rnd)
        if rnd.totals is not None:
            parts.scoring.check_totals(rnd)
        self.s.closing_round = rnd

    @enforces("score.round")
    def end(self, next_round: Round | None) -> None:
        """Called when a new round starts (or the log ends): a round that ended needs its score."""
        s = self.s
        rnd = s.closing_round
        if rnd is None:
            return
        s.closing_round = None
        s.prev_round_over = s.round_over
        if s.round_over and rnd.score is None:
            line = next_round._line if next_round is not None else s.log._end_line
            ptr = (
                next_round._pointer
                if next_round is not None
                else (f"{rnd._pointer}/score" if rnd._pointer is not None else None)
            )
            pts = self.parts.scoring.round_points()
            self.r.report(
                "score.round",
                f"round {rnd.number} ended ({s.round_winner} went out) but has no `score` line",
                line=line,
                pointer=ptr,
                player=s.round_winner,
                expected=f"score {s.round_winner} {pts}" if pts is not None else f"score {s.round_winner} N",
                found="no score line",
            )
            self.parts.scoring.apply_score()

    @enforces("game.winner")
    def check_winner(self) -> None:
        """The log's `winner` line: the game ended, and the player named won it."""
        s = self.s
        w = s.log.winner
        if w is None or not self.r.known(w.player, w):
            return
        if not s.game_over:
            self.r.report(
                "game.winner",
                f"`winner` before the game ended: no total has reached the target {s.rs.target}",
                w,
                "player",
                player=w.player,
                expected=f"a total of at least {s.rs.target}",
                found=self.parts.scoring.totals_text(),
            )
        elif w.player != s.game_winner:
            self.r.report(
                "game.winner",
                f"the winner is {s.game_winner}, not {w.player}",
                w,
                "player",
                player=w.player,
                expected=s.game_winner,
                found=w.player,
            )
