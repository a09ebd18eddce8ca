"""Operators: slips of the pen, each a mistake the referee must report once (and nothing after
it), so that one slip does not bury a log in findings."""

from __future__ import annotations

import random
from collections import Counter

from ... import Mutation
from .analysis import analyse, base_of
from .sites import _after, _after_reshuffle, _bonus_counts, _choose, _num, _plain, delete_lines, replace_line

NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)


def _fits(tgt: str, cards: list[str]) -> bool:
    """Plain cards only: whether the numbers cover the target (colour aside)."""
    return sum(_num(c) for c in cards) == _num(tgt)


def op_card_typo(text: str, rng: random.Random) -> Mutation | None:
    """A card of a match written with a wrong number (same colour) that the player does not hold,
    where the card played is the only held card of that colour or number that makes the match."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-") or ln.player is None:  # (a match line names its player)
            continue
        tgt, cards = ln.words[1], [c for c in ln.words[3:] if c != "+"]
        if not (_plain(tgt) and all(_plain(c) for c in cards)):
            continue
        hand = ln.hands[ln.player]
        # a typo naming a card the next player holds reads as that player's missing `turn` line
        # (READINGS R26), a different slip: such typos are not this operator's
        nxt = ln.hands.get(a.players[(a.players.index(ln.player) + 1) % len(a.players)], ())
        for i, c in enumerate(cards):
            rest = cards[:i] + cards[i + 1 :]
            left = list(hand)
            for r in rest:
                left.remove(r)
            typos = [
                f"{c[0]}{n}" for n in NUMBERS if n != _num(c) and f"{c[0]}{n}" not in hand and f"{c[0]}{n}" not in nxt
            ]
            for x in typos:
                meant = {y for y in left if _plain(y) and (y[0] == x[0] or y[1:] == x[1:]) and _fits(tgt, rest + [y])}
                if meant == {c}:
                    cands.append((ln, i, cards, x))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, i, cards, x = pick
    cards = list(cards)
    cards[i] = x
    new = f"match {ln.words[1]} with " + " + ".join(cards)
    return Mutation("card_typo", replace_line(text, ln.no, new), "illegal-match", "match.held", ln.no, new)


def op_lower_codes(text: str, rng: random.Random) -> Mutation | None:
    """A match line with its card codes in lower case (`match b10 with b3 + b7`)."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "match"])
    if not ln:
        return None
    new = " ".join(w.lower() if i != 0 and w not in ("with", "+") else w for i, w in enumerate(ln.words))
    return Mutation("lower_codes", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)


def _misspell(name: str, rng: random.Random, players: list[str]) -> str | None:
    opts = [name.capitalize() if name != name.capitalize() else name.lower(), name + name[-1], name + "e", name.upper()]
    opts = [o for o in opts if o not in players and o.lower() not in {p.lower() for p in players if p != name}]
    return rng.choice(opts) if opts else None


def op_misspelt_turn(text: str, rng: random.Random) -> Mutation | None:
    """A `turn` line with the player's name misspelt or mis-cased (`turn anne`, `turn Ann`)."""
    a = analyse(text)
    t = _choose(rng, a.turns)
    if not t:
        return None
    bad = _misspell(t.player, rng, a.players)
    if bad is None:
        return None
    new = f"turn {bad}"
    return Mutation("misspelt_turn", replace_line(text, t.start, new), "syntax", "notation.player", t.start, new)


def op_misspelt_name(text: str, rng: random.Random) -> Mutation | None:
    """A name misspelt in a `draw P`, `catch P by Q` or `dos P` line."""
    a = analyse(text)
    cands = [
        ln for ln in a.lines if ln.kind in ("draw", "catch", "dos") and len(ln.words) > 1 and ln.words[1] in a.players
    ]
    ln = _choose(rng, cands)
    if not ln:
        return None
    bad = _misspell(ln.words[1], rng, a.players)
    if bad is None:
        return None
    w = list(ln.words)
    w[1] = bad
    new = " ".join(w)
    return Mutation("misspelt_name", replace_line(text, ln.no, new), "syntax", "notation.player", ln.no, new)


def op_drop_turn_line(text: str, rng: random.Random) -> Mutation | None:
    """A `turn P` line left out: P's lines follow the previous turn's; P's first line is a match
    with a card the previous player does not hold (or a bare-player draw, then such a line)."""
    a = analyse(text)
    cands = []
    for k, t in enumerate(a.turns[1:], 1):
        prev = a.turns[k - 1]
        if prev.round != t.round or prev.ended_round or not t.lines or not prev.lines:
            continue
        first = a.line(t.lines[0])
        hands = first.hands
        if not hands:
            continue
        if first.kind == "match":
            cards = [base_of(c) for c in first.words[3:] if c != "+"]
        elif (
            first.kind == "draw"
            and first.role == "nomatch-draw"
            and first.words[1] not in a.players
            and len(t.lines) > 1
        ):
            nxt = a.line(t.lines[1])
            drawn = [base_of(c) for c in first.words[1:]]
            cards = [
                base_of(c)
                for c in (nxt.words[3:] if nxt.kind == "match" else nxt.words[1:2] if nxt.kind == "place" else [])
                if c != "+" and base_of(c) not in drawn
            ]
        else:
            continue
        if cards and not all(Counter(hands[prev.player])[c] >= n for c, n in Counter(cards).items()):
            cands.append(t)
    t = _choose(rng, cands)
    if not t:
        return None
    return Mutation(
        "drop_turn_line",
        delete_lines(text, [t.start]),
        "turn-order",
        "turn.order",
        t.start,
        f"`turn {t.player}` dropped",
    )


