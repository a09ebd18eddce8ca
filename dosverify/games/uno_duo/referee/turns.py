"""Turns: who is on turn, what the turn's action must be, the action left out, and draws owed at
once (contract, "Turns", "Owed draws", "A missing action")."""

from __future__ import annotations

from typing import Any

from ..cards import parse_card
from ..events import Draw, Play, Reshuffle, Turn
from . import calls
from .judge import Judge
from .pile import can_draw, take_as_made
from .state import UNSEEN, TurnState

#: the rule of an action left out, by what the turn needed
MISSING = {
    "ordinary": "draw.one",
    "run-may": "draw.one",
    "again": "skip.again",
    "total": "volley.draw",
    "wd4": "wd4.draw",
    "run": "start.reverse",
}
_WHAT = {
    "draw.one": "no action: play a card or draw one",
    "skip.again": "the Skip's second action is missing",
    "volley.draw": "facing a total of {n}: stack a Draw 2 or draw the {n} cards",
    "wd4.draw": "facing a Wild Draw 4: draw 4 or challenge",
    "start.reverse": "the start run of every {c} card held is missing",
}


def turn_line(j: Judge, turn: Turn) -> None:
    st, t = j.st, j.t
    if (
        t is not None
        and not t.model.events
        and turn.player == t.player
        and not t.done
        and st.owed is None
        and not st.over
        and not st.dead
    ):
        # turn.order: an empty turn, then the same player's: one `turn` line written twice (READINGS R24)
        j.report("turn.order", f"`turn {turn.player}` is written twice", turn, field="player")
        t.model, t.damaged = turn, t.damaged or turn._damaged
        return
    close_turn(j, turn)
    if st.dead:
        return
    if st.over:
        j.t = None
        return j.after_end(turn)
    if st.started:
        begin_turn(j, turn.player, turn)


def _check_order(j: Judge, turn: Turn, want: str | None) -> None:
    """start.first (the round's first turn) and turn.order (the turns alternate)."""
    if turn.player == want:
        return
    first = j.st.turns == 1
    rule = "start.first" if first else "turn.order"
    why = "the round's first turn" if first else "the turns alternate:"
    j.report(rule, f"{why} {want} is on turn, not {turn.player}", turn, field="player", expected=f"turn {want}")


def begin_turn(j: Judge, player: str, turn: Turn, *, judged: bool = True) -> None:
    """`player`'s turn starts (at `turn`, its line, or the first line of a turn whose `turn`
    line is missing: `judged` False): who should be on turn, and what the turn faces."""
    st = j.st
    # the first player is None only when the set-up has no `start` line (notation.placement at this line)
    want = st.first if st.turns == 0 else j.other(st.last_turn or player)
    if judged and want is not None and st.turns > 0 and player != want and _misnamed(j, turn, want):
        player = want  # the `turn` line names the wrong player; its lines are the due one's (R8)
    st.turns += 1
    j.game.turns_seen += 1
    j.t = TurnState(player=player, index=st.turns, model=turn, damaged=turn._damaged)
    if turn._damaged:  # a skipped line: what it did is unknown (READINGS R5)
        st.doubt.update(j.players)
    if judged:
        _check_order(j, turn, want)
    st.last_turn = player
    facing, st.facing = st.facing, None
    if facing is None or facing.player != player:
        return
    t = j.turn
    t.facing = facing
    if facing.kind == "run":
        if any(c[0] == facing.colour for c, n in j.hand(player).items() if n and c != UNSEEN):
            t.need = "run" if j.opt.get("start-reverse") == "must" else "run-may"
    else:
        t.need = facing.kind


def _misnamed(j: Judge, turn: Turn, want: str) -> bool:
    """A `turn` line naming the wrong player whose lines are the due player's (READINGS R8): its
    first play's first card is held by `want` and not by the player written; without a play that
    decides it, the next `turn` line names the written player again (the alternation goes on)."""
    play = next((ev for ev in turn.events if isinstance(ev, Play) and ev.cards), None)
    if play is not None:
        try:
            c: str | None = parse_card(play.cards[0]).base
        except ValueError:  # an unreadable card decides nothing
            c = None
        if c is not None:
            mine, theirs = j.hand(want)[c] > 0, j.hand(turn.player)[c] > 0
            if mine != theirs:
                return mine
    nxt = j.game.next_turn
    return nxt is not None and nxt.player == turn.player


def close_turn(j: Judge, at: Any) -> None:
    """The turn on turn ends at `at` (a model, or None: the end of the log): its owed draws and
    its action, if missing, are reported there and taken as made."""
    if j.game.round is None:
        return
    st, t = j.st, j.t
    close_owed(j, at)
    if t is not None and t.damaged:
        st.top_colour = st.top_rank = None  # the skipped line may have been a play
    if t is None or t.done or st.over or st.dead:
        j.t = None
        return
    if not (t.need == "again" and j.opt.get("skip-again") == "optional"):
        _missing_action(j, t, at)
    j.t = None


def _missing_action(j: Judge, t: TurnState, at: Any) -> None:
    """The action left out (draw.one, skip.again, volley.draw, wd4.draw, start.reverse), reported
    at the next line and, for a draw, taken as made (READINGS R3)."""
    rule = MISSING[t.need]
    n = t.faced.total if t.need == "total" else 4
    msg = _WHAT[rule].format(n=n, c=t.facing.colour if t.facing else "")
    where = {} if at is not None else j.end_at()
    j.report(rule, f"{t.player}'s turn: {msg}", at, player=t.player, **where)
    if t.need in ("ordinary", "run-may", "total", "wd4"):
        take_as_made(j, t.player, 1 if t.need in ("ordinary", "run-may") else n)


def close_owed(j: Judge, at: Any) -> None:
    """Owed draws not all made by the line `at`: the shortfall, with the reason's rule."""
    st = j.st
    o = st.owed
    if o is None:
        return
    st.owed = None
    if not can_draw(j):
        return  # nothing can be drawn: the owed draws lapse
    where = {} if at is not None else j.end_at()
    msg = f"{o.player} owes {o.n} more card{'s' if o.n > 1 else ''}, drawn at once"
    j.report(o.rule, msg, at, player=o.player, **where)
    take_as_made(j, o.player, o.n)


def owed_blocks(j: Judge, ev: Any) -> bool:
    """While draws are owed, a line other than a `reshuffle` or the owed player's draw: the
    reason's rule (the draws are taken as made) and the line is applied unjudged."""
    o = j.st.owed
    if o is None or isinstance(ev, Reshuffle):
        return False
    q = (ev.player or j.turn.player) if isinstance(ev, Draw) else None
    if q == o.player:
        return False
    t = j.turn
    f = t.facing
    if q is not None and o.rule == "wd4.outcome" and f is not None and f.by is not None and o.n in (4, 6):
        if q in (t.player, f.by):
            # wd4.outcome: drawn the other way round: one finding, then the outcome as written (READINGS R23)
            j.report("wd4.outcome", f"the challenge's outcome: {o.player} draws {o.n}, not {q}", ev, player=q)
            calls.challenge_outcome(j, legit=q == t.player)
            return False
    close_owed(j, ev)
    return False
