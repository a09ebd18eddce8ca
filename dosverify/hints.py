"""Wording helpers for messages: did-you-mean for names a person typed (case first, `Ann` for
`ann`, then spelling), and counts in proper plurals (`1 card`, `2 cards`, never `card(s)`)."""

from __future__ import annotations


def closest(word: str, names, cutoff: float = 0.6) -> str | None:
    """The name `word` most likely meant: the one equal but for case, else the nearest by edit ratio."""
    names = list(names)
    same = [n for n in names if n.lower() == word.lower()]
    if same:
        return same[0]
    import difflib

    near = difflib.get_close_matches(word.lower(), names, n=1, cutoff=cutoff)
    return near[0] if near else None


def near_words(word: str, names, n: int = 3, cutoff: float = 0.5) -> list[str]:
    """The few names nearest `word` (any case), nearest first, each once."""
    import difflib

    names = list(dict.fromkeys(names))
    return difflib.get_close_matches(word.lower(), names, n=n, cutoff=cutoff)


def near_player(word: str, players) -> str:
    """`; did you mean `ann`?` (with a word on case when only the case differs), or nothing."""
    n = closest(word, players)
    return "" if n is None else did_you_mean(word, n)


def did_you_mean(word: str, name: str) -> str:
    """`; did you mean `ann`?`, with a word on case when only the case differs."""
    return f"; did you mean `{name}`?" + (" (names are case-sensitive)" if name.lower() == word.lower() else "")


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 error`, `2 errors`: the count with the word in the right number."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
