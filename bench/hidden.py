"""Face-down cards: the check of a table-view log beside the check of the same open log.

    .venv/bin/python bench/hidden.py [--reps N] [--seeds K]

For games of growing length (whole games to a growing target), every game is checked as
its open log (hand/center lines, every card written) and as its table view (`hide --view
table`: every hand and draw `?`, bare reshuffles, `show` lines), interleaved, median of N
passes. Rows: lines, open ms, table ms, table/open (issue 14 asks at most 3), and table
microseconds per line (flat when the check stays linear in the log's length).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dosverify.api import check
from dosverify.games.dos.hide import hide
from dosverify.games.dos.notation import write
from dosverify.games.dos.simulate import simulate


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=4)
    args = ap.parse_args(argv)
    print(f"{'target':>6} {'lines':>7} {'open ms':>9} {'table ms':>9} {'table/open':>10} {'table us/line':>13}")
    for target in (100, 200, 400, 800):
        games = [simulate(3, seed, "official", game=True, target=target, deck=False) for seed in range(args.seeds)]
        opens = [write(g).encode() for g in games]
        tables = [write(hide(g, "table")).encode() for g in games]
        for t in tables:  # every view is legal (the property the tests check, here on long games)
            assert check(t).verdict == "legal"
        times = {"open": [], "table": []}
        for _ in range(args.reps):
            for name, logs in (("open", opens), ("table", tables)):
                t0 = time.perf_counter()
                for data in logs:
                    check(data)
                times[name].append(time.perf_counter() - t0)
        o, t = statistics.median(times["open"]), statistics.median(times["table"])
        lines = sum(x.count(b"\n") for x in tables)
        print(f"{target:>6} {lines:>7} {o * 1e3:>9.1f} {t * 1e3:>9.1f} {t / o:>10.2f} {t / lines * 1e6:>13.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
