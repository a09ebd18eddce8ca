"""The commands that belong to a game (simulate, corpus, replay, fmt, profile): the game's pack
parses their many options and runs them (``pack.commands()``); the core only says which game
(`--game NAME`, else the game the first log given names, else DOS)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

#: Each game command and its one line in `dosverify --help` (a flat table).
GAME_COMMANDS = (
    ("simulate", "write a complete legal game log from a seed (`dosverify simulate --help`)"),
    ("corpus", "export the conformance corpus, or run an outside checker over it (`dosverify corpus --help`)"),
    (
        "replay",
        "the table after each turn of a log, with the findings where they occur (`dosverify replay --help`)",
    ),
    ("fmt", "write text logs in canonical form; --check for CI (`dosverify fmt --help`)"),
    ("profile", "infer the options that explain many logs of one program (`dosverify profile --help`)"),
)
NAMES = tuple(name for name, _ in GAME_COMMANDS)


def add_parsers(sub: Any) -> None:
    """A placeholder for each in the parser (for `dosverify --help`): `main` hands their
    arguments to the game before argparse sees them."""
    for name, text in GAME_COMMANDS:
        lazy = sub.add_parser(name, help=text, add_help=False)
        lazy.add_argument("rest", nargs=argparse.REMAINDER)
        lazy.set_defaults(func=lambda args, name=name: run(name, args.rest))


def run(name: str, argv: list[str]) -> int:
    """A command that belongs to a game (simulate, replay, profile, fmt, corpus): the game's pack runs it."""
    from ..games import UnknownGame, find_game

    if name == "profile" and "--game" not in argv and not any(a.startswith("--game=") for a in argv):
        games = _games_of_logs(argv)
        if len(games) > 1:  # a folder of several games: each game's logs profiled by its own pack
            return _each_game(name, games, argv)
    game, argv = take_game(name, argv)
    try:
        pack = find_game(game)
    except UnknownGame as exc:
        print(f"dosverify {name}: {exc}", file=sys.stderr)
        return 2
    command = pack.commands().get(name)
    if command is None:
        print(f"dosverify {name}: {pack.title} has no `{name}` command", file=sys.stderr)
        return 2
    return command(argv)


def _each_game(name: str, games: list[str], argv: list[str]) -> int:
    """`profile` over logs of several games: each game's profile in turn (text under a heading;
    JSON as one object keyed by game), the worst exit status."""
    import contextlib
    import io
    import json

    from ..games import find_game

    as_json = "--format=json" in argv or any(
        a == "--format" and b == "json" for a, b in zip(argv, argv[1:], strict=False)
    )
    worst, docs = 0, {}
    for i, game in enumerate(games):
        pack = find_game(game)
        command = pack.commands().get(name)
        if command is None:
            print(f"dosverify {name}: {pack.title} has no `{name}` command; its logs are left out", file=sys.stderr)
            worst = max(worst, 2)
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = command(argv)
        worst = max(worst, status)
        if as_json:
            docs[game] = json.loads(out.getvalue()) if out.getvalue().strip() else None
        else:
            print(("\n" if i else "") + f"== {pack.title} logs ==")
            sys.stdout.write(out.getvalue())
    if as_json:
        print(json.dumps({"games": docs}, ensure_ascii=False, indent=2))
    return worst


def _games_of_logs(argv: list[str]) -> list[str]:
    """Every registered game named by the logs among the arguments (files, and folders' logs as
    `check` finds them), in the packs' order."""
    from ..games import REGISTRY
    from ..inputs import discover

    paths = [a for a in argv if not a.startswith("-") and os.path.exists(a)]
    found = {
        _head_game(item.path)
        for item in (discover(paths) if paths else [])
        if not item.empty and item.problem is None and item.path != "-"
    }
    return [g for g in REGISTRY if g in found]


def _head_game(path: str) -> str | None:
    """The registered game a file's log names (its first 4 KiB), None when none or unreadable."""
    from ..registry import log_game

    try:
        with open(path, "rb") as fh:
            return log_game(fh.read(4096))
    except OSError:
        return None


def _sniff_stdin() -> str | None:
    """The game standard input's log names (`fmt -`, `replay -`): its bytes are read once and put
    back as standard input, so the game's command reads them as it would have."""
    import io

    from ..registry import log_game

    data = sys.stdin.buffer.read()
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    return log_game(data[:4096])


def take_game(name: str, argv: list[str]) -> tuple[str | None, list[str]]:
    """`--game NAME` (or `--game=NAME`) out of a game command's arguments; without it, the game
    the first log named among them says. `simulate --game` with no game after it is the old
    spelling of `--whole-game`: still taken, with a note."""
    rest: list[str] = []
    game = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--game="):
            game = a.split("=", 1)[1]
        elif a == "--game" and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            game, i = argv[i + 1], i + 1
        elif a == "--game" and name == "simulate":
            print(
                "dosverify simulate: `--game` alone is now `--whole-game` (`--game NAME` picks the game)",
                file=sys.stderr,
            )
            rest.append("--whole-game")
        else:
            rest.append(a)
        i += 1
    if game is None and name != "simulate":
        game = _game_of_first_log(rest)
    return game, rest


def _game_of_first_log(argv: list[str]) -> str | None:
    """The game the first log among the arguments names: a file named directly, or else the first
    file of a folder (in sorted order) that a known game's header opens (None: no known game's)."""
    from ..inputs import discover

    for a in argv:
        if a == "-":  # standard input: read here, sniffed, and handed on whole as standard input still
            return _sniff_stdin()
        if a.startswith("-"):
            continue
        if os.path.isfile(a):
            return _head_game(a)
        if os.path.isdir(a):  # the folder's logs as `check` finds them (inputs.discover)
            for item in discover([a]):
                if not item.empty and item.problem is None and (named := _head_game(item.path)) is not None:
                    return named
            return None
    return None
