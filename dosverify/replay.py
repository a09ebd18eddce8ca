"""`dosverify replay LOG [--round R] [--turn N]`: the table after each turn, as the referee
replays it (every hand, the Center Row, the pile sizes, who has called DOS, the totals), with
the findings at the turn where they occur; text for a person, `--format json` (JSON Lines, one
state a line, then the report) for programs."""

from __future__ import annotations

import argparse
import json
import sys


def states(data: bytes, name: str, ruleset: str | None = None):
    """(report, [state...]): each state the referee's snapshot plus `dos` (called and caught),
    `after` (`turn` or `score`), `line` (of the turn) and `findings` (those of that turn)."""
    from .api import check

    out: list[dict] = []

    def visit(ref) -> None:
        snap = ref.snapshot()
        prev = out[-1] if out else None
        snap["after"] = "score" if prev and (prev["round"], prev["turn"]) == (snap["round"], snap["turn"]) else "turn"
        snap["dos"] = {p: {"called": bool(ref.called.get(p)), "caught": bool(ref.caught.get(p))} for p in ref.players}
        rnd = ref.log.rounds[snap["round"] - 1] if 0 < snap["round"] <= len(ref.log.rounds) else None
        turn = rnd.turns[snap["turn"] - 1] if rnd and 0 < snap["turn"] <= len(rnd.turns) else None
        snap["line"] = getattr(turn, "_line", None) if snap["after"] == "turn" else None
        out.append(snap)

    report = check(data, name=name, ruleset=ruleset, visitor=visit)
    placed = set()
    for st in out:  # the findings of each turn at that turn; a round's own (set-up, score) at its end
        key = (st["round"], st["turn"] if st["after"] == "turn" else None)
        st["findings"] = [f for f in report.findings if (f.round, f.turn) == key and id(f) not in placed]
        placed.update(id(f) for f in st["findings"])
    rest = [f for f in report.findings if id(f) not in placed]
    return report, out, rest


def _render(st: dict, colour: bool) -> str:
    from .report import _COLOURS, plural

    def c(name: str, s: str) -> str:
        return f"{_COLOURS[name]}{s}{_COLOURS['reset']}" if colour else s

    head = (f"round {st['round']}, turn {st['turn']}: {st['player']} played" + (f"  (line {st['line']})" if st["line"] else "")
            if st["after"] == "turn" else f"round {st['round']}: scored")
    lines = [c("bold", head)]
    width = max(len(p) for p in st["hands"])
    for p, hand in st["hands"].items():
        dos = st["dos"].get(p, {})
        mark = " DOS called" if dos.get("called") else (" caught" if dos.get("caught") else "")
        lines.append(f"  {p:<{width}}  {' '.join(hand) or '-':<40} {plural(len(hand), 'card')}{mark}")
    lines.append(f"  center row: {' '.join(st['center']) or '-'}; draw pile {st['draw_pile']}, discard pile {st['discard_pile']}")
    lines.append("  totals: " + ", ".join(f"{p} {n}" for p, n in st["totals"].items()) + ("; the round is over" if st["round_over"] else ""))
    for f in st["findings"]:
        lines.append(_finding(f, c))
    return "\n".join(lines)


def _finding(f, c) -> str:
    where = f"line {f.line}:{f.column or 1}" if f.line else (f"at {f.pointer}" if f.pointer else "")
    return f"  {c(f.severity, f'{f.severity}[{f.kind}]')} {where}: {f.message} ({f.rule})"


def main_replay(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="dosverify replay", description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("file", metavar="LOG", help="a log in the text notation or the JSON form; - for standard input")
    p.add_argument("--round", type=int, metavar="R", help="only round R")
    p.add_argument("--turn", type=int, metavar="N", help="only turn N (of each round shown)")
    p.add_argument("--ruleset", help="override the log's ruleset")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    args = p.parse_args(argv)
    from .cli import _colour, _read
    from .report import summary_line
    from .spec import load_spec

    if args.ruleset is not None and args.ruleset not in load_spec().rulesets:
        print(f"dosverify: unknown ruleset `{args.ruleset}` (`dosverify rulesets` lists them)", file=sys.stderr)
        return 2
    try:
        data = _read(args.file)
    except OSError as exc:
        print(f"dosverify: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    report, sts, rest = states(data, args.file, args.ruleset)
    shown = [st for st in sts if (args.round is None or st["round"] == args.round)
             and (args.turn is None or (st["turn"] == args.turn and st["after"] == "turn"))]
    colour = _colour(args.color, sys.stdout)
    if args.format == "json":
        for st in shown:
            sys.stdout.write(json.dumps({**st, "findings": [f.to_dict() for f in st["findings"]]}, ensure_ascii=False) + "\n")
        tail = {"file": report.file, "verdict": report.verdict, "ruleset": report.ruleset, "spec_version": report.spec_version,
                "states": len(sts), "findings": [f.to_dict() for f in rest]}
        sys.stdout.write(json.dumps(tail, ensure_ascii=False) + "\n")
    else:
        from .report import _COLOURS

        c = (lambda name, s: f"{_COLOURS[name]}{s}{_COLOURS['reset']}") if colour else (lambda name, s: s)
        for f in rest:  # the header's, or where no turn was replayed (a malformed log)
            print(_finding(f, c))
        for st in shown:
            print(_render(st, colour) + "\n")
        if (args.round is not None or args.turn is not None) and not shown:
            print(f"dosverify: no such turn in {args.file} ({len(sts)} states replayed)", file=sys.stderr)
        print(summary_line(report, colour=colour))
    return {"legal": 0, "illegal": 1, "malformed": 2}[report.verdict]
