"""The end of a round and of the game: the score, the running totals, the state for visitors.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter
from functools import cache

from ....hints import near_player
from ..cards import composition, value
from ..events import Round
from .part import Part, enforces
from .table import UNKNOWN


@cache
def _any_sums(k: int) -> frozenset:
    """Every total k cards of any value can score."""
    values = {value(b) for b in composition()}
    sums = {0}
    for _ in range(k):
        sums = {s + v for s in sums for v in values}
    return frozenset(sums)


def _removals(values: list[int], k: int) -> list[frozenset]:
    """For r = 0..k, every total r of these cards can make (the cards a reading takes out)."""
    by_r = [{0}] + [set() for _ in range(k)]
    for v in values:
        for r in range(k, 0, -1):
            by_r[r] |= {t + v for t in by_r[r - 1]}
    return [frozenset(x) for x in by_r]


def hand_readings(hand: Counter, slips: int, maybe: Counter) -> frozenset:
    """What a hand in doubt can score over the readings its earlier findings leave open (R28):
    each of `slips` findings may have put one card of it in the wrong place (a card tracked that
    is not there, a card there that is not tracked, or both); a `?` is any card; a card of an
    unowed draw (R41) may be there or not."""
    known = [value(b) for b, n in hand.items() if b != UNKNOWN for _ in range(n)]
    extra = [value(b) for b, n in maybe.items() for _ in range(n)]
    base = sum(known)
    out: set[int] = set()
    taken = _removals(known, slips)
    added = _removals(extra, len(extra))
    for r in range(slips + 1):
        for a in range(slips + 1):
            anys = _any_sums(hand.get(UNKNOWN, 0) + a)
            out |= {base - t + x + m for t in taken[r] for x in anys for ms in added for m in ms}
    return frozenset(out)


class Scoring(Part):
    """The score of a round, the running totals, and the snapshot visitors see."""

    uses = ("facedown",)

    def totals_text(self) -> str:
        return " ".join(f"{p} {n}" for p, n in self.s.totals.items())

    def snapshot(self) -> dict:
        """The replayed state now: hands, Center Row, pile sizes and running totals."""
        tb = self.s.table
        return {
            "round": self.s.round_no,
            "turn": self.s.turn_no,
            "player": self.s.prev_player,
            "hands": {p: sorted(h.elements()) for p, h in tb.hands.items()},
            "center": [c.base for c in tb.center],
            "draw_pile": tb.pile_size,
            "discard_pile": sum(tb.discard.values()),
            "totals": dict(self.s.totals),
            "round_over": self.s.round_over,
        }

    def round_points(self) -> int | None:
        pts = 0
        for q, hand in self.s.table.hands.items():
            if q == self.s.round_winner:
                continue
            if hand.get(UNKNOWN):
                return None
            pts += sum(value(b) * n for b, n in hand.items())
        return pts

    def known_points(self) -> tuple[int, int]:
        """The written cards left in the other hands, and how many `?` are left there."""
        pts = hidden = 0
        for q, hand in self.s.table.hands.items():
            if q != self.s.round_winner:
                hidden += hand.get(UNKNOWN, 0)
                pts += sum(value(b) * n for b, n in hand.items() if b != UNKNOWN)
        return pts, hidden

    def apply_score(self, claimed: int | None = None) -> None:
        if self.s.scored or not self.s.round_over:
            return
        self.s.scored = True
        pts = self.round_points()
        if pts is not None and self.s.doubt:
            pts = None  # hands in doubt after a finding: what they score is not known (R28)
        written = claimed if claimed is not None else self.s.score_written
        # the totals go on from the score as written (notation.md, Scores: one wrong score is one
        # finding); a `totals` line may follow the score the replay gives instead (R65)
        as_written = written if written is not None else (pts or 0)
        as_replayed = pts if pts is not None else as_written
        winner = self.s.round_winner
        assert winner is not None  # a round that is over has a winner
        if not self.s.game_over:  # a round after the game ended is refereed but not scored
            self.s.totals_written[winner] += as_written
            self.s.totals_replayed[winner] += as_replayed
            self._settle_totals()

    def _settle_totals(self) -> None:
        """The running totals the game goes on with: those the log's `totals` lines follow (R65)."""
        self.s.totals = dict(self.s.totals_written if self.s.follow_written else self.s.totals_replayed)
        best = max(self.s.totals, key=lambda q: self.s.totals[q])
        if self.s.totals[best] >= self.s.rs.target:
            winner = self.s.round_winner
            assert winner is not None  # the totals change only when a round is scored
            self.s.game_over, self.s.game_winner = (
                True,
                winner if self.s.totals[winner] >= self.s.rs.target else best,
            )
        else:
            self.s.game_over, self.s.game_winner = False, None

    @enforces("score.round")
    def check_score(self, rnd: Round) -> None:
        s = rnd.score
        assert s is not None  # called for a round with a `score` line
        if not self.r.known(s.player, s):
            return
        self.s.t = None
        if not self.s.round_over and s.player in self.s.doubt:
            # the scorer's hand was in doubt after an earlier finding: that they went out is taken as written
            self.s.round_over, self.s.round_winner = True, s.player
        if not self.s.round_over:
            self.r.report(
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
        self.s.score_written = s.points  # taken when the hands are not all known or are in doubt
        if self.s.pile_doubt or any(q in self.s.doubt for q in self.s.table.hands if q != self.s.round_winner):
            pts = None  # a hand in doubt after an earlier finding: judged over the readings left open (R28)
        if s.player != self.s.round_winner:
            self.r.report(
                "score.round",
                f"{self.s.round_winner} went out and scores the round, not {s.player}",
                s,
                "player",
                player=s.player,
                expected=f"score {self.s.round_winner} {pts if pts is not None else 'N'}",
                found=f"score {s.player} {s.points}",
            )
        elif pts is None:
            if not self.s.doubt:  # over the choices of the face-down (or unknown) cards
                self.parts.facedown.score_over_choices(s, *self.known_points())
            elif not self.s.pile_doubt:  # over the readings the earlier findings leave open (R28)
                self.score_over_readings(s)
        elif s.points != pts:
            detail = "; ".join(
                f"{q}: " + " ".join(sorted(h.elements()))
                for q, h in self.s.table.hands.items()
                if q != self.s.round_winner and h
            )
            self.r.report(
                "score.round",
                f"the cards left in the other hands are worth {pts}, not {s.points} ({detail})",
                s,
                "points",
                player=s.player,
                expected=str(pts),
                found=str(s.points),
                help="number cards score face value, Wild DOS 20, Wild # 40",
            )
        self.apply_score(s.points if s.player == self.s.round_winner else None)

    @enforces("score.hidden", "score.round")
    def score_over_readings(self, s) -> None:
        """A score when hands are in doubt after earlier findings: an error when no reading they
        leave open gives it, a warning when it differs from the hands as tracked (R28)."""
        reach, doubted = {0}, []
        tracked: int | None = 0  # the hands' worth as tracked (None: not known)
        for q, hand in self.s.table.hands.items():
            if q == self.s.round_winner:
                continue
            if q in self.s.doubt:
                doubted.append(q)
                mine = hand_readings(hand, max(1, self.s.slips[q]), self.s.table.maybe_held[q])
            else:
                mine = hand_readings(hand, 0, Counter())
            reach = {a + b for a in reach for b in mine}
            tracked = (
                None if tracked is None or hand.get(UNKNOWN) else tracked + sum(value(b) * n for b, n in hand.items())
            )
        if s.points not in reach:
            self.r.report(
                "score.round",
                f"no reading the earlier findings leave open gives {s.points}: "
                + "; ".join(
                    f"{q}: " + " ".join(sorted(h.elements()))
                    for q, h in self.s.table.hands.items()
                    if q != self.s.round_winner and h
                ),
                s,
                "points",
                player=s.player,
                expected=str(tracked) if tracked is not None else f"one of {min(reach)}..{max(reach)}",
                found=str(s.points),
                help="number cards score face value, Wild DOS 20, Wild # 40",
            )
        elif tracked is not None and s.points != tracked:
            at = self._doubt_source(doubted)
            hands = " and ".join(f"{q}'s" for q in doubted) + (" hands" if len(doubted) > 1 else " hand")
            self.r.report(
                "score.hidden",
                f"the score could not be confirmed: the hands as replayed are worth {tracked}, and "
                f"{hands} {'are' if len(doubted) > 1 else 'is'} in doubt since {at or 'an earlier finding'}",
                s,
                "points",
                player=s.player,
                expected=str(tracked),
                found=str(s.points),
                # no hand is face down here (an open log): what is in doubt is an earlier finding's hand
                help=f"{(at or 'an earlier finding').capitalize()} left more than one reading of {hands}: "
                f"{s.points} fits one of them, not the hands as replayed ({tracked}). Correct "
                f"{'that line' if at else 'what it reports'} or the score, and the score can be confirmed.",
            )

    def _doubt_source(self, doubted: list[str]) -> str | None:
        """Where this round's first finding about a doubted hand is ("the finding at line 21"), when
        the referee made one (a hand may also be in doubt for a reason no finding of its own says)."""
        at = [self.s.found_at[q] for q in doubted if q in self.s.found_at]
        lines = [line for line, _ in at if line is not None]
        if lines:
            return f"the finding at line {min(lines)}"
        pointers = [ptr for _, ptr in at if ptr is not None]
        return f"the finding at {pointers[0]}" if pointers else None

    @enforces("notation.player", "score.totals")
    def check_totals(self, rnd: Round) -> None:
        tt = rnd.totals
        assert tt is not None  # called for a round with a `totals` line
        self.s.t = None
        if not self.s.scored and self.s.round_over:
            self.apply_score()
        seen = set()
        cols = tt._cols.get("entries") if tt._cols else None
        for i, e in enumerate(tt.entries):
            col = cols[i] if isinstance(cols, list) and i < len(cols) else None
            ptr = f"{tt._pointer}/entries/{i}" if tt._pointer is not None else None
            if e.player not in self.s.seat:
                self.r.report(
                    "notation.player",
                    f"`{e.player}` is not a player of this game{near_player(e.player, self.s.players)}",
                    tt,
                    column=col,
                    pointer=ptr,
                    expected="one of " + ", ".join(self.s.players),
                    found=e.player,
                )
                continue
            if e.player in seen:
                self.r.report(
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
            written, replayed = self.s.totals_written[e.player], self.s.totals_replayed[e.player]
            if e.points in (written, replayed) and written != replayed:
                self.s.follow_written = e.points == written  # the chain this log's totals follow (R65)
                self._settle_totals()
                continue
            if e.points != self.s.totals[e.player]:
                self.r.report(
                    "score.totals",
                    f"{e.player}'s running total is {self.s.totals[e.player]}, not {e.points}",
                    tt,
                    column=col,
                    pointer=ptr,
                    player=e.player,
                    expected=str(self.s.totals[e.player]),
                    found=str(e.points),
                )
        missing = [p for p in self.s.players if p not in seen]
        if missing:
            self.r.report(
                "score.totals",
                "`totals` leaves out " + ", ".join(missing),
                tt,
                expected="every player once",
                found=" ".join(f"{e.player} {e.points}" for e in tt.entries),
            )
