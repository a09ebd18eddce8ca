"""`dosverify check FILE...`: judge logs, in any output format; exit 0 legal, 1 illegal, 2
malformed or misuse. The flags are checked first (each misuse one line and exit 2), then every
input is read and judged (here, in `-j` processes, or on Dask) and its report written out."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from ..terminal import colour_wanted
from ..terminal import read_bytes as read_log
from .common import Stdout, comma_separated, default_max_log_bytes, specs

if TYPE_CHECKING:
    from ..cluster import Cluster
    from ..formats import Output, Tally
    from ..inputs import Input
    from ..runner import Policy
    from ..spec import Spec


def add_parser(sub: Any) -> None:
    """The command's flags (a flat list of `add_argument` calls, one a flag)."""
    from ..formats import FORMATS

    c = sub.add_parser("check", help="check game logs (text or JSON); exit 0 legal, 1 illegal, 2 malformed or misuse")
    c.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="log files (text or JSON), folders of them "
        "(*.log, *.dos, *.txt, *.json in any case); - for standard input",
    )
    c.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="text (like a compiler), json (JSON Lines), sarif, junit, github (Actions annotations), "
        "gitlab (Code Quality)",
    )
    c.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of standard output")
    c.add_argument(
        "--ruleset",
        help="override the log's ruleset; `auto` infers the ruleset and options from all the "
        "logs given (as `dosverify profile`; `--option`s stay fixed) and judges every log under them",
    )
    c.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="judge under this option of spec/options.toml, over the log's own `option` lines (repeatable)",
    )
    c.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    c.add_argument("-q", "--quiet", action="store_true", help="one summary line per file")
    c.add_argument(
        "--witness",
        metavar="OUT",
        help="for a legal log with face-down cards (`?`), write the open log that "
        "proves it (every `?` replaced by a card) to OUT (`-`: standard output)",
    )
    _add_scale_flags(c)
    _add_selection_flags(c)
    c.add_argument(
        "--config",
        metavar="FILE",
        help="settings from FILE (default: dosverify.toml or [tool.dosverify] "
        "in pyproject.toml, the first found from the working folder upward)",
    )
    c.add_argument("--isolated", action="store_true", help="read no settings file")
    c.set_defaults(func=run)


def _add_scale_flags(c: argparse.ArgumentParser) -> None:
    """Where the logs are judged, and how much of each is read and shown."""
    c.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="referee the logs on a dask.distributed cluster: the scheduler's "
        "address (tcp://HOST:8786) or local:N for a local cluster of N worker processes; the workers "
        "read the files from a path they share (pip install 'dosverify[dask]')",
    )
    c.add_argument(
        "--unordered",
        action="store_true",
        help="with --dask: print each report as soon as it is ready, not in input order",
    )
    c.add_argument(
        "--max-errors",
        type=int,
        default=None,
        metavar="N",
        help="show at most N findings per file, then how many more (default 50; 0 for no limit); "
        "only those are kept, the rest counted",
    )
    c.add_argument(
        "--max-log-bytes",
        type=int,
        default=None,
        metavar="N",
        help="read at most N bytes of a log: a larger one is unreadable, exit 2 "
        "(default 1 MiB, the service's, or $DOSVERIFY_MAX_LOG_BYTES; 0 for no limit)",
    )


def _add_selection_flags(c: argparse.ArgumentParser) -> None:
    """Which files, which findings, what counts, and what is said after the reports."""
    c.add_argument("--include", action="append", metavar="GLOB", help="in folders, also check files matching GLOB")
    c.add_argument(
        "--exclude", action="append", metavar="GLOB", help="in folders, skip files and folders matching GLOB"
    )
    c.add_argument(
        "--select",
        action="append",
        metavar="RULE|KIND",
        help="report only these rules (an id, a section such as `match`, or a finding kind); comma-separated",
    )
    c.add_argument("--ignore", action="append", metavar="RULE|KIND", help="do not report these rules or kinds")
    c.add_argument("--warnings-as-errors", action="store_true", help="a warning makes the log illegal")
    c.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when a log is illegal or malformed (2 still for misuse and unreadable files)",
    )
    c.add_argument(
        "--statistics", action="store_true", help="after the reports, the findings counted by rule and by kind"
    )
    c.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="check files in N processes (the output stays in input order)",
    )


