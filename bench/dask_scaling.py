"""Dask scaling: `check --dask local:N` over generated games, for N = 1 and 2 workers.

    .venv/bin/python bench/dask_scaling.py [--games 10000] [--workers 1,2] [--json OUT]

The games come from the project's generator (one round, 2-4 players, with `deck` lines),
written once into bench/out/dask-games-N/ (cached). For each N: a LocalCluster of N worker
processes (one thread each) is started (not timed), then every game is refereed through
`dosverify.cluster.run` (the code path of `check --dask`, JSON Lines output discarded):
games/s, games/s per worker, the scaling against 1 worker (target >= 1.7 with 2 workers on 2
cores), and each worker's peak RSS (VmHWM). The load average is printed beside the figures:
on a shared machine it is the first thing to read.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))


def games(n: int, seed: int = 11) -> list[str]:
    d = HERE / "out" / f"dask-games-{n}-s{seed}"
    done = d / "done"
    if not done.exists():
        from dosverify.games.dos.simulate import simulate_text

        d.mkdir(parents=True, exist_ok=True)
        rng = random.Random(seed)
        t0 = time.perf_counter()
        for i in range(n):
            (d / f"g{i:06d}.log").write_text(
                simulate_text(rng.choice((2, 3, 4)), rng.randrange(1 << 30), rounds=1), encoding="utf-8"
            )
        done.write_text(f"{n} games in {time.perf_counter() - t0:.1f} s\n")
    return sorted(str(p) for p in d.glob("*.log"))


def peak_rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def measure(files: list[str], workers: int) -> dict:
    from distributed import Client, LocalCluster

    from dosverify.cluster import run

    opts = argparse.Namespace(format="json", quiet=False, colour=False, ruleset=None)
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(lambda: __import__("dosverify.api").api.check(b"dos 1\n"))  # warm: spec and parser
        t0 = time.perf_counter()
        verdicts: dict[str, int] = {}
        for verdict, _, _ in run(files, opts, client):
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
        wall = time.perf_counter() - t0
        rss = client.run(peak_rss_kb)
    return {
        "workers": workers,
        "games": len(files),
        "seconds": round(wall, 2),
        "games_s": round(len(files) / wall, 1),
        "games_s_per_worker": round(len(files) / wall / workers, 1),
        "peak_rss_mb_per_worker": sorted(round(v / 1024, 1) for v in rss.values()),
        "verdicts": verdicts,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--json", default=str(HERE / "out" / "dask.json"))
    args = ap.parse_args()
    files = games(args.games)
    rows = []
    for n in (int(x) for x in args.workers.split(",")):
        load = os.getloadavg()[0]
        row = measure(files, n)
        row["loadavg_start"] = round(load, 2)
        rows.append(row)
        print(row, flush=True)
    base = rows[0]["games_s"]
    print(f"\n{'workers':>7} {'games/s':>8} {'per worker':>10} {'scaling':>7}  peak RSS per worker (MB)  loadavg")
    for r in rows:
        r["scaling"] = round(r["games_s"] / base, 2)
        print(
            f"{r['workers']:>7} {r['games_s']:>8} {r['games_s_per_worker']:>10} {r['scaling']:>7}  "
            f"{r['peak_rss_mb_per_worker']}  {r['loadavg_start']}"
        )
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": rows, "cpus": os.cpu_count()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
