"""The arithmetic of matches (digest sections 3 and 4), case by case: numbers, wilds and
their declarations, and the colour bonuses each match earns."""

from __future__ import annotations

import pytest

from dosverify.games.dos.cards import parse_card
from dosverify.games.dos.referee.matching import judge


def j(target: str, *cards: str):
    return judge(parse_card(target), [parse_card(c) for c in cards])


@pytest.mark.parametrize(
    "target, cards, ok, colour, rule",
    [
        # single matches: the same number; colour alone never matches
        ("R5", ("B5",), True, False, None),
        ("R5", ("R5",), True, True, None),
        ("R5", ("R6",), False, True, "match.single"),
        ("R5", ("R#",), True, True, None),  # an undeclared Wild #: the most favourable number
        ("R5", ("R#=5",), True, True, None),
        ("R5", ("R#=6",), False, True, "wild.declaration"),  # would fit but for the declaration
        ("R5", ("B#",), True, False, None),  # a Wild # keeps its own colour
        ("R5", ("W2",), False, True, "match.single"),  # a Wild DOS is a 2
        ("W2", ("W2=G",), True, True, None),  # a Wild DOS on a Wild DOS: any colour named
        ("R#", ("G7",), True, False, None),  # a Wild # in the Center Row takes any number
        ("G#=7", ("G7",), True, True, None),
        ("G#=7", ("G5",), False, True, "wild.declaration"),
        # double matches: two cards that add up
        ("B10", ("B3", "B7"), True, True, None),  # a Double Color Match
        ("B10", ("B3", "G7"), True, False, None),
        ("B10", ("B3", "B5"), False, True, "match.double"),
        ("B10", ("W2=B", "B8"), True, True, None),  # S0: 2 (Wild DOS) + 8
        ("B10", ("W2=R", "B8"), True, False, None),  # named red: no colour match
        ("B10", ("B3", "B#=7"), True, True, None),  # S0: 3 + Wild # as 7
        ("B10", ("B3", "B#"), True, True, None),
        ("B10", ("B3", "B#=6"), False, True, "wild.declaration"),
        ("G#", ("W2=G", "G6"), True, True, None),  # S1 example 2, the better line: named 8
        ("G#=8", ("W2=G", "G6"), True, True, None),
        ("G#", ("G6", "G7"), False, True, "match.double"),  # S1: covered by two, the sum is at most 10
        ("G#", ("G#", "G#"), True, True, None),  # two free Wild #: 1 + 1 up to 10
        ("R1", ("R#", "R#"), False, True, "match.double"),  # each Wild # is at least 1
        # three cards on one Center Row card
        ("R9", ("R3", "R3", "R3"), False, True, "match.two-cards"),
    ],
)
def test_match_arithmetic(target, cards, ok, colour, rule):
    got = j(target, *cards)
    assert (got.ok, got.colour, got.rule) == (ok, colour, rule), got
    assert got.double == (len(cards) == 2) or not ok
