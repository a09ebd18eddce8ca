"""Random card-code edits (issue 20, item 7): the reports dump and the fuzzers' cheap defects."""

from __future__ import annotations

import random

from ..cards import composition
from .sites import _lines, replace_line

_CARD_LINES = ("hand", "center", "deck", "match", "draw", "refill", "place", "show", "reshuffle")


def _code_words(raw: str) -> tuple[list[str], str]:
    """The words of a line before its comment (a word that starts with `#`), and the comment."""
    words = raw.split()
    for i, w in enumerate(words):
        if w.startswith("#"):
            return words[:i], raw[raw.index(" #") :] if " #" in raw else ""
    return words, ""


def card_code_sites(text: str) -> list[tuple[int, int]]:
    """Every (line number, word index) of a card code on a setup or event line."""
    from ..cards import is_card

    sites: list[tuple[int, int]] = []
    for no, raw in enumerate(_lines(text), 1):
        words, _ = _code_words(raw)
        if words and words[0] in _CARD_LINES:
            sites.extend((no, i) for i, w in enumerate(words) if i and is_card(w))
    return sites


def card_code_edit(text: str, rng: random.Random) -> tuple[str, int] | None:
    """One card code of the log replaced by another valid code (its base card changed; a
    declaration kept where the new card is a wild of the same kind): the new text and the line."""
    sites = card_code_sites(text)
    if not sites:
        return None
    no, i = rng.choice(sites)
    words, comment = _code_words(_lines(text)[no - 1])
    base, eq, decl = words[i].partition("=")
    new = rng.choice([b for b in sorted(composition()) if b != base])
    if eq and (new == "W2") == (base == "W2") and new.endswith("#") == base.endswith("#"):
        new = f"{new}={decl}"
    words[i] = new
    return replace_line(text, no, " ".join(words) + comment), no
