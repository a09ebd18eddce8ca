"""Did-you-mean for the command line, as the service's problems have it: a mistyped command
(`chek`), flag (`--formt`) or choice (`--format jsn`) is answered with the nearest real one.
(argparse learns this in Python 3.14, `suggest_on_error`; we support 3.11.)"""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

from .hints import closest

_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")
_UNKNOWN = re.compile(r"unrecognized arguments: (.*)")


class SuggestingParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors end with the nearest command, flag or choice."""

    def error(self, message: str) -> NoReturn:
        super().error(message + suggestion(self, message))

    def parse_known_args(self, args=None, namespace=None):
        self._argv = list(args) if args is not None else None  # which command's flags to look among
        return super().parse_known_args(args, namespace)


def suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    """`; did you mean `check`?` (or `--format`, `json`), or nothing."""
    if m := _CHOICE.search(message):
        near = closest(m.group(1), re.findall(r"'([^']*)'", m.group(2)))
        return f"; did you mean `{near}`?" if near else ""
    if m := _UNKNOWN.search(message):
        flags = _flags(_command_parser(parser))
        unknown = [w.split("=", 1)[0] for w in m.group(1).split() if w.startswith("-")]
        for flag in unknown:
            if near := closest(flag, flags, cutoff=0.7):
                return f"; did you mean `{near}`" + (f" for `{flag}`?" if len(unknown) > 1 else "?")
    return ""


def _command_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The parser of the command the arguments named (`check` in `dosverify check --formt`): its
    flags are the ones meant. An unknown flag is reported by the top parser, which holds the rest."""
    argv = getattr(parser, "_argv", None) or []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word in argv:
                if word in action.choices:
                    return _command_parser(action.choices[word])
    return parser


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    return [s for s in parser._option_string_actions if s.startswith("--")]
