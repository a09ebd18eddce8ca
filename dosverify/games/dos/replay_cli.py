"""`dosverify replay LOG [--round R] [--turn N]`: the table after each turn (every hand, the
Center Row, the pile sizes, DOS state, the totals), with the findings at the turn where they
occur; text for a person, `--format json` (JSON Lines: one state a line, then the report) for
programs. The states are :func:`dosverify.games.dos.replay.replay`'s, as the service's POST /v1/replay
answers them."""

from __future__ import annotations

import json
import sys

from ...argsuggest import SuggestingParser


def _label(states: list[dict], i: int) -> str:
    st = states[i]
    if st.get("score"):
        return f"round {st['round']}: the score" + (f"  (line {st['line']})" if st["line"] else "")
    return f"round {st['round']}, turn {st['turn']}: {st['player']} played" + (
        f"  (line {st['line']})" if st["line"] else ""
    )


def _finding(f: dict, c) -> str:
    where = f"line {f['line']}:{f['column'] or 1}" if f["line"] else (f"at {f['pointer']}" if f["pointer"] else "")
    head = f"{f['severity']}[{f['kind']}]"
    return f"  {c(f['severity'], head)} {where}: {f['message']} ({f['rule']})"


def _render(states: list[dict], i: int, findings: list[dict], c) -> str:
    from ...hints import plural

    st = states[i]
    lines = [c("bold", _label(states, i))]
    if st.get("score"):
        sc = st["score"]
        lines.append("  the log:     " + ("; ".join(sc["lines"]) or "no score line"))
        points = "not known" if sc["points"] is None else ", ".join(f"{p} {n}" for p, n in sc["points"].items())
        lines.append(
            f"  the referee: points {points}; totals " + ", ".join(f"{p} {n}" for p, n in sc["totals"].items())
        )
    width = max(len(p) for p in st["seats"])
    for p, seat in st["seats"].items():
        mark = {"called": " DOS called", "owed": " DOS not called", "caught": " caught"}.get(seat["dos"] or "", "")
        lines.append(f"  {p:<{width}}  {' '.join(seat['hand']) or '-':<40} {plural(seat['cards'], 'card')}{mark}")
    lines.append(
        f"  center row: {' '.join(st['center']) or '-'}; draw pile {st['draw_pile']}, discard pile {st['discard_pile']}"
    )
    lines.append(
        "  totals: "
        + ", ".join(f"{p} {s['total']}" for p, s in st["seats"].items())
        + ("; the round is over" if st["round_over"] and not st.get("score") else "")
    )
    lines += [_finding(findings[k], c) for k in st["findings"]]
    return "\n".join(lines)


def _missing(states: list[dict], args) -> str:
    """What `--round`/`--turn` asked for that the log does not have, and what it has."""
    rounds = sorted({st["round"] for st in states})
    if args.round is not None and args.round not in rounds:
        has = (
            "no round"
            if not rounds
            else f"round {rounds[0]} only"
            if len(rounds) == 1
            else f"rounds {rounds[0]} to {rounds[-1]}"
        )
        return f"no round {args.round} (the log has {has})"
    where = f" of round {args.round}" if args.round is not None else ""
    return f"no turn {args.turn}{where}"


def replay_options(items: list[str], game: str) -> dict[str, str] | None:
    """`--option` for this game's log, as `check` judges them; None (said in one line) when not its."""
    from ...overrides import from_command_line

    try:
        return from_command_line(items, game)
    except ValueError as exc:
        print(f"dosverify replay: {exc}", file=sys.stderr)
        return None


def main_replay(argv: list[str]) -> int:
    p = SuggestingParser(
        prog="dosverify replay",
        description="The table after each turn of a log, with the findings at the turn where they occur.",
    )
    p.add_argument("file", metavar="LOG", help="a log in the text notation or the JSON form; - for standard input")
    p.add_argument("--round", type=int, metavar="R", help="only round R")
    p.add_argument("--turn", type=int, metavar="N", help="only turn N (of each round shown)")
    p.add_argument("--ruleset", help="override the log's ruleset")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="set an option; repeatable")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    args = p.parse_args(argv)
    options = replay_options(args.option, "dos")
    if options is None:
        return 2
    from ...findings import Finding
    from ...report import _COLOURS, Report, summary_line
    from ...spec import load_spec
    from ...terminal import colour_wanted as _colour
    from ...terminal import read_or_say
    from .replay import replay

    if args.ruleset is not None and args.ruleset not in load_spec("dos").rulesets:
        print(f"dosverify: unknown ruleset `{args.ruleset}` (`dosverify rulesets` lists them)", file=sys.stderr)
        return 2
    data = read_or_say(args.file)
    if data is None:
        return 2
    out = replay(data, name=args.file, ruleset=args.ruleset, options=options)
    rep, states = out["report"], out["states"]
    findings = rep["findings"]
    placed = {k for st in states for k in st["findings"]}
    keep = [
        i
        for i, st in enumerate(states)
        if (args.round is None or st["round"] == args.round)
        and (args.turn is None or (st["turn"] == args.turn and not st["score"]))
    ]
    if (args.round is not None or args.turn is not None) and not keep:  # asked for what is not there
        print(f"dosverify replay: {_missing(states, args)} in {args.file}", file=sys.stderr)
        return 2
    if args.format == "json":
        for i in keep:
            sys.stdout.write(
                json.dumps({**states[i], "findings": [findings[k] for k in states[i]["findings"]]}, ensure_ascii=False)
                + "\n"
            )
        tail = {k: rep[k] for k in ("file", "verdict", "ruleset", "spec_version")}
        tail.update(
            states=len(states), totals=out["totals"], findings=[f for k, f in enumerate(findings) if k not in placed]
        )
        sys.stdout.write(json.dumps(tail, ensure_ascii=False) + "\n")
    else:
        colour = _colour(args.color, sys.stdout)
        c = (lambda name, s: f"{_COLOURS[name]}{s}{_COLOURS['reset']}") if colour else (lambda name, s: s)
        for k, f in enumerate(findings):  # the header's, or where no turn was replayed (a malformed log)
            if k not in placed:
                print(_finding(f, c))
        for i in keep:
            print(_render(states, i, findings, c) + "\n")
        fields = {k: v for k, v in rep.items() if k in Report.__dataclass_fields__ and k != "findings"}
        fields.setdefault("game", "dos")  # a DOS report's JSON leaves its game out
        report = Report(**fields, findings=[Finding(**{**f, "related": []}) for f in findings])
        print(summary_line(report, colour=colour))
    return {"legal": 0, "illegal": 1, "malformed": 2}[rep["verdict"]]
