"""The words of the notation: its keywords, its card codes and what is wrong with a card word.

The Lark path, the fast path, the recovery and the JSON form all judge a word by these, so they
live apart from any one reader."""

from __future__ import annotations

import re

KEYWORDS = frozenset(
    "dos round dealer deck hand center turn match with draw refill place pass catch by "
    "reshuffle show score totals winner players ruleset option target".split()
)

COLOURS = "RGBY"
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)
#: Every valid card code, declarations included (85 codes).
VALID_CARDS = frozenset(
    [f"{c}{n}" for c in COLOURS for n in NUMBERS]
    + [f"{c}#" for c in COLOURS]
    + [f"{c}#={n}" for c in COLOURS for n in range(1, 11)]
    + ["W2"]
    + [f"W2={c}" for c in COLOURS]
)
CARD_WORD_RE = re.compile(r"[RGBYW][0-9#]")
TAG_RE = re.compile(r"[a-z][a-z0-9_-]*\Z")
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}\Z")
WORD_RE = re.compile(r'[^ \t\r\n#"]+\Z')


def card_slip(word: str) -> str | None:
    """A card code written with a common slip, and the fix: lower case, stray punctuation, a
    comment glued to the card (None when it is none of these)."""
    for i in range(2, len(word)):
        if word[i] == "#" and word[:i] in VALID_CARDS:
            return f"`{word}` is not a card code: a comment needs a space before # (`{word[:i]} {word[i:]}`)"
    if word.upper() in VALID_CARDS and word not in VALID_CARDS:
        return f"`{word}` is not a card code: card codes are upper case: {word.upper()}"
    core = word.strip(",;:.!?'\"()[]")
    if core != word and core.upper() in VALID_CARDS:
        stray = "".join(sorted(set(word) - set(core), key=word.index))
        return f"`{word}` is not a card code: stray punctuation `{stray}` (write {core.upper()})"
    return None


def card_problem(word: str) -> str | None:
    """Why a card word is not a valid card code (None if it is one)."""
    if word in VALID_CARDS:
        return None
    slip = card_slip(word)
    if slip:
        return slip
    head = word[0]
    if "+" in word or re.search(r"[RGBYW][0-9#].*[RGBYW][0-9#]", word):
        return f"`{word}` is not a card code: words are separated by white space (write `B3 + B7`, `R3 B4`)"
    base, eq, decl = word.partition("=")
    if head == "W":
        if base != "W2":
            return f"there is no {base}: the only W card is the Wild DOS, W2 (declared as W2=R, W2=G, W2=B or W2=Y)"
        return f"`{word}` is not a card code: a Wild DOS is declared as a colour, W2=R, W2=G, W2=B or W2=Y"
    if base[1] == "#":
        if base != f"{head}#":
            return f"`{word}` is not a card code: a Wild # is written {head}#, or {head}#=N to declare it as N"
        return f"`{word}` is not a card code: a Wild # is declared as a number from 1 to 10 ({head}#=7)"
    num = base[1:]
    if num == "2":
        return f"there is no {base}: the Wild DOS W2 is the 2"
    if not num.isdigit():
        return f"`{word}` is not a card code: a numbered card is a colour and a number, like {head}7"
    if eq:
        if base in VALID_CARDS:
            return f"`{word}` is not a card code: only wilds take a declaration, and {base} is a numbered card"
        return f"`{word}` is not a card code"
    return f"there is no {base}: the numbers are 1 and 3 to 10"


def _short(s: str, n: int = 40) -> str:
    s = str(s)
    return s if len(s) <= n else s[: n - 1] + "…"
