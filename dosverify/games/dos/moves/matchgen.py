"""Every way a hand may match the Center Row, one move per state it leaves (issue 33, Canonical form).

A match leaves the same state whatever its declarations, but for one thing: whether it is a colour
match (it owes a bonus card, and a Double Color Match the others' draws). So a move is the Center
Row card, the hand cards (a double's two in deck order) and that colour flag, written with the
smallest declaration that gives it (numbers up, colours R, G, B, Y, the Center Row card first).
The arithmetic is the referee's: ``match.single``, ``match.double`` (``referee.matching.judge``),
and each move this module lists is a line that ``judge`` finds ``ok``.
"""

from __future__ import annotations

from functools import cache

from ..cards import COLOURS

_HASH_NUMS = tuple(range(1, 11))


def deck_key(base: str) -> tuple[int, int]:
    """Deck order: colour R, G, B, Y; then number, `#`; the Wild DOS last (issue 33)."""
    if base == "W2":
        return (4, 0)
    return (COLOURS.index(base[0]), 11 if base[1] == "#" else int(base[1:]))


def _readings(base: str, target_double: bool = False) -> list[tuple[int, str, str]]:
    """(number, colour, code as declared) for each declaration of a physical card, smallest first."""
    if base == "W2":
        return [(2, c, f"W2={c}") for c in COLOURS]
    if base[1] == "#":
        nums = range(2, 11) if target_double else _HASH_NUMS
        return [(n, base[0], f"{base}={n}") for n in nums]
    return [(int(base[1:]), base[0], base)]


@cache
def single_moves(target: str, card: str) -> tuple[tuple[str, bool], ...]:
    """(line, colour) for each state `match target with card` may leave (match.single)."""
    got: dict[bool, str] = {}
    for tn, tc, tcode in _readings(target):
        for hn, hc, hcode in _readings(card):
            if hn != tn:
                continue
            colour = hc == tc
            if colour not in got:
                got[colour] = f"match {tcode} with {hcode}"
        if len(got) == 2:
            break
    return tuple((line, colour) for colour, line in sorted(got.items(), key=lambda kv: not kv[0]))


@cache
def double_moves(target: str, a: str, b: str) -> tuple[tuple[str, bool], ...]:
    """(line, colour) for each state `match target with a + b` may leave (match.double); a, b in deck order."""
    got: dict[bool, str] = {}
    ra, rb = _readings(a), _readings(b)
    for tn, tc, tcode in _readings(target, target_double=True):
        for an, ac, acode in ra:
            for bn, bc, bcode in rb:
                if an + bn != tn:
                    continue
                colour = ac == tc and bc == tc
                if colour not in got:
                    got[colour] = f"match {tcode} with {acode} + {bcode}"
        if len(got) == 2:
            break
    return tuple((line, colour) for colour, line in sorted(got.items(), key=lambda kv: not kv[0]))


def match_moves(row: list[str], hand: list[str], only: str | None = None, singles: bool = False):
    """Every match move of `hand` on the matchable Center Row cards `row`: (line, target, cards, colour).

    `only` (after-draw-match=drawn-only, match.after-draw): single matches of that card alone."""
    counts: dict[str, int] = {}
    for h in hand:
        counts[h] = counts.get(h, 0) + 1
    counts.pop("?", None)
    kinds = sorted(counts, key=deck_key)
    out: list[tuple[str, str, tuple[str, ...], bool]] = []
    for t in dict.fromkeys(row):
        if t == "?":
            continue
        for i, a in enumerate(kinds):
            if only is not None and a != only:
                continue
            for line, colour in single_moves(t, a):
                out.append((line, t, (a,), colour))
            if singles or only is not None:
                continue
            for b in kinds[i:]:
                if a == b and counts[a] < 2:
                    continue
                for line, colour in double_moves(t, a, b):
                    out.append((line, t, (a, b), colour))
    return out


def any_match(row: list[str], hand: list[str]) -> bool:
    """Whether some match is possible (decline-match=forbidden, match.decline)."""
    return bool(match_moves(row, hand))
