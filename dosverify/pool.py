"""The service's execution model: checks run in a pool of worker processes, fairly and within
a time budget, so one slow or huge log never holds up small ones.

- Each worker is a process of its own (``spawn``): checks run in parallel on every core, and a
  check that overruns its budget can be stopped without touching the others.
- Time budget: the worker arms ``SIGALRM`` for the budget and abandons the check when it rings
  (the referee is pure Python, so the signal lands between bytecodes); should a check be stuck
  in C code past the budget and a grace period, the parent kills the worker and starts a new one.
  Either way the caller gets :class:`CheckTimeout` (the service answers 503 with Retry-After).
- Queue timeout: a log that waits longer than the budget for a worker gets :class:`CheckBusy`
  (503 too), so a saturated service answers at once rather than holding connections for ever.
- Fairness: logs up to ``small_bytes`` go to the small lane, larger ones to the large lane.
  Large logs may occupy at most ``workers - 1`` workers (when there are two or more), so a
  worker is always left for small logs; either lane gets a worker before the other takes a
  second one, so neither starves. Within a lane, requests take turns (round robin, one log
  each), so a batch of 50 does not queue a single check behind all its 50 logs.

The event loop never checks anything: a thread per worker waits on that worker's pipe.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

SMALL_BYTES = 64 * 1024  # a log up to this size is "small": it never waits behind large ones
GRACE_SECONDS = 2.0  # past budget + grace the worker is killed (a check stuck in C code)
START_TIMEOUT = 60.0  # a worker must be ready (imports, grammar built) within this


class CheckTimeout(Exception):
    """A check overran its time budget (``item`` is its index among the request's logs)."""

    def __init__(self, item: int, budget: float) -> None:
        super().__init__(f"the check of log {item} was stopped after its budget of {budget:g} s")
        self.item, self.budget = item, budget


class CheckBusy(Exception):
    """A log waited longer than the queue timeout for a worker: the service is saturated."""

    def __init__(self, item: int, waited: float) -> None:
        super().__init__(f"log {item} waited more than {waited:g} s for a worker")
        self.item, self.waited = item, waited


class WorkerDied(Exception):
    """A worker process ended in the middle of a check (killed, or out of memory)."""


# ---- the jobs a worker runs --------------------------------------------------------------


def cap_findings(report, max_findings: int | None) -> int:
    """Keep the first ``max_findings`` findings (in line order); return how many were cut (the
    report counts them in ``truncated``)."""
    before = report.truncated
    return report.cap(max_findings) - before


def check_job(body: bytes, form: str | None, name: str, ruleset: str | None, max_findings: int | None,
              render: str = "json", options: dict | None = None, auto: dict | None = None):
    """Check one log and render it: returns (report, truncated, the rendered report as bytes:
    its JSON, or with ``render="text"`` the compiler-style text `dosverify check` prints).

    A capped report counts the findings left out in ``truncated``; a capped text report says
    how many more there are, as the CLI's ``--max-errors`` does. ``options`` (``KEY=VALUE`` pairs
    as a dict) override the log's own option lines, as `check --option` does; ``auto`` is what
    `ruleset=auto` chose, carried in the report."""
    from .api import check

    report = check(body, name=name, ruleset=ruleset, form=form, options=options or None)
    report.auto = auto
    text, report._text = report._text, None  # the decoded log is not sent back to the service
    if render == "text":  # as `dosverify check --max-errors N` prints it: the summary counts every finding
        from .report import render_text

        cut = max(0, len(report.findings) - max_findings) if max_findings else 0
        return report, cut, (render_text(report, text, limit=max_findings) + "\n").encode()
    cut = cap_findings(report, max_findings)
    return report, cut, report.to_json_line().encode()


def convert_job(body: bytes, form: str, target: str):
    """Convert a log to ``target`` (its own form: normalised through the other one)."""
    from .api import convert

    other = "json" if form == "text" else "text"
    out, findings = convert(body, other)
    if out is not None and target == form:
        out, more = convert(out, form)
        findings = findings + [f for f in more if f not in findings]
    return out, findings


def call_job(fn, args: tuple):
    """Any module-level function (pickled by reference), e.g. the web page's replay."""
    return fn(*args)


JOBS = {"check": check_job, "convert": convert_job, "call": call_job}


class _Budget(BaseException):
    """Raised by SIGALRM inside a worker: the check is over its budget. A BaseException, so
    that no ``except Exception`` in the referee swallows it."""


def _worker_main(conn, budget: float) -> None:  # pragma: no cover - runs in the child process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop

    def ring(signum, frame):
        raise _Budget()

    signal.signal(signal.SIGALRM, ring)
    from .api import check

    check(b"dos 1\n")  # load the spec and build the parser before the first job
    conn.send(("ready", os.getpid()))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        name, args = job
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, budget)
                result = ("ok", JOBS[name](*args))
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Budget:
            result = ("timeout", None)
        except Exception as exc:  # noqa: BLE001 - sent back and raised again in the service
            result = ("raise", exc)
        try:
            conn.send(result)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result or exception
            conn.send(("raise", RuntimeError(f"{type(exc).__name__}: {exc}")))


