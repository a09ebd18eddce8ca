"""`dosverify convert FILE`: a log between the text notation and the JSON form, without loss."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..terminal import read_or_say
from .common import write_out


def add_parser(sub: Any) -> None:
    v = sub.add_parser("convert", help="convert a log between the text notation and the JSON form")
    v.add_argument("file", metavar="FILE")
    v.add_argument(
        "--to",
        choices=["json", "text"],
        help="the output's form (default: the other one than the input's; the input's own form normalises it)",
    )
    v.add_argument("-o", "--output")
    v.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The input's form is sniffed; `--to` its own form normalises it (through the other one)."""
    from ..api import convert, sniff_json

    data = read_or_say(args.file)
    if data is None:
        return 2
    form = "json" if sniff_json(data) else "text"
    to = args.to or ("text" if form == "json" else "json")  # --to is the output's form; the input's is sniffed
    out, findings = convert(data, "json" if form == "text" else "text")
    if out is not None and to == form:  # the same form: normalise it, through the other one
        out, more = convert(out, form)
        findings = findings + [f for f in more if f not in findings]
    if out is None:
        for f in findings:
            where = f"{args.file}:{f.line}:{f.column}" if f.line else f"{args.file} at {f.pointer or '/'}"
            print(f"{where}: {f.severity}[{f.kind}]: {f.message} ({f.rule})", file=sys.stderr)
        print("dosverify: not converted: the log cannot be read without loss; fix the lines above", file=sys.stderr)
        return 2
    return 0 if write_out(args.output or "-", out if out.endswith("\n") else out + "\n") else 2
