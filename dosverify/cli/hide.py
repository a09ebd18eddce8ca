"""`dosverify hide FILE`: what the table (or one seat) saw of an open log, unseen cards as `?`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..terminal import read_or_say
from .common import write_out


def add_parser(sub: Any) -> None:
    h = sub.add_parser("hide", help="write what the table (or one seat) saw of an open log: unseen cards as `?`")
    h.add_argument("file", metavar="FILE")
    h.add_argument(
        "--view",
        default="table",
        help="`table` (every hand and draw face down) or `seat:P` (only P's cards written); default table",
    )
    h.add_argument("--to", choices=["text", "json"], default="text")
    h.add_argument("-o", "--output", default="-")
    h.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Only a log read without loss is hidden: else its findings, and exit 2."""
    from ..api import game_of
    from ..games import ViewError
    from ..report import Report, render_text

    data = read_or_say(args.file)
    if data is None:
        return 2
    pack = game_of(data)
    parsed = pack.parse(data)
    if parsed.malformed or parsed.log is None or any(f.severity == "error" for f in parsed.findings):
        rep = Report(
            file=args.file,
            verdict="malformed",
            ruleset=None,
            spec_version=pack.spec().version,
            findings=list(parsed.findings),
            game=pack.name,
        )
        sys.stderr.write(render_text(rep, parsed.text) + "\n")
        print("dosverify: not hidden: the log cannot be read without loss; fix the lines above", file=sys.stderr)
        return 2
    try:
        log = pack.hide(parsed.log, args.view)
    except (ViewError, NotImplementedError) as exc:
        print(f"dosverify hide: {exc}", file=sys.stderr)
        return 2
    out = pack.dump_json(log) + "\n" if args.to == "json" else pack.write(log)
    return 0 if write_out(args.output, out) else 2
