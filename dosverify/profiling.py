"""`dosverify profile`'s command line, the same for every game: the pack brings how its logs are
read and profiled, and how a profile is written; this reads the flags, refuses what cannot be
profiled with one line (exit 2), and prints the profile (exit 0 when every log is explained)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from .spec import Spec, SpecError, parse_option_args

#: the (name, log) pairs: each log as read from its file (bytes), or a text or JSON document
Logs = list[tuple[str, str | bytes | dict[str, Any]]]


def profile_main(
    argv: list[str],
    *,
    prog: str,
    description: str,
    spec: Callable[[], Spec],
    profile: Callable[[Logs, dict[str, str]], dict[str, Any]],
    render_text: Callable[[dict[str, Any], str], str],
    game: str | None = None,
) -> int:
    from .argsuggest import SuggestingParser

    ap = SuggestingParser(prog=prog, description=description)
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
    logs, others = _of_game(logs, game)
    if not logs:
        print("dosverify profile: no logs found" + (f" of the game `{game}`" if others else ""), file=sys.stderr)
        return 2
    prof = profile(logs, fixed)
    target = " ".join(args.paths)
    if others:  # a folder of several games: each is profiled on its own, its options set for it alone
        prof["flags"] = [_qualified(f, game) for f in prof["flags"]]
        prof["other_games_left_out"] = others
    if args.format == "json":
        print(json.dumps({**prof, "command": command(prof, target)}, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_text(prof, target))
    return 0 if prof["legal"] else 1


def command(prof: dict[str, Any], target: str = "DIR") -> str:
    """The exact `dosverify check` command that judges the logs under the inferred options."""
    return " ".join(["dosverify check", *prof["flags"], target])


def read_paths(paths: list[str]) -> Logs:
    """The logs under the paths given, found as `check` finds them (files, folders searched for
    logs, `-` for standard input); a path that is missing or unreadable is an OSError."""
    from .inputs import discover

    logs: Logs = []
    for item in discover(paths):
        if item.empty:
            continue
        if item.path == "-":
            logs.append(("-", sys.stdin.buffer.read()))
            continue
        with open(item.path, "rb") as fh:
            logs.append((item.path, fh.read()))
    return logs


def _of_game(logs: Logs, game: str | None) -> tuple[Logs, int]:
    """The logs of `game` (all when None), and how many of another game were left out: a log of
    another game is not a malformed log of this one."""
    if game is None:
        return logs, 0
    from .registry import sniff_game

    mine = [(name, log) for name, log in logs if sniff_game(log) in (game, None)]
    return mine, len(logs) - len(mine)


def _qualified(flag: str, game: str | None) -> str:
    """`--option k=v` as `--option GAME:k=v`, so the printed command over a mixed folder sets the
    option for this game's logs only (overrides.QUALIFIER)."""
    from .overrides import QUALIFIER

    if game and flag.startswith("--option ") and QUALIFIER not in flag.split("=", 1)[0]:
        return f"--option {game}{QUALIFIER}{flag.removeprefix('--option ')}"
    return flag
