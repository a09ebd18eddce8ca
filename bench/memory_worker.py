"""Memory probe, run by ``bench/run.py`` in a process of its own: check N games one after
another in one process (``dosverify.api.check`` and the JSON report, as the CLI does), the
small games of a corpus directory reused round-robin, and print one JSON line: the resident
set size before the loop and every N/10 games, and the peak (``ru_maxrss``).

    python bench/memory_worker.py CORPUS_DIR N
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path


def rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # not Linux: the peak is the best we have
        return peak_mb()


def peak_mb() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 2**20 if sys.platform == "darwin" else r / 1024  # bytes on macOS, KiB on Linux


def main() -> int:
    d, n = Path(sys.argv[1]), int(sys.argv[2])
    start_rss = rss_mb()
    from dosverify.api import check

    logs = [p.read_bytes() for p in sorted(d.glob("small-*.dos"))]
    if not logs:
        raise SystemExit(f"no small games in {d}")
    check(logs[0], name="warm-up").to_json_line()
    base = rss_mb()
    samples = []
    verdicts: dict[str, int] = {}
    step = max(1, n // 10)
    t0 = time.perf_counter()
    for i in range(n):
        rep = check(logs[i % len(logs)], name=f"game-{i}")
        rep.to_json_line()
        verdicts[rep.verdict] = verdicts.get(rep.verdict, 0) + 1
        if (i + 1) % step == 0:
            samples.append([i + 1, round(rss_mb(), 2)])
    secs = time.perf_counter() - t0
    print(json.dumps(dict(games=n, distinct=len(logs), interpreter_rss_mb=round(start_rss, 2),
                          rss_after_import_mb=round(base, 2), samples=samples, peak_rss_mb=round(peak_mb(), 2),
                          growth_mb=round(samples[-1][1] - samples[0][1], 2), verdicts=verdicts,
                          seconds=round(secs, 3))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
