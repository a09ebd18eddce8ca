"""What the command modules share: the game a command means, the largest log read by default,
the comma-separated spelling of `--select`, and writing a result out."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from ..games import GamePack
    from ..spec import Spec


def specs() -> list[Spec]:
    """Every registered game's specification (a folder of logs may hold several games)."""
    from ..games import usable_packs

    return [p.spec() for p in usable_packs()]


class Misuse(Exception):
    """A misuse a command finds past its flags' parsing (a `--game` no pack has): one line on
    standard error, exit 2 (``main`` says it)."""


def pack_of(args: argparse.Namespace) -> GamePack:
    """The game a command about the specification means: `--game`, else DOS."""
    from ..games import UnknownGame, find_game

    try:
        return find_game(getattr(args, "game", None))
    except UnknownGame as exc:
        raise Misuse(str(exc)) from None


def default_max_log_bytes() -> int:
    """The largest log read by default: the service's limit ($DOSVERIFY_MAX_LOG_BYTES, else 1 MiB),
    so that what the command line takes the service takes too, and `/dev/zero` ends."""
    from ..settings import SPECS

    env, _, default, _, _ = cast("tuple[str, type, int, int, str]", SPECS["max_log_bytes"])
    try:
        return max(0, int(os.environ.get(env, "") or default))
    except ValueError:
        return default


def comma_separated(tokens: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """`--select a,b --select c` as one tuple."""
    return tuple(t.strip() for arg in tokens or () for t in arg.split(",") if t.strip())


def write_out(path: str, text: str, prog: str = "dosverify") -> bool:
    """Write `text` to `path` (`-`: standard output); False after one line on standard error
    saying why it cannot be written (a missing folder, no permission): the caller exits 2."""
    if path == "-":
        sys.stdout.write(text)
        return True
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        print(f"{prog}: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


class Stdout:
    """Standard output as it is when written (a progress bar redirects it above itself)."""

    def write(self, s: str) -> int:
        return sys.stdout.write(s)

    def flush(self) -> None:
        sys.stdout.flush()
