"""The service's execution model: checks run in a pool of worker processes, fairly and within
a time budget, so one slow or huge log never holds up small ones.

- Each worker is a process of its own (``spawn``): checks run in parallel on every core, and a
  check that overruns its budget can be stopped without touching the others.
- Time budget: the worker arms ``SIGALRM`` for the budget and abandons the check when it rings
  (the referee is pure Python, so the signal lands between bytecodes); should a check be stuck
  in C code past the budget and a grace period, the parent kills the worker and starts a new one.
  Either way the caller gets :class:`CheckTimeout` (the service answers 503 with Retry-After).
- Queue timeout: a request that waits longer than the queue timeout (default: the budget)
  with none of its logs running gets :class:`CheckBusy` (503 too), so a saturated service
  answers at once rather than holding connections for ever. The clock stops while one of its
  logs runs and starts again from zero when it ends, so a batch being worked on is not cut off
  half way; its wait stays bounded (logs x (queue timeout + budget)).
- Fairness, between kinds of work: three lanes, each with workers of its own: single small
  checks (a request of one log up to ``small_bytes``: what a user waits for), the small logs of
  batches, and large logs. A single check never waits for a worker busy with a batch or a
  large log, and as the batch workers run at ``os.nice(BATCH_NICE)`` and the large ones at
  ``os.nice(LARGE_NICE)``, both under ``SCHED_BATCH``, while all run the OS gives the CPU to
  single checks and the service first, then to batches; on an idle machine each still gets a
  whole core. ``workers`` processes serve each of
  the first two lanes, ``workers - 1`` (at least one) the large one.
- Fairness, within a lane: shortest request first (fewest logs, then earliest), a request's
  logs in order, so batches go one after the other and under saturation the earliest ones
  finish instead of all finishing late. A batch worker takes up to ``CHUNK_LOGS`` logs of a
  batch at once (each within its own budget): the service's own work per log shrinks as much.

The event loop never checks anything: it sends each worker its jobs and reads back the results
on the worker's socket, without blocking (threads only start and stop worker processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import heapq
import itertools
import multiprocessing
import os
import pickle
import signal
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.reduction import ForkingPickler
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

SMALL_BYTES = 64 * 1024  # a log up to this size is "small": it never waits behind large ones
GRACE_SECONDS = 2.0  # past budget + grace the worker is killed (a check stuck in C code)
START_TIMEOUT = 60.0  # a worker must be ready (imports, grammar built) within this
BATCH_NICE = 5  # workers for the logs of batches run this much nicer (os.nice) than those of single checks
# and the service (a third of their CPU weight), and SCHED_BATCH (waking with a job, they preempt no one);
# niceness weighs processes against each other only within their own scheduling group (a session's
# autogroup, a service's cgroup), so it costs batches nothing against other users of the machine
LARGE_NICE = 10  # and those for large logs nicer still (a tenth): the CPU favours a single small check
CHUNK_LOGS, CHUNK_BYTES = 8, 16 * 1024  # a batch worker takes up to this many of a batch's logs at once
LANES = ("single", "batch", "large")


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


def check_job(
    body: bytes,
    form: str | None,
    name: str,
    ruleset: str | None,
    max_findings: int | None,
    render: str = "json",
    options: dict | None = None,
    auto: dict | None = None,
):
    """Check one log and render it: returns (verdict, truncated, the rendered report as bytes:
    its JSON, or with ``render="text"`` the compiler-style text `dosverify check` prints). Not
    the report itself: unpickling its findings in the service cost the event loop more than
    half its time under load, and the service needs only these.

    A capped report counts the findings left out in ``truncated``; a capped text report says
    how many more there are, as the CLI's ``--max-errors`` does. ``options`` (``KEY=VALUE`` pairs
    as a dict) override the log's own option lines, as `check --option` does; ``auto`` is what
    `ruleset=auto` chose, carried in the report.

    The cap is the check's own (``Keep(limit=max_findings)``, as the CLI's ``--max-errors``): the
    findings past it are counted as they are made, never held, so a worker's memory follows the
    findings kept, not the findings a hostile log makes."""
    from .api import check
    from .findings import Keep

    keep = Keep(limit=max_findings or 0)
    report = check(body, name=name, ruleset=ruleset, form=form, options=options or None, keep=keep)
    report.auto = auto
    if render == "text":  # as `dosverify check --max-errors N` prints it: the summary counts every finding
        from .report import render_text

        return report.verdict, report.truncated, (render_text(report, report.text, limit=max_findings) + "\n").encode()
    return report.verdict, report.truncated, report.to_json_line().encode()


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


JOBS: dict[str, Callable[..., Any]] = {"check": check_job, "convert": convert_job, "call": call_job}


class _Budget(BaseException):
    """Raised by SIGALRM inside a worker: the check is over its budget. A BaseException, so
    that no ``except Exception`` in the referee swallows it."""


def _worker_main(conn, budget: float, nice: int = 0) -> None:  # pragma: no cover - runs in the child process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when we stop
    if nice:
        os.nice(nice)
        try:  # a background lane: its worker, woken by a job, does not preempt a single check or the service
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
        except (AttributeError, OSError):  # not Linux, or not allowed: niceness alone
            pass

    def ring(signum, frame):
        raise _Budget()

    signal.signal(signal.SIGALRM, ring)
    from .api import check

    check(b"dos 1\n")  # load the spec and build the parser before the first job
    gc.collect()
    gc.freeze()  # the spec and parser stay for good: no full collection scans them again
    conn.send(("ready", os.getpid()))
    while True:
        try:
            jobs = conn.recv()
        except (EOFError, OSError):
            return
        if jobs is None:
            return
        results = [_run(job, budget) for job in jobs]  # each job within its own budget
        try:
            conn.send(results)
        except Exception:
            conn.send(
                [
                    r if _picklable(r) else ("raise", RuntimeError(f"{type(r[1]).__name__}: {r[1]}"), r[2])
                    for r in results
                ]
            )


def _run(job: tuple, budget: float) -> tuple[str, Any, tuple]:  # pragma: no cover - runs in the child process
    """(status, value, (start, end, cpu seconds)): start and end on ``time.perf_counter``, the
    system-wide monotonic clock the service reads too, so it can tell the wait for the worker
    to wake from the check itself, and cpu < end - start shows a check the OS kept off the CPU."""
    name, args, weight = job
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        try:
            signal.setitimer(signal.ITIMER_REAL, budget * weight)
            out = ("ok", JOBS[name](*args))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    except _Budget:
        out = ("timeout", None)
    except Exception as exc:
        out = ("raise", exc)
    return (*out, (t0, time.perf_counter(), time.process_time() - c0))


def _picklable(result) -> bool:  # pragma: no cover - runs in the child process
    try:
        pickle.dumps(result)
        return True
    except Exception:
        return False


# ---- one worker, seen from the service -----------------------------------------------------


class _Channel:
    """The service's end of a worker's socket pair, driven by the event loop: whole messages in
    :mod:`multiprocessing`'s framing (a 4-byte big-endian length, or -1 and 8 bytes, then the
    pickle), without blocking. The loop itself wakes when a result arrives: a thread waiting on
    the pipe cost each check two more wake-ups (the thread's, then the loop's) and a wait for
    the GIL, the tail of a small check's latency under load."""

    def __init__(self, conn) -> None:
        self.conn, self.fd = conn, conn.fileno()
        os.set_blocking(self.fd, False)
        self.buf = bytearray()
        self.loop: asyncio.AbstractEventLoop | None = None

    async def _ready(self, writing: bool) -> None:
        loop = self.loop = asyncio.get_running_loop()
        fut = loop.create_future()
        add, remove = (loop.add_writer, loop.remove_writer) if writing else (loop.add_reader, loop.remove_reader)

        def ready() -> None:
            if not fut.done():
                fut.set_result(None)

        add(self.fd, ready)
        try:
            await fut
        finally:
            remove(self.fd)

    async def send(self, obj) -> None:
        data = bytes(ForkingPickler.dumps(obj))
        head = struct.pack("!i", len(data)) if len(data) <= 0x7FFFFFFF else struct.pack("!iQ", -1, len(data))
        view = memoryview(head + data)
        while view:
            try:
                view = view[os.write(self.fd, view) :]
            except BlockingIOError:
                await self._ready(True)

    async def recv(self):
        while True:
            msg = self._take()
            if msg is not None:
                return pickle.loads(msg)
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                await self._ready(False)
                continue
            if not chunk:
                raise EOFError("the worker closed its pipe")
            self.buf += chunk

    def _take(self) -> bytes | None:
        """The first whole message in the buffer, or None."""
        if len(self.buf) < 4:
            return None
        (n,), start = struct.unpack_from("!i", self.buf), 4
        if n == -1:
            if len(self.buf) < 12:
                return None
            (n,), start = struct.unpack_from("!Q", self.buf, 4), 12
        if len(self.buf) < start + n:
            return None
        msg = bytes(self.buf[start : start + n])
        del self.buf[: start + n]
        return msg


