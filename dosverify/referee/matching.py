"""The arithmetic of a match (digest section 3 and 4), as pure functions.

An undeclared wild is read as the declaration most favourable to the player
on turn (notation.md, Declarations): a free number or a free colour.
"""

from __future__ import annotations

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


def _number(c: Card) -> int | None:
    return c.number  # None = a Wild # without declaration: any of 1..10


def _strip(c: Card) -> Card:
    """The card as if written without its declaration."""
    if c.decl is None:
        return c
    if c.wild == "dos":
        return c._replace(code=c.base, colour=None, decl=None)
    return c._replace(code=c.base, number=None, decl=None)


def _numbers_fit(target: Card, cards: list[Card]) -> bool:
    tn = _number(target)
    if len(cards) == 1:
        cn = _number(cards[0])
        return tn is None or cn is None or tn == cn
    a, b = (_number(x) for x in cards)
    free = [x is None for x in (a, b)]
    fixed = sum(x for x in (a, b) if x is not None)
    lo = fixed + sum(free)  # each free Wild # is at least 1
    hi = fixed + 10 * sum(free)
    if tn is None:  # a Wild # in the Center Row takes a number 1..10
        return lo <= 10
    return lo <= tn <= hi


def _colour_fits(want: str | None, have: str | None) -> bool:
    return want is None or have is None or want == have


def judge(target: Card, cards: list[Card]) -> MatchJudgement:
    """Judge `match target with cards` on numbers and colours alone (not on who holds what).

    `colour` is filled in even for a match that fails, so that the referee can tell what
    bonus the player meant to claim."""
    tc = target.colour
    colour = all(_colour_fits(tc, c.colour) for c in cards)
    if len(cards) > 2:
        return MatchJudgement(False, "match.two-cards", f"{len(cards)} cards on one Center Row card; one or two are allowed",
                              "one card of the same number, or two cards that add up to it", colour=colour)
    if not _numbers_fit(target, cards):
        plain = _numbers_fit(_strip(target), [_strip(c) for c in cards])
        tn = target.number
        if plain:  # the numbers would fit but for a written declaration
            return MatchJudgement(False, "wild.declaration", "the declared value of a wild card does not make this match",
                                  f"declarations that make the numbers {'add up to' if len(cards) == 2 else 'equal'} {tn if tn is not None else 'the Center Row card'}",
                                  colour=colour, double=len(cards) == 2)
        if len(cards) == 1:
            c = cards[0]
            return MatchJudgement(False, "match.single", f"{c.code} does not match {target.code}: a single match needs the same number",
                                  f"a card numbered {tn}" if tn is not None else "a card of the declared number", colour=colour)
        a, b = cards
        if target.number is None:
            return MatchJudgement(False, "match.double", f"{a.code} + {b.code} cannot cover the Wild # {target.code}: the sum must be at most 10",
                                  "two cards adding up to at most 10", colour=colour, double=True)
        have = (a.number or 0) + (b.number or 0)
        return MatchJudgement(False, "match.double", f"{a.code} + {b.code} = {have}, not {tn}",
                              f"two cards adding up to {tn}", colour=colour, double=True)
    return MatchJudgement(True, colour=colour, double=len(cards) == 2)


@lru_cache(maxsize=1 << 16)
def judge_codes(target: str, cards: tuple[str, ...]) -> MatchJudgement:
    """`judge` by card codes, remembered: a game repeats the same few matches."""
    return judge(parse_card(target), [parse_card(c) for c in cards])


def any_match(center: list[str], hand: list[str], parse) -> bool:
    """Whether some hand card(s) can match some Center Row card (for decline-match=forbidden)."""
    cards = [parse(h) for h in hand]
    for t in center:
        tc = parse(t)
        for i, a in enumerate(cards):
            if judge(tc, [a]).ok:
                return True
            for b in cards[i + 1:]:
                if judge(tc, [a, b]).ok:
                    return True
    return False
