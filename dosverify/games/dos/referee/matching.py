"""The arithmetic of a match (digest section 3 and 4), as pure functions.

An undeclared wild is read as the declaration most favourable to the player
on turn (notation.md, Declarations): a free number or a free colour. The colour
of a match is one colour shared by the Center Row card and every card put on it:
an undeclared Wild DOS may take any one colour, but two fixed colours that differ
never match (digest section 4). Numbers and colours are independent (a Wild # has
a fixed colour, a Wild DOS a fixed number), so each is judged on its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ..cards import Card, parse_card


@dataclass(frozen=True, slots=True)
class MatchJudgement:
    ok: bool
    rule: str | None = None  # the rule broken, when not ok
    message: str = ""
    expected: str | None = None
    colour: bool = False  # a colour match (single or double)
    double: bool = False
    total: tuple[int, int] | None = None  # the least and greatest number the hand card(s) can make


def _number(c: Card) -> int | None:
    return c.number  # None = a Wild # without declaration: any of 1..10


def _strip(c: Card) -> Card:
    """The card as if written without its declaration."""
    if c.decl is None:
        return c
    if c.wild == "dos":
        return c._replace(code=c.base, colour=None, decl=None)
    return c._replace(code=c.base, number=None, decl=None)


def _total(cards: list[Card]) -> tuple[int, int]:
    """The least and greatest sum of the cards' numbers (a free Wild # is any of 1..10)."""
    fixed = sum(n for c in cards if (n := _number(c)) is not None)
    free = sum(1 for c in cards if _number(c) is None)
    return fixed + free, fixed + 10 * free


def _numbers_fit(target: Card, cards: list[Card]) -> bool:
    lo, hi = _total(cards)
    tn = _number(target)
    if tn is None:  # a Wild # in the Center Row takes a number 1..10
        return lo <= 10
    return lo <= tn <= hi


def _one_colour(cards: list[Card]) -> bool:
    """Whether one colour can be shared by all the cards: the fixed colours (None is an
    undeclared Wild DOS, free to take any) are all the same."""
    return len({c.colour for c in cards if c.colour is not None}) <= 1


def judge(target: Card, cards: list[Card]) -> MatchJudgement:
    """Judge `match target with cards` on numbers and colours alone (not on who holds what).

    `colour` is filled in even for a match that fails, so that the referee can tell what
    bonus the player meant to claim."""
    colour = _one_colour([target, *cards])
    if len(cards) > 2:
        return MatchJudgement(
            False,
            "match.two-cards",
            f"{len(cards)} cards on one Center Row card; one or two are allowed",
            "one card of the same number, or two cards that add up to it",
            colour=colour,
        )
    total = _total(cards)
    if not _numbers_fit(target, cards):
        plain = _numbers_fit(_strip(target), [_strip(c) for c in cards])
        tn = target.number
        if plain:  # the numbers would fit but for a written declaration
            return MatchJudgement(
                False,
                "wild.declaration",
                "the declared value of a wild card does not make this match",
                f"declarations that make the numbers {'add up to' if len(cards) == 2 else 'equal'} {tn if tn is not None else 'the Center Row card'}",
                colour=colour,
                double=len(cards) == 2,
                total=total,
            )
        if len(cards) == 1:
            c = cards[0]
            return MatchJudgement(
                False,
                "match.single",
                f"{c.code} does not match {target.code}: a single match needs the same number",
                f"a card numbered {tn}" if tn is not None else "a card of the declared number",
                colour=colour,
                total=total,
            )
        a, b = cards
        lo, hi = total
        if target.number is None:
            return MatchJudgement(
                False,
                "match.double",
                f"{a.code} + {b.code} cannot cover the Wild # {target.code}: the sum must be at most 10",
                "two cards adding up to at most 10",
                colour=colour,
                double=True,
                total=total,
            )
        have = str(lo) if lo == hi else f"{lo} or more"  # a free Wild # fails only by being at least 1
        return MatchJudgement(
            False,
            "match.double",
            f"{a.code} + {b.code} = {have}, not {tn}",
            f"two cards adding up to {tn}",
            colour=colour,
            double=True,
            total=total,
        )
    return MatchJudgement(True, colour=colour, double=len(cards) == 2, total=total)


@lru_cache(maxsize=1 << 16)
def judge_codes(target: str, cards: tuple[str, ...]) -> MatchJudgement:
    """`judge` by card codes, remembered: a game repeats the same few matches."""
    return judge(parse_card(target), [parse_card(c) for c in cards])


def any_match(center: list[str], hand: list[str], parse) -> bool:
    """Whether some hand card(s) can match some Center Row card (for decline-match=forbidden).
    Each kind of card is tried once (a pair of one kind when two are held): the work is bounded
    by the deck's kinds of card, not the square of a hand that a long log can make huge."""
    held = Counter(hand)
    kinds = [(parse(h), n) for h, n in held.items()]
    for t in dict.fromkeys(center):
        tc = parse(t)
        for i, (a, n) in enumerate(kinds):
            if judge(tc, [a]).ok or (n > 1 and judge(tc, [a, a]).ok):
                return True
            for b, _ in kinds[i + 1 :]:
                if judge(tc, [a, b]).ok:
                    return True
    return False
