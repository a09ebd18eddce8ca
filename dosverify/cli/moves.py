"""`dosverify moves FILE`: the position after the first N lines of a log, its legal next lines and,
with `--try`, the referee's verdict on one line there (docs/moves.md). Exit 0 when nothing was
tried or the tried line is legal, 1 when it is illegal, 2 when the log cannot be read or the
position is not one (a usage error naming the valid range)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..terminal import colour_wanted
from .common import Misuse, default_max_log_bytes


def add_parser(sub: Any) -> None:
    from ..moves.answer import DEFAULT_MAX_MOVES

    m = sub.add_parser(
        "moves",
        help="the legal next lines at a position of a log, and why a tried line is illegal there; "
        "exit 0 legal or nothing tried, 1 illegal, 2 unreadable log or no such position",
    )
    m.add_argument("file", metavar="FILE", help="a log (text or JSON); - for standard input")
    m.add_argument(
        "--after",
        type=int,
        metavar="N",
        help="the position after the first N physical lines (comments and blank lines count); a JSON "
        "log: after its first N event objects; default: the whole log",
    )
    m.add_argument("--try", dest="tried", metavar="LINE", help="a line to judge at that position (text notation)")
    m.add_argument("--ruleset", help="override the log's ruleset (not `auto`)")
    m.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option over the log's own `option` lines; `GAME:KEY=VALUE` for one game (repeatable)",
    )
    m.add_argument("--format", choices=["text", "json"], default="text")
    m.add_argument(
        "--max-moves",
        type=int,
        default=DEFAULT_MAX_MOVES,
        metavar="K",
        help=f"list at most K legal lines, then how many more (default {DEFAULT_MAX_MOVES}; 0 for all)",
    )
    m.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    m.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..moves.answer import answer, exit_status, render
    from ..moves.model import MalformedLog, NoMoves, NotAPosition
    from ..moves.table import Table
    from ..report import render_text
    from ..spec import SpecError, parse_option_args
    from ..terminal import read_bytes

    if args.after is not None and args.after < 0:
        raise Misuse("--after is a line count, 0 or more")
    if args.max_moves < 0:
        raise Misuse("--max-moves is 0 (all) or more")
    try:
        options = parse_option_args(args.option)
    except (SpecError, ValueError) as exc:
        raise Misuse(str(exc)) from None
    try:
        data = read_bytes(args.file, default_max_log_bytes())
    except OSError as exc:
        print(f"dosverify moves: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    name = "-" if args.file == "-" else args.file
    try:
        table = Table.from_log(data, args.after, ruleset=args.ruleset, options=options, name=name)
    except MalformedLog as exc:
        sys.stderr.write(render_text(exc.report, exc.report.text, colour=colour_wanted(args.color, sys.stderr)) + "\n")
        print(f"dosverify moves: {exc}", file=sys.stderr)
        return 2
    except (NotAPosition, NoMoves, SpecError) as exc:
        raise Misuse(str(exc)) from None
    out = answer(table, args.tried, args.max_moves)
    if args.format == "json":
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render(table, out, name, colour=colour_wanted(args.color, sys.stdout)))
    return exit_status(out)
