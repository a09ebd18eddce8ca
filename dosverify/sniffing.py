"""What every game's line recognizer shares (capability ``recognize``; pipeline.other_notation):
a line's code without its comment, its first word, the shapes of numbers, tag words and header
values, and the loop that reads a log's lines by a table of keyword shapes. A game supplies its
keywords' shapes (its names and card codes) and how a quoted value may look; the core names no
game here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping

INT = re.compile(r"[0-9]+\Z")
TAG = re.compile(r"[a-z][a-z0-9_-]*\Z")
WORD = re.compile(r'[^ \t#"]+\Z')

#: a keyword -> whether the words after it have its shape
Shapes = Mapping[str, Callable[[list[str]], bool]]


def code(line: str) -> str:
    """The line without its comment (`#` at its start or after white space, outside a string)."""
    if "#" not in line:
        return line
    in_str = False
    prev = " "
    for i, ch in enumerate(line):
        if in_str:
            if ch == '"' and prev != "\\":
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#" and prev in " \t":
            return line[:i]
        prev = ch
    return line


def split(code: str) -> tuple[str, str]:
    """The first word of `code` and the rest."""
    parts = code.split(None, 1)
    return (parts[0] if parts else "", parts[1] if len(parts) > 1 else "")


def one_value(rest: str, string: re.Pattern[str]) -> bool:
    """One value: a word without white space, `#` or `"`, or a quoted string of the game's shape."""
    rest = rest.strip()
    return bool(WORD.match(rest) or string.match(rest))


def name_points(ws: list[str], name: Callable[[str], bool]) -> bool:
    """A `totals` line's words: one or more pairs of a name and a number."""
    return (
        len(ws) >= 2
        and len(ws) % 2 == 0
        and all(name(n) and INT.match(v) for n, v in zip(ws[::2], ws[1::2], strict=True))
    )


def recognize(lines: Iterable[str], shapes: Shapes, string: re.Pattern[str]) -> Iterator[bool]:
    """For each line (a text log's lines after its header, none blank or a comment alone), whether
    it is a sentence of the game whose `shapes` these are: `ruleset` and `option` with their values,
    a keyword's line of its shape, or a free tag (a lower-case word and one value) before the first
    `round` line."""
    header = True
    for line in lines:
        head, rest = split(code(line))
        if head == "ruleset":
            yield one_value(rest, string)
        elif head == "option":
            key, value = split(rest)
            yield bool(WORD.match(key)) and one_value(value, string)
        elif (shape := shapes.get(head)) is not None:
            header = header and head != "round"
            yield shape(rest.split())
        else:
            yield header and bool(TAG.match(head)) and one_value(rest, string)
