"""The end of a round and of the game: the score, the running totals, the state for visitors.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from ....hints import near_player
from ..cards import value
from ..events import Round
from .table import UNKNOWN


class ScoringMixin:
    def _totals_text(self) -> str:
        return " ".join(f"{p} {n}" for p, n in self.totals.items())

    def snapshot(self) -> dict:
        """The replayed state now: hands, Center Row, pile sizes and running totals."""
        tb = self.table
        return {
            "round": self.round_no,
            "turn": self.turn_no,
            "player": self.prev_player,
            "hands": {p: sorted(h.elements()) for p, h in tb.hands.items()},
            "center": [c.base for c in tb.center],
            "draw_pile": tb.pile_size,
            "discard_pile": sum(tb.discard.values()),
            "totals": dict(self.totals),
            "round_over": self.round_over,
        }

    def round_points(self) -> int | None:
        pts = 0
        for q, hand in self.table.hands.items():
            if q == self.round_winner:
                continue
            if hand.get(UNKNOWN):
                return None
            pts += sum(value(b) * n for b, n in hand.items())
        return pts

    def known_points(self) -> tuple[int, int]:
        """The written cards left in the other hands, and how many `?` are left there."""
        pts = hidden = 0
        for q, hand in self.table.hands.items():
            if q != self.round_winner:
                hidden += hand.get(UNKNOWN, 0)
                pts += sum(value(b) * n for b, n in hand.items() if b != UNKNOWN)
        return pts, hidden

    def apply_score(self, claimed: int | None = None) -> None:
        if self.scored or not self.round_over:
            return
        self.scored = True
        pts = self.round_points()
        if pts is None or self.doubt:
            # a hand nobody saw (notation.md, Scores), or hands in doubt after a finding (READINGS): the written score stands
            written = claimed if claimed is not None else self.score_written
            pts = written if written is not None else (pts or 0)
        if not self.game_over:  # a round after the game ended is refereed but not scored
            self.totals[self.round_winner] += pts
            if self.totals[self.round_winner] >= self.rs.target:
                self.game_over = True
                self.game_winner = self.round_winner

    def check_score(self, rnd: Round) -> None:
        s = rnd.score
        if not self.known(s.player, s):
            return
        self.t = None
        if not self.round_over and s.player in self.doubt:
            # the scorer's hand was in doubt after an earlier finding: that they went out is taken as written
            self.round_over, self.round_winner = True, s.player
        if not self.round_over:
            self.report(
                "score.round",
                "a `score` line, but no player went out this round",
                s,
                "player",
                player=s.player,
                expected="more turns until a player holds no card",
                found=f"score {s.player} {s.points}",
            )
            return
        pts = self.round_points()
        self.score_written = s.points  # taken when the hands are not all known or are in doubt
        if self.doubt:  # a hand in doubt after an earlier finding: the score is taken as written
            pts = None
        if s.player != self.round_winner:
            self.report(
                "score.round",
                f"{self.round_winner} went out and scores the round, not {s.player}",
                s,
                "player",
                player=s.player,
                expected=f"score {self.round_winner} {pts if pts is not None else 'N'}",
                found=f"score {s.player} {s.points}",
            )
        elif pts is None:
            if not self.doubt:  # over the choices of the face-down (or unknown) cards; in doubt: as written (R28)
                self.score_over_choices(s, *self.known_points())
        elif s.points != pts:
            detail = "; ".join(
                f"{q}: " + " ".join(sorted(h.elements()))
                for q, h in self.table.hands.items()
                if q != self.round_winner and h
            )
            self.report(
                "score.round",
                f"the cards left in the other hands are worth {pts}, not {s.points} ({detail})",
                s,
                "points",
                player=s.player,
                expected=str(pts),
                found=str(s.points),
                help="number cards score face value, Wild DOS 20, Wild # 40",
            )
        self.apply_score(s.points if s.player == self.round_winner else None)

    def check_totals(self, rnd: Round) -> None:
        tt = rnd.totals
        self.t = None
        if not self.scored and self.round_over:
            self.apply_score()
        seen = set()
        cols = tt._cols.get("entries") if tt._cols else None
        for i, e in enumerate(tt.entries):
            col = cols[i] if isinstance(cols, list) and i < len(cols) else None
            ptr = f"{tt._pointer}/entries/{i}" if tt._pointer is not None else None
            if e.player not in self.seat:
                self.report(
                    "notation.player",
                    f"`{e.player}` is not a player of this game{near_player(e.player, self.players)}",
                    tt,
                    column=col,
                    pointer=ptr,
                    expected="one of " + ", ".join(self.players),
                    found=e.player,
                )
                continue
            if e.player in seen:
                self.report(
                    "score.totals",
                    f"{e.player} is listed twice",
                    tt,
                    column=col,
                    pointer=ptr,
                    player=e.player,
                    expected="every player once",
                    found=f"{e.player} twice",
                )
                continue
            seen.add(e.player)
            if e.points != self.totals[e.player]:
                self.report(
                    "score.totals",
                    f"{e.player}'s running total is {self.totals[e.player]}, not {e.points}",
                    tt,
                    column=col,
                    pointer=ptr,
                    player=e.player,
                    expected=str(self.totals[e.player]),
                    found=str(e.points),
                )
        missing = [p for p in self.players if p not in seen]
        if missing:
            self.report(
                "score.totals",
                "`totals` leaves out " + ", ".join(missing),
                tt,
                expected="every player once",
                found=" ".join(f"{e.player} {e.points}" for e in tt.entries),
            )
