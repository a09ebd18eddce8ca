"""Operators: the colour bonuses, the draws a DOS call or a penalty owes, and the order of the end
of a turn (V7)."""

from __future__ import annotations

import random

from ... import Mutation
from .analysis import Line, analyse
from .sites import (
    _after,
    _after_line_state,
    _after_reshuffle,
    _blocks,
    _bonus_counts,
    _choose,
    _join,
    _last_event,
    _lines,
    delete_lines,
    insert_after,
)

# ---- bonuses


def op_drop_bonus(text: str, rng: random.Random) -> Mutation | None:
    """An earned colour-bonus card is never placed (the turn's last line removed)."""
    a = analyse(text)
    cands = [
        t
        for t in a.turns
        if t.lines and _last_event(a, t).role == "bonus" and _bonus_counts(a, t)[0] <= _bonus_counts(a, t)[1]
    ]
    t = _choose(rng, cands)
    if not t:
        return None
    no = t.lines[-1]
    return Mutation(
        "drop_bonus", delete_lines(text, [no]), "missed-bonus", "bonus.card", _after(a, t, 1), a.line(no).raw.strip()
    )


def op_extra_bonus(text: str, rng: random.Random) -> Mutation | None:
    """A bonus card placed that was never earned."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        roles = [a.line(n).role for n in t.lines]
        if not any(r.startswith("match-") for r in roles) or "nomatch-draw" in roles:
            continue
        placed, _, allowed = _bonus_counts(a, t)
        if placed < allowed:
            continue  # an optional Single Color Match card left unplaced: one more would be legal
        # after the last bonus card, else after the last refill, else after the last match
        at = None
        for want in ("bonus", "refill"):
            idx = [n for n in t.lines if a.line(n).role == want]
            if idx:
                at = idx[-1]
                break
        if at is None:
            continue
        nxt = _after_line_state(a, a.line(at))
        if nxt is None or not nxt.hands or len(nxt.hands[t.player]) < 2:
            continue
        cands.append((t, at, nxt.hands[t.player]))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, at, hand = pick
    new = f"place {rng.choice(hand)}"
    return Mutation("extra_bonus", insert_after(text, at, new), "missed-bonus", "bonus.card", at + 1, new)


def op_drop_dcm_draw(text: str, rng: random.Random) -> Mutation | None:
    """A Double Color Match draw left out (the turn's last line removed)."""
    a = analyse(text)
    # a draw right after its `reshuffle` is left alone: without it the reshuffle is one nobody
    # needed (READINGS R21), an earlier finding as true as the missing draw
    cands = [t for t in a.turns if t.lines and _last_event(a, t).role == "dcm" and not _after_reshuffle(a, t.lines[-1])]
    t = _choose(rng, cands)
    if not t:
        return None
    no = t.lines[-1]
    return Mutation(
        "drop_dcm_draw", delete_lines(text, [no]), "missed-bonus", "bonus.draw", _after(a, t, 1), a.line(no).raw.strip()
    )


def _top_unseen(ln: Line, after: Line | None) -> str | None:
    st = after if after is not None and after.hands else None
    pile = st.pile if st else []
    known = st.pile_known if st else False
    if not pile:
        return None
    return pile[0] if known else sorted(pile)[0]


def op_extra_dcm_draw(text: str, rng: random.Random) -> Mutation | None:
    """One card more than the Double Color Matches owe: a draw with no reason (notation.md, draw-order; READINGS R10)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        if not t.lines or _last_event(a, t).role != "dcm":
            continue
        last = _last_event(a, t)
        nxt = _after_line_state(a, last)
        card = _top_unseen(last, nxt)
        if card:
            cands.append((t, last, card))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, last, card = pick
    new = f"draw {last.player} {card}"
    return Mutation("extra_dcm_draw", insert_after(text, last.no, new), "draw-order", "draw.reason", last.no + 1, new)


# ---- the order of the end of a turn (V7)


def _move_before(text: str, block: list[int], before: int) -> str:
    ls = _lines(text)
    moved = [ls[n - 1] for n in block]
    rest = [ln for i, ln in enumerate(ls, 1) if i not in set(block)]
    pos = before - 1  # `before` precedes the block, so its index is unchanged
    return _join(rest[:pos] + moved + rest[pos:])


def op_swap_refill_bonus(text: str, rng: random.Random) -> Mutation | None:
    """A bonus card placed before the refill."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "refill" and k2 == "bonus":
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_refill_bonus",
        _move_before(text, [b2[0]], b1[0]),
        "draw-order",
        "turn.steps",
        b1[0],
        "bonus before refill",
    )


def op_swap_bonus_penalty(text: str, rng: random.Random) -> Mutation | None:
    """The DOS penalty drawn before the bonus cards (the bonus cards owed are still judged by the
    hand before the penalty, READINGS R51: one finding)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "bonus" and k2 == "penalty-step":
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_bonus_penalty", _move_before(text, b2, b1[-1]), "draw-order", "turn.steps", b1[-1], "penalty before bonus"
    )


def op_swap_penalty_dcm(text: str, rng: random.Random) -> Mutation | None:
    """The others' Double Color Match draw lines written before the DOS penalty lines, each line with
    its own cards (one slip: the lines' order). Handing the pile's top cards to the Double Color Match
    lines instead would give the players other cards than the later lines play: a second mistake
    (READINGS R44)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "penalty-step" and k2.startswith("dcm:"):
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_penalty_dcm", _move_before(text, b2, b1[0]), "draw-order", "turn.steps", b1[0], "DCM draws before penalty"
    )
