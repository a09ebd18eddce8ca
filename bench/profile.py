"""Profile the full check (``dosverify.api.check`` and the JSON report) over a benchmark corpus.

    .venv/bin/python bench/profile.py [--size medium|small|large|all] [--form text|json]
                                      [--quick] [--seed N] [--top 25] [--out FILE.prof]

One warm-up pass (parser built, spec loaded) outside the profile, then one profiled pass;
prints the top functions by cumulative and by own (total) time. ``--out`` keeps the raw
profile for ``python -m pstats`` or snakeviz.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this file is named profile.py: keep its directory off the path while the standard library's
# cProfile imports the standard `profile`, then put it back for `corpus`
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, str(HERE))

from corpus import dos_corpus  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="medium", choices=("small", "medium", "large", "all"))
    ap.add_argument("--form", default="text", choices=("text", "json"))
    ap.add_argument("--quick", action="store_true", help="the quick corpus")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--out", help="write the raw profile here")
    args = ap.parse_args(argv)

    from dosverify.api import check

    games = [
        g for g in dos_corpus(args.seed, "quick" if args.quick else "full") if args.size == "all" or g.size == args.size
    ]
    payloads = [(g.name, g.text if args.form == "text" else g.json) for g in games]

    def run():
        for name, data in payloads:
            check(data, name=name, form=args.form).to_json_line()

    run()  # warm-up
    t0 = time.perf_counter()
    run()
    plain = time.perf_counter() - t0
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    nbytes = sum(len(p[1]) for p in payloads)
    print(
        f"{len(games)} {args.size} games ({args.form}), {nbytes / 1e3:.0f} kB: {plain:.3f} s unprofiled "
        f"({len(games) / plain:.0f} games/s, {nbytes / plain / 1e6:.2f} MB/s)\n"
    )
    for key, title in (("cumulative", "by cumulative time"), ("tottime", "by own (total) time")):
        buf = io.StringIO()
        st = pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(key)
        st.print_stats(args.top)
        text = buf.getvalue()
        body = text[text.index("   ncalls") :] if "   ncalls" in text else text
        print(f"== top {args.top} {title} ==")
        print(body.rstrip() + "\n")
    if args.out:
        prof.dump_stats(args.out)
        print(f"raw profile: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
