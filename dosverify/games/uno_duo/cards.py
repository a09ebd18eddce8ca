"""UNO Duo card codes, the deck of a ruleset and card values, read from spec/uno-duo/deck.toml
so that the referee and the simulator share one source (contract U1, S2 PUNCTAJ)."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import NamedTuple

from ...spec import spec_file

GAME = "uno-duo"
COLOURS = ("R", "G", "B", "Y")
#: A physical card: R0..R9, RS, RR, R+2 (likewise G, B, Y), W, W+4.
BASE_RE = re.compile(r"^(?:[RGBY](?:[0-9]|S|R|\+2)|W|W\+4)$")
#: A card as written where a wild may name its colour (play, start): W=G, W+4=B.
PLAYED_RE = re.compile(r"^(?:[RGBY](?:[0-9]|S|R|\+2)|W(?:\+4)?(?:=[RGBY])?)$")
#: Any word meant as a card (the notation's card word).
CARD_WORD_RE = re.compile(r"^(?:[RGBYW][0-9A-Z+=#]|W$)")


class Card(NamedTuple):
    """A card code split: `base` is the physical card, `colour` its colour (a wild's named one, or
    None), `rank` the number or symbol (`S`, `R`, `+2`, `W`, `W+4`)."""

    code: str
    base: str
    colour: str | None
    rank: str

    @property
    def wild(self) -> bool:
        return self.base[0] == "W"


@cache
def parse_card(code: str) -> Card:
    """Split a valid card code (raises ValueError on one that is not)."""
    if not PLAYED_RE.match(code):
        raise ValueError(f"not a card code: {code!r}")
    base, _, named = code.partition("=")
    if base[0] == "W":
        return Card(code, base, named or None, base)
    return Card(code, base, base[0], base[1:])


def base_of(code: str) -> str:
    return code.partition("=")[0]


def card_problem(word: str, *, named: bool) -> str | None:
    """Why a card word is not a card code here (None: it is one). `named`: a wild may name a colour."""
    if word.startswith("?"):
        return f"`{word}`: UNO Duo has no face-down cards; write the card"
    if (PLAYED_RE if named else BASE_RE).match(word):
        return None
    if BASE_RE.match(base_of(word)) and "=" in word:
        if base_of(word)[0] != "W":
            return f"`{word}`: only a wild names a colour"
        if not named:
            return f"`{word}`: a wild names its colour only when it is played or turned up"
        return f"`{word}`: a wild names R, G, B or Y"
    if word.startswith("W2") or "#" in word:
        return f"`{word}` is a DOS card, not a UNO Duo one"
    return f"`{word}` is not a card code (R0..R9, RS, RR, R+2, likewise G, B, Y; W, W+4)"


def _deck_file() -> dict:
    return spec_file("deck.toml", GAME)


@cache
def composition(deck: str = "112") -> Counter:
    """The deck of option `deck` as a Counter of base codes."""
    data = _deck_file()
    c: Counter = Counter()
    for colour in data["colours"]:
        for face, copies in data["per_colour"].items():
            c[f"{colour}{face}"] = copies
    extra = data["decks"][deck]
    c["W"], c["W+4"] = extra["W"], extra["W+4"]
    assert sum(c.values()) == extra["total"], "spec/uno-duo/deck.toml does not add up"
    return c


@cache
def value(base: str) -> int:
    """Points a card left in hand scores (S2 PUNCTAJ)."""
    vals = _deck_file()["values"]
    if base == "W+4":
        return vals["wild_draw_4"]
    if base == "W":
        return vals["wild"]
    if base[1:].isdigit():
        return int(base[1:])
    return vals["action"]


def full_deck(deck: str = "112") -> list[str]:
    """Every card of the deck once, in a fixed order."""
    return [card for card, n in sorted(composition(deck).items()) for _ in range(n)]
