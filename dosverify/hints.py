"""Did-you-mean hints for names a person typed: case first (`Ann` for `ann`), then spelling."""

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


def near_player(word: str, players) -> str:
    """`; did you mean `ann`?` (with a word on case when only the case differs), or nothing."""
    n = closest(word, players)
    if n is None:
        return ""
    return f"; did you mean `{n}`?" + (" (names are case-sensitive)" if n.lower() == word.lower() else "")
