"""`dosverify check --dask` on a folder holding both games' logs, on a real LocalCluster of 2 worker
processes: each log is judged by its own game's rules (the report's `game`, the rule ids of its
findings), and the output is the plain `check`'s, byte for byte, as for DOS alone (tests/core/test_dask.py)."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stderr, redirect_stdout

import pytest

pytest.importorskip("distributed")

from dosverify.cli import main
from dosverify.games import find_game


@pytest.fixture(scope="module")
def scheduler():
    import logging

    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        yield cluster.scheduler_address


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Legal games and one-defect mutants of both games, side by side, text and JSON; the game and
    the mutant's rule and line each file must be judged by."""
    d = tmp_path_factory.mktemp("mixed")
    want: dict[str, tuple] = {}
    rng = random.Random(6)
    for game in ("dos", "uno-duo"):
        pack = find_game(game)
        styles = pack.styles()
        ops = sorted(pack.operators().items())
        for seed in range(4):
            text = pack.simulate(seed=seed, style=styles[seed % len(styles)])
            name = f"{game}-legal-{seed}.log"
            (d / name).write_text(text, encoding="utf-8", newline="")
            want[name] = (game, None)
            for op_name, op in ops[seed * 3 : seed * 3 + 3]:
                m = op(text, rng)
                if m is not None and m.kind != "syntax":
                    name = f"{game}-{op_name}-{seed}.log"
                    (d / name).write_text(m.text, encoding="utf-8", newline="")
                    want[name] = (game, (m.rule, m.line))
        parsed = pack.parse(pack.simulate(seed=9))
        (d / f"{game}-legal-9.json").write_text(pack.dump_json(parsed.log), encoding="utf-8")
        want[f"{game}-legal-9.json"] = (game, None)
    return d, want


def test_each_log_is_judged_by_its_own_game(folder):
    d, want = folder
    status, out, _ = run(["check", "--format", "json", str(d)])
    reports = {r["file"].rsplit("/", 1)[-1]: r for r in map(json.loads, out.splitlines()) if r.get("file")}
    assert set(reports) == set(want) and status == 1
    assert {g for g, _ in want.values()} == {"dos", "uno-duo"} and sum(m is not None for _, m in want.values()) >= 8
    rules = {g: set(find_game(g).spec().rules) for g in ("dos", "uno-duo")}
    for name, (game, mutant) in want.items():
        r = reports[name]
        assert r.get("game", "dos") == game, name  # a DOS report names no game (the default)
        assert all(f["rule"] in rules[game] for f in r["findings"]), name
        if mutant is None:
            assert r["verdict"] == "legal", (name, r["findings"][:3])
        else:
            assert r["verdict"] == "illegal"
            assert list(mutant) in [[f["rule"], f["line"]] for f in r["findings"] if f["severity"] == "error"], name


@pytest.mark.parametrize(
    "fmt",
    [["--format", "json"], ["--format", "text", "--color", "never"], ["--select", "play,draw", "--statistics"]],
)
def test_dask_on_both_games_equals_the_plain_cli(scheduler, folder, fmt):
    d, _ = folder
    plain = run(["check", *fmt, str(d)])
    assert run(["check", *fmt, "--dask", scheduler, str(d)]) == plain
    assert run(["check", *fmt, "-j", "2", str(d)]) == plain
    assert plain[0] == 1 and len(plain[1].splitlines()) >= 10
