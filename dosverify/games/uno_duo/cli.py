"""UNO Duo's own commands (GamePack.commands): `dosverify simulate --game uno-duo`."""

from __future__ import annotations

import argparse
import sys


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key or not value:
        raise argparse.ArgumentTypeError(f"`{text}` is not KEY=VALUE")
    return key, value


def main_simulate(argv: list[str] | None = None) -> int:
    """Write a legal simulated UNO Duo log (one round, or the whole game) to stdout or a file."""
    from ...spec import SpecError
    from .simemit import STYLES
    from .simulate import simulate

    p = argparse.ArgumentParser(
        prog="dosverify simulate --game uno-duo", description="Write a legal simulated UNO Duo log."
    )
    p.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    p.add_argument("--whole-game", action="store_true", help="play rounds until a total reaches the target")
    p.add_argument("--ruleset", default="official", help="the ruleset (default official)")
    p.add_argument("--style", choices=sorted(STYLES), default="canonical", help="the rendering (default canonical)")
    p.add_argument("--option", type=_option, action="append", default=[], metavar="K=V", help="an option (repeatable)")
    p.add_argument("--target", type=int, help="the target total (default the ruleset's)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the log here (default standard output)")
    args = p.parse_args(argv)
    try:
        text = simulate(
            seed=args.seed,
            ruleset=args.ruleset,
            options=dict(args.option) or None,
            whole_game=args.whole_game,
            style=args.style,
            target=args.target,
        )
    except (SpecError, KeyError, ValueError) as exc:
        print(f"dosverify simulate: {exc}", file=sys.stderr)
        return 2
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            print(f"dosverify simulate: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0