def op_swapped_cards(text: str, rng: random.Random) -> Mutation | None:
    """Two cards of one `draw` or `refill` line from a known pile written in the wrong order."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind not in ("draw", "refill") or not ln.pile_known:
            continue
        cards = ln.words[2:] if ln.kind == "draw" and len(ln.words) > 1 and ln.words[1] in a.players else ln.words[1:]
        if len(cards) >= 2 and base_of(cards[0]) != base_of(cards[1]):
            cands.append((ln, len(ln.words) - len(cards)))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, at = pick
    w = list(ln.words)
    w[at], w[at + 1] = w[at + 1], w[at]
    new = " ".join(w)
    return Mutation("swapped_cards", replace_line(text, ln.no, new), "draw-order", "draw.top", ln.no, new)


def op_swapped_refills(text: str, rng: random.Random) -> Mutation | None:
    """Two `refill` lines of one card each, from a known pile, written in swapped order: one `draw.top` at
    the first, whose card is not the top (READINGS R94)."""
    a = analyse(text)
    cands = [
        (x, y)
        for x, y in zip(a.lines, a.lines[1:], strict=False)
        if x.kind == y.kind == "refill"
        and x.pile_known
        and len(x.words) == len(y.words) == 2
        and base_of(x.words[1]) != base_of(y.words[1])
    ]
    pick = _choose(rng, cands)
    if not pick:
        return None
    x, y = pick
    new = " ".join(y.words)
    out = replace_line(replace_line(text, x.no, new), y.no, " ".join(x.words))
    return Mutation("swapped_refills", out, "draw-order", "draw.top", x.no, new)


def op_drop_nomatch_draw(text: str, rng: random.Random) -> Mutation | None:
    """The draw after no match left out where a `place` follows it (no `reshuffle` before it): one
    `draw.no-match` at the place; the hand holds the card drawn all the same (READINGS R95)."""
    a = analyse(text)
    cands = [
        x
        for w, x, y in zip(a.lines, a.lines[1:], a.lines[2:], strict=False)
        if x.role == "nomatch-draw" and y.role == "nomatch-place" and w.kind == "turn"
    ]
    x = _choose(rng, cands)
    if not x:
        return None
    return Mutation(
        "drop_nomatch_draw",
        delete_lines(text, [x.no]),
        "draw-order",
        "draw.no-match",
        x.no,
        a.line(x.no + 1).raw.strip(),
    )


def op_drop_nomatch_place(text: str, rng: random.Random) -> Mutation | None:
    """The `place` owed after a draw that brought no match left out (no `dos` or catch later in its turn,
    whose hand sizes it would decide): one `place.no-match` where the turn ends; the card placed is an
    unknown card of that hand, which a later match names (READINGS R96)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        for k, no in enumerate(t.lines):
            if a.line(no).role == "nomatch-place" and not any(
                a.line(n).kind in ("dos", "catch") for n in t.lines[k + 1 :]
            ):
                cands.append((t, no))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, no = pick
    return Mutation(
        "drop_nomatch_place",
        delete_lines(text, [no]),
        "draw-order",
        "place.no-match",
        _after(a, t, 1),
        a.line(no).raw.strip(),
    )


def op_drop_line(text: str, rng: random.Random) -> Mutation | None:
    """One end-of-turn line left out anywhere in its turn: a refill, a bonus card, a DOS penalty
    draw at its step or another player's Double Color Match draw (no call or catch after it that
    the missing cards would decide). A line next to a `reshuffle` is left alone, as in
    drop_dcm_draw: without the draw right after it the reshuffle is one nobody needed, and
    without the draw that emptied the pile right before it the reshuffle comes too early (R21),
    an earlier and equally true finding, so the mutant would hold two mistakes."""
    a = analyse(text)
    want = {
        "refill": ("card-accounting", "center.refill"),
        "bonus": ("missed-bonus", "bonus.card"),
        "penalty-step": ("dos-call", "dos.penalty"),
        "dcm": ("missed-bonus", "bonus.draw"),
    }
    cands = []
    for t in a.turns:
        for k, no in enumerate(t.lines):
            ln = a.line(no)
            if ln.role not in want:
                continue
            if _after_reshuffle(a, no) or (no < a.nlines and a.line(no + 1).kind == "reshuffle"):
                continue
            later = [a.line(n) for n in t.lines[k + 1 :]]
            if any(x.kind in ("dos", "catch") for x in later):
                continue
            if ln.role == "bonus" and _bonus_counts(a, t)[0] > _bonus_counts(a, t)[1]:
                continue  # an optional Single Color Match card: leaving it out is legal
            if ln.role == "refill" and any(x.kind == "match" for x in later):
                continue
            cands.append((t, no, ln.role))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, no, role = pick
    kind, rule = want[role]
    return Mutation("drop_line", delete_lines(text, [no]), kind, rule, _after(a, t, 1), a.line(no).raw.strip())
