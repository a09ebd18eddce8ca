"""`dosverify fmt` for UNO Duo logs: a `uno-duo 1` text log in canonical form, as DOS's fmt does:
one space between words, the lines of a turn indented by two and nothing else indented, comments
kept and aligned at column 38, no byte-order mark, LF line ends, no trailing blank lines.

Line for line: every line stays where it was (a finding's line is the same before and after), and
nothing but layout changes, so the formatted log reads back to the very same game (a safety net
compares the two before anything is written). `--check` writes nothing and exits 1 when a file
would change (for CI); a log it cannot read (not UTF-8, JSON, a line that is no sentence) is left
as it is, exit 2, with the findings that stop it.
"""

from __future__ import annotations

import re
import sys

from ...argsuggest import SuggestingParser

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


def meaning(text: str):
    """What the log says (the game in the JSON form), or the findings that stop reading it."""
    from .check import parse
    from .jsonform import dump_json

    parsed = parse(text, "text")
    errors = [f for f in parsed.findings if f.rule.startswith("notation.") and f.severity == "error"]
    if parsed.malformed or parsed.log is None or errors:
        return None, errors or parsed.findings
    return dump_json(parsed.log), []


def _refuse(path: str, why: str) -> int:
    print(f"dosverify fmt: {path} {why}", file=sys.stderr)
    return 2


def format_file(path: str, data: bytes, check_only: bool) -> int:
    """Format one file's bytes (exit status: 0 unchanged or written, 1 would change, 2 refused)."""
    from ...jsondoc import sniff_json

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _refuse(path, f"is not UTF-8 text (`dosverify check {path}` says where)")
    if sniff_json(data):
        return _refuse(path, "is in the JSON form (`dosverify convert --to json` normalises it)")
    new = format_text(text)
    said, problems = meaning(new)
    if said is None:
        for f in problems[:20]:
            print(f"{path}:{f.line}:{f.column}: {f.severity}[{f.kind}]: {f.message} ({f.rule})", file=sys.stderr)
        return _refuse(path, "left as it is: fix the lines above first")
    if meaning(text)[0] != said:  # a safety net: formatting never changes the game
        return _refuse(path, "left as it is: formatting would change what it says (a bug; please report it)")
    if path == "-":
        sys.stdout.write(new)
        return 0
    if new == text:
        return 0
    if check_only:
        print(f"would reformat {path}")
        return 1
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(new)
    print(f"reformatted {path}")
    return 0


def main_fmt(argv: list[str]) -> int:
    p = SuggestingParser(
        prog="dosverify fmt --game uno-duo",
        description="Write UNO Duo text logs in canonical form (in place; - for standard input to standard output).",
    )
    p.add_argument("files", nargs="+", metavar="LOG")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file would change")
    args = p.parse_args(argv)
    from ...terminal import read_or_say

    status = 0
    for path in args.files:
        data = read_or_say(path, "dosverify fmt")
        status = max(status, 2 if data is None else format_file(path, data, args.check))
    return status
