"""`dosverify profile`'s command line, the same for every game: the pack brings how its logs are
read and profiled, and how a profile is written; this reads the flags, refuses what cannot be
profiled with one line (exit 2), and prints the profile (exit 0 when every log is explained)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from .spec import Spec, SpecError, parse_option_args

Logs = TypeVar("Logs", bound=list)  # the (name, log) pairs as the pack reads them


def profile_main(
    argv: list[str],
    *,
    prog: str,
    description: str,
    spec: Callable[[], Spec],
    read_paths: Callable[[list[str]], Logs],
    profile: Callable[[Logs, dict[str, str]], dict[str, Any]],
    command: Callable[[dict[str, Any], str], str],
    render_text: Callable[[dict[str, Any], str], str],
) -> int:
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("paths", nargs="+", metavar="LOG|DIR")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="fix this option (not inferred); repeatable"
    )
    args = ap.parse_args(argv)
    try:
        fixed = parse_option_args(args.option)
        spec().ruleset("official", fixed)
    except (ValueError, SpecError) as exc:
        print(f"dosverify profile: {exc}", file=sys.stderr)
        return 2
    try:
        logs = read_paths(args.paths)
    except OSError as exc:
        print(f"dosverify profile: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    if not logs:
        print("dosverify profile: no logs found", file=sys.stderr)
        return 2
    prof = profile(logs, fixed)
    target = " ".join(args.paths)
    if args.format == "json":
        print(json.dumps({**prof, "command": command(prof, target)}, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_text(prof, target))
    return 0 if prof["legal"] else 1
