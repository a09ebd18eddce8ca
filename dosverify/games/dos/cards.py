"""Card codes, the deck composition and card values.

The composition and values are read from ``spec/deck.toml`` so that the
referee and the generator share one source (digest section 1 and 8).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ...spec import spec_file

COLOURS = ("R", "G", "B", "Y")
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)

#: A valid card code, with an optional declaration on wilds.
CARD_RE = re.compile(r"^(?:[RGBY](?:10|[13-9])|[RGBY]#(?:=(?:10|[1-9]))?|W2(?:=[RGBY])?)$")
#: Any word that is meant as a card (notation: a letter R,G,B,Y,W then a digit or #).
CARD_WORD_RE = re.compile(r"^[RGBYW][0-9#]")


class Card(NamedTuple):
    """A card code split into its parts.

    ``base`` is the physical card (``R#``, ``W2``, ``G7``); ``decl`` the
    declaration written with it (a number for Wild #, a colour for Wild DOS).
    """

    code: str
    base: str
    colour: str | None  # None for a Wild DOS without declaration
    number: int | None  # None for a Wild # without declaration
    wild: str | None  # "hash", "dos" or None
    decl: int | str | None


def _parse_card(code: str) -> Card:
    """Split a valid card code; raises ValueError on an invalid one."""
    if not CARD_RE.match(code):
        raise ValueError(f"not a card code: {code!r}")
    base, _, decl = code.partition("=")
    if base == "W2":
        return Card(code, base, decl or None, 2, "dos", decl or None)
    if base[1] == "#":
        n = int(decl) if decl else None
        return Card(code, base, base[0], n, "hash", n)
    return Card(code, base, base[0], int(base[1:]), None, None)


if TYPE_CHECKING:  # the cache's wrapper takes any hashable: the checker sees the signature itself

    def parse_card(code: str) -> Card:
        """Split a valid card code; raises ValueError on an invalid one (a face-down card is none)."""
        ...
else:
    parse_card = cache(_parse_card)


def is_card(code: str) -> bool:
    return bool(CARD_RE.match(code))


@lru_cache(maxsize=1)
def composition() -> Counter:
    """The 108-card deck as a Counter of base codes."""
    deck = spec_file("deck.toml", "dos")
    c: Counter = Counter()
    for colour in deck["colours"]:
        for face, copies in deck["per_colour"].items():
            c[f"{colour}{face}"] = copies
    c["W2"] = deck["wild_dos"]["copies"]
    assert sum(c.values()) == deck["total"], "spec/deck.toml does not add up"
    return c


@lru_cache(maxsize=1)
def _values() -> dict:
    return spec_file("deck.toml", "dos")["values"]


@cache
def value(base: str) -> int:
    """Points a card left in hand scores (digest section 8)."""
    if base == "W2":
        return _values()["wild_dos"]
    if base.endswith("#"):
        return _values()["wild_hash"]
    return int(base[1:])


def full_deck() -> list[str]:
    """Every card of the composition once, in a fixed order."""
    return [card for card, n in sorted(composition().items()) for _ in range(n)]
