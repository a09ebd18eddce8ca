"""Operators: illegal matches."""

from __future__ import annotations

import random

from ... import Mutation
from ..simulate.matches import match_options
from .analysis import analyse
from .sites import _after_line_state, _choose, _num, _plain, insert_after, replace_line


def op_double_sum(text: str, rng: random.Random) -> Mutation | None:
    """A double match whose two cards do not add up to the Center Row card."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "match-double":
            continue
        tgt, c1, c2 = ln.words[1], ln.words[3], ln.words[5]
        if not (_plain(tgt) and _plain(c1) and _plain(c2)):
            continue
        hand = list(ln.hands[ln.player])
        hand.remove(c1)
        hand.remove(c2)
        alts = sorted({c for c in hand if _plain(c) and _num(c1) + _num(c) != _num(tgt)})
        if alts:
            cands.append((ln, tgt, c1, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, c1, alts = pick
    new = f"match {tgt} with {c1} + {rng.choice(alts)}"
    return Mutation("double_sum", replace_line(text, ln.no, new), "illegal-match", "match.double", ln.no, new)


def op_single_number(text: str, rng: random.Random) -> Mutation | None:
    """A single match with a card of another number."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "match-single":
            continue
        tgt, c1 = ln.words[1], ln.words[3]
        if not (_plain(tgt) and _plain(c1)):
            continue
        hand = list(ln.hands[ln.player])
        hand.remove(c1)
        alts = sorted({c for c in hand if _plain(c) and _num(c) != _num(tgt)})
        if alts:
            cands.append((ln, tgt, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, alts = pick
    new = f"match {tgt} with {rng.choice(alts)}"
    return Mutation("single_number", replace_line(text, ln.no, new), "illegal-match", "match.single", ln.no, new)


def op_matched_twice(text: str, rng: random.Random) -> Mutation | None:
    """A Center Row card matched a second time in the same turn."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-"):
            continue
        t = a.turns[ln.turn]
        if any(a.line(n).role == "nomatch-draw" for n in t.lines):
            continue  # keep clear of the after-draw rules
        tgt = ln.words[1]
        if not _plain(tgt) or ln.cr.count(tgt) != 1:
            continue
        nxt = _after_line_state(a, ln)
        if nxt is None or not nxt.hands:
            continue
        opts = [o for o in match_options([tgt], nxt.hands[ln.player], random.Random(0))]
        if opts:
            cands.append((ln, tgt, opts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, opts = pick
    o = rng.choice(opts)
    new = f"match {tgt} with " + " + ".join(o.cards)
    return Mutation("matched_twice", insert_after(text, ln.no, new), "illegal-match", "match.once", ln.no + 1, new)


def op_refilled_matched(text: str, rng: random.Random) -> Mutation | None:
    """A card refilled into the Center Row is matched in the same turn."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "refill":
            continue
        nxt = _after_line_state(a, ln)
        if nxt is None or not nxt.hands:
            continue
        p = a.turns[ln.turn].player
        for c in ln.words[1:]:
            if not _plain(c):
                continue
            opts = [o for o in match_options([c], nxt.hands[p], random.Random(0), singles_only=True)]
            if opts:
                cands.append((ln, c, opts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, c, opts = pick
    o = rng.choice(opts)
    new = f"match {c} with " + " + ".join(o.cards)
    return Mutation(
        "refilled_matched", insert_after(text, ln.no, new), "illegal-match", "match.refilled", ln.no + 1, new
    )


def op_not_held(text: str, rng: random.Random) -> Mutation | None:
    """A match with a card the player does not hold (same number, another colour)."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-"):
            continue
        cards = [c for c in ln.words[3:] if c != "+"]
        hand = ln.hands[ln.player]
        for i, c in enumerate(cards):
            if not _plain(c):
                continue
            alts = sorted({f"{k}{c[1:]}" for k in "RGBY"} - set(hand) - {c})
            alts = [x for x in alts if x in ln.pile]  # an unseen copy exists
            if alts:
                cands.append((ln, i, cards, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, i, cards, alts = pick
    cards = list(cards)
    cards[i] = rng.choice(alts)
    new = f"match {ln.words[1]} with " + " + ".join(cards)
    return Mutation("not_held", replace_line(text, ln.no, new), "illegal-match", "match.held", ln.no, new)
