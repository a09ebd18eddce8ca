"""CPU time of a cold `dosverify check` in two source trees, fresh processes interleaved: the
median ratio B/A over the rounds (a change to the data path must not slow a cold check).

    .venv/bin/python bench/cold_ab.py A_TREE B_TREE LOG [LOG ...] [--rounds N]

Each round runs `python -m dosverify check -q LOG` once in each tree (the order alternating by
round), with the tree first on the import path; a process's CPU time is its user + system time
(resource.getrusage of the children), so other load on the machine counts less than wall time.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys


def cpu_of(tree: str, log: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "dosverify", "check", "-q", log],
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    for log in args.logs:
        a, b, ratios = [], [], []
        for r in range(args.rounds):
            order = (args.a, args.b) if r % 2 == 0 else (args.b, args.a)
            got = {tree: cpu_of(tree, log) for tree in order}
            a.append(got[args.a])
            b.append(got[args.b])
            ratios.append(got[args.b] / got[args.a])
        print(
            f"{log}: A median {statistics.median(a):.3f} s, B median {statistics.median(b):.3f} s, "
            f"median ratio B/A {statistics.median(ratios):.3f} over {args.rounds} rounds"
        )


if __name__ == "__main__":
    main()
