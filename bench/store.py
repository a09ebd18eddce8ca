"""The event store's cost over HTTP: small logs submitted to an event, against /v1/check for the
same logs, on SQLite and on PostgreSQL; then the standings of the event.

    .venv/bin/python bench/store.py [--logs 10000] [--repeats 5] [--concurrency 16]
                                    [--backends sqlite,postgresql] [--workers N] [--json OUT]

For each backend: starts ``python -m dosverify serve`` on a free 127.0.0.1 port with a fresh
store (SQLite: a temporary data folder, WAL, synchronous=FULL, or NORMAL under DOSVERIFY_SQLITE_SYNC=normal; PostgreSQL: a throwaway cluster
made with Debian's initdb/pg_ctl, as tests/pgserver.py does) and warms it up. Then, ``--repeats``
times, the two phases on the same server, interleaved (check, store; then store, check; ...) so
that a change of the machine's load falls on both alike: ``--concurrency`` closed-loop httpx
clients over a slice of N/repeats logs, ``POST /v1/check`` (the referee alone) and ``POST
/v1/events/{id}/games`` (judged, then stored in one transaction; each slice new logs, so each is
a new audit). Each phase is measured twice:

- wall: requests/s, p50 and p99 latency, statuses;
- CPU: the CPU seconds the server used per request (the service and its pool's workers, and for
  PostgreSQL the database server's processes too), read from /proc; the bench's clients are not
  counted.

The store's cost is the fraction of /v1/check's throughput that storing loses (target: <= 30%),
from each pair of phases: ``1 - check_wall_s/store_wall_s`` (the wall measure) and ``1 -
check_cpu/store_cpu`` per request (the CPU measure). On a machine shared with other work the
wall figure moves with the others' load; the CPU figure is what the service itself spends, the
honest measure of what storing costs in throughput while the server is CPU-bound, which it is
here (the clients keep every worker busy). Reported: the median of the repeats with their range,
and the time of ``GET /v1/events/{id}/standings`` of the whole event (the median of 5) and of
``Store.standings`` in process. The logs are simulated one-round DOS games (about 1 KB), made
distinct by a free tag (``site bench-N``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))
from serverproc import free_port, stop, wait_ready  # noqa: E402

TOKEN = "bench-token"


def make_logs(n: int, distinct: int = 200) -> list[bytes]:
    from dosverify.games import find_game

    pack = find_game("dos")
    base = [pack.simulate(seed=s, players=2 + s % 3) for s in range(distinct)]
    out = []
    for i in range(n):
        head, rest = base[i % distinct].split("\n", 1)
        out.append(f"{head}\nsite bench-{i}\n{rest}".encode())
    return out


def start(env_extra: dict, workers: int | None, tmp: Path) -> tuple[subprocess.Popen, str]:
    (tmp / "token").write_text(TOKEN)
    port = free_port()
    cmd = [sys.executable, "-m", "dosverify", "serve", "--port", str(port), "--no-access-log"]
    cmd += ["--token-file", str(tmp / "token")] + (["--workers", str(workers)] if workers else [])
    env = {**os.environ, **env_extra, "PYTHONPATH": str(ROOT)}
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait_ready(proc, base, 60, str(tmp / "server.log"))
    return proc, base


async def run_phase(base: str, path: str, logs: list[bytes], concurrency: int, headers: dict) -> dict:
    import httpx

    queue = list(reversed(logs))
    lat: list[float] = []
    statuses: Counter = Counter()

    async def client(http):
        while queue:
            data = queue.pop()
            for _attempt in range(3):
                t0 = time.perf_counter()
                try:
                    r = await http.post(path, content=data, headers=headers)
                except httpx.TransportError as exc:
                    # on a starved machine the service's body-rate limit can close a connection
                    # (tests/core/test_hostile_clients.py); counted, and sent again (the same
                    # bytes are the same audit)
                    statuses[type(exc).__name__] += 1
                    continue
                lat.append(time.perf_counter() - t0)
                statuses[r.status_code] += 1
                break

    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        t0 = time.perf_counter()
        await asyncio.gather(*(client(http) for _ in range(concurrency)))
        wall = time.perf_counter() - t0
    lat.sort()
    return {
        "requests": len(lat),
        "seconds": round(wall, 2),
        "req_per_s": round(len(lat) / wall, 1),
        "p50_ms": round(1000 * lat[len(lat) // 2], 1),
        "p99_ms": round(1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))], 1),
        "statuses": dict(statuses),
    }


CLK_TCK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of ``root`` and its descendants, living and reaped, from /proc."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            raw = Path(f"/proc/{d}/stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = raw[raw.rindex(")") + 2 :].split()  # after "pid (comm) "
        stats[int(d)] = fields
        children.setdefault(int(fields[1]), []).append(int(d))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            f = stats[pid]  # utime, stime, cutime, cstime are fields 14-17 of stat: 11-14 here
            total += sum(int(x) for x in f[11:15]) / CLK_TCK
        todo.extend(children.get(pid, []))
    return total


def measured(roots: list[int], base: str, path: str, logs: list[bytes], concurrency: int, headers: dict) -> dict:
    """One phase, with the CPU the server's processes (``roots`` and their descendants) spent in it."""
    cpu0 = sum(tree_cpu(r) for r in roots)
    out = asyncio.run(run_phase(base, path, logs, concurrency, headers))
    cpu = sum(tree_cpu(r) for r in roots) - cpu0
    out["cpu_s"] = round(cpu, 3)
    out["cpu_ms_per_req"] = round(1000 * cpu / max(1, out["requests"]), 3)
    return out


