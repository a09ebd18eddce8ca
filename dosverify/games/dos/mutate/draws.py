"""Operators: draws, refills and reshuffles."""

from __future__ import annotations

import random

from ... import Mutation
from .analysis import analyse
from .sites import _after, _after_line_state, _blocks, _choose, delete_lines, replace_line


def op_draw_not_top(text: str, rng: random.Random) -> Mutation | None:
    """A draw of a card that is not the top of the known pile."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind != "draw" or not ln.pile_known or len(ln.pile) < 2:
            continue
        cards = ln.words[2:] if ln.words[1] in a.players else ln.words[1:]
        if len(cards) != 1:
            continue
        alts = sorted({c for c in ln.pile[1:] if c != ln.pile[0]})
        if alts:
            cands.append((ln, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, alts = pick
    w = list(ln.words)
    w[-1] = rng.choice(alts)
    new = " ".join(w)
    return Mutation("draw_not_top", replace_line(text, ln.no, new), "draw-order", "draw.top", ln.no, new)


def op_missing_refill(text: str, rng: random.Random) -> Mutation | None:
    """The Center Row left with fewer than 2 cards: the refill (the turn's last lines) left out."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        if bl and bl[-1][0] == "refill":
            cands.append((t, bl[-1][1]))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, block = pick
    return Mutation(
        "missing_refill",
        delete_lines(text, block),
        "card-accounting",
        "center.refill",
        _after(a, t, len(block)),
        "refill dropped",
    )


def op_missing_reshuffle(text: str, rng: random.Random) -> Mutation | None:
    """A draw or refill from an empty pile without the reshuffle."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind != "reshuffle":
            continue
        nxt = _after_line_state(a, ln)
        if nxt is not None and nxt.kind in ("draw", "refill") and nxt.no == ln.no + 1:
            cands.append(ln)
    ln = _choose(rng, cands)
    if not ln:
        return None
    return Mutation(
        "missing_reshuffle", delete_lines(text, [ln.no]), "draw-order", "reshuffle.when", ln.no, "reshuffle dropped"
    )
