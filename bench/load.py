"""Load test of the HTTP service: a mixed workload that saturates it, with and without junk.

    .venv/bin/python bench/load.py [--duration 60] [--concurrency 32] [--repeats 3] [--unloaded 1000]
                                   [--workers N] [--json OUT]

Starts ``python -m dosverify serve`` on a free 127.0.0.1 port (its default settings but
``--workers``), warms every worker up (small checks at once and a large log), then runs its
phases with a bounded asyncio/httpx client that stops by itself:

1. unloaded: small legal logs one at a time (``--unloaded`` requests, default 1,000, so the p99
   is the 990th and its 95% confidence interval, printed, spans the 983rd to the 997th): the
   latency baseline, taken again after a 3 s rest before each loaded phase (the load from
   elsewhere on a shared machine changes from minute to minute; each ratio compares a phase
   with the baseline just before it);
2. mix: ``--concurrency`` closed-loop clients for ``--duration`` s sending small legal logs
   (55%), illegal logs (25%) and batches of 50 small logs (20%), each client from a loopback
   address of its own (127.0.1.N; ``--addresses 1`` sends all from one, which then meets the
   service's per-address share of the checks in flight); the clients join one by one
   over the first ``--ramp`` s (default 5), so the phase measures a saturated service rather
   than the instant all of them fire at once;
3. mix + junk, ``--repeats`` times (default 3), each after its own baseline: the same, with 10%
   of the requests 1 MiB junk logs (random words and bytes; half of them start as a log does,
   `dos 1` and a players line, so every line is a finding).
4. the hostile phases (bench/attacks.py; ``--attacks``, default all of them): slow bodies (and
   the same reconnecting at once when refused), slowloris, big headers and profile requests,
   each ``--repeats`` times for ``--attack-duration`` s (default ``--duration``), every run after
   a baseline of its own, while a probe from 127.0.0.2 (another client) sends small legal checks
   one at a time. Verdict per attack: the median over its runs of the probe's p99 over its
   baseline's p99 within 5x (so one noisy minute does not decide, as for the junk phases), the
   probe answered 200 every time in every run, the attackers got only documented answers (408,
   413, 414, 431, 503; 200 for profiles) or a closed connection.

Reported: requests/s per phase; p50/p99 latency of the small legal checks (every answer, a 503
too) sent after the ramp, and for the record p99 and max over every one; each junk phase's p99
over its baseline's p99, the median of those ratios (the verdict: target <= 5, so one noisy
minute does not decide) and the ratio of the pooled p99s; where the small checks' time went
(the service's ``Server-Timing`` header: body read, lane queue, hand-off to the worker, the
check and its CPU time, the way back, the rest of the app; and the time outside the app, in
uvicorn, the socket and this client), as medians over the checks at or above the p99 and over
all; each process's CPU share per phase; the latency of /healthz probed every 0.2 s on a
connection of its own (the server's event loop, which no check should block); responses by
status (5xx other than the documented 503 must be 0); requests without an answer (must be 0);
the peak RSS (VmHWM) of the server and every worker process, with its niceness. The server is
always stopped; nothing but 127.0.0.1 is contacted; no phase runs past its duration plus the
client timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from attacks import ATTACKS, attack_phase  # noqa: E402
from serverproc import free_port, stop, wait_ready  # noqa: E402

from dosverify.pool import BATCH_NICE, LARGE_NICE  # noqa: E402  (the lanes' niceness tells a worker's lane)

CLIENT_TIMEOUT = 120.0
# seconds of rest before each baseline: one taken at once after a loaded phase once had a p99 7x that
# of the one before it with nothing of the workload running (likely the scheduler still charging the
# session for the phase's CPU); a rest keeps the tail of one phase out of the next one's baseline
SETTLE = 3.0
# the parts of a small check's latency: the server's Server-Timing (dosverify.service.ServerTiming),
# then what the client measured beyond the app ("outside": uvicorn, the socket, the client itself)
PARTS = ("read", "queue", "send", "check", "cpu", "back", "app")


def server_timing(header: str | None) -> dict[str, float]:
    """`read;dur=0.1, queue;dur=2.5` as {"read": 0.1, "queue": 2.5} (milliseconds)."""
    out = {}
    for metric in (header or "").split(","):
        name, _, rest = metric.strip().partition(";")
        for param in rest.split(";"):
            key, _, val = param.strip().partition("=")
            if key == "dur" and name:
                try:
                    out[name] = float(val)
                except ValueError:
                    pass
    return out


def workload(seed: int) -> dict[str, list[bytes]]:
    """Small legal logs (the generator's one-round games), illegal ones (the wrong player on the
    first turn), 1 MiB junk logs."""
    from dosverify.games.dos.simulate import simulate_text

    rng = random.Random(seed)
    legal = [simulate_text(rng.choice((2, 3, 4)), rng.randrange(1 << 30), rounds=1).encode() for _ in range(60)]
    illegal = []
    for text in legal:
        lines = text.decode().splitlines(keepends=True)
        players = next(ln for ln in lines if ln.startswith("players")).split()[1:]
        i = next(k for k, ln in enumerate(lines) if ln.startswith("turn "))
        who = lines[i].split()[1]
        lines[i] = lines[i].replace(who, next(p for p in players if p != who), 1)
        illegal.append("".join(lines).encode())
    words = ["turn", "match", "with", "+", "draw", "R3", "W2", "G#=7", "refill", "place", "dos", "\x00", "é", "{", "]"]
    junk = []
    for k in range(4):  # half of them pass for a log's first lines: every line after is a finding
        out, size = (["dos 1\n", "players ann bob\n"], 21) if k % 2 else ([], 0)
        while size < (1 << 20) - 200:
            line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) + "\n"
            out.append(line)
            size += len(line.encode())
        junk.append("".join(out).encode()[: 1 << 20])
    # batches are encoded once here: the client's CPU is not what is measured
    batch = [json.dumps([rng.choice(legal).decode() for _ in range(50)]).encode() for _ in range(8)]
    return {"legal": legal, "illegal": illegal, "junk": junk, "batch": batch}


_FORK = multiprocessing.get_context("fork")
_TICK = os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc)."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def cpu_seconds(root: int) -> dict[str, float]:
    """CPU seconds (user + system) so far of this client and of the server's processes, by
    role: the server, its check workers by niceness (single checks, batches, large logs)."""
    me = os.times()
    out = {"client": me.user + me.system}
    base = os.getpriority(os.PRIO_PROCESS, 0)
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        nice = int(fields[16])
        role = (
            "server"
            if pid == root
            else "other"
            if b"spawn_main" not in cmd
            else {0: "single", BATCH_NICE: "batch", LARGE_NICE: "large"}.get(nice - base, f"nice {nice - base}")
        )
        out[role] = out.get(role, 0.0) + (int(fields[11]) + int(fields[12])) / _TICK
    return out


class RssSampler(_FORK.Process):
    """Samples VmHWM (peak RSS) of the server and its descendants every 0.25 s. A process of its
    own: as a thread of the client, its /proc scans held the client's GIL and delayed the very
    requests whose latency is measured."""

    def __init__(self, root_pid: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peaks, self.names, self.stop = root_pid, {}, {}, _FORK.Event()
        self._out, self._in = _FORK.Pipe(duplex=False)

    def _children(self) -> list[int]:
        return process_tree(self.root)

    def run(self) -> None:
        while not self.stop.is_set():
            for pid in self._children():
                try:
                    status = Path(f"/proc/{pid}/status").read_text()
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    nice = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
                except (OSError, IndexError, ValueError):
                    continue
                hwm = next((int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("VmHWM:")), 0)
                self.peaks[pid] = max(self.peaks.get(pid, 0), hwm)
                role = (
                    "server"
                    if pid == self.root
                    else (
                        "check worker"
                        if "spawn_main" in cmd
                        else "resource tracker"
                        if "resource_tracker" in cmd
                        else "other"
                    )
                )
                if role == "check worker" and nice != os.getpriority(os.PRIO_PROCESS, 0):
                    role += f" (nice {nice})"
                self.names[pid] = role
            self.stop.wait(0.25)
        self._in.send((self.peaks, self.names))

    def finish(self) -> None:
        """Stop sampling and take the figures back."""
        if self.pid is None:  # never started
            return
        self.stop.set()
        if self._out.poll(30):  # sent as it stops, whether or not it has exited yet
            self.peaks, self.names = self._out.recv()
        self.join(5)

    def report(self) -> list[dict]:
        return [
            {"pid": p, "role": self.names.get(p, "?"), "peak_rss_mb": round(k / 1024, 1)}
            for p, k in sorted(self.peaks.items())
        ]


async def one(client, kind: str, body, stats: dict, t_end: float | None) -> None:
    t0 = time.perf_counter()
    try:
        if kind == "batch":
            r = await client.post("/v1/check/batch", content=body, headers={"content-type": "application/json"})
        elif kind == "health":
            r = await client.get("/healthz")
        else:
            r = await client.post("/v1/check", content=body, headers={"content-type": "text/plain"})
        dt = time.perf_counter() - t0
        code = r.status_code
        err = r.json().get("error") if code >= 400 else None
        stats["status"][f"{kind} {code}{' ' + err if err else ''}"] += 1
        if code >= 500 and code != 503:
            stats["bad5xx"] += 1
        if kind in ("legal", "health"):
            # every answer, a 503 too: a fast refusal is no success; with where the server spent it
            stats[f"{kind}_lat"].append((t0, dt, server_timing(r.headers.get("server-timing"))))
            if code != 200:
                stats[f"{kind}_not_200"] += 1
        stats["answered"] += 1
    except Exception as exc:
        stats["lost"] += 1
        stats["status"][f"{kind} lost {type(exc).__name__}"] += 1


def mix_address(i: int, addresses: int) -> str:
    """The loopback address client ``i`` of the mix sends from: ``addresses`` clients of their own
    (127.0.1.1, 127.0.1.2, ...; Linux routes all of 127/8 to loopback). The service gives each
    client address its share of the checks in flight (a quarter of them by default), so 32
    requests at once from one address measure that share, not a service under load from many."""
    return f"127.0.1.{i % addresses + 1}"


async def phase(
    base: str, logs: dict, duration: float, conc: int, junk: bool, seed: int, ramp: float, addresses: int = 0
) -> dict:
    import httpx

    rng = random.Random(seed)
    kinds = [("legal", 55), ("illegal", 25), ("batch", 20)] + ([("junk", 10)] if junk else [])
    names, weights = zip(*kinds, strict=False)
    stats = {
        "status": Counter(),
        "legal_lat": [],
        "health_lat": [],
        "legal_not_200": 0,
        "health_not_200": 0,
        "answered": 0,
        "lost": 0,
        "bad5xx": 0,
        "sent": 0,
    }
    addresses = min(addresses or conc, conc)
    per_address = -(-conc // addresses)
    limits = httpx.Limits(max_connections=per_address, max_keepalive_connections=per_address)
    clients = [
        httpx.AsyncClient(
            base_url=base,
            timeout=CLIENT_TIMEOUT,
            limits=limits,
            transport=httpx.AsyncHTTPTransport(local_address=mix_address(a, addresses), limits=limits),
        )
        for a in range(addresses)
    ]
    async with contextlib.AsyncExitStack() as stack:
        for c in clients:
            await stack.enter_async_context(c)
        t_start = time.perf_counter()
        t_end = t_start + duration

        async def worker(i: int) -> None:
            await asyncio.sleep(ramp * i / conc)  # clients join one by one over the ramp, not all at once
            client = clients[i % addresses]
            while time.perf_counter() < t_end:
                kind = rng.choices(names, weights)[0]
                stats["sent"] += 1
                await one(client, kind, rng.choice(logs[kind]), stats, t_end)

        async def probe() -> None:  # the event loop's own latency: /healthz never touches a worker
            async with httpx.AsyncClient(
                base_url=base, timeout=CLIENT_TIMEOUT
            ) as own:  # not queued behind the pool's connections
                while time.perf_counter() < t_end:
                    stats["sent"] += 1
                    await one(own, "health", None, stats, t_end)
                    await asyncio.sleep(0.2)

        await asyncio.gather(probe(), *(worker(i) for i in range(conc)))
        elapsed = time.perf_counter() - t_start
    # the percentiles count the requests sent after the ramp (the steady state); "all" counts every one
    steady = [(dt, st) for t, dt, st in stats["legal_lat"] if t >= t_start + ramp]
    lat = sorted(dt for dt, _ in steady)
    lat_all = sorted(dt for _, dt, _ in stats["legal_lat"])
    hlat = sorted(dt for t, dt, _ in stats["health_lat"] if t >= t_start + ramp)
    return {
        "duration_s": round(elapsed, 1),
        "concurrency": conc,
        "addresses": addresses,
        "junk": junk,
        "sent": stats["sent"],
        "answered": stats["answered"],
        "lost": stats["lost"],
        "bad_5xx": stats["bad5xx"],
        "req_s": round((stats["answered"] - len(stats["health_lat"])) / elapsed, 1),  # the workload's, not the probe's
        "ramp_s": ramp,
        "legal_n": len(lat),
        "legal_p50_ms": ms(lat, 50),
        "legal_p99_ms": ms(lat, 99),
        "legal_not_200": stats["legal_not_200"],
        "legal_all_n": len(lat_all),
        "legal_all_p99_ms": ms(lat_all, 99),
        "legal_all_max_ms": ms(lat_all, 100),
        "health_n": len(hlat),
        "health_p50_ms": ms(hlat, 50),
        "health_p99_ms": ms(hlat, 99),
        "breakdown": breakdown(steady, ms(lat, 99)),
        "legal_lat_ms": [round(1000 * dt, 2) for dt in lat],  # for the pooled percentiles over repeats
        "status": dict(sorted(stats["status"].items())),
    }


def breakdown(samples: list[tuple[float, dict]], p99_ms: float | None) -> dict:
    """Where the small legal checks' time went: the median of each part (ms) over the tail (the
    checks at or above the phase's p99) and over all of them. ``outside`` is the latency the
    client saw beyond the server's ``app`` (uvicorn, the socket, the client's own event loop);
    ``loop`` is ``app`` beyond the parts it names (the server's event loop and middleware)."""

    def parts(dt: float, st: dict) -> dict:
        out = {k: st.get(k, 0.0) for k in PARTS}
        out["loop"] = max(0.0, out["app"] - sum(out[k] for k in ("read", "queue", "send", "check", "back")))
        out["outside"] = max(0.0, 1000 * dt - out["app"])
        out["latency"] = 1000 * dt
        return out

    def medians(rows: list[dict]) -> dict:
        return {k: round(statistics.median(r[k] for r in rows), 1) for k in rows[0]} if rows else {}

    rows = [parts(dt, st) for dt, st in samples if st]
    tail = [r for r in rows if p99_ms is not None and r["latency"] >= p99_ms]
    return {"tail_n": len(tail), "tail": medians(tail), "all": medians(rows)}


async def warm_up(base: str, logs: dict) -> None:
    """Small checks at once on every small worker and a large log on the large lane, twice: every
    worker has started and checked before anything is measured."""
    import httpx

    large = b"dos 1\n" + b"# a comment line, to make a log over the small lane's 64 KiB\n" * 1200
    async with httpx.AsyncClient(base_url=base, timeout=CLIENT_TIMEOUT) as client:
        for _ in range(2):
            rs = await asyncio.gather(
                client.post("/v1/check", content=large, headers={"content-type": "text/plain"}),
                *(
                    client.post("/v1/check", content=logs["legal"][i], headers={"content-type": "text/plain"})
                    for i in range(8)
                ),
            )
            assert all(r.status_code == 200 for r in rs), [r.text[:200] for r in rs if r.status_code != 200]


async def unloaded(base: str, logs: dict, n: int) -> dict:
    """``n`` small legal checks one at a time: the baseline. Its p99 comes with a 95% confidence
    interval (the order statistics around rank 0.99 n, from the binomial distribution): with
    the default 1,000 samples the p99 is the 990th of them, and the interval spans the 983rd
    to the 997th, so one stray sample moves it little (with 400, the 4th largest decided)."""
    import httpx

    samples = []
    async with httpx.AsyncClient(base_url=base, timeout=CLIENT_TIMEOUT) as client:
        for i in range(n):
            body = logs["legal"][i % len(logs["legal"])]
            t0 = time.perf_counter()
            r = await client.post("/v1/check", content=body, headers={"content-type": "text/plain"})
            samples.append((time.perf_counter() - t0, server_timing(r.headers.get("server-timing"))))
            assert r.status_code == 200 and r.json()["verdict"] == "legal", r.text[:300]
    lat = sorted(dt for dt, _ in samples)
    lo, hi = p99_interval(lat)
    return {
        "n": n,
        "legal_p50_ms": ms(lat, 50),
        "legal_p99_ms": ms(lat, 99),
        "p99_ci95_ms": [lo, hi],
        "breakdown": breakdown(samples, ms(lat, 99)),
        "legal_lat_ms": [round(1000 * dt, 2) for dt in lat],
    }


def p99_interval(sorted_values: list[float]) -> tuple[float | None, float | None]:
    """A distribution-free 95% confidence interval of the p99 (ms): the order statistics at
    ranks n p -+ 1.96 sqrt(n p (1 - p)), clipped to the samples."""
    n = len(sorted_values)
    if not n:
        return None, None
    half = 1.96 * (n * 0.99 * 0.01) ** 0.5
    lo, hi = max(0, int(n * 0.99 - half) - 1), min(n - 1, int(-(-(n * 0.99 + half) // 1)) - 1)
    return round(1000 * sorted_values[lo], 1), round(1000 * sorted_values[hi], 1)


def ms(sorted_values: list[float], p: float) -> float | None:
    if not sorted_values:
        return None
    return round(1000 * (sorted_values[-1] if p == 100 else pct(sorted_values, p)), 1)


def pct(sorted_values: list[float], p: float) -> float:
    return (
        statistics.quantiles(sorted_values, n=100, method="inclusive")[p - 1]
        if len(sorted_values) > 1
        else sorted_values[0]
    )


def _autogroup() -> str | None:
    """Whether the kernel groups CPU time by session (1: on), which makes the server's session matter."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip()
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of each loaded phase (default 60)")
    ap.add_argument("--concurrency", type=int, default=32, help="clients at once (default 32)")
    ap.add_argument(
        "--addresses",
        type=int,
        default=0,
        help="loopback addresses the mix's clients send from (default: one each; 1: all from one address, "
        "which then meets the service's per-client share of the checks in flight)",
    )
    ap.add_argument(
        "--workers", type=int, default=None, help="the server's check workers (default: its own, one per core)"
    )
    ap.add_argument("--unloaded", type=int, default=1000, help="requests of each unloaded baseline (default 1000)")
    ap.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="runs of the mix + junk phase and of each hostile phase, each after a baseline of its own; "
        "the verdicts are the median ratios (default 3)",
    )
    ap.add_argument(
        "--ramp",
        type=float,
        default=5.0,
        help="seconds over which the clients join at the start of each loaded phase; the latency "
        "percentiles count the requests sent after it (default 5)",
    )
    ap.add_argument(
        "--shared-session",
        action="store_true",
        help="run the server in this client's session (by default it gets one of its own, as a deployed "
        "service has: with Linux's autogroup the session is the CPU's unit of fairness)",
    )
    ap.add_argument(
        "--attacks",
        default=",".join(ATTACKS),
        help=f"hostile phases to run, comma-separated, or `none` (default: {','.join(ATTACKS)})",
    )
    ap.add_argument("--attack-duration", type=float, default=None, help="seconds of each hostile phase")
    ap.add_argument("--no-mix", action="store_true", help="skip the mix and junk phases (the hostile ones only)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", default=str(HERE / "out" / "load.json"))
    args = ap.parse_args(argv)
    if not (
        0 < args.duration <= 600
        and 0 < args.concurrency <= 256
        and 0 <= args.addresses <= 254
        and 0 <= args.ramp < args.duration
        and 1 <= args.repeats <= 9
        and 100 <= args.unloaded <= 100_000
    ):
        ap.error(
            "--duration must be in (0, 600], --concurrency in (0, 256], --addresses in [0, 254], --ramp in [0, duration), "
            "--repeats in [1, 9] and --unloaded in [100, 100000]"
        )
    attacks = [] if args.attacks == "none" else [a.strip() for a in args.attacks.split(",") if a.strip()]
    if any(a not in ATTACKS for a in attacks) or not 0 < (args.attack_duration or args.duration) <= 600:
        ap.error(f"--attacks takes {', '.join(ATTACKS)} or none; --attack-duration is in (0, 600]")
    logs = workload(args.seed)
    gc.collect()
    gc.freeze()  # the workload stays for good: no full collection in this client scans it again
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "dosverify", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOSVERIFY_")}
    errlog = HERE / "out" / "load-server.log"
    errlog.parent.mkdir(parents=True, exist_ok=True)
    with open(errlog, "wb") as fh:  # uvicorn's access log: one line a request
        # a session of its own, as a deployed service has (a daemon's session, a systemd unit's
        # cgroup): where Linux groups the CPU by session (autogroup), the client would otherwise
        # be charged to the service's group and compete with its workers inside it
        server = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=not args.shared_session
        )
    sampler = RssSampler(server.pid)
    # the mix without junk once, then the mix with junk --repeats times: each loaded phase right
    # after a baseline of its own (on a shared machine the load from elsewhere changes from minute
    # to minute, and each ratio compares like with like), so one noisy minute does not decide
    plan = [] if args.no_mix else [("mix", False)] + [(f"mix_junk_{k + 1}", True) for k in range(args.repeats)]
    res: dict = {"command": " ".join(["bench/load.py", *(argv if argv is not None else sys.argv[1:])]), "phases": []}
    try:
        try:
            health = wait_ready(server, base, 30.0, str(errlog))
        except RuntimeError as exc:
            raise SystemExit(str(exc)) from None
        sampler.start()
        asyncio.run(warm_up(base, logs))
        res.update(
            settings=health, loadavg_start=os.getloadavg(), shared_session=args.shared_session, autogroup=_autogroup()
        )
        print(
            f"server: {health['workers']} workers, budget {health['check_timeout']} s, "
            f"{health['max_in_flight']} in flight; loadavg {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        for k, (name, junk) in enumerate(plan):
            time.sleep(SETTLE)
            base_res = asyncio.run(unloaded(base, logs, args.unloaded))
            print(
                f"unloaded before {name}: p50 {base_res['legal_p50_ms']} ms, p99 {base_res['legal_p99_ms']} ms "
                f"(95% CI {base_res['p99_ci95_ms']}); loadavg {os.getloadavg()[0]:.2f}",
                flush=True,
            )
            cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
            load = asyncio.run(
                phase(base, logs, args.duration, args.concurrency, junk, args.seed + k, args.ramp, args.addresses)
            )
            cpu1, dt = cpu_seconds(server.pid), time.perf_counter() - t0
            # each process's share of one CPU over the phase: a client near 100% measures itself
            load["cpu_pct"] = {role: round(100 * (cpu1[role] - cpu0.get(role, 0.0)) / dt) for role in cpu1}
            ratio = round(load["legal_p99_ms"] / base_res["legal_p99_ms"], 2)
            res["phases"].append(
                {
                    "name": name,
                    "junk": junk,
                    "unloaded": base_res,
                    "loaded": load,
                    "ratio": ratio,
                    "loadavg": os.getloadavg(),
                }
            )
            print(
                f"{name}: {load['req_s']} req/s, small legal p50 {load['legal_p50_ms']} ms, p99 {load['legal_p99_ms']} ms "
                f"= {ratio}x; {load['answered']}/{load['sent']} answered; CPU % {load['cpu_pct']}",
                flush=True,
            )
        duration = args.attack_duration or args.duration
        res["attacks"] = [
            attack_verdict(
                kind,
                [
                    run_attack(base, logs, kind, duration, args.unloaded, args.seed + 10 * i + k, server.pid)
                    for k in range(args.repeats)
                ],
            )
            for i, kind in enumerate(attacks)
        ]
    finally:
        sampler.finish()
        stop(server, 15)
    res["rss"] = sampler.report()
    res["loadavg_end"] = os.getloadavg()
    summarize(res, args.ramp)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1))
    print(f"written {out}")
    lost = sum(p["loaded"]["lost"] for p in res["phases"])
    bad = sum(p["loaded"]["bad_5xx"] for p in res["phases"])
    failed = [a["attack"] for a in res.get("attacks", []) if not a["verdict"]]
    return 0 if lost == 0 and bad == 0 and not failed else 1


def run_attack(base: str, logs: dict, kind: str, duration: float, unloaded_n: int, seed: int, server_pid: int) -> dict:
    """One hostile phase after a baseline of its own, with its verdict (printed as it ends)."""
    time.sleep(SETTLE)
    base_res = asyncio.run(unloaded(base, logs, unloaded_n))
    cpu0, t0 = cpu_seconds(server_pid), time.perf_counter()
    got = asyncio.run(attack_phase(base, logs, kind, duration, seed))
    cpu1, dt = cpu_seconds(server_pid), time.perf_counter() - t0
    got["cpu_pct"] = {role: round(100 * (cpu1[role] - cpu0.get(role, 0.0)) / dt) for role in cpu1}
    samples = [(dt, server_timing(header)) for dt, header in got.pop("probe_lat")]
    lat = sorted(dt for dt, _ in samples)
    p99 = ms(lat, 99)
    ratio = round(p99 / base_res["legal_p99_ms"], 2) if p99 is not None else None
    probe_ok = set(got["probe_status"]) == {"200"}
    verdict = ratio is not None and ratio <= 5 and probe_ok and not got["undocumented"]
    out = {
        **got,
        "baseline_p99_ms": base_res["legal_p99_ms"],
        "probe_n": len(lat),
        "probe_p50_ms": ms(lat, 50),
        "probe_p99_ms": p99,
        "probe_max_ms": ms(lat, 100),
        "ratio": ratio,
        "verdict": verdict,
        "breakdown": breakdown(samples, p99),
        "baseline_breakdown": base_res["breakdown"],
    }
    print(
        f"attack {kind}: probe p50 {out['probe_p50_ms']} ms, p99 {p99} ms = {ratio}x of {base_res['legal_p99_ms']} ms "
        f"({len(lat)} checks, {got['probe_status']}); attackers got {got['attacker_answers']}; "
        f"{'PASS' if verdict else 'FAIL'}; the tail's time (ms) {out['breakdown']['tail']}; CPU % {got['cpu_pct']}",
        flush=True,
    )
    return out


def attack_verdict(kind: str, runs: list[dict]) -> dict:
    """One attack's verdict over its runs: the median of their ratios within 5x, the probe
    answered 200 in every run, and nothing undocumented came back to the attackers in any."""
    ratios = [r["ratio"] for r in runs]
    median = round(statistics.median(ratios), 2) if None not in ratios else None
    probe_ok = all(set(r["probe_status"]) == {"200"} for r in runs)
    documented = not any(r["undocumented"] for r in runs)
    return {
        "attack": kind,
        "runs": runs,
        "ratios": ratios,
        "ratio_median": median,
        "verdict": median is not None and median <= 5 and probe_ok and documented,
    }


def summarize(res: dict, ramp: float) -> None:
    """The verdict (median of the junk phases' ratios, and the ratio of their pooled p99s) into
    ``res``, and the tables: phases, where the tail's time went, peak RSS."""
    from table import print_table

    phases = res["phases"]
    junk = [p for p in phases if p["junk"]]
    pooled = {}
    for key in ("unloaded", "loaded"):
        lat = sorted(x for p in junk for x in p[key]["legal_lat_ms"])
        pooled[key] = round(pct(lat, 99), 1) if lat else None
    res["junk_ratios"] = [p["ratio"] for p in junk]
    res["junk_ratio_median"] = statistics.median(res["junk_ratios"]) if junk else None
    res["junk_ratio_pooled"] = round(pooled["loaded"] / pooled["unloaded"], 2) if junk else None
    res["junk_p99_pooled_ms"] = pooled
    if phases:  # (the hostile phases alone, with --no-mix, have a table of their own)
        print()
        body = []
        for p in phases:
            r, u = p["loaded"], p["unloaded"]
            body.append(
                [
                    p["name"],
                    r["req_s"],
                    f"{r['legal_p50_ms']} ms",
                    f"{r['legal_p99_ms']} ms",
                    f"{u['legal_p99_ms']} ms [{u['p99_ci95_ms'][0]}-{u['p99_ci95_ms'][1]}]",
                    f"{p['ratio']}x",
                    f"{r['legal_all_p99_ms']} / {r['legal_all_max_ms']} ms",
                    f"{r['health_p50_ms']}/{r['health_p99_ms']} ms",
                    f"{r['answered']}/{r['sent']}",
                    sum(v for k, v in r["status"].items() if " 503" in k),
                    r["bad_5xx"],
                    r["lost"],
                    f"{p['loadavg'][0]:.1f}",
                ]
            )
        print_table(
            [
                "phase",
                "req/s",
                "legal p50",
                "legal p99",
                "baseline p99 [95% CI]",
                "ratio",
                f"with the {ramp:g} s ramp: p99 / max",
                "healthz p50/p99",
                "answered/sent",
                "503",
                "5xx!=503",
                "lost",
                "loadavg",
            ],
            body,
            right=set(range(1, 13)),
        )
        print(
            "\nwhere the small legal checks' time went, ms (median over the checks at or above each phase's p99; "
            "'all': over every one):"
        )
        cols = ("latency", "outside", "app", "read", "queue", "send", "check", "cpu", "back", "loop")
        rows = []
        for p in phases:
            for label, part in ((p["name"], p["loaded"]), (f"  baseline before {p['name']}", p["unloaded"])):
                b = part["breakdown"]
                rows.append([label, f"tail ({b['tail_n']})", *(b["tail"].get(c, "") for c in cols)])
                rows.append(["", "all", *(b["all"].get(c, "") for c in cols)])
        print_table(["phase", "checks", *cols], rows, right=set(range(2, 2 + len(cols))))
        print("\nCPU use over each loaded phase, % of one core (2 cores = 200%):")
        roles = ("client", "server", "single", "batch", "large")
        print_table(
            ["phase", *roles],
            [[p["name"], *(p["loaded"].get("cpu_pct", {}).get(r, "") for r in roles)] for p in phases],
            right=set(range(1, 1 + len(roles))),
        )
    if junk:
        print(
            f"\np99 with junk / baseline p99, per repeat: {', '.join(f'{x}x' for x in res['junk_ratios'])}; "
            f"median {res['junk_ratio_median']}x (target <= 5); pooled p99s: {pooled['loaded']} / "
            f"{pooled['unloaded']} ms = {res['junk_ratio_pooled']}x; without junk: {phases[0]['ratio']}x"
        )
    if res.get("attacks"):
        print("\nhostile phases (a probe from another address sends small legal checks one at a time):")
        rows = []
        for a in res["attacks"]:
            for k, r in enumerate(a["runs"]):
                rows.append(
                    [
                        f"{a['attack']} {k + 1}",
                        f"{r['probe_p50_ms']} ms",
                        f"{r['probe_p99_ms']} ms",
                        f"{r['baseline_p99_ms']} ms",
                        f"{r['ratio']}x",
                        ", ".join(f"{s}: {n}" for s, n in r["probe_status"].items()),
                        ", ".join(f"{s}: {n}" for s, n in r["attacker_answers"].items()),
                        r["cpu_pct"].get("server", ""),
                        "",
                    ]
                )
            verdict = "pass" if a["verdict"] else "FAIL"
            rows.append([a["attack"], "", "", "", f"median {a['ratio_median']}x", "", "", "", verdict])
        print_table(
            [
                "attack, run",
                "probe p50",
                "probe p99",
                "baseline p99",
                "ratio",
                "probe answers",
                "attackers got",
                "server CPU %",
                "verdict",
            ],
            rows,
            right={1, 2, 3, 4, 7},
        )
        print("\nwhere the probe's time went in each hostile run, ms (median over its checks at or above the p99):")
        cols = ("latency", "outside", "app", "read", "queue", "send", "check", "loop")
        print_table(
            ["attack, run", "checks", *cols],
            [
                [f"{a['attack']} {k + 1}", r["breakdown"]["tail_n"], *(r["breakdown"]["tail"].get(c, "") for c in cols)]
                for a in res["attacks"]
                for k, r in enumerate(a["runs"])
            ],
            right=set(range(1, 2 + len(cols))),
        )
    for p in res["rss"]:
        print(f"  pid {p['pid']:<8} {p['role']:<26} peak RSS {p['peak_rss_mb']} MB")


if __name__ == "__main__":
    sys.exit(main())
