"""Which lines are sentences of `dos 1` (the pack's capability ``recognize``): a cheap look at each
line's words, in the shapes of grammars/dos/dos.lark, without reading the log.

The core asks it only of a text log that its header's reader found many faults in (pipeline:
a log in another game's notation, READINGS R100): how many of its lines DOS reads. A line is
read when its first word is a keyword of the notation and the words after it have the
keyword's shape (names, card codes, numbers), or, before the first `round` line, when it is a
free tag with one value. Looser than the reader (a name's length, a line's place within a
round are not looked at): a DOS log's lines are all read here, whatever else is wrong with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from ... import sniffing
from .cards import CARD_RE

_NAME = re.compile(r"(?![RGBYW][0-9#])[A-Za-z][A-Za-z0-9_-]*\Z")
_STRING = re.compile(r'"(?:[^"\\\r\n]|\\.)*"\Z')


def _card(w: str) -> bool:
    return w == "?" or CARD_RE.match(w) is not None


def _cards(ws: list[str]) -> bool:
    return all(map(_card, ws))


def _name(w: str) -> bool:
    return _NAME.match(w) is not None


def _match(ws: list[str]) -> bool:
    if len(ws) < 3 or not _card(ws[0]) or ws[1] != "with" or not _card(ws[2]):
        return False
    rest = ws[3:]
    return len(rest) % 2 == 0 and all(p == "+" and _card(c) for p, c in zip(rest[::2], rest[1::2], strict=True))


#: a keyword and whether the words after it have its shape
_SHAPES: dict[str, Callable[[list[str]], bool]] = {
    "dos": lambda ws: len(ws) <= 1 and all(_name(w) or sniffing.INT.match(w) for w in ws),
    "players": lambda ws: all(map(_name, ws)),
    "target": lambda ws: len(ws) == 1 and bool(sniffing.INT.match(ws[0])),
    "round": lambda ws: len(ws) == 1 and bool(sniffing.INT.match(ws[0])),
    "dealer": lambda ws: len(ws) == 1 and _name(ws[0]),
    "deck": lambda ws: bool(ws) and _cards(ws),
    "hand": lambda ws: bool(ws) and _name(ws[0]) and _cards(ws[1:]),
    "center": _cards,
    "turn": lambda ws: len(ws) == 1 and _name(ws[0]),
    "match": _match,
    "draw": lambda ws: _cards(ws[1:] if ws and _name(ws[0]) else ws),
    "refill": _cards,
    "reshuffle": _cards,
    "place": lambda ws: len(ws) == 1 and _card(ws[0]),
    "pass": lambda ws: not ws,
    "catch": lambda ws: len(ws) == 3 and _name(ws[0]) and ws[1] == "by" and _name(ws[2]),
    "show": lambda ws: bool(ws) and _name(ws[0]) and _cards(ws[1:]),
    "score": lambda ws: len(ws) == 2 and _name(ws[0]) and bool(sniffing.INT.match(ws[1])),
    "totals": lambda ws: sniffing.name_points(ws, _name),
    "winner": lambda ws: len(ws) == 1 and _name(ws[0]),
}


def recognize(lines: Iterable[str]) -> Iterator[bool]:
    """For each line (a text log's lines after its header, none blank or a comment alone),
    whether it is a sentence of `dos 1` (dosverify.sniffing.recognize, by this game's shapes)."""
    return sniffing.recognize(lines, _SHAPES, _STRING)
