"""An exhaustive oracle for the arithmetic of matches: a brute-force evaluator that tries every
number (1..10) an undeclared Wild # may take and every colour an undeclared Wild DOS may be
declared as, compared with the referee's judgement (`judge_codes`) on every Center Row card
against every single card and every pair of cards, declared and undeclared.

The evaluator knows nothing of the referee's shortcuts: it reads a card code on its own and
states the rules of the digest (sections 3 and 4) literally. Every distinct code is tried,
so the comparison covers every combination there is, not a sample."""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from dosverify.games.dos.referee.matching import judge_codes

COLOURS = "RGBY"
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)

#: every distinct code a log may write: numbered cards, Wild # and Wild DOS, undeclared and declared
CODES = (
    [f"{c}{n}" for c in COLOURS for n in NUMBERS]
    + [f"{c}#" for c in COLOURS]
    + [f"{c}#={n}" for c in COLOURS for n in range(1, 11)]
    + ["W2"]
    + [f"W2={c}" for c in COLOURS]
)


@cache
def readings(code: str) -> tuple[tuple[int, str], ...]:
    """Every (number, colour) the card may stand for: a declaration fixes one; an undeclared
    Wild # is any number 1..10 in its own colour, an undeclared Wild DOS a 2 of any colour."""
    base, _, decl = code.partition("=")
    if base == "W2":
        return ((2, decl),) if decl else tuple((2, c) for c in COLOURS)
    if base[1] == "#":
        return ((int(decl), base[0]),) if decl else tuple((n, base[0]) for n in range(1, 11))
    return ((int(base[1:]), base[0]),)


def strip(code: str) -> str:
    return code.partition("=")[0]


@cache
def hand_readings(cards: tuple[str, ...]) -> frozenset[tuple[int, str | None]]:
    """Every (sum, shared colour or None) the hand cards may stand for, over every reading of each."""
    return frozenset(
        (sum(n for n, _ in r), r[0][1] if len({col for _, col in r}) == 1 else None)
        for r in product(*(readings(c) for c in cards))
    )


def brute(target: str, cards: tuple[str, ...]) -> dict:
    """What the rules say, by trying every reading of every wild: a match is legal when some
    reading makes one card of the same number or two that add up to it; a colour bonus when
    some legal reading has one colour shared by the Center Row card and every card on it."""
    legal = colour = colour_match = False
    hand = hand_readings(cards)
    for n, col in readings(target):
        for total, shared in hand:
            fits, same = total == n, shared == col
            legal |= fits
            colour |= same
            colour_match |= fits and same
    plain = hand_readings(tuple(strip(c) for c in cards))
    plain_legal = any(total == n for n, _ in readings(strip(target)) for total, _ in plain)
    sums = [total for total, _ in hand]
    bonus = "none" if not colour_match else ("double" if len(cards) == 2 else "single")
    return {
        "legal": legal,
        "sums": (min(sums), max(sums)),
        "bonus": bonus,
        "colour": colour,
        "declaration": not legal and plain_legal,
    }


def referee(target: str, cards: tuple[str, ...]) -> dict:
    j = judge_codes(target, cards)
    bonus = "none" if not (j.ok and j.colour) else ("double" if j.double else "single")
    return {
        "legal": j.ok,
        "sums": j.total,
        "bonus": bonus,
        "colour": j.colour,
        "declaration": j.rule == "wild.declaration",
    }


@pytest.mark.parametrize("size", [1, pytest.param(2, marks=pytest.mark.slow)])  # size 2: every pair, 12 s
def test_referee_agrees_with_brute_force(size: int) -> None:
    disagree = []
    for target in CODES:
        for cards in combinations_with_replacement(CODES, size):
            want = brute(target, cards)
            for order in {cards, cards[::-1]}:  # the order of the two cards must not matter
                got = referee(target, order)
                if want != got:
                    disagree.append(f"match {target} with {' + '.join(order)}: rules {want}, referee {got}")
    assert not disagree, f"{len(disagree)} disagreements, e.g.\n" + "\n".join(disagree[:20])


def test_the_oracle_covers_every_code() -> None:
    assert len(CODES) == len(set(CODES)) == 36 + 4 + 40 + 1 + 4


@pytest.mark.parametrize(
    "target, cards, bonus",
    [
        ("W2", ("B1", "R1"), "none"),  # issue 8, item 1: two fixed colours that differ never match
        ("W2", ("R1", "B#"), "none"),
        ("W2", ("B1", "B#"), "double"),  # the Wild DOS in the Center Row named blue
        ("B10", ("W2", "B8"), "double"),  # the favourable reading: the Wild DOS named blue
        ("W2", ("W2",), "single"),
        ("W2", ("R#",), "single"),  # a Wild # declared 2, the Wild DOS named red
    ],
)
def test_the_oracle_itself(target, cards, bonus) -> None:
    assert brute(target, cards)["bonus"] == bonus
