"""Coverage-guided fuzzing of dosverify with atheris (libFuzzer for Python).

    .venv/bin/python fuzz/run.py TARGET [libFuzzer flags...]
    TARGET: text (the notation parser), json (the JSON form's loader), check (the whole check
            and its renderers), service (the HTTP service's body handling, ASGI in process),
            views (table and seat views of generated games, edited: the face-down paths),
            uno (a UNO Duo log: its reader, its writer both ways and its check)

    .venv/bin/python fuzz/run.py check -max_total_time=60        # a minute
    .venv/bin/python fuzz/run.py text -runs=1000000 -jobs=1       # the long run: a million inputs

The seeds are every log under fixtures/ (the rule fixtures, the digest's examples and the
conformance corpus) and the hostile shapes of issue 22 (hostile_seeds), copied into fuzz/out/corpus-TARGET/, where libFuzzer also keeps the new
inputs it finds. A crash writes fuzz/out/TARGET-crash-* (the input); turn it into a regression input
in fuzz/regressions/TARGET-NAME.bin, which tests/test_fuzz.py replays.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = Path(os.environ.get("DOSVERIFY_FUZZ_OUT", HERE / "out"))  # corpora and crashes (gitignored)
MAX_LEN = 16384  # the default -max_len (see main)
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))


def seeds(game: str = "dos") -> list[Path]:
    return sorted(
        p
        for p in (ROOT / "fixtures" / game).rglob("*")
        if p.is_file() and (p.suffix == ".log" or (p.suffix == ".json" and not p.name.endswith(".expected.json")))
    )


UNO_SEEDS = 40  # the uno target's generated seeds: simulated games in every rendering, some options


def uno_seeds() -> dict[str, bytes]:
    """UNO Duo logs for the uno target, beside fixtures/uno-duo/: seeded simulated games, each in
    one of the notation's renderings (deck or not, hands, single draws, CRLF, BOM, ...), some under
    an option, a few in the JSON form."""
    import json
    import random

    from dosverify.games.uno_duo.simulate import simulate, simulate_json
    from dosverify.games.uno_duo.simulate.cards import OPTIONS
    from dosverify.games.uno_duo.simulate.emit import STYLES

    rng = random.Random(23)
    styles = sorted(STYLES)
    out = {}
    for i in range(UNO_SEEDS):
        key = rng.choice(sorted(OPTIONS))
        opts = {key: rng.choice(OPTIONS[key])} if i % 2 else {}
        if i % 8 == 7:
            out[f"sim-{i}.json"] = json.dumps(simulate_json(seed=i, options=opts)).encode()
            continue
        text = simulate(seed=i, options=opts, style=styles[i % len(styles)])
        out[f"sim-{i}.log"] = text.encode("utf-8")[:MAX_LEN]
    return out


VIEW_SEEDS = 96  # the views target's seeds: a game and a view each (targets.view_game), a few edits


def view_seeds() -> list[bytes]:
    """Short inputs for the views target: every view of many games, some with edits."""
    import random

    rng = random.Random(20)
    return [bytes(rng.randrange(256) for _ in range(4 + 2 * (i % 4))) for i in range(VIEW_SEEDS)]


def hostile_seeds() -> dict[str, bytes]:
    """The shapes that once cost quadratic time or memory for every finding (issue 22), each
    within MAX_LEN: many bad lines, many empty turns, many empty rounds (five findings each),
    many findings of every kind, and a JSON log of many empty rounds."""
    import json

    head = b"dos 1\nplayers ann bob\n"
    rounds = [{"number": i, "setup": [], "turns": [], "shows": []} for i in range(1, 280)]
    return {
        "bad-lines.log": head + b"x\n" * 2000,
        "junk-lines.log": head + b"".join(b"X%d = not a line\n" % i for i in range(900)),
        "empty-turns.log": head + b"round 1\ndealer ann\n" + b"turn\n" * 2000,
        "turns-without-events.log": head + b"round 1\ndealer ann\n" + b"turn ann\nturn bob\n" * 800,
        "empty-rounds.log": head + b"".join(b"round %d\n" % i for i in range(1, 1500)),
        "mixed-findings.log": head + b"round 1\nturn Ann\nplace B99\nmatch R1 with R2\nx\n" * 300,
        "cr-only.log": (head + b"round 1\ndealer ann\n").replace(b"\n", b"\r") * 50,
        "json-empty-rounds.json": json.dumps({"dos": 1, "players": ["ann", "bob"], "rounds": rounds}).encode(),
    }


def corpus_dir(target: str) -> Path:
    d = OUT / f"corpus-{target}"
    d.mkdir(parents=True, exist_ok=True)
    if target == "views":
        for i, data in enumerate(view_seeds()):
            (d / f"seed-{i:04d}").write_bytes(data)
        return d
    if target == "uno":
        named = [(p.name, p.read_bytes) for p in seeds("uno-duo")]
        named += [(n, lambda b=b: b) for n, b in uno_seeds().items()]
    else:
        named = [(p.name, p.read_bytes) for p in seeds()]
        named += [(f"hostile-{n}", lambda b=b: b) for n, b in hostile_seeds().items()]
    for i, (name, read) in enumerate(named):
        dst = d / f"seed-{i:04d}-{name}"
        if not dst.exists():
            data = read()[:MAX_LEN]
            if target == "service":  # the first byte picks the endpoint: text check / JSON check
                data = (b"\x01" if name.endswith(".json") else b"\x00") + data
            dst.write_bytes(data)
    return d


def _build_view_pool(dirs: list[str]) -> None:
    """The views target's games that the corpus names, simulated in a plain (uninstrumented) process
    and kept in OUT/pool-views/; the rest are built as inputs first name them."""
    import subprocess

    paths = [str(p) for d in dirs for p in (Path(d).iterdir() if Path(d).is_dir() else [Path(d)]) if p.is_file()]
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]; import targets; "
        "n = targets.build_pool([open(p, 'rb').read(2) for p in sys.argv[3:]]); print(n, 'pool games', file=sys.stderr)"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(HERE), str(ROOT), *paths],
        check=True,
        env=dict(os.environ, DOSVERIFY_FUZZ_OUT=str(OUT)),
    )


def main() -> None:
    import atheris

    if len(sys.argv) < 2 or sys.argv[1] not in ("text", "json", "check", "service", "views", "uno"):
        sys.exit(__doc__)
    target = sys.argv[1]
    flags = [a for a in sys.argv[2:] if a.startswith("-")]
    dirs = [a for a in sys.argv[2:] if not a.startswith("-")] or [str(corpus_dir(target))]
    if target == "views":
        _build_view_pool(dirs)
    # dosverify and the fuzz targets are instrumented for coverage; Lark too with FUZZ_LARK=1 (slower)
    include = ["dosverify", "targets"] + (["lark"] if os.environ.get("FUZZ_LARK") else [])
    with atheris.instrument_imports(include=include):
        import targets as fuzz_targets

        import dosverify.api
        import dosverify.games.dos.hide
        import dosverify.games.dos.jsonform
        import dosverify.games.dos.notation
        import dosverify.games.dos.referee
        import dosverify.games.dos.simulate
        import dosverify.games.uno_duo.check
        import dosverify.games.uno_duo.jsonform
        import dosverify.games.uno_duo.notation
        import dosverify.games.uno_duo.referee
        import dosverify.report

        if target == "service":
            import dosverify.service  # noqa: F401
    fn = fuzz_targets.TARGETS[target]
    fn(b"dos 1\n")  # load the spec and build the parser before the clock starts
    out = OUT
    out.mkdir(parents=True, exist_ok=True)
    if not any(f.startswith("-artifact_prefix") for f in flags):
        flags.append(f"-artifact_prefix={out}/{target}-")
    if not any(f.startswith("-max_len") for f in flags):
        # 16 KiB holds every seed whole (the longest, a conformance game, is 12 KB): longer inputs
        # only cost time, a line or a log's length is proved linear by counting (test_long_lines.py,
        # test_linear_work.py), and the bugs fuzzing finds are in the shapes and orders of lines
        # (views: 4 bytes name the game and view, two more each edit; more than 60 edits is noise)
        flags.append(f"-max_len={124 if target == 'views' else MAX_LEN}")
    atheris.Setup([sys.argv[0], *flags, *dirs], fn)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