class _Worker:
    """One worker process and its pipe. Starting and stopping it block (the pool's threads run
    them); a job's round trip runs on the event loop (:class:`_Channel`)."""

    def __init__(self, budget: float, nice: int = 0) -> None:
        self.budget, self.nice = budget, nice
        self._lock = threading.Lock()
        self.proc: BaseProcess | None = None
        self.conn: Connection | None = None
        self.channel: _Channel | None = None
        self.pid: int | None = None

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        parent, child = ctx.Pipe()
        proc = ctx.Process(
            target=_worker_main, args=(child, self.budget, self.nice), daemon=True, name="dosverify-check"
        )
        proc.start()
        child.close()
        if not parent.poll(START_TIMEOUT):
            proc.kill()
            raise WorkerDied("a worker did not start")
        _, self.pid = parent.recv()
        self.proc, self.conn, self.channel = proc, parent, _Channel(parent)

    def stop(self) -> None:
        proc, conn = self.proc, self.conn
        self.proc = self.conn = self.channel = None
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
        self.proc = self.conn = self.channel = None

    def ensure(self) -> None:
        """Start the process unless it runs (the pool's warm-up and a job may both ask)."""
        with self._lock:
            if self.proc is None or not self.proc.is_alive():
                self._kill()
                self._start()

    async def call(self, jobs: list[tuple], threads: ThreadPoolExecutor) -> list[tuple[str, Any, Any]]:
        """Run the jobs one after the other in the worker: their results, in order."""
        loop = asyncio.get_running_loop()
        if self.channel is None or self.proc is None or not self.proc.is_alive():  # set and cleared together
            await loop.run_in_executor(threads, self.ensure)
        channel = self.channel
        if channel is None:  # killed between ensure() and here: the jobs meet a dead worker
            return [("died", None, None)] * len(jobs)

        async def round_trip():
            await channel.send(jobs)
            return await channel.recv()

        try:
            weight = sum(job[2] for job in jobs)  # a job that stands for many logs has as many budgets
            return await asyncio.wait_for(round_trip(), self.budget * weight + GRACE_SECONDS)
        except TimeoutError:  # stuck past budget and grace (first: an OSError since 3.11): a new worker starts
            status = "timeout"
        except (EOFError, OSError):
            status = "died"
        await loop.run_in_executor(threads, self._kill)
        return [(status, None, None)] * len(jobs)


