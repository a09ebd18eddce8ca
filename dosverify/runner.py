"""Checking many inputs: one at a time, or in N processes (`check -j N`) with the results still in
input order and streamed (a bounded window of files in flight, so memory stays flat); a
progress bar on standard error when it is a terminal and there are many files."""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass
from typing import NamedTuple

PROGRESS_FROM = 20  # files: fewer finish before a bar would help


@dataclass(frozen=True)
class Policy:
    """What the command line chose: the ruleset override, what counts and how many findings
    a report keeps (findings.Keep: the rest are counted as they are made, never held)."""

    ruleset: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    warnings_as_errors: bool = False
    options: tuple[tuple[str, str], ...] = ()  # `--option KEY=VALUE`, over the log's own option lines
    auto: dict | None = None  # `--ruleset auto`: what the inference chose (each report's `auto`)
    limit: int = 0  # `--max-errors`: findings kept per report (0: all)
    max_bytes: int = 0  # `--max-log-bytes`: the largest log read (0: any size)

    def keep(self):
        from .findings import Keep

        return Keep(self.limit, self.select, self.ignore, self.warnings_as_errors)


class Refused(NamedTuple):
    """A log not judged: the command's ruleset or options are not its game's (`game`)."""

    message: str
    game: str | None


def check_one(path: str, problem: str | None, data: bytes | None, policy: Policy, source: str | None = None):
    """Read (unless given the bytes) and check one input: ("report", Report), ("unreadable", why),
    or ("refused", Refused) when the command's ruleset or options are not those of the log's game.
    A plain function of picklable arguments, so that worker processes can run it (and Dask
    workers, for `check --dask`, which read the file named `path` from `source`)."""
    from .api import OverrideError, check
    from .terminal import read_bytes as _read

    if data is None:
        try:
            if problem:
                raise OSError(problem)
            data = _read(source or path, policy.max_bytes)
        except OSError as exc:
            why = exc.strerror or str(exc)
            return "unreadable", why[:1].lower() + why[1:]
    try:
        report = check(
            data, name=path, ruleset=policy.ruleset, options=dict(policy.options) or None, keep=policy.keep()
        )
    except OverrideError as exc:  # a ruleset or option this log's game does not have: a misuse, exit 2
        return "refused", Refused(str(exc), exc.game)
    report.auto = policy.auto
    return "report", report


def results(items, policy: Policy, jobs: int = 1, read: dict | None = None):
    """Yield (item, outcome) for each input in order; `-` (standard input) is read here, unless
    `read` holds its bytes already (by path, as `--ruleset auto` read them)."""

    def args(item) -> tuple:
        if read is not None and item.path in read:
            return item.path, item.problem, read[item.path], policy
        problem, data = _read_stdin(item, policy.max_bytes)
        return item.path, problem or item.problem, data, policy

    if jobs <= 1:
        for item in items:
            yield item, (None if item.empty else check_one(*args(item)))
        return
    from concurrent.futures import ProcessPoolExecutor

    window: deque = deque()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for item in items:
            fut = None if item.empty else pool.submit(check_one, *args(item))
            window.append((item, fut))
            while len(window) > jobs * 4 or (window and window[0][1] is not None and window[0][1].done()):
                it, f = window.popleft()
                yield it, (f.result() if f is not None else None)
        while window:
            it, f = window.popleft()
            yield it, (f.result() if f is not None else None)


def _read_stdin(item, limit: int = 0) -> tuple[str | None, bytes | None]:
    """(why it cannot be read, its bytes) for `-`, standard input, at most `limit` bytes; (None,
    None) for any other input (read where it is checked)."""
    if item.path != "-" or item.empty:
        return None, None
    from .terminal import read_bytes as _read

    try:
        return None, _read("-", limit)
    except OSError as exc:
        return exc.strerror or str(exc), None


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
