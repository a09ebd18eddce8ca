"""Helpers for DOS's move generator tests (tests/dos/test_moves*.py): walking a log line by line
through the generator, one card per `draw` or `refill` line, as the canonical form writes them."""

from __future__ import annotations

from dosverify.games.dos.fmt import _split
from dosverify.games.dos.moves import DosMoves
from dosverify.games.dos.moves.fromlog import _keyword, _ranges
from dosverify.moves.model import Move

MOVES = DosMoves()
NOT_LISTED = frozenset({"show"})  # `show` lines are written by views; the listing leaves them out


def parts(raw: str) -> list[str]:
    """A written line as one-card lines: `draw bob R5 G7` is `draw bob R5` then `draw bob G7`."""
    words, _ = _split(raw.strip())
    if not words:
        return []
    kw = words[0]
    if kw == "draw" and len(words) > 2 and not _is_card(words[1]):
        return [f"draw {words[1]} {c}" for c in words[2:]]
    if kw == "draw" and len(words) > 2:
        return [f"draw {c}" for c in words[1:]]
    if kw == "refill" and len(words) > 2:
        return [f"refill {c}" for c in words[1:]]
    return [" ".join(words)]


def _is_card(word: str) -> bool:
    return word == "?" or (len(word) > 1 and word[0] in "RGBYW" and (word[1].isdigit() or word[1] == "#"))


def positions(text: str) -> list[tuple[int, int]]:
    """The line ranges that name positions."""
    valid, _ = _ranges([_keyword(raw) for raw in text.splitlines()])
    return valid


def walk(text: str, ruleset: str | None = None, every=None):
    """Yield (position, line number, written part, canonical, listed lines) at every event line of every
    valid range, pushing each part as written; `every(n)` picks the ranges' lines to test."""
    lines = text.splitlines()
    for a, b in positions(text):
        pos, _ = MOVES.from_log(text, None, a, ruleset, {})
        for n in range(a + 1, b + 1):
            kw = _keyword(lines[n - 1])
            if kw is None:
                continue
            for part in parts(lines[n - 1]):
                if kw in NOT_LISTED:  # played, not asked
                    pos.push(Move(part, "", kw))
                    continue
                listed = [m.line for m in pos.legal_moves()]
                canon = pos.canonical(part)
                yield pos, n, part, canon, listed
                pos.push(Move(part, "", kw))
