"""Which lines are sentences of `tiny 1` (the capability ``recognize``): each line's words against
the shapes of tiny.lark, without reading the log. A pack of its own distribution tells its lines
as a built-in one does: a Tiny log under another game's header is named as one (dosverify's
pipeline.other_notation)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")
_CARD = re.compile(r"[RB][1-9]\Z")
_INT = re.compile(r"[0-9]+\Z")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")

_KEYWORDS = frozenset({"tiny", "players", "ruleset", "option", "target", "round", "deal", "start", "score", "winner"})


def _name(w: str) -> bool:
    return _NAME.match(w) is not None and w not in _KEYWORDS


def _reads(ws: list[str]) -> bool:
    if len(ws) == 3 and ws[1] in ("play", "draw"):
        return _name(ws[0]) and _CARD.match(ws[2]) is not None
    head, rest = (ws[0], ws[1:]) if ws else ("", [])
    if head == "players":
        return len(rest) == 2 and all(map(_name, rest))
    if head in ("tiny", "target", "round"):
        return len(rest) == 1 and _INT.match(rest[0]) is not None
    if head in ("ruleset", "option"):
        return len(rest) == (1 if head == "ruleset" else 2) and all(_WORD.match(w) for w in rest)
    if head == "deal":
        return bool(rest) and _name(rest[0]) and all(_CARD.match(c) for c in rest[1:])
    if head == "start":
        return len(rest) == 1 and _CARD.match(rest[0]) is not None
    if head == "score":
        return len(rest) == 2 and _name(rest[0]) and _INT.match(rest[1]) is not None
    if head == "winner":
        return len(rest) == 1 and _name(rest[0])
    return False


def recognize(lines: Iterable[str]) -> Iterator[bool]:
    """For each line (after the header, none blank or a comment alone): a sentence of `tiny 1`."""
    for line in lines:
        yield _reads(line.split("#", 1)[0].split())