def run(args: argparse.Namespace) -> int:
    """Every flag checked, then every input judged and reported; the exit status of them all."""
    problem = _settle(args)
    if problem is not None:
        print(f"dosverify: {problem}", file=sys.stderr)
        return 2
    try:
        stream: Any = open(args.output, "w", encoding="utf-8") if args.output else Stdout()
    except OSError as exc:
        print(f"dosverify: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        return _check_all(args, stream)
    finally:
        if args.output:
            stream.close()


# ---- the flags, checked before anything is read ----------------------------------------------


def _settle(args: argparse.Namespace) -> str | None:
    """The settings file's values under the flags, and each checked: the first misuse, in one
    line, else None (and `args` completed with the defaults)."""
    from pathlib import Path

    from .. import config
    from ..formats import FORMATS

    try:
        config.apply(args, Path.cwd())
    except config.ConfigError as exc:
        return str(exc)
    args.format = args.format or "text"
    if args.format not in FORMATS:
        return f"unknown format `{args.format}` in the settings (known: {', '.join(FORMATS)})"
    args.max_errors = 50 if args.max_errors is None else args.max_errors
    return _rules_problem(args) or _limits_problem(args)


def _rules_problem(args: argparse.Namespace) -> str | None:
    """`--ruleset`, `--option`, `--select` and `--ignore` name what some game's spec has (each
    log is then judged under its own game's: a flag its game lacks refuses that log, exit 2)."""
    from ..games import usable_packs
    from ..overrides import unknown_anywhere, unknown_ruleset_anywhere
    from ..spec import parse_option_args

    packs = usable_packs()
    more = "; or auto; `dosverify rulesets --game GAME` describes them"
    if (unknown := unknown_ruleset_anywhere(args.ruleset, packs, more)) is not None:
        return unknown
    try:
        args.options = parse_option_args(getattr(args, "option", None) or [])
    except ValueError as exc:
        return str(exc)
    if (unknown := unknown_anywhere(args.options, packs)) is not None:
        return unknown
    args.select, args.ignore = comma_separated(args.select), comma_separated(args.ignore)
    bad = _bad_tokens(args.select + args.ignore, packs[0].spec())
    if bad and any(_bad_tokens(args.select + args.ignore, other) is None for other in specs()):
        bad = None  # every token is another game's
    return bad


def _bad_tokens(tokens: tuple[str, ...], spec: Spec) -> str | None:
    """The first token that names no rule, section or finding kind of `spec`, said with the
    names it is near."""
    import difflib

    names = list(spec.rules) + list(spec.kinds) + sorted({r.split(".")[0] for r in spec.rules})
    for t in tokens:
        if t not in names:
            near = difflib.get_close_matches(t, names, n=3, cutoff=0.6)
            return f"no rule or kind `{t}`" + (
                f"; did you mean {', '.join(near)}?" if near else "; `dosverify rules` lists them"
            )
    return None


def _limits_problem(args: argparse.Namespace) -> str | None:
    """`--max-errors`, `--max-log-bytes` (its default read here) and `-j` in their ranges."""
    if args.max_errors < 0:
        return "--max-errors takes a count (0 for no limit)"
    args.max_log_bytes = default_max_log_bytes() if args.max_log_bytes is None else args.max_log_bytes
    if args.max_log_bytes < 0:
        return "--max-log-bytes takes a number of bytes (0 for no limit)"
    if not 1 <= args.jobs <= 64:
        return "-j takes a number of processes from 1 to 64"
    return None


def _policy(args: argparse.Namespace) -> Policy:
    from ..runner import Policy

    return Policy(
        args.ruleset,
        args.select,
        args.ignore,
        args.warnings_as_errors,
        tuple(args.options.items()),
        limit=args.max_errors,
        max_bytes=args.max_log_bytes,
    )


# ---- judging every input ---------------------------------------------------------------------


def _check_all(args: argparse.Namespace, stream: TextIO) -> int:
    """Every input judged where the flags say, each report written as it comes, then the lines
    after the reports (statistics, the files skipped, the findings left out)."""
    from ..formats import Tally, make

    colour = not args.output and colour_wanted(args.color, sys.stdout)
    out = make(args.format, stream, colour=colour, quiet=args.quiet, limit=args.max_errors)
    cluster, files = None, args.files
    if args.dask:  # the same inputs and the same per-file work, on a Dask cluster
        from ..cluster import Cluster, ClusterError, inputs

        try:
            files = inputs(args.files)
            cluster = Cluster(args.dask)
        except ClusterError as exc:
            print(f"dosverify: {exc}", file=sys.stderr)
            return 2
    tally = Tally()
    skipped: list[str] = []  # files found in folders that are not logs
    outcomes = _outcomes(args, files, cluster, skipped)
    try:
        verdicts = _judge_each(args, out, tally, outcomes)
    finally:
        outcomes.close()  # the progress bar stopped (also when interrupted), then the cluster closed
        if cluster is not None:
            cluster.close()
    if args.statistics:
        _statistics(tally, sys.stdout if args.format == "text" and not args.output else sys.stderr, len(skipped))
    if skipped:
        print(f"dosverify: {_skipped_line(skipped)}", file=sys.stderr)
    if verdicts.hidden:
        print(f"dosverify: {_hidden_line(verdicts.hidden, args)}", file=sys.stderr)
    return verdicts.status


def _outcomes(
    args: argparse.Namespace, files: list[str], cluster: Cluster | None, skipped: list[str]
) -> Generator[tuple[Input, Any], None, None]:
    """(input, outcome) for every input found, in input order (unless `--unordered`), with a
    progress bar on a terminal when there are many."""
    from ..inputs import discover
    from ..runner import progress, results, wants_progress

    policy = _policy(args)
    items: Iterable[Input] = discover(files, comma_separated(args.include), comma_separated(args.exclude), skipped)
    read = None
    if args.ruleset == "auto":  # infer the ruleset and options from every log given, then judge under them
        items = list(items)
        read, policy = _auto(items, policy)
    total = None
    if sys.stderr.isatty():  # only then is a count worth taking first
        items = list(items)
        total = len(items)
    bar = progress(total) if total is not None and wants_progress(total) else None
    outcomes = cluster.results(items, policy, args.unordered) if cluster else results(items, policy, args.jobs, read)
    if bar is None:
        yield from outcomes
        return
    try:
        bar.start()
        task = bar.add_task("check", total=total)
        for pair in outcomes:
            bar.advance(task)
            yield pair
    finally:
        bar.stop()


class _Verdicts:
    """The exit status so far, and how many findings `--select`/`--ignore` left out."""

    def __init__(self) -> None:
        self.status = 0
        self.hidden = 0


def _judge_each(
    args: argparse.Namespace, out: Output, tally: Tally, outcomes: Iterator[tuple[Input, Any]]
) -> _Verdicts:
    """Write each outcome out as it comes (and its witness, when asked), counting it in `tally`."""
    from ..games import find_game

    verdicts = _Verdicts()
    for item, outcome in outcomes:
        if item.empty:  # a folder with no log in it: no outcome
            print(f"dosverify: no logs found in {item.path}", file=sys.stderr)
            verdicts.status = 2
            continue
        what, value = outcome
        if what == "unreadable":  # no report: the file cannot be read (no game known: the default's spec)
            default = find_game()
            out.unreadable(item.path, value, default.spec().version, default.name)
        if what == "refused":  # no report: the flags are not the log's game's (its spec named)
            out.refused(item.path, value.message, find_game(value.game).spec().version, value.game)
        if what in ("unreadable", "refused"):
            tally.verdicts[what] += 1
            verdicts.status = 2
            continue
        if args.witness is not None and not _witness(item.path, args):
            verdicts.status = 2
        out.report(value)
        tally.add(value)
        verdicts.hidden += value.hidden
        if args.exit_zero:
            continue
        if value.verdict == "malformed":
            verdicts.status = 2
        elif value.verdict == "illegal":
            verdicts.status = max(verdicts.status, 1)
    out.close(tally)
    return verdicts


def _auto(items: list[Input], policy: Policy) -> tuple[dict[str, bytes], Policy]:
    """`check --ruleset auto`: profile the readable logs (the `--option`s fixed, the rest
    inferred), then the policy that judges every log under the ruleset and options chosen,
    over the logs' own `ruleset` and `option` lines. Standard input is read once, here."""
    import dataclasses

    from ..api import game_of
    from ..hints import plural
    from ..overrides import for_game

    read: dict[str, bytes] = {}
    logs: list[tuple[str, str | bytes | dict]] = []
    for item in items:
        if item.empty or item.problem:
            continue
        try:
            data = read_log(item.path, policy.max_bytes)
        except OSError:
            continue  # reported as unreadable by the check itself
        if item.path == "-":
            read["-"] = data
        logs.append((item.path, data))
    if not logs:
        return read, dataclasses.replace(policy, ruleset=None)
    pack = game_of(logs[0][1])  # the options are a game's: inferred over the logs of the first one's game
    if "profile" not in pack.capabilities:
        from .common import Misuse

        raise Misuse(f"--ruleset auto: {pack.title} has no option inference (its pack does not declare it)")
    choice = pack.auto_choice(pack.profile(logs, for_game(policy.options, pack.name)))
    print(
        f"dosverify: --ruleset auto: ruleset {choice['named']} (inferred from {plural(len(logs), 'log')})",
        file=sys.stderr,
    )
    return read, dataclasses.replace(
        policy, ruleset=choice["ruleset"], options=tuple(choice["options"].items()), auto=choice
    )


def _witness(path: str, args: argparse.Namespace) -> bool:
    """`check --witness OUT`: the open log that proves a legal log with face-down cards; False
    when OUT cannot be written (said on standard error)."""
    from ..api import witness
    from .common import write_out

    try:
        data = read_log(path, args.max_log_bytes)
    except OSError:
        return True  # reported as unreadable by the check itself
    text, report = witness(data, name=path, ruleset=args.ruleset)
    if text is not None:
        return write_out(args.witness, text)
    why = report.witness_refused or f"the log is {report.verdict}"
    print(f"dosverify: no witness for {path}: {why}", file=sys.stderr)
    return True


# ---- what is said after the reports ----------------------------------------------------------


def _statistics(tally: Tally, stream: TextIO, skipped: int = 0) -> None:
    """Findings counted by rule and by kind, most frequent first, as a table; then the files
    found in folders that were skipped as not logs, if any."""
    from ..hints import plural

    for title, counts in (("rule", tally.by_rule), ("kind", tally.by_kind)):
        rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        width = max([len(title)] + [len(k) for k in counts])
        stream.write(f"\n{'count':>6}  {title}\n{'-' * 6}  {'-' * width}\n")
        for k, n in rows:
            stream.write(f"{n:>6}  {k}\n")
        stream.write(f"{'':>6}  {plural(sum(counts.values()), 'finding')} in all\n")
    if skipped:
        stream.write(f"\n{plural(skipped, 'file')} found in folders skipped: not logs\n")


def _skipped_line(skipped: list[str]) -> str:
    """The files found in folders that were not checked: their first line names no game."""
    from ..games import REGISTRY
    from ..hints import plural

    names = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
    known = ", ".join(f"`{g} 1`" for g in REGISTRY)
    return f"skipped {plural(len(skipped), 'file')} found in folders, not logs (no first line {known}): {names}"


def _hidden_line(n: int, args: argparse.Namespace) -> str:
    """What --select/--ignore left out: a log reported legal may have had findings."""
    from ..hints import plural

    flags = " and ".join(f for f, on in (("--select", args.select), ("--ignore", args.ignore)) if on)
    return f"{flags} left out {plural(n, 'finding')} (not shown, not counted in the verdicts)"
