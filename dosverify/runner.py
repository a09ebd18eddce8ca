"""Checking many inputs: one at a time, or in N processes (`check -j N`) with the results still in
input order and streamed (a bounded window of files in flight, so memory stays flat); a
progress bar on standard error when it is a terminal and there are many files."""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass

PROGRESS_FROM = 20  # files: fewer finish before a bar would help


@dataclass(frozen=True)
class Policy:
    """What the command line chose: the ruleset override and what counts (see cli._apply_policy)."""

    ruleset: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    warnings_as_errors: bool = False
    options: tuple[tuple[str, str], ...] = ()  # `--option KEY=VALUE`, over the log's own option lines
    auto: dict | None = None  # `--ruleset auto`: what the inference chose (each report's `auto`)


def check_one(path: str, problem: str | None, data: bytes | None, policy: Policy, source: str | None = None):
    """Read (unless given the bytes) and check one input: ("report", Report) or ("unreadable", why).
    A plain function of picklable arguments, so that worker processes can run it (and Dask
    workers, for `check --dask`, which read the file named `path` from `source`)."""
    from .api import check
    from .terminal import read_bytes as _read

    if data is None:
        try:
            if problem:
                raise OSError(problem)
            data = _read(source or path)
        except OSError as exc:
            return "unreadable", (exc.strerror.lower() if exc.strerror else str(exc))
    report = check(data, name=path, ruleset=policy.ruleset, options=dict(policy.options) or None)
    report.auto = policy.auto
    apply_policy(report, policy)
    return "report", report


def results(items, policy: Policy, jobs: int = 1, read: dict | None = None):
    """Yield (item, outcome) for each input in order; `-` (standard input) is read here, unless
    `read` holds its bytes already (by path, as `--ruleset auto` read them)."""

    def _stdin(item) -> bytes | None:
        return read.get(item.path) if read is not None else _read_stdin(item)

    if jobs <= 1:
        for item in items:
            yield item, (None if item.empty else check_one(item.path, item.problem, _stdin(item), policy))
        return
    from concurrent.futures import ProcessPoolExecutor

    window: deque = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for item in items:
            fut = None if item.empty else pool.submit(check_one, item.path, item.problem, _stdin(item), policy)
            window.append((item, fut))
            while len(window) > jobs * 4 or (window and window[0][1] is not None and window[0][1].done()):
                it, f = window.popleft()
                yield it, (f.result() if f is not None else None)
        while window:
            it, f = window.popleft()
            yield it, (f.result() if f is not None else None)


def _read_stdin(item) -> bytes | None:
    return sys.stdin.buffer.read() if item.path == "-" and not item.empty else None


def wants_progress(n: int) -> bool:
    import os

    return n >= PROGRESS_FROM and sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def progress(total: int):
    """A rich progress bar on standard error (transient: gone when the run ends); when standard
    output is the same terminal, what is written to it goes above the bar."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )


def matches(f, tokens: tuple[str, ...]) -> bool:
    return any(f.rule == t or f.kind == t or f.rule.startswith(t + ".") for t in tokens)


def apply_policy(report, args) -> None:
    """--select/--ignore keep some findings; --warnings-as-errors raises warnings to errors. A
    malformed log stays malformed: it could not be refereed, whatever is selected."""
    import dataclasses

    from .report import verdict_of

    fs = report.findings
    if args.select:
        fs = [f for f in fs if matches(f, args.select)]
    if args.ignore:
        fs = [f for f in fs if not matches(f, args.ignore)]
    if args.warnings_as_errors:
        fs = [dataclasses.replace(f, severity="error") if f.severity == "warning" else f for f in fs]
    if fs is not report.findings:
        report.findings = fs
        if report.verdict != "malformed":
            report.verdict = verdict_of(fs, False)