# ---- one worker, seen from the service -----------------------------------------------------


class _Worker:
    """One worker process and its pipe; its methods block and run on the pool's threads."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.proc = None
        self.conn = None
        self.pid: int | None = None

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker_main, args=(child, self.budget), daemon=True, name="dosverify-check")
        proc.start()
        child.close()
        if not parent.poll(START_TIMEOUT):
            proc.kill()
            raise WorkerDied("a worker did not start")
        _, self.pid = parent.recv()
        self.proc, self.conn = proc, parent

    def stop(self) -> None:
        proc, conn = self.proc, self.conn
        self.proc = self.conn = None
        if conn is not None:
            try:
                conn.send(None)
            except OSError:
                pass
        if proc is not None:
            proc.join(1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        if conn is not None:
            conn.close()

    def _kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.join(5.0)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None

    def call(self, job: tuple) -> tuple[str, Any]:
        if self.proc is None or not self.proc.is_alive():
            self._kill()
            self._start()
        try:
            self.conn.send(job)
            if self.conn.poll(self.budget + GRACE_SECONDS):
                return self.conn.recv()
        except (EOFError, OSError):
            self._kill()
            return ("died", None)
        self._kill()  # stuck past budget and grace: a new worker starts with the next job
        return ("timeout", None)


# ---- the pool ------------------------------------------------------------------------------


@dataclass(eq=False)
class _Flow:
    """The logs of one request still waiting, per lane."""

    lanes: dict[str, deque] = field(default_factory=lambda: {"small": deque(), "large": deque()})
    cancelled: bool = False


@dataclass(eq=False)
class _Item:
    index: int
    job: tuple
    future: asyncio.Future
    expiry: asyncio.TimerHandle | None = None


class CheckPool:
    """Worker processes with a fair scheduler. Use :meth:`run` from the event loop."""

    def __init__(self, workers: int, budget: float, small_bytes: int = SMALL_BYTES,
                 queue_timeout: float | None = None) -> None:
        if workers < 1 or budget <= 0:
            raise ValueError("a pool needs at least one worker and a positive budget")
        self.workers, self.budget, self.small_bytes = workers, budget, small_bytes
        # a log waits at most this long for a worker (then CheckBusy): a queue that grows
        # faster than it drains answers at once instead of holding connections for ever
        self.queue_timeout = budget if queue_timeout is None else queue_timeout
        self._idle = [_Worker(budget) for _ in range(workers)]
        self._all = list(self._idle)
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dosverify-pool")
        self._lanes: dict[str, deque[_Flow]] = {"small": deque(), "large": deque()}
        self._busy = {"small": 0, "large": 0}
        self._large_cap = max(1, workers - 1)
        self._closed = False

    def pids(self) -> list[int]:
        return [w.pid for w in self._all if w.pid is not None and w.proc is not None]

    async def start(self) -> None:
        """Start every worker now (otherwise each starts with its first job)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._threads, w._start) for w in self._all if w.proc is None))

    def close(self) -> None:
        self._closed = True
        for w in self._all:
            w.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def run(self, jobs: list[tuple[str, tuple, int]]) -> list[Any]:
        """Run the jobs (name, args, size in bytes) of one request; results in order.

        Raises :class:`CheckTimeout` for the first job over its budget, :class:`CheckBusy` for
        one that waited past the queue timeout for a worker, :class:`WorkerDied` when a worker
        ended mid-job, or the job's own exception."""
        if self._closed:
            raise RuntimeError("the check pool is closed")
        loop = asyncio.get_running_loop()
        flow = _Flow()
        items = []
        for i, (name, args, size) in enumerate(jobs):
            item = _Item(i, (name, args), loop.create_future())
            item.expiry = loop.call_later(self.queue_timeout, self._expire, item)
            flow.lanes["small" if size <= self.small_bytes else "large"].append(item)
            items.append(item)
        for lane in ("small", "large"):
            if flow.lanes[lane]:
                self._lanes[lane].append(flow)
        self._dispatch()
        try:
            results = []
            for item in items:
                status, value = await item.future
                if status == "ok":
                    results.append(value)
                elif status == "timeout":
                    raise CheckTimeout(item.index, self.budget)
                elif status == "busy":
                    raise CheckBusy(item.index, self.queue_timeout)
                elif status == "died":
                    raise WorkerDied(f"the worker checking log {item.index} ended")
                else:
                    raise value
            return results
        except BaseException:
            flow.cancelled = True  # the logs not started yet are dropped
            for lane in ("small", "large"):
                flow.lanes[lane].clear()
            raise
        finally:
            for item in items:
                if item.expiry is not None:
                    item.expiry.cancel()

    def _next_lane(self) -> str | None:
        small, large = bool(self._lanes["small"]), bool(self._lanes["large"])
        if large and self._busy["large"] == 0:
            return "large"  # large logs always make progress
        if small:
            return "small"
        if large and self._busy["large"] < self._large_cap:
            return "large"
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._idle:
            lane = self._next_lane()
            if lane is None:
                return
            flow = self._lanes[lane].popleft()
            if flow.cancelled or not flow.lanes[lane]:
                continue
            item = flow.lanes[lane].popleft()
            if item.future.done():  # expired while it waited
                if flow.lanes[lane]:
                    self._lanes[lane].append(flow)
                continue
            item.expiry.cancel()
            if flow.lanes[lane]:
                self._lanes[lane].append(flow)  # its next log waits for the others' turn
            worker = self._idle.pop()
            self._busy[lane] += 1
            fut = loop.run_in_executor(self._threads, worker.call, item.job)
            fut.add_done_callback(lambda f, w=worker, ln=lane, it=item: self._done(f, w, ln, it))

    def _expire(self, item: _Item) -> None:
        if not item.future.done():
            item.future.set_result(("busy", None))

    def _done(self, fut: asyncio.Future, worker: _Worker, lane: str, item: _Item) -> None:
        self._busy[lane] -= 1
        self._idle.append(worker)
        if not item.future.done():
            if fut.cancelled():
                item.future.set_result(("died", None))
            elif fut.exception() is not None:
                item.future.set_result(("raise", fut.exception()))
            else:
                item.future.set_result(fut.result())
        if not self._closed:
            self._dispatch()


# ---- admission: a bound on requests in flight ----------------------------------------------


class InFlightLimit:
    """An ASGI middleware that answers 503 with ``Retry-After`` to a request to one of the
    ``paths`` (the checks) while ``limit`` of them are already in flight, from the first byte
    read to the last byte sent. ``reject`` builds that answer (an ASGI app)."""

    def __init__(self, app, limit: int, paths: tuple[str, ...], reject) -> None:
        self.app, self.limit, self.paths, self.reject = app, limit, paths, reject
        self.in_flight = 0

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.paths):
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.limit:
            await self.reject(self.limit)(scope, receive, send)
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
