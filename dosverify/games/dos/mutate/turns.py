"""Operators: the order of turns, DOS calls and catches."""

from __future__ import annotations

import random

from ... import Mutation
from .analysis import Line, TurnInfo, _nlines, analyse
from .sites import _after, _after_reshuffle, _blocks, _choose, delete_lines, insert_after, replace_line


def op_wrong_turn(text: str, rng: random.Random) -> Mutation | None:
    """The wrong player named on a `turn` line. The turn's lines stay those of the player due,
    whose cards they play (or whose turn the next one follows), so the referee takes the name as
    the slip (READINGS R49): one finding."""
    a = analyse(text)
    t = _choose(rng, a.turns)
    if not t:
        return None
    other = rng.choice([p for p in a.players if p != t.player])
    return Mutation(
        "wrong_turn", replace_line(text, t.start, f"turn {other}"), "turn-order", "turn.order", t.start, f"turn {other}"
    )


def op_bogus_catch(text: str, rng: random.Random) -> Mutation | None:
    """A catch of a player who does not hold 2 cards or already called."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        ln = a.line(t.start)
        if not ln.hands:
            continue
        for q in a.players:
            if len(ln.hands[q]) != 2 or ln.status.get(q) == "called":
                cands.append((t, q))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, q = pick
    by = rng.choice([p for p in a.players if p != q])
    new = f"catch {q} by {by}"
    return Mutation(
        "bogus_catch", insert_after(text, t.start, new, like=None), "dos-call", "dos.catch", t.start + 1, new
    )


def op_drop_penalty(text: str, rng: random.Random) -> Mutation | None:
    """A caught player never draws the 2 penalty cards."""
    a = analyse(text)
    cands: list[tuple[str, Line | None, list[int], TurnInfo | None]] = []
    for ln in a.lines:
        if ln.role == "catch-now":
            nxt = a.line(ln.no + 1) if ln.no < a.nlines else None
            if nxt is not None and nxt.role == "penalty-now" and nxt.player == ln.player and len(nxt.words) == 4:
                cands.append(("now", ln, [nxt.no], None))
    for t in a.turns:
        bl = _blocks(a, t)
        if bl and bl[-1][0] == "penalty-step" and not _after_reshuffle(a, bl[-1][1][0]):  # as in drop_dcm_draw
            cands.append(("step", None, bl[-1][1], t))
    pick = _choose(rng, cands)
    if not pick:
        return None
    how, ln, block, t = pick
    new = delete_lines(text, block)
    if ln is not None:  # how == "now"
        line = ln.no + 1 if ln.no + 1 <= _nlines(new) else _nlines(new) + 1
    else:
        assert t is not None  # a penalty step belongs to its turn
        line = _after(a, t, len(block))
    return Mutation("drop_penalty", new, "dos-call", "dos.penalty", line, f"penalty dropped ({how})")
