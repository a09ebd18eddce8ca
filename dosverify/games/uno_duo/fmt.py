"""`dosverify fmt` for UNO Duo logs: a `uno-duo 1` text log in canonical form, as DOS's fmt does:
one space between words, the lines of a turn indented by two and nothing else indented, comments
kept and aligned at column 38, no byte-order mark, LF line ends, no trailing blank lines.

Line for line: every line stays where it was (a finding's line is the same before and after), and
nothing but layout changes, so the formatted log reads back to the very same game (a safety net
compares the two before anything is written). `--check` writes nothing and exits 1 when a file
would change (for CI); a log it cannot read (not UTF-8, JSON, a line that is no sentence) is left
as it is, exit 2, with the findings that stop it. The command is the core's (formatting.py,
as for every game); this module gives UNO Duo's layout.
"""

from __future__ import annotations

import re

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+|"')
#: the lines that end a turn's indented block (and are not indented)
ENDS_TURN = frozenset({"score", "round", "totals", "winner", "drafter", "deck", "draft", "hand", "start"})
COMMENT_COLUMN = 37  # 0-based: comments start at column 38, as in the contract's examples


def _line(raw: str, in_turn: bool) -> tuple[str, bool]:
    """One line in canonical form, and whether a turn's block goes on after it."""
    from .notation import code_part

    stripped = raw.strip(" \t\r")
    code = code_part(stripped)
    comment = stripped[len(code) :].strip(" \t")
    words = [m.group(0) for m in TOKEN.finditer(code)]
    if not words:
        return (("  " if in_turn else "") + comment) if comment else "", in_turn
    key = words[0]
    if key == "turn":
        in_turn = True
    elif key in ENDS_TURN:
        in_turn = False
    text = ("  " if in_turn and key != "turn" else "") + " ".join(words)
    if comment:
        text = (
            text.ljust(COMMENT_COLUMN - 1) + " " + comment if len(text) < COMMENT_COLUMN - 1 else text + "  " + comment
        )
    return text, in_turn


def format_text(text: str) -> str:
    """The canonical text of a `uno-duo 1` log (the lines as the reader splits them: at LF only)."""
    out: list[str] = []
    in_turn = False
    for raw in text.removeprefix("\ufeff").split("\n"):
        line, in_turn = _line(raw, in_turn)
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def main_fmt(argv: list[str]) -> int:
    from ...formatting import run

    return run(argv, "uno-duo", format_text)
