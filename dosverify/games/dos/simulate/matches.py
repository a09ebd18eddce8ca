"""The ways a hand can match the Center Row: what a physical card can stand for, and every
declaration the agents may choose among (one per way; the rules of matching, V1-V3)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..cards import COLOURS as COLS  # the deck's colours, in the order the agents draw lots among them


def nums(base: str) -> tuple[int, ...]:
    """The numbers a physical card can stand for."""
    if base == "W2":
        return (2,)
    if base.endswith("#"):
        return tuple(range(1, 11))
    return (int(base[1:]),)


def col(base: str) -> str | None:
    """The colour of a physical card; None for a Wild DOS (any colour)."""
    return None if base == "W2" else base[0]


def declare(base: str, n: int | None = None, c: str | None = None) -> str:
    """The card code with its declaration (only wilds carry one)."""
    if base == "W2":
        return f"W2={c}"
    if base.endswith("#"):
        return f"{base}={n}"
    return base


def is_wild(base: str) -> bool:
    return base == "W2" or base.endswith("#")


@dataclass
class Opt:
    """One way to match one Center Row card."""

    ci: int  # index into the Center Row
    target: str  # the Center Row card's code, declared when wild
    cards: list[str]  # the hand cards' codes, declared when wild
    bases: list[str]  # the hand cards' physical codes
    colour: bool  # a Single or Double Color Match
    double: bool


def _single(ci: int, t: str, h: str, rng: random.Random) -> Opt | None:
    common = [n for n in nums(t) if n in nums(h)]
    if not common:
        return None
    n = common[0] if len(common) == 1 else rng.choice(common)
    ct, ch = col(t), col(h)
    if ct and ch:
        dt, dh, cm = ct, ch, ct == ch
    elif ct:
        dt, dh, cm = ct, ct, True
    elif ch:
        dt, dh, cm = ch, ch, True
    else:
        dt = dh = rng.choice(COLS)
        cm = True
    return Opt(ci, declare(t, n, dt), [declare(h, n, dh)], [h], cm, False)


def _double(ci: int, t: str, a: str, b: str, rng: random.Random) -> Opt | None:
    targets = range(2, 11) if t.endswith("#") else nums(t)
    sols = [(nt, na, nt - na) for nt in targets for na in nums(a) if (nt - na) in nums(b)]
    if not sols:
        return None
    nt, na, nb = sols[0] if len(sols) == 1 else rng.choice(sols)
    ct, ca, cb = col(t), col(a), col(b)
    if ct is None:  # a Wild DOS in the Center Row: the player on turn names its colour
        fixed = [c for c in (ca, cb) if c]
        if len(fixed) == 2 and fixed[0] != fixed[1]:
            c, dcm = rng.choice(COLS), False
        else:
            c, dcm = (fixed[0] if fixed else rng.choice(COLS)), True
        dt, da, db = c, (ca or c), (cb or c)
    else:
        dcm = ca in (None, ct) and cb in (None, ct)
        dt = ct
        da = ca or (ct if dcm else rng.choice(COLS))
        db = cb or (ct if dcm else rng.choice(COLS))
    return Opt(ci, declare(t, nt, dt), [declare(a, na, da), declare(b, nb, db)], [a, b], dcm, True)


def match_options(
    cr: list[str], hand: list[str], rng: random.Random, only: str | None = None, singles_only: bool = False
) -> list[Opt]:
    """Every way (one declaration each) to match each Center Row card with the hand."""
    out: list[Opt] = []
    counts = Counter(hand)
    kinds = list(counts)  # insertion order: deterministic
    for ci, t in enumerate(cr):
        for h in kinds:
            if only is not None and h != only:
                continue
            o = _single(ci, t, h, rng)
            if o:
                out.append(o)
        if singles_only or only is not None:
            continue
        for i, a in enumerate(kinds):
            for b in kinds[i:]:
                if a == b and counts[a] < 2:
                    continue
                o = _double(ci, t, a, b, rng)
                if o:
                    out.append(o)
    return out


# ---- the game ------------------------------------------------------------------------------
