"""The UNO Duo conformance corpus (fixtures/uno-duo/conformance/): what is bundled is what the
exporter writes, byte for byte, and every file means what its name says (y_ legal; n_ rejected
with the first error its .expected.json names), judged by the referee and by the command line."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from dosverify.cli import main
from dosverify.games import find_game
from dosverify.games.uno_duo.corpus import generate, render, run_corpus

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "fixtures" / "uno-duo" / "conformance"
PACK = find_game("uno-duo")


@pytest.fixture(scope="module")
def built() -> dict[str, bytes]:
    return render(generate())


@pytest.mark.slow  # the whole corpus exported again
def test_bundled_corpus_is_what_the_exporter_writes(built):
    on_disk = {p.name: p.read_bytes() for p in BUNDLED.iterdir() if p.is_file()}
    stale = sorted(set(on_disk) ^ set(built)) + sorted(n for n in built if on_disk.get(n) != built[n])
    assert not stale, f"regenerate it: `dosverify corpus --game uno-duo build` ({stale[:5]})"


def test_corpus_covers_every_kind_of_case(built):
    names = [n for n in built if n[:2] in ("y_", "n_") and ".expected." not in n]
    for prefix in ("y_game_", "y_option_", "y_example_", "y_rule_", "n_example_", "n_rule_"):
        assert any(n.startswith(prefix) for n in names), prefix
    mutants = [n for n in names if n.startswith("n_") and not n.startswith(("n_rule_", "n_example_"))]
    operators = {op for op in PACK.operators() if any(f"_{op}_" in n for n in mutants)}
    assert len(operators) >= 15, sorted(set(PACK.operators()) - operators)
    readme = built["README.txt"].decode()
    assert f"{len(names)} logs" in readme and "y_*.log" in readme and "n_*.log" in readme


def _first_error(findings):
    errors = [f for f in findings if f.severity == "error"]
    return min(errors, key=lambda f: f.line if f.line is not None else 1 << 60) if errors else None


def test_every_file_means_what_its_name_says():
    cases = sorted(p for p in BUNDLED.iterdir() if p.name[:2] in ("y_", "n_") and ".expected." not in p.name)
    assert len(cases) > 100
    for path in cases:
        report = PACK.check(path.read_bytes(), name=path.name)
        if path.name.startswith("y_"):
            assert report.verdict == "legal", (path.name, [(f.line, f.rule) for f in report.findings][:3])
            continue
        exp = json.loads(path.with_name(path.name.rsplit(".", 1)[0] + ".expected.json").read_text())
        first = _first_error(report.findings)
        assert report.verdict == exp["verdict"] != "legal", path.name
        assert first is not None and (first.rule, first.kind, first.line) == (exp["rule"], exp["kind"], exp["line"]), (
            path.name,
            first,
            exp,
        )


def test_corpus_commands(tmp_path, capsys):
    out = tmp_path / "export"
    assert main(["corpus", "--game", "uno-duo", "export", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in BUNDLED.iterdir())
    # an outside checker over a sample of it: the command line itself, graded strictly
    sample = tmp_path / "sample"
    sample.mkdir()
    picked = [p for p in sorted(out.iterdir()) if p.name.startswith(("y_game_canonical", "n_rule_draw"))]
    for p in picked:
        (sample / p.name).write_bytes(p.read_bytes())
    cmd = f"{shlex.quote(sys.executable)} -m dosverify check --format json {{file}}"
    n, failures = run_corpus(sample, cmd, strict=True)
    assert n >= 3 and not failures, failures
    # a checker that accepts everything fails every n_ case
    n, failures = run_corpus(sample, "true {file}", strict=False)
    assert failures and all(name.startswith("n_") for name, _ in failures)
    capsys.readouterr()
    assert main(["corpus", "--game", "uno-duo", "run", "--dir", str(sample), "--cmd", "true {file}"]) == 1
    assert "cases passed" in capsys.readouterr().out
