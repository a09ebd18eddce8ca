"""The CPU time of a check, per doubling of the log's lines, for every shape of bench/linear_shapes.py
(both games: junk, repeated headers, set-up lines, turns in and out of order, every event line many
times, shows, scores, totals, winners, rounds, a legal game cut to n lines). A check whose work is
linear in the lines takes about twice the time for twice the lines; issue 31's target is a ratio of
at most 2.5 at every doubling from 10^4 to 1.6 * 10^5 lines.

    nice -n 10 .venv/bin/python bench/linear.py [--sizes 10000,...,160000] [--reps 3] [--only dos:]
                                                [--json bench/out/linear.json]

Each check's findings are capped at 50 (as the CLI's --max-errors); it is timed by process CPU time
(`time.process_time`), so that the machine's other load matters less than it would to a wall clock.
The sizes of a shape run in rounds, smallest to largest, `--reps` rounds: a doubling's ratio is the
median over the rounds of the two sizes' times in the same round, checked one right after the other.
On a shared virtual machine a process's CPU time per unit of work drifts by up to 3x over minutes
(the host's other guests: the same check measured 0.4 s and 1.2 s within a minute), so sizes timed
minutes apart (all the reps of one size, then the next) compared the drift, not the work; adjacent
pairs cancel it. The column "s at the largest" is the median of the largest size's times. The test
suite counts the same shapes' work instead (tests/core/test_linear_lines.py)."""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from linear_shapes import SHAPES  # noqa: E402

from dosverify.api import check  # noqa: E402
from dosverify.findings import Keep  # noqa: E402


def cpu(source: bytes) -> float:
    gc.collect()
    t0 = time.process_time()
    check(source, keep=Keep(limit=50))
    return time.process_time() - t0


def timed(shape, sizes: list[int], reps: int) -> tuple[list[float], list[float]]:
    """The median time of each size, and each doubling's ratio: the median over `reps` rounds of
    the two sizes' times within one round (each round checks every size, smallest first)."""
    sources = [shape.make(n) for n in sizes]
    rounds = [[cpu(src) for src in sources] for _ in range(reps)]
    secs = [statistics.median(r[i] for r in rounds) for i in range(len(sizes))]
    ratios = [
        statistics.median(r[i + 1] / r[i] if r[i] > 0 else float("inf") for r in rounds) for i in range(len(sizes) - 1)
    ]
    return secs, ratios


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,20000,40000,80000,160000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument(
        "--only", default="", help="shapes whose name starts with one of these, comma-separated (e.g. `dos: turns`)"
    )
    ap.add_argument("--skip", default="", help="shapes left out, comma-separated full names")
    ap.add_argument("--limit", type=float, default=2.5, help="the most a doubling may cost")
    ap.add_argument("--json", type=Path, default=HERE / "out" / "linear.json")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    rows = []
    over = []
    print(f"{'shape':38} " + " ".join(f"{n:>8}" for n in sizes[1:]) + "   s at the largest", flush=True)
    for name in sorted(SHAPES):
        if not name.startswith(tuple(args.only.split(","))) or name in args.skip.split(","):
            continue
        shape = SHAPES[name]
        check(shape.make(100)[:300])  # warm: the game's grammar and spec
        secs, ratios = timed(shape, sizes, args.reps)
        rows.append({"shape": name, "sizes": sizes, "cpu_s": secs, "ratios": ratios})
        if max(ratios) > args.limit:
            over.append(name)
        print(f"{name:38} " + " ".join(f"{r:8.2f}" for r in ratios) + f"   {secs[-1]:.2f}", flush=True)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"reps": args.reps, "rows": rows}, indent=1), encoding="utf-8")
    worst = max((max(r["ratios"]), r["shape"]) for r in rows)
    print(f"{len(rows)} shapes; worst ratio {worst[0]:.2f} ({worst[1]}); over {args.limit}: {over or 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
