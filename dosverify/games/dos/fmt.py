"""`dosverify fmt LOG...`: a text log in canonical form, as `ruff format` does for code: one space
between words (`B3 + B7`), the lines of a turn indented by two, card codes upper case, the
declarations of wilds written (the favourable reading the referee takes), a comment glued to a
card set apart, comments kept and aligned at column 38, no byte-order mark. The command is the
core's (formatting.py, as for every game); this module gives DOS's layout. `--check` writes nothing and
exits 1 when a file would change (for CI). It refuses (exit 2) a log it cannot read, and never
changes what a log means: the formatted log must read back to the same game."""

from __future__ import annotations

import re

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+|"')
ENDS_TURN = frozenset({"turn", "show", "score", "round", "totals", "winner"})
COMMENT_COLUMN = 37  # 0-based: comments start at column 38, as in notation.md's examples


def _card(word: str, players: set[str]) -> str:
    from .notation.words import VALID_CARDS

    if word in players or word in VALID_CARDS:
        return word
    return word.upper() if word.upper() in VALID_CARDS else word


def _split(code: str) -> tuple[list[str], str]:
    """Words of a line and its comment (from a word that starts with #, or one glued to a card)."""
    from .notation.words import VALID_CARDS

    words: list[str] = []
    for m in TOKEN.finditer(code):
        w = m.group(0)
        if w.startswith("#"):
            return words, code[m.start() :].rstrip()
        if w.startswith('"'):
            words.append(w)
            continue
        parts = (
            [w]
            if w == "+"
            else [x for j, part in enumerate(w.split("+")) for x in (["+"] if j else []) + ([part] if part else [])]
        )
        for k, part in enumerate(parts):
            for i in range(2, len(part)):
                if part[i] == "#" and part[:i].upper() in VALID_CARDS:
                    words.append(part[:i])
                    rest = "".join(parts[k + 1 :])
                    return words, (part[i:] + rest + code[m.end() :]).rstrip()
            words.append(part)
    return words, ""


def _with_declarations(words: list[str]) -> list[str]:
    """`match T with A + B` with each undeclared wild declared as the favourable reading."""
    from .render import declared

    if len(words) not in (3, 5) or words[1] != "with" or (len(words) == 5 and words[3] != "+"):
        return words
    got = declared(words[0], words[2::2])
    if got is None:
        return words
    target, cards = got
    return [target, "with", " + ".join(cards)]


def format_text(text: str, declare: bool = True) -> str:
    """The canonical text; with `declare`, undeclared wilds of matches get the declaration the
    referee reads (programs should always write them: notation.md, Declarations)."""
    players: set[str] = set()
    in_turn = False
    out: list[str] = []
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped:
            out.append("")
            continue
        if stripped.startswith("#"):
            out.append(("  " if in_turn else "") + stripped)
            continue
        words, comment = _split(stripped)
        if not words:
            out.append(comment)
            continue
        key = words[0]
        if key == "players":
            players = set(words[1:])
        if key == "turn":
            in_turn = True
        elif key in ENDS_TURN:
            in_turn = False
        indent = "  " if in_turn and key != "turn" else ""
        rest = [_card(w, players) for w in words[1:]]
        if key == "match" and declare:
            rest = _with_declarations(rest)
        code = indent + " ".join([key] + rest)
        if comment:
            code = (
                code.ljust(COMMENT_COLUMN - 1) + " " + comment
                if len(code) < COMMENT_COLUMN - 1
                else code + "  " + comment
            )
        out.append(code)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def main_fmt(argv: list[str]) -> int:
    from ...formatting import run

    return run(argv, "dos", lambda text: format_text(text, declare=False), format_text)