# ---- the pool ------------------------------------------------------------------------------


@dataclass(eq=False)
class _Item:
    index: int
    job: tuple
    size: int
    future: asyncio.Future
    flow: _Flow
    queued: float = 0.0  # perf_counter when it joined its lane, when a worker was sent it, when its result was back
    sent: float = 0.0
    back: float = 0.0
    worker: tuple | None = None  # (start, end, cpu seconds) of the job in the worker


@dataclass(eq=False)
class _Flow:
    """One request: its logs still waiting, per lane, in order, and the timer that gives up on
    it when it has waited the queue timeout with none of its logs running."""

    key: tuple  # (number of logs, arrival): its place in a lane's queue, shortest request first
    lanes: dict[str, deque] = field(default_factory=lambda: {lane: deque() for lane in LANES})
    expiry: asyncio.TimerHandle | None = None
    running: int = 0
    cancelled: bool = False

    def waiting(self) -> bool:
        return any(self.lanes.values())

    def disarm(self) -> None:
        if self.expiry is not None:
            self.expiry.cancel()
            self.expiry = None

    def drop(self) -> None:
        self.cancelled = True
        for lane in self.lanes.values():
            lane.clear()
        self.disarm()


class CheckPool:
    """Worker processes with a fair scheduler. Use :meth:`run` from the event loop.

    Three lanes, each with workers of its own: ``workers`` for single small checks (requests of
    one log up to ``small_bytes``), ``workers`` more at ``BATCH_NICE`` for the small logs of
    batches, and ``large_workers`` (default ``workers - 1``, at least one) at ``LARGE_NICE`` for
    large logs: no kind of work waits for a worker busy with another, and while all run the CPU
    goes first to the single checks, then to batches."""

    def __init__(
        self,
        workers: int,
        budget: float,
        small_bytes: int = SMALL_BYTES,
        queue_timeout: float | None = None,
        large_workers: int | None = None,
    ) -> None:
        if workers < 1 or budget <= 0 or (large_workers is not None and large_workers < 1):
            raise ValueError("a pool needs at least one worker per lane and a positive budget")
        self.workers, self.budget, self.small_bytes = workers, budget, small_bytes
        self.large_workers = max(1, workers - 1) if large_workers is None else large_workers
        # a request waits at most this long at a time with none of its logs running (then
        # CheckBusy): a queue that grows faster than it drains answers at once instead of
        # holding connections for ever, while a batch being worked on is not cut off half way
        self.queue_timeout = budget if queue_timeout is None else queue_timeout
        self._idle = {
            "single": [_Worker(budget) for _ in range(workers)],
            "batch": [_Worker(budget, BATCH_NICE) for _ in range(workers)],
            "large": [_Worker(budget, LARGE_NICE) for _ in range(self.large_workers)],
        }
        self._all = [w for lane in LANES for w in self._idle[lane]]
        self._threads = ThreadPoolExecutor(max_workers=len(self._all), thread_name_prefix="dosverify-pool")
        self._queues: dict[str, list[tuple[tuple, _Flow]]] = {lane: [] for lane in LANES}  # heaps by flow key
        self._arrivals = itertools.count()
        self._tasks: set[asyncio.Task] = set()  # the round trips to workers under way
        self._closed = False

    def pids(self) -> list[int]:
        return [pid for w in self._all if (pid := w.pid) is not None and w.proc is not None]

    async def start(self) -> None:
        """Start every worker now (otherwise each starts with its first job)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._threads, w.ensure) for w in self._all))

    def close(self) -> None:
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for w in self._all:
            if w.channel is not None and w.channel.loop is not None and not w.channel.loop.is_closed():
                with contextlib.suppress(Exception):  # a pending round trip's reader or writer, before its fd closes
                    w.channel.loop.remove_reader(w.channel.fd)
                    w.channel.loop.remove_writer(w.channel.fd)
            w.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def run(self, jobs: list[tuple], timing: dict | None = None) -> list[Any]:
        """Run the jobs (name, args, size in bytes[, lane[, weight]]) of one request; results in
        order. A job that names its lane runs there, else its size and the request's length
        choose; a job of weight N (a profile of many logs, say) has N time budgets. ``timing``,
        if given, receives where the request's time went (:func:`pool_timing`), also on failure.

        Raises :class:`CheckTimeout` for the first job over its budget, :class:`CheckBusy` when
        the request waited past the queue timeout with none of its jobs running, :class:`WorkerDied`
        when a worker ended mid-job, or the job's own exception."""
        if self._closed:
            raise RuntimeError("the check pool is closed")
        loop = asyncio.get_running_loop()
        flow = _Flow((len(jobs), next(self._arrivals)))
        items = []
        small = "single" if len(jobs) == 1 else "batch"
        now = time.perf_counter()
        for i, (name, args, size, *extra) in enumerate(jobs):
            named = extra[0] if extra else None
            weight = extra[1] if len(extra) > 1 else 1
            item = _Item(i, (name, args, weight), size, loop.create_future(), flow, queued=now)
            flow.lanes[named or (small if size <= self.small_bytes else "large")].append(item)
            items.append(item)
        for lane, queue in self._queues.items():
            if flow.lanes[lane]:
                heapq.heappush(queue, (flow.key, flow))
        flow.expiry = loop.call_later(self.queue_timeout, self._expire, flow)
        self._dispatch()
        try:
            results = []
            for item in items:
                status, value, item.worker = await item.future
                if status == "ok":
                    results.append(value)
                elif status == "timeout":
                    raise CheckTimeout(item.index, self.budget * item.job[2])
                elif status == "busy":
                    raise CheckBusy(item.index, self.queue_timeout)
                elif status == "died":
                    raise WorkerDied(f"the worker checking log {item.index} ended")
                else:
                    raise value
            return results
        finally:
            flow.drop()  # the logs not started yet (after an error, or a cancelled request) are dropped
            if timing is not None:
                timing.update(pool_timing(items))

    def _next(self, lane: str) -> list[_Item]:
        """The next logs of the lane: the first waiting ones of the request with the fewest logs
        (the earliest of those), so batches go one after the other rather than all finishing
        late. One log, but in the batch lane up to CHUNK_LOGS of them (CHUNK_BYTES in all): the
        service's own work per log, a round trip to a worker, shrinks as much."""
        queue = self._queues[lane]
        most = CHUNK_LOGS if lane == "batch" else 1
        while queue:
            _, flow = queue[0]
            waiting = flow.lanes[lane]
            if flow.cancelled or not waiting:
                heapq.heappop(queue)
                continue
            taken: list[_Item] = []
            size = 0
            while waiting and len(taken) < most and (not taken or size + waiting[0].size <= CHUNK_BYTES):
                item = waiting.popleft()
                if not item.future.done():
                    taken.append(item)
                    size += item.size
            if not waiting:
                heapq.heappop(queue)
            if taken:
                return taken
        return []

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        for lane, idle in self._idle.items():
            while idle:
                items = self._next(lane)
                if not items:
                    break
                flow = items[0].flow
                flow.running += len(items)
                flow.disarm()  # the queue timeout runs only while none of its logs does
                worker = idle.pop()
                now = time.perf_counter()
                for it in items:
                    it.sent = now
                task = loop.create_task(worker.call([it.job for it in items], self._threads))
                self._tasks.add(task)
                task.add_done_callback(functools.partial(self._done, worker=worker, lane=lane, items=items))

    def _expire(self, flow: _Flow) -> None:
        flow.expiry = None
        for lane in flow.lanes.values():
            for item in lane:
                if not item.future.done():
                    item.future.set_result(("busy", None, None))
        flow.drop()

    def _done(self, fut: asyncio.Future, worker: _Worker, lane: str, items: list[_Item]) -> None:
        self._tasks.discard(fut)
        self._idle[lane].append(worker)
        flow = items[0].flow
        flow.running -= len(items)
        if not flow.running and not flow.cancelled and flow.waiting():
            flow.expiry = asyncio.get_running_loop().call_later(self.queue_timeout, self._expire, flow)
        results: list[tuple[str, Any, Any]]
        if fut.cancelled():
            results = [("died", None, None)] * len(items)
        elif fut.exception() is not None:
            results = [("raise", fut.exception(), None)] * len(items)
        else:
            results = fut.result()
        now = time.perf_counter()
        for item, result in zip(items, results, strict=False):
            item.back = now
            if not item.future.done():
                item.future.set_result(result)
        if not self._closed:
            self._dispatch()


