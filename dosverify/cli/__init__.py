"""The `dosverify` command line: one module per command, each owning its flags (``add_parser``)
and its handler (``run``); the commands that belong to a game are the game pack's own
(:mod:`.game_commands`). Argparse, so that it starts fast: a command's module is imported only
when that command runs (or for `--help`), and the service stack only by `serve`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from ..argsuggest import SuggestingParser
from ..registry import PackConflict
from ..terminal import colour_wanted as _colour
from ..terminal import read_bytes as _read
from ..terminal import read_or_say
from . import game_commands

__all__ = ["_colour", "_read", "build_parser", "main", "read_or_say"]

#: The commands, in the order `dosverify --help` lists them: each the module `dosverify.cli.NAME`.
COMMANDS = ("check", "moves", "hide", "rules", "explain", "rulesets", "convert", "schema", "serve", "event")


class _Version(argparse.Action):
    """`--version`: the package's version and each game's: its specification's and notation's
    versions, or why its pack cannot be used (read only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: Any = None) -> None:
        from .. import __version__
        from ..games import REGISTRY, PackUnavailable, find_game

        print(f"dosverify {__version__}")
        for name in REGISTRY:  # every game found, with its spec's version, or why its pack cannot be used
            reg = REGISTRY[name]
            try:
                pack = find_game(name)
            except PackUnavailable as exc:
                print(f"  {name}: unavailable: {exc}")
                continue
            notation = ", ".join(str(v) for v in pack.versions)
            origin = "" if reg.dist == "dosverify" else f", from {reg.dist}"
            print(f"  {name}: {pack.title}, rules specification {pack.spec().version}, notation {notation}{origin}")
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with `only`, that command's alone in full (the others are
    names: their modules are not imported, and only `dosverify --help` would show them)."""
    p = SuggestingParser(
        prog="dosverify",
        description="Referee card game logs (each game a pack: `--version` lists them) against its rules specification.",
    )
    p.add_argument("--version", action=_Version, nargs=0, help="the version and the rules specification's version")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{name}").add_parser(sub)
        else:
            sub.add_parser(name, add_help=False)
    # commands with many options of their own parse them in their game's module, imported only when used
    game_commands.add_parsers(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in game_commands.NAMES:
            status = game_commands.run(argv[0], argv[1:])  # their options are parsed in their own module
        else:
            args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
            status = _run(args)
        sys.stdout.flush()  # here, where a reader that has gone is caught, not at exit
        return status
    except PackConflict as exc:  # two distributions claim one game: nothing can be told apart
        print(f"dosverify: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `dosverify replay LOG | head`: the reader has gone, and that is fine
        _quiet_stdout()
        return 0


def _run(args: argparse.Namespace) -> int:
    """The command's handler; a misuse it finds is one line and exit 2, never a traceback."""
    from .common import Misuse

    try:
        status: int = args.func(args)
    except Misuse as exc:
        print(f"dosverify {args.command}: {exc}", file=sys.stderr)
        return 2
    return status


def _quiet_stdout() -> None:
    """After a broken pipe, standard output goes nowhere: the interpreter's last flush at exit
    would otherwise print a second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no file descriptor (a captured stream)
        pass