def spread(values: list[float]) -> dict:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
        "all": [round(v, 3) for v in values],
    }


def bench_backend(name: str, logs: list[bytes], args) -> dict:
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix=f"dosverify-bench-{name}-"))
    pg = None
    if name == "sqlite":
        env = {"DOSVERIFY_DATA": str(tmp / "data")}
    else:
        from pgserver import PgServer

        pg = PgServer()
        env = {"DOSVERIFY_DATABASE_URL": pg.url}
    proc, base = start(env, args.workers, tmp)
    roots = [proc.pid]
    if pg:
        roots.append(int((pg.data / "postmaster.pid").read_text().split()[0]))
    try:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        event = httpx.post(f"{base}/v1/events", json={"name": "bench"}, headers=auth, timeout=120).json()["id"]
        text = {"content-type": "text/plain"}
        warm = make_logs(50, 50)
        asyncio.run(run_phase(base, "/v1/check", warm, args.concurrency, text))
        asyncio.run(run_phase(base, f"/v1/events/{event}/games", warm, args.concurrency, {**text, **auth}))
        size = max(1, len(logs) // args.repeats)
        runs = []
        for k in range(args.repeats):
            part = logs[k * size : (k + 1) * size]
            phases = {
                "check": lambda part=part: measured(roots, base, "/v1/check", part, args.concurrency, text),
                "store": lambda part=part: measured(
                    roots, base, f"/v1/events/{event}/games", part, args.concurrency, {**text, **auth}
                ),
            }
            order = ("check", "store") if k % 2 == 0 else ("store", "check")
            run = {p: phases[p]() for p in order}
            run["wall_cost"] = round(1 - run["check"]["seconds"] / run["store"]["seconds"], 3)
            run["cpu_cost"] = round(1 - run["check"]["cpu_ms_per_req"] / run["store"]["cpu_ms_per_req"], 3)
            runs.append(run)
            print(
                f"{name:<10} run {k + 1}/{args.repeats} ({'/'.join(order)}): "
                + "  ".join(
                    f"{p} {run[p]['req_per_s']:.1f} req/s {run[p]['cpu_ms_per_req']:.2f} ms CPU/req"
                    for p in ("check", "store")
                )
                + f"  cost: wall {100 * run['wall_cost']:.1f}%, CPU {100 * run['cpu_cost']:.1f}%",
                flush=True,
            )
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            r = httpx.get(f"{base}/v1/events/{event}/standings", timeout=120)
            times.append(time.perf_counter() - t0)
        players = len(r.json()["standings"])
        from dosverify.store.db import Store

        st = Store(pg.url if pg else f"sqlite:///{tmp / 'data' / 'events.db'}")
        t0 = time.perf_counter()
        st.standings(event)
        in_process = time.perf_counter() - t0
        st.close()
        games = httpx.get(f"{base}/v1/events/{event}").json()["games"]
    finally:
        stop(proc)
        if pg:
            pg.close()

    def of(phase: str, key: str) -> dict:
        return spread([r[phase][key] for r in runs])

    return {
        "backend": name,
        "runs": runs,
        "check_req_per_s": of("check", "req_per_s"),
        "store_req_per_s": of("store", "req_per_s"),
        "check_p99_ms": of("check", "p99_ms"),
        "store_p99_ms": of("store", "p99_ms"),
        "check_cpu_ms_per_req": of("check", "cpu_ms_per_req"),
        "store_cpu_ms_per_req": of("store", "cpu_ms_per_req"),
        "wall_cost": spread([r["wall_cost"] for r in runs]),
        "cpu_cost": spread([r["cpu_cost"] for r in runs]),
        "event_games": games,
        "standings_http_s": round(statistics.median(times), 3),
        "standings_in_process_s": round(in_process, 3),
        "standings_players": players,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5, help="interleaved check/store pairs (N/repeats logs each)")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--backends", default="sqlite,postgresql")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    logs = make_logs(args.logs)
    print(f"{len(logs)} logs, {sum(map(len, logs)) / len(logs):.0f} bytes on average; concurrency {args.concurrency}")
    results = []
    for name in args.backends.split(","):
        res = bench_backend(name, logs, args)
        results.append(res)

        def pct(d: dict) -> str:
            return f"{100 * d['median']:.1f}% (range {100 * d['min']:.1f}% to {100 * d['max']:.1f}%)"

        for phase in ("check", "store"):
            rps, p99, cpu = (res[f"{phase}_{k}"] for k in ("req_per_s", "p99_ms", "cpu_ms_per_req"))
            print(
                f"{name:<10} {phase:<6} {rps['median']:>8.1f} req/s ({rps['min']:.1f}-{rps['max']:.1f})  "
                f"p99 {p99['median']:>7.1f} ms  CPU {cpu['median']:.2f} ms/req ({cpu['min']:.2f}-{cpu['max']:.2f})",
                flush=True,
            )
        print(
            f"{name:<10} store cost, median of {args.repeats} interleaved runs: CPU {pct(res['cpu_cost'])}, "
            f"wall {pct(res['wall_cost'])} (target <= 30%); standings of {res['event_games']} games: "
            f"{res['standings_http_s']:.3f} s over HTTP, {res['standings_in_process_s']:.3f} s in process",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