def pool_timing(items: list[_Item]) -> dict[str, float]:
    """Where a request's time in the pool went, in seconds, summed over its logs that ran:
    ``queue`` waiting in its lane for a worker, ``send`` from dispatch until the worker began
    (the pipe, and the worker waiting for a CPU), ``check`` in the worker, ``cpu`` the CPU time
    of that, ``back`` from the worker's end until the event loop had the result (the pipe, the
    waiting thread, the loop). A request's logs may overlap (a batch on several workers), so
    the sums may exceed the request's own time."""
    out = dict.fromkeys(("queue", "send", "check", "cpu", "back"), 0.0)
    now = time.perf_counter()
    for it in items:
        out["queue"] += (it.sent or now) - it.queued  # a log never started waited until the end
        if it.worker and it.back:
            start, end, cpu = it.worker
            out["send"] += max(0.0, start - it.sent)
            out["check"] += end - start
            out["cpu"] += cpu
            out["back"] += max(0.0, it.back - end)
    return out


# ---- admission: a bound on requests in flight ----------------------------------------------


class InFlightLimit:
    """An ASGI middleware that answers 503 with ``Retry-After`` to a request to one of the
    ``paths`` (the checks) while ``limit`` of them are already in flight, from the first byte
    read to the last byte sent, or while ``per_client`` of them come from the same client
    address: one client cannot take every slot, the others keep theirs. ``reject`` builds that
    answer (an ASGI app)."""

    def __init__(self, app, limit: int, paths: tuple[str, ...], reject, per_client: int | None = None) -> None:
        self.app, self.limit, self.paths, self.reject = app, limit, paths, reject
        self.per_client = limit if per_client is None else per_client
        self.in_flight = 0
        self.by_client: dict[str, int] = {}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.paths):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("-", 0))[0]
        mine = self.by_client.get(client, 0)
        if self.in_flight >= self.limit:
            await self.reject(self.limit)(scope, receive, send)
            return
        if mine >= self.per_client:
            await self.reject(self.per_client, per_client=True)(scope, receive, send)
            return
        self.in_flight += 1
        self.by_client[client] = mine + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
            left = self.by_client[client] - 1
            if left:
                self.by_client[client] = left
            else:
                del self.by_client[client]
