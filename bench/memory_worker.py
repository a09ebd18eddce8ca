"""Memory probe, run by ``bench/run.py`` in a process of its own. It prints one JSON line.

    python bench/memory_worker.py api CORPUS_DIR N
    python bench/memory_worker.py cli CORPUS_DIR N DOSVERIFY...

``api``: check N games one after another in this process (``dosverify.api.check`` and the
JSON report), the small games of the corpus directory reused round-robin: the resident set
size before the loop, every N/10 games, and the peak (``VmHWM``).

``cli``: one ``dosverify check -q`` call over N files (the small games, named round-robin):
its peak resident set size (``ru_maxrss`` from ``wait4``).

    python bench/memory_worker.py file LOG DOSVERIFY...

``file``: one ``dosverify check -q LOG`` call (a long log): its peak resident set size, its
time and its summary line.

Why a process of its own: on Linux a process's ``ru_maxrss`` carries over from the process it
was forked from, across ``exec``; so the CLI is started from this small launcher (not from the
benchmark, which holds the corpora), and the ``api`` figure reads the memory map's own high
water mark (``VmHWM``), which ``exec`` resets.
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


def _maxrss_mb(r: int) -> float:
    return r / 2**20 if sys.platform == "darwin" else r / 1024  # bytes on macOS, KiB on Linux


def peak_mb() -> float:
    try:
        with open("/proc/self/status") as fh:
            for ln in fh:
                if ln.startswith("VmHWM:"):
                    return int(ln.split()[1]) / 1024
    except OSError:
        pass
    return _maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def cli(d: Path, n: int, cmd: list[str]) -> int:
    import subprocess

    smalls = sorted(p.name for p in d.glob("small-*.dos"))
    if not smalls:
        raise SystemExit(f"no small games in {d}")
    args = [smalls[i % len(smalls)] for i in range(n)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd + ["check", "-q", *args], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()  # the summary lines: a few hundred kB
    secs = time.perf_counter() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)  # the only child: its own peak
    if proc.returncode != 0:
        raise SystemExit(f"the CLI failed ({proc.returncode}): {err.decode()[-500:]}")
    legal = out.count(b": legal")
    print(
        json.dumps(
            dict(
                games=n,
                distinct=len(smalls),
                peak_rss_mb=round(_maxrss_mb(ru.ru_maxrss), 2),
                legal=legal,
                launcher_peak_rss_mb=round(peak_mb(), 2),
                seconds=round(secs, 3),
            )
        )
    )
    return 0


def one_file(path: str, cmd: list[str]) -> int:
    import subprocess

    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd + ["check", "-q", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    secs = time.perf_counter() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"the CLI failed ({proc.returncode}): {err.decode()[-500:]}")
    print(
        json.dumps(
            dict(
                file=path,
                bytes=os.path.getsize(path),
                peak_rss_mb=round(_maxrss_mb(ru.ru_maxrss), 2),
                seconds=round(secs, 3),
                summary=out.decode().strip().splitlines()[-1],
            )
        )
    )
    return 0


def main() -> int:
    if sys.argv[1] == "file":
        return one_file(sys.argv[2], sys.argv[3:])
    if sys.argv[1] == "cli":
        return cli(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    d, n = Path(sys.argv[2]), int(sys.argv[3])
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
    print(
        json.dumps(
            dict(
                games=n,
                distinct=len(logs),
                interpreter_rss_mb=round(start_rss, 2),
                rss_after_import_mb=round(base, 2),
                samples=samples,
                peak_rss_mb=round(peak_mb(), 2),
                growth_mb=round(samples[-1][1] - samples[0][1], 2),
                verdicts=verdicts,
                seconds=round(secs, 3),
            )
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
