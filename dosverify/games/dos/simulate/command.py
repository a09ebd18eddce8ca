"""`dosverify simulate`: its arguments and its run."""

from __future__ import annotations

import argparse
import sys

from ....argsuggest import SuggestingParser
from ....spec import load_spec
from .game import Sim
from .logs import _run, simulate, simulate_json, simulate_text


def add_simulate_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Arguments of `dosverify simulate`."""
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="number of players (2-4; default 3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed: the same seed gives the same log (default 0)")
    parser.add_argument("--ruleset", default="official", help="ruleset from spec/rulesets (default official)")
    g = parser.add_mutually_exclusive_group()
    g.add_argument(
        "--rounds", type=int, default=1, metavar="K", help="play K rounds (default 1; fewer if the target is reached)"
    )
    g.add_argument(
        "--whole-game",
        "--game",
        dest="game",
        action="store_true",
        help="play a whole game, until a total reaches the target",
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="N",
        help="the game's target (written as `target N`; default the ruleset's)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output form (default text)")
    parser.add_argument(
        "--no-deck",
        dest="deck",
        action="store_false",
        help="write `hand`/`center` lines instead of each round's `deck`",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set an option of the ruleset (written as `option KEY VALUE`); repeatable",
    )
    parser.add_argument(
        "--long-round",
        choices=("drain", "thin"),
        default=None,
        help="players who decline and draw so that the piles run out: until both are empty "
        "(drain), or whenever the draw pile holds more than 3 cards (thin)",
    )
    from ..render import STYLES

    parser.add_argument(
        "--style",
        default="canonical",
        choices=sorted(STYLES),
        help="write the game in this style of notation v1 (text only; default canonical); "
        "`dosverify simulate --list-styles` says what each does",
    )
    parser.add_argument("--list-styles", action="store_true", help="list the styles and exit")
    parser.add_argument(
        "--view",
        default=None,
        metavar="VIEW",
        help="write what `table` (every hand and draw face down, `show` lines at each round's end) or "
        "`seat:P` (P's cards written, the others face down) saw; default: the open log",
    )
    parser.add_argument(
        "--as-program",
        action="store_true",
        help="write the log as a program that plays these options writes it: no `option` lines "
        "(its departures from `official` are for `dosverify profile` to find)",
    )
    parser.add_argument(
        "--departures",
        default=None,
        metavar="FILE",
        help="also write, as JSON, where `official` must find the engine options' departures (V12-V17) in "
        "the log written: [{line, kind, rule}] (text, canonical style, no view)",
    )
    parser.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    return parser


def program_text(sim: Sim, as_program: bool = True) -> tuple[str, list[tuple[int, str, str]]]:
    """The game as a program that plays its options writes it (no `option` lines when `as_program`), and
    the departures from `official` (line, kind, rule) at the lines of that text."""
    text = sim.to_text()
    departures = sim.departure_lines()
    if not as_program:
        return text, departures
    shift = len(sim.options_given)  # the option lines come before every line a departure is on
    text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("option "))
    return text, [(line - shift, kind, rule) for line, kind, rule in departures]


class _Refused(Exception):
    """A run the arguments refuse: the message, printed as one line with exit status 2."""


def run_simulate(args: argparse.Namespace) -> int:
    """Run `dosverify simulate` with parsed arguments; returns the exit status."""
    if args.list_styles:
        from ..render import STYLES

        for name, st in STYLES.items():
            print(f"{name:20} {st.describe()}")
        return 0
    try:
        kw = _game_arguments(args)
        if args.departures is not None or args.as_program:
            return _write_program(args, kw)
        if args.view is not None:
            out = _view(args, kw)
        else:
            out = simulate_json(**kw) + "\n" if args.format == "json" else simulate_text(**kw, style=args.style)
    except _Refused as exc:
        print(f"dosverify simulate: {exc}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(out)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:  # CRLF styles keep their line ends
                fh.write(out)
        except OSError as exc:  # a missing folder, no permission: one line, not a traceback
            print(f"dosverify simulate: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


def _game_arguments(args: argparse.Namespace) -> dict:
    """The simulator's keyword arguments from the command's, or _Refused saying what is wrong."""
    options = {}
    for kv in args.option:
        key, eq, val = kv.partition("=")
        if not eq:
            raise _Refused(f"--option takes KEY=VALUE, not `{kv}`")
        options[key.strip()] = val.strip()
    try:
        load_spec("dos").ruleset(args.ruleset, options)
    except ValueError as exc:
        raise _Refused(str(exc)) from None
    if args.target is not None and args.target < 1:
        raise _Refused("--target must be at least 1")
    if not args.game and args.rounds < 1:
        raise _Refused("--rounds must be at least 1")
    if args.style != "canonical" and args.format == "json":
        raise _Refused("--style is for the text form (the JSON form has one way to write a log)")
    return dict(
        players=args.players,
        seed=args.seed,
        ruleset=args.ruleset,
        rounds=args.rounds,
        game=args.game,
        deck=args.deck,
        target=args.target,
        options=options or None,
        long_round=args.long_round,
    )


def _view(args: argparse.Namespace, kw: dict) -> str:
    """`--view`: what the table or a seat saw of the game, in the canonical style."""
    from ..hide import ViewError, hide
    from ..jsonform import dump_json
    from ..notation.writer import write

    if args.style != "canonical":
        raise _Refused("--style and --view do not combine (a view is written in the canonical style)")
    try:
        log = hide(simulate(**kw), args.view)
    except ViewError as exc:
        raise _Refused(str(exc)) from None
    return dump_json(log) + "\n" if args.format == "json" else write(log)


def _write_program(args: argparse.Namespace, kw: dict) -> int:
    """`--as-program` / `--departures`: the simulator's own canonical text, and where its departures are."""
    import json

    if args.format != "text" or args.style != "canonical" or args.view is not None:
        print(
            "dosverify simulate: --as-program and --departures write the text form, canonical style, no view",
            file=sys.stderr,
        )
        return 2
    text, departures = program_text(_run(**kw), args.as_program)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    if args.departures is not None:
        rows = [{"line": line, "kind": kind, "rule": rule} for line, kind, rule in departures]
        with open(args.departures, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
            fh.write("\n")
    return 0


def main_simulate(argv: list[str] | None = None) -> int:
    """`dosverify simulate` run on its own (the pack's command)."""
    parser = add_simulate_arguments(
        SuggestingParser(prog="dosverify simulate", description="Write a legal simulated DOS game log.")
    )
    return run_simulate(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main_simulate())
