"""How a syntax error is told: Lark's error turned into the finding for the slip it most likely is.
Apart from the parsing, since the wording is most of the notation's help to a writer."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import cast

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ....findings import Finding
from ..findings import finding
from .words import CARD_WORD_RE, KEYWORDS, TAG_RE, _short, card_problem, card_slip

_TERMINAL_TEXT = {
    "CARD": "a card code",
    "NAME": "a player name",
    "INT": "a number",
    "TAG": "a tag name",
    "WORD": "a value",
    "STRING": "a value",
    "_PLUS": "`+`",
    "_NL": "end of line",
    "$END": "end of line",
}
_LINE_KEYWORDS = ("turn", "match", "draw", "refill", "place", "score")


def _readable(names) -> str:
    names = set(names)
    kws = sorted(n.lower().lstrip("_") for n in names if n.lower().lstrip("_") in KEYWORDS)
    parts: list[str] = []
    if len(kws) > 4:
        parts.append("a line keyword (" + ", ".join(f"`{k}`" for k in _LINE_KEYWORDS) + ", ...)")
        kws = []
    seen = set()
    for n in ("CARD", "NAME", "INT", "WORD", "STRING", "_PLUS"):
        if n in names and _TERMINAL_TEXT[n] not in seen:
            seen.add(_TERMINAL_TEXT[n])
            parts.append(_TERMINAL_TEXT[n] if n not in ("WORD", "STRING") else "a value (one word or a quoted string)")
    parts.extend(f"`{k}`" for k in kws)
    if "TAG" in names and not parts:
        parts.append("a tag name")
    if "_NL" in names or "$END" in names:
        parts.append("end of line")
    if not parts:
        return "something else"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


_WS_RE = re.compile(r"[ \t\r\n]")


def _word_at(text: str, pos: int) -> str:
    m = _WS_RE.search(text, pos, pos + 200)
    end = m.start() if m else min(len(text), pos + 200)
    return text[pos:end]


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


_KEYWORDS_LONGEST_FIRST = sorted(KEYWORDS, key=len, reverse=True)


def _glued_keyword(word: str) -> str | None:
    """The keyword ``word`` starts with but is not (the longest): a keyword glued to the next word."""
    return next((k for k in _KEYWORDS_LONGEST_FIRST if word.startswith(k) and word != k), None)


def _error_site(exc: UnexpectedInput, text: str, detailed: bool) -> tuple[int, Collection[str], str]:
    """Where in ``text`` Lark stopped, the terminals it could have taken there, and the word it
    found there ("" at a line end). Not ``detailed``: the parser state's terminals, without
    replaying each to see which the line could really take (``accepts``: a few ms a line)."""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        try:
            names = (exc.accepts if detailed else None) or exc.expected
        except Exception:  # pragma: no cover - lark internals
            names = exc.expected
        return (tok.start_pos or 0), names, "" if tok.type in ("_NL", "$END") else str(tok)
    # UnexpectedCharacters, the lexer's (the other kind the parser raises)
    pos = exc.pos_in_stream or 0
    return pos, cast(UnexpectedCharacters, exc).allowed or set(), _word_at(text, pos)


def _not_a_keyword(first: str, word: str, names: Collection[str], line: int, column: int) -> Finding | None:
    """An error past a line's first word that is no keyword but could be a tag: the first word
    is what is wrong (a keyword glued to the next word, or a free tag out of place)."""
    if first in KEYWORDS or TAG_RE.match(first) is None:
        return None
    glued = _glued_keyword(first)
    if glued:
        return finding(
            "notation.line",
            f"`{_short(first)}` is not a keyword: words are separated by white space "
            f"(`{glued} {first[len(glued) :]}`?)",
            line=line,
            column=column,
            found=_short(first),
            expected="a line keyword",
            help="separate the words of a line with spaces",
        )
    if word or "WORD" not in names:
        return None
    return finding(
        "notation.line",
        f"`{_short(first)}` is not a keyword of the notation (as a free tag, it "
        f"would need one value and stand in the header)",
        line=line,
        column=column,
        found=_short(first),
        expected="a line keyword",
    )


def _card_word_finding(
    word: str, first: str, names: Collection[str], expected: str, line: int, column: int
) -> Finding | None:
    """A found word that is a card word, or a slip of one, where it cannot stand: what is wrong
    with the card, or that a card cannot stand there (a player name above all)."""
    found = _short(word)
    if CARD_WORD_RE.match(word):
        problem = card_problem(word)
        if problem:
            return finding("notation.card", problem, line=line, column=column, found=found, expected=expected)
        if "CARD" not in names:
            if first == "players":
                message = f"`{word}` is a card word: it cannot be a player name"
                return finding("notation.players", message, line=line, column=column, found=found, expected=expected)
            help = "a card word is never a player name" if "NAME" in names else None
            message = f"expected {expected}, found the card `{word}`"
            return finding(
                "notation.line", message, line=line, column=column, found=found, expected=expected, help=help
            )
    slip = card_slip(word) if "CARD" in names else None
    if slip:
        return finding("notation.line", slip, line=line, column=column, found=found, expected=expected)
    return None


def _wrong_word(
    word: str, names: Collection[str], expected: str, at_start: bool, exc: UnexpectedInput
) -> tuple[str, str | None]:
    """The message and help for a found word the line cannot take: at a line's start, a keyword
    in capitals, glued to the next word, or no keyword at all; further on, words not spaced."""
    found = _short(word)
    if at_start:
        low = word.lower()
        if low in KEYWORDS and word != low:
            return f"`{found}` is not a keyword: keywords are lower case (`{low}`)", f"keywords are lower case: `{low}`"
        glued = _glued_keyword(low)
        if glued:
            message = (
                f"`{found}` is not a keyword: words are separated by white space (`{glued} {word[len(glued) :]}`?)"
            )
            return message, "separate the words of a line with spaces"
        if "TAG" in names or tok_type(exc) == "NAME":
            help = (
                "a line starts with a keyword (`turn`, `match`, `draw`, ...) or, in the header, a lower-case tag name"
            )
            return f"`{found}` is not a keyword of the notation", help
    elif "=" in word or "+" in word:
        return f"expected {expected}, found `{found}`", "separate the words of a line with spaces"
    return f"expected {expected}, found `{found}`", None


def _syntax_finding(exc: UnexpectedInput, text: str, off: int, detailed: bool = True) -> Finding:
    """A finding for a Lark error in ``text`` (whose first line is line ``off + 1``), worded for
    the slip it most likely is. Not ``detailed``: see `_error_site`."""
    line, column = exc.line + off, exc.column
    pos, names, word = _error_site(exc, text, detailed)
    expected = _readable(names)
    ls = _line_start(text, pos)
    before = text[ls:pos]
    indent = len(before) - len(before.lstrip(" \t"))
    at_start = before.strip(" \t") == ""
    first = _word_at(text, ls + indent)  # the line's first word
    if not at_start:
        wrong_first = _not_a_keyword(first, word, names, line, indent + 1)
        if wrong_first:
            return wrong_first
    if not word:
        found, message, help = "end of line", f"the line ends too early: expected {expected}", None
    else:
        card = _card_word_finding(word, first, names, expected, line, column)
        if card:
            return card
        found = _short(word)
        message, help = _wrong_word(word, names, expected, at_start, exc)
    rule = "notation.players" if first == "players" else "notation.line"  # no valid players line: malformed
    return finding(rule, message, line=line, column=column, found=found, expected=expected, help=help)


def tok_type(exc) -> str | None:
    tok = getattr(exc, "token", None)
    return getattr(tok, "type", None)
