"""Which lines are sentences of `uno-duo 1` (the pack's capability ``recognize``): a cheap look at
each line's words, in the shapes of grammars/uno-duo/uno-duo.lark, without reading the log.

The core asks it only of a text log that its header's reader found many faults in (pipeline:
a log in another game's notation, spec/uno-duo/READINGS.md R30): how many of its lines UNO Duo
reads. A line is read when its first word is a keyword of the notation and the words after it
have the keyword's shape (names, card codes, numbers), or, before the first `round` line, when
it is a free tag with one value. Looser than the reader (a name's length, a line's place within
a round, whether a wild may name its colour there are not looked at).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from ... import sniffing
from .cards import PLAYED_RE

_NAME = re.compile(r"(?![RGBYW][0-9A-Z+=#])(?!W\Z)[A-Za-z][A-Za-z0-9_-]*\Z")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"\Z')


def _card(w: str) -> bool:
    return PLAYED_RE.match(w) is not None


def _cards(ws: list[str]) -> bool:
    return all(map(_card, ws))


def _name(w: str) -> bool:
    return _NAME.match(w) is not None


def _draft(ws: list[str]) -> bool:
    return (
        len(ws) == 5
        and _name(ws[0])
        and (ws[1], ws[3]) in (("keep", "discard"), ("discard", "keep"))
        and _card(ws[2])
        and _card(ws[4])
    )


#: a keyword and whether the words after it have its shape
_SHAPES: dict[str, Callable[[list[str]], bool]] = {
    "uno-duo": lambda ws: len(ws) == 1 and bool(sniffing.INT.match(ws[0])),
    "players": lambda ws: all(map(_name, ws)),
    "target": lambda ws: len(ws) == 1 and bool(sniffing.INT.match(ws[0])),
    "round": lambda ws: len(ws) == 1 and bool(sniffing.INT.match(ws[0])),
    "drafter": lambda ws: len(ws) == 1 and _name(ws[0]),
    "deck": lambda ws: bool(ws) and _cards(ws),
    "draft": _draft,
    "hand": lambda ws: bool(ws) and _name(ws[0]) and _cards(ws[1:]),
    "start": lambda ws: len(ws) == 1 and _card(ws[0]),
    "turn": lambda ws: len(ws) == 1 and _name(ws[0]),
    "play": lambda ws: bool(ws) and _cards(ws),
    "draw": lambda ws: _cards(ws[1:] if ws and _name(ws[0]) else ws),
    "challenge": lambda ws: not ws,
    "uno": lambda ws: len(ws) <= 1 and all(map(_name, ws)),
    "catch": lambda ws: len(ws) == 3 and _name(ws[0]) and ws[1] == "by" and _name(ws[2]),
    "reshuffle": _cards,
    "pass": lambda ws: not ws,
    "score": lambda ws: len(ws) == 2 and _name(ws[0]) and bool(sniffing.INT.match(ws[1])),
    "totals": lambda ws: sniffing.name_points(ws, _name),
    "winner": lambda ws: len(ws) == 1 and _name(ws[0]),
}


def recognize(lines: Iterable[str]) -> Iterator[bool]:
    """For each line (a text log's lines after its header, none blank or a comment alone),
    whether it is a sentence of `uno-duo 1` (dosverify.sniffing.recognize, by this game's shapes)."""
    return sniffing.recognize(lines, _SHAPES, _STRING)
