"""`dosverify profile` on a directory of simulated games of one engine, at growing sizes: its
time should grow linearly with the number of games (every log is judged under a bounded number
of option sets, and a cache keeps each judgement). Not a timed test: run it, read the table.

    .venv/bin/python bench/profile_scale.py                  # 250, 500 and 1,000 games
    .venv/bin/python bench/profile_scale.py --sizes 50,100,200

It writes one-round games (2, 3 and 4 players in turn, seeded) of an engine with departures
(default: Double Color Match draws at once, a round that ends at once, a deal from the first
seat), without `option` lines, into bench/out/profile-games/, then times `dosverify profile
--format json DIR` in a fresh process on the first N games of each size, in turn, `--rounds`
times interleaved (the median is the figure). Rows: games, turns, seconds, games/s, ms per game,
ms per game relative to the smallest size (1.00 = linear), and checks per game (a log judged
under one set of options: the work, whatever the machine's load); the inferred options must be the
same at every size and the logs legal under them. JSON in bench/out/profile_scale.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from table import print_table  # noqa: E402

DEFAULT_COMBO = "dcm-draws=at-once,round-end=at-once,deal-from=first-seat"


def write_games(out: Path, n: int, combo: dict, seed: int) -> int:
    """n games into out/ (g0000.log ...); the number of turns in all."""
    from dosverify.games.dos.simulate import simulate_text

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    turns = 0
    for g in range(n):
        text = re.sub(r"(?m)^option .*\n", "", simulate_text(2 + g % 3, seed + g, options=combo))
        turns += text.count("\nturn ")
        (out / f"g{g:04d}.log").write_text(text, encoding="utf-8")
    return turns


def subset(src: Path, dst: Path, n: int) -> int:
    """The first n games of src/ in dst/ (hard links); their turns."""
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    turns = 0
    for p in sorted(src.glob("*.log"))[:n]:
        os.link(p, dst / p.name)
        turns += p.read_text(encoding="utf-8").count("\nturn ")
    return turns


def run_profile(d: Path) -> tuple[float, dict]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "dosverify", "profile", "--format", "json", str(d)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    dt = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"dosverify profile failed ({proc.returncode}): {proc.stderr}")
    return dt, json.loads(proc.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="250,500,1000", help="numbers of games (default 250,500,1000)")
    ap.add_argument("--combo", default=DEFAULT_COMBO, help=f"the engine's options (default {DEFAULT_COMBO})")
    ap.add_argument("--rounds", type=int, default=1, help="passes over the sizes, interleaved (default 1)")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--json", default=str(HERE / "out" / "profile_scale.json"))
    args = ap.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    combo = dict(kv.split("=", 1) for kv in args.combo.split(",") if kv)
    base = HERE / "out" / "profile-games"
    t0 = time.perf_counter()
    write_games(base / "all", sizes[-1], combo, args.seed)
    print(
        f"wrote {sizes[-1]} games in {time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    turns = {n: subset(base / "all", base / str(n), n) for n in sizes}
    times: dict[int, list[float]] = {n: [] for n in sizes}
    inferred: dict[int, dict] = {}
    judged: dict[int, int] = {}
    legal: dict[int, bool] = {}
    for r in range(args.rounds):
        for n in sizes:
            dt, prof = run_profile(base / str(n))
            times[n].append(dt)
            inferred[n], legal[n], judged[n] = prof["inferred"], prof["legal"], prof["judgements"]
            print(f"round {r + 1}: {n} games in {dt:.1f} s", flush=True)
    rows = []
    first = None
    for n in sizes:
        sec = statistics.median(times[n])
        per = 1000 * sec / n
        first = first or per
        rows.append(
            {
                "games": n,
                "turns": turns[n],
                "seconds": round(sec, 2),
                "games_per_s": round(n / sec, 2),
                "ms_per_game": round(per, 1),
                "vs_smallest": round(per / first, 2),
                "legal": legal[n],
                "checks_per_game": round(judged[n] / n, 2),
                "passes": [round(t, 2) for t in times[n]],
            }
        )
    print()
    print_table(
        ["games", "turns", "seconds", "games/s", "ms/game", "ms/game vs smallest", "checks/game", "all legal"],
        [
            [
                r["games"],
                r["turns"],
                r["seconds"],
                r["games_per_s"],
                r["ms_per_game"],
                f"{r['vs_smallest']:.2f}",
                r["checks_per_game"],
                "yes" if r["legal"] else "NO",
            ]
            for r in rows
        ],
        right={0, 1, 2, 3, 4, 5, 6},
    )
    same = all(inferred[n] == inferred[sizes[-1]] for n in sizes)
    departs = {k: v for k, v in inferred[sizes[-1]].items() if combo.get(k) == v}
    print(
        f"\ninferred the same options at every size: {'yes' if same else 'NO'}; "
        f"the engine's departures found: {', '.join(f'{k}={v}' for k, v in departs.items()) or 'none'}"
    )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "combo": combo,
                "rows": rows,
                "same_inference": same,
                "inferred": inferred[sizes[-1]],
                "loadavg_end": os.getloadavg(),
            },
            indent=2,
        )
    )
    print(f"written {out}")
    return 0 if same and all(legal.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
