"""Rounds, scores, totals and the winner (contract, "End"; S2 PUNCTAJ, CÂȘTIGARE)."""

from __future__ import annotations

from ..cards import value
from .judge import Judge
from .setup import setup
from .state import UNSEEN, RoundState
from .turns import close_turn


def round_line(j: Judge, rnd) -> None:
    """A new round: the last one's missing things are reported here, then its sequence."""
    prev = j.game.round
    if prev is not None:
        close_turn(j, rnd)
        _unscored(j, rnd)
    want = j.game.prev_number + 1
    if j.game.game_over:
        j.report("game.end", "the game is over: a total reached the target", rnd)
    elif prev is not None and not prev.over and not j.seen(rnd):
        j.report("round.sequence", f"round {rnd.number} starts before round {prev.number} ended", rnd)
    elif rnd.number != want:
        j.report("round.sequence", f"round {want} comes next, not round {rnd.number}", rnd, expected=f"round {want}")
    j.game.rounds_seen += 1
    j.game.prev_number = rnd.number
    j.game.round = RoundState(number=rnd.number, not_scored=j.game.game_over)
    j.t = None
    setup(j, rnd)
    j.game.prev_drafter = j.st.drafter


def _unscored(j: Judge, at) -> None:
    """A round that ended without its `score` (score.round, at the line in its place)."""
    st = j.game.round
    if st is not None and st.over and st.out is not None and not st.scored:
        st.scored = True
        st.dead = False
        where = {} if at is not None else j.end_at()
        msg = f"{st.out} went out: `score {j.other(st.out)} N` follows the round"
        j.report("score.round", msg, at, **where)


def round_close(j: Judge, rnd) -> None:
    st = j.st
    if rnd.score is not None:
        close_turn(j, rnd.score)
        score_line(j, rnd.score)
    if rnd.totals is not None:
        close_turn(j, rnd.totals)
        _unscored(j, rnd.totals)
        totals_line(j, rnd.totals)
    st.dead = False


def score_line(j: Judge, sc) -> None:
    st = j.st
    st.dead = False
    if not st.over:
        j.report("score.round", "no hand was emptied: the round has not ended", sc)
    elif sc.player == st.out:
        j.report(
            "score.round",
            f"{st.out} went out and scores 0 (no line); the score is {j.other(sc.player)}'s",
            sc,
            field="player",
        )
    elif not j.in_doubt(sc.player):
        hand = j.hand(sc.player)
        points = sum(value(c) * n for c, n in hand.items() if n > 0 and c != UNSEEN)
        if points != sc.points:
            j.report(
                "score.values",
                f"{sc.player}'s hand ({' '.join(sorted(hand.elements()))}) is worth {points}, not {sc.points}",
                sc,
                field="points",
                expected=str(points),
                found=str(sc.points),
            )
    st.scored = True
    if not st.not_scored:
        j.game.totals[sc.player] += sc.points
        j.game.scored_totals[sc.player] += sc.points
        if max(j.game.totals.values()) >= j.rs.target:
            j.game.game_over = True


def totals_line(j: Judge, tl) -> None:
    written = {e.player: e.points for e in tl.entries}
    counted = len(tl.entries) == len(j.players) and set(written) == set(j.players)
    if not counted or (written != j.game.totals and written != j.game.scored_totals):
        want = " ".join(f"{p} {n}" for p, n in j.game.totals.items())
        j.report("score.totals", f"the totals are {want}", tl, expected=f"totals {want}")
    if counted:  # the next totals are judged from these too (READINGS R26)
        j.game.totals = dict(written)
        j.game.game_over = max(j.game.totals.values()) >= j.rs.target


def winner_line(j: Judge, w) -> None:
    close_turn(j, w)
    _unscored(j, w)
    if not j.game.game_over:
        j.report("game.winner", "the game has not ended: no total reached the target", w, field="player")
    elif j.game.totals[w.player] > min(j.game.totals.values()):
        low = min(j.game.totals, key=lambda p: j.game.totals[p])
        j.report(
            "game.winner",
            f"{low} has the lower total ({j.game.totals[low]})",
            w,
            field="player",
            expected=f"winner {low}",
        )


def end_of_log(j: Judge) -> None:
    if j.game.round is None:
        return
    close_turn(j, None)
    _unscored(j, None)
