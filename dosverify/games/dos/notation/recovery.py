"""Recovery from bad lines: junk past the detailed errors told without a parse, and lines read
again with a common slip fixed (lower-case card codes, a keyword glued to the next word), so a
slip is reported once and the line still counts."""

from __future__ import annotations

import re
from typing import cast

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..findings import finding
from .syntax import _readable
from .words import CARD_WORD_RE, KEYWORDS, _short, card_problem

_JUNK_START_RE = re.compile(r"([ \t]*)([^ \t\r\n#\"][^ \t\r\n]*)")
_TAG_WORD_RE = re.compile(r"[a-z][a-z0-9_-]*")


def _start_expected(lark, b) -> tuple:
    """What the parser expects at the start of a chunk (its state's terminals, as an error
    past the detailed ones names them): a bad line's own parse finds the same."""
    out, off = b.out, b.off
    b.out, b.off = [], 0
    try:
        lark.parse("%\n", start="start")
    except UnexpectedInput as e:
        names = e.expected if isinstance(e, UnexpectedToken) else cast(UnexpectedCharacters, e).allowed
        return (names, _readable(names))
    finally:
        b.out, b.off = out, off
    raise AssertionError("`%` is a sentence")  # pragma: no cover


def _plain_junk(raw: str, line: int, plain: tuple):
    """The "bad" item of a line that cannot start a sentence (its first word is not one a
    keyword or a tag could be), as `_syntax_finding` words it for an error past the detailed
    ones at the start of a line; None for any other line (Lark reads it). Lark's token there,
    or the word it reports, is the whole first word: every terminal runs to white space, the
    word of an unlexable one is cut at 200 characters (left to Lark), and a quote starts a
    string (left to Lark)."""
    m = _JUNK_START_RE.match(raw)
    if m is None:
        return None
    word = m.group(2)
    if len(word) > 200 or _TAG_WORD_RE.fullmatch(word):
        return None
    column = len(m.group(1)) + 1
    names, expected = plain
    found = _short(word)
    if CARD_WORD_RE.match(word):
        problem = card_problem(word)
        if problem:
            return (
                "bad",
                line,
                column,
                [finding("notation.card", problem, line=line, column=column, found=found, expected=expected)],
            )
        if "CARD" not in names:
            return (
                "bad",
                line,
                column,
                [
                    finding(
                        "notation.line",
                        f"expected {expected}, found the card `{word}`",
                        line=line,
                        column=column,
                        found=found,
                        expected=expected,
                        help="a card word is never a player name" if "NAME" in names else None,
                    )
                ],
            )
        return None  # pragma: no cover - no card starts a line
    low = word.lower()
    help = None
    message = f"expected {expected}, found `{found}`"
    if low in KEYWORDS and word != low:
        help = f"keywords are lower case: `{low}`"
        message = f"`{found}` is not a keyword: keywords are lower case (`{low}`)"
    else:
        glued = next((k for k in sorted(KEYWORDS, key=len, reverse=True) if low.startswith(k) and low != k), None)
        if glued:
            message = (
                f"`{found}` is not a keyword: words are separated by white space (`{glued} {word[len(glued) :]}`?)"
            )
            help = "separate the words of a line with spaces"
        elif "TAG" in names:
            message = f"`{found}` is not a keyword of the notation"
            help = (
                "a line starts with a keyword (`turn`, `match`, `draw`, ...) or, in the header, a lower-case tag name"
            )
        else:
            return None  # pragma: no cover - a tag may start a line
    return (
        "bad",
        line,
        column,
        [finding("notation.line", message, line=line, column=column, found=found, expected=expected, help=help)],
    )


_LOWER_CARD_RE = re.compile(r"(?<![^ \t])([rgbyw](?:[0-9][0-9]?|#)(?:=(?:[0-9][0-9]?|[rgbyRGBY]))?)(?![^ \t])")


_GLUE_KEYWORDS = sorted(("turn", "match", "draw", "refill", "place", "catch", "show"), key=len, reverse=True)


def _retry_line(lark, b, fixed: str, line: int, out: list, note) -> bool:
    """Read `fixed` in place of a line that failed; on success the line counts, with `note`
    (a finding) reported once at it instead of the syntax error."""
    mark = len(out)
    b.off = line - 1
    try:
        lark.parse(fixed + "\n", start="line_only")
    except Exception:
        del out[mark:]
        return False
    finally:
        b.off = 0
    if len(out) != mark + 1:
        del out[mark:]
        return False
    out.insert(mark, ("note", line, note.column, [note]))
    return True


def _code_part(raw: str) -> str:
    """A line without its line end (a CRLF log: not part of the last word) and its comment."""
    raw = raw.rstrip("\r")
    return re.split(r"[ \t]#", raw, maxsplit=1)[0] if not raw.lstrip().startswith("#") else ""


def _retry_glued(lark, b, raw: str, line: int, out: list) -> bool:
    """A line whose keyword is glued to the next word (`matchY5 with Y5`, `drawY5`): read it with
    the space put back, reporting the glue once (notation.line), as R23 does for lower case."""
    body = _code_part(raw)
    stripped = body.lstrip(" \t")
    indent = len(body) - len(stripped)
    first = stripped.split(None, 1)[0] if stripped else ""
    k = next((k for k in _GLUE_KEYWORDS if first.startswith(k) and len(first) > len(k)), None)
    if k is None or first in KEYWORDS:
        return False
    rest = first[len(k) :]
    fixed = body[:indent] + k + " " + rest + stripped[len(first) :]
    return _retry_line(
        lark,
        b,
        fixed,
        line,
        out,
        finding(
            "notation.line",
            f"`{_short(first)}` is not a keyword: words are separated by white space (`{k} {rest}`?)",
            line=line,
            column=indent + 1,
            found=_short(first),
            expected="a line keyword",
            help="separate the words of a line with spaces",
        ),
    )


def _retry_upper(lark, b, raw: str, line: int, out: list) -> bool:
    """A line that failed only because its card codes are in lower case (`b10`): read it with
    the codes upper-cased, and report the case once, at the first such word (notation.card),
    so that the line still counts and its consequences are not reported again. Else a keyword
    glued to the next word (_retry_glued)."""
    if _retry_glued(lark, b, raw, line, out):
        return True
    body = _code_part(raw)
    words = list(_LOWER_CARD_RE.finditer(body))
    if not words:
        return False
    fixed = _LOWER_CARD_RE.sub(lambda m: m.group(1).upper(), body)
    w = words[0]
    shown = ", ".join(f"`{m.group(1)}`" for m in words)
    return _retry_line(
        lark,
        b,
        fixed,
        line,
        out,
        finding(
            "notation.card",
            f"card codes are upper case: {w.group(1).upper()}"
            + (f" (this line writes {shown})" if len(words) > 1 else ""),
            line=line,
            column=w.start() + 1,
            found=w.group(1),
            expected=w.group(1).upper(),
            help="write colours and the Wild DOS in capitals: R, G, B, Y, W",
        ),
    )
