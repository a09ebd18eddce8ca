"""The event store's cost over HTTP: N small logs submitted to an event, against /v1/check for the
same logs, on SQLite and on PostgreSQL; then the standings of the N-game event.

    .venv/bin/python bench/store.py [--logs 10000] [--concurrency 16] [--backends sqlite,postgresql]
                                    [--workers N] [--json OUT]

For each backend: starts ``python -m dosverify serve`` on a free 127.0.0.1 port with a fresh
store (SQLite: a temporary data folder, WAL, synchronous=FULL; PostgreSQL: a throwaway cluster
made with Debian's initdb/pg_ctl, as tests/pgserver.py does), warms it up, then runs
``--concurrency`` closed-loop httpx clients over the N logs twice: ``POST /v1/check`` (the
referee alone) and ``POST /v1/events/{id}/games`` (judged, then stored in one transaction).
Reported per phase: requests/s, p50 and p99 latency, statuses; the store's cost as the fraction
of /v1/check's throughput it loses (target: <= 30%); and the time of ``GET
/v1/events/{id}/standings`` of the N-game event (the median of 5) and of ``Store.standings`` in
process. The logs are simulated one-round DOS games (about 1 KB), made distinct by a free tag
(``site bench-N``) so that each is a new audit.
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
            t0 = time.perf_counter()
            r = await http.post(path, content=data, headers=headers)
            lat.append(time.perf_counter() - t0)
            statuses[r.status_code] += 1

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
    try:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        event = httpx.post(f"{base}/v1/events", json={"name": "bench"}, headers=auth, timeout=120).json()["id"]
        text = {"content-type": "text/plain"}
        warm = make_logs(50, 50)
        asyncio.run(run_phase(base, "/v1/check", warm, args.concurrency, text))
        check = asyncio.run(run_phase(base, "/v1/check", logs, args.concurrency, text))
        store = asyncio.run(run_phase(base, f"/v1/events/{event}/games", logs, args.concurrency, {**text, **auth}))
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
    return {
        "backend": name,
        "check": check,
        "store": store,
        "store_cost": round(1 - store["req_per_s"] / check["req_per_s"], 3),
        "event_games": games,
        "standings_http_s": round(statistics.median(times), 3),
        "standings_in_process_s": round(in_process, 3),
        "standings_players": players,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--logs", type=int, default=10_000)
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
        for phase in ("check", "store"):
            p = res[phase]
            print(
                f"{name:<10} {phase:<6} {p['req_per_s']:>8.1f} req/s  p50 {p['p50_ms']:>7.1f} ms  "
                f"p99 {p['p99_ms']:>7.1f} ms  {p['statuses']}",
                flush=True,
            )
        print(
            f"{name:<10} store cost {100 * res['store_cost']:.1f}% of /v1/check's throughput (target <= 30%); "
            f"standings of {res['event_games']} games: {res['standings_http_s']:.3f} s over HTTP, "
            f"{res['standings_in_process_s']:.3f} s in process",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
