"""UNO Duo's own commands (GamePack.commands): `dosverify simulate --game uno-duo`."""

from __future__ import annotations

import argparse
import sys

from ...argsuggest import SuggestingParser


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key or not value:
        raise argparse.ArgumentTypeError(f"`{text}` is not KEY=VALUE")
    return key, value


def main_simulate(argv: list[str] | None = None) -> int:
    """Write a legal simulated UNO Duo log (one round, or the whole game) to stdout or a file."""
    from ...spec import SpecError
    from .simulate import STYLES, simulate

    p = SuggestingParser(prog="dosverify simulate --game uno-duo", description="Write a legal simulated UNO Duo log.")
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


def _score_line(s: dict) -> str:
    """A round's end in one line: the log's score and totals lines, and the referee's count."""
    sc = s["score"]
    said = "; ".join(sc["lines"]) or "no score line"
    points = "not known" if sc["points"] is None else ", ".join(f"{p} {n}" for p, n in sc["points"].items())
    totals = ", ".join(f"{p} {n}" for p, n in sc["totals"].items())
    where = f" (line {s['line']})" if s["line"] else ""
    return f"round {s['round']} score{where}: the log: {said} | the referee: points {points}; totals {totals}"


def _state_line(s: dict) -> str:
    """One turn's table in one line, for people."""
    if s.get("score"):
        return _score_line(s)
    hands = "  ".join(f"{p} ({len(h)}): {' '.join(h) or '-'}" for p, h in s["hands"].items())
    parts = [f"round {s['round']} turn {s['turn']} (line {s['line']}) {s['player']}:"]
    parts.append(f"top {s['top'] or '-'} colour {s['colour'] or 'any'} | pile {s['pile']} | {hands}")
    if s["pending"]:
        pend = s["pending"]
        parts.append(f"| pending {pend['kind']} {pend['total'] or ''} for {pend['player']}".replace("  ", " "))
    if s["owed"]:
        parts.append(f"| {s['owed']['player']} owes {s['owed']['cards']}")
    for p, c in s["uno"].items():
        parts.append(f"| {p} UNO {'called' if c['called'] else 'not called'}{', caught' if c['caught'] else ''}")
    return " ".join(parts)


def main_replay(argv: list[str] | None = None) -> int:
    """The table after each turn of a UNO Duo log, with the findings where they are made."""
    from ...spec import SpecError
    from ...terminal import read_or_say
    from .replay import replay

    p = SuggestingParser(prog="dosverify replay --game uno-duo", description="The table after each turn.")
    p.add_argument("file", metavar="LOG", help="a UNO Duo log (text or JSON); - for standard input")
    p.add_argument("--ruleset", help="override the log's ruleset")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="set an option; repeatable")
    p.add_argument("--format", choices=["text", "json"], default="text")
    args = p.parse_args(argv)
    from ...overrides import from_command_line

    try:
        options = from_command_line(args.option, "uno-duo")
    except ValueError as exc:
        print(f"dosverify replay: {exc}", file=sys.stderr)
        return 2
    data = read_or_say(args.file)
    if data is None:
        return 2
    try:
        out = replay(data, name=args.file, ruleset=args.ruleset, options=options)
    except SpecError as exc:
        print(f"dosverify replay: {exc}", file=sys.stderr)
        return 2
    rep = out["report"]
    if args.format == "json":
        import json

        print(json.dumps(out, ensure_ascii=False))
    else:
        for s in out["states"]:
            print(_state_line(s))
            for f in s["findings"]:
                print(f"  line {f['line']}: {f['severity']} [{f['rule']}] {f['message']}")
        from ...hints import plural

        print(f"{rep['file']}: {rep['verdict']} ({plural(len(rep['findings']), 'finding')})")
    return {"legal": 0, "illegal": 1}.get(rep["verdict"], 2)
