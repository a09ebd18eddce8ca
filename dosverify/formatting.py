"""`dosverify fmt` for every game, once: the files read, refused or written, and the safety nets.
A pack gives its canonical text (and, for DOS, the text with the declarations it writes); what a
log says is read through the pack (`parse`, `dump_json`), so the net is the same for every game:
formatting never changes the game a log records, nor (with declarations) the referee's findings."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from .argsuggest import SuggestingParser
from .findings import Finding


def run(
    argv: list[str],
    game: str,
    canonical: Callable[[str], str],
    declared: Callable[[str], str] | None = None,
) -> int:
    """The `fmt` command of `game`: `canonical` lays a log out (line for line, layout only);
    `declared`, if given, also writes what the reader takes as meant (DOS's wild declarations),
    kept only when the referee finds the same (line, rule) in both."""
    from .games import default_game, find_game

    pack = find_game(game)
    p = SuggestingParser(
        prog="dosverify fmt" + ("" if game == default_game() else f" --game {game}"),
        description=f"Write {pack.title} text logs in canonical form (in place; - for standard input to "
        "standard output).",
    )
    p.add_argument("files", nargs="+", metavar="LOG")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file would change")
    args = p.parse_args(argv)
    from .terminal import read_or_say

    status = 0
    for path in args.files:
        data = read_or_say(path, "dosverify fmt")
        status = max(status, 2 if data is None else _one(path, data, args.check, pack, canonical, declared))
    return status


def _one(
    path: str,
    data: bytes,
    check_only: bool,
    pack: Any,
    canonical: Callable[[str], str],
    declared: Callable[[str], str] | None,
) -> int:
    """One file (exit status: 0 unchanged or written, 1 would change, 2 refused)."""
    from .jsondoc import sniff_json

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _refuse(path, f"is not UTF-8 text (`dosverify check {path}` says where)")
    if sniff_json(data):
        return _refuse(path, "is in the JSON form (`dosverify convert --to json` normalises it)")
    body = text.removeprefix("\ufeff")  # the canonical form has no byte-order mark
    plain = canonical(body)
    said, problems = meaning(pack, plain)
    if said is None:
        for f in problems[:20]:
            print(f"{path}:{f.line}:{f.column}: {f.severity}[{f.kind}]: {f.message} ({f.rule})", file=sys.stderr)
        return _refuse(path, "left as it is: fix the lines above first")
    if meaning(pack, body)[0] not in (None, said):  # a safety net: formatting never changes the game
        return _refuse(path, "left as it is: formatting would change what it says (a bug; please report it)")
    new = plain if declared is None else declared(body)
    if new != plain and _judged(pack, new) != _judged(pack, plain):  # a declaration written must be the one read
        return _refuse(
            path,
            "left as it is: writing the declarations would change the referee's findings (a bug; please report it)",
        )
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


def meaning(pack: Any, text: str) -> tuple[str | None, list[Finding]]:
    """What the log says (its events in the game's JSON form), or the findings that stop reading it."""
    parsed = pack.parse(text, "text")
    errors = [f for f in parsed.findings if f.rule.startswith("notation.") and f.severity == "error"]
    if parsed.malformed or parsed.log is None or errors:
        return None, errors or parsed.findings
    return pack.dump_json(parsed.log), []


def _judged(pack: Any, text: str) -> list[tuple[int | None, str]]:
    """The referee's findings (line, rule)."""
    return [(f.line, f.rule) for f in pack.check(text.encode()).findings]


def _refuse(path: str, why: str) -> int:
    print(f"dosverify fmt: {path} {why}", file=sys.stderr)
    return 2
