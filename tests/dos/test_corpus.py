"""The conformance corpus (fixtures/dos/conformance/): our own referee must pass all of it, in
process, through the CLI and through the HTTP service; the committed corpus must equal a
fresh `dosverify corpus build` (rebuild it when the spec, the simulator, the mutation
operators or the rule fixtures change); and `corpus run` must catch a wrong checker."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dosverify.games.dos import corpus
from dosverify.games.dos.corpus import Case, Outcome, grade, load_cases, main_corpus, render, run_cases, sample
from dosverify.games.dos.mutate import OPERATORS

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import start_server, stop_server

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "dos" / "conformance"
RULESETS = {"official", "italian", "bosnian", "strict"}


def _failures(results) -> str:
    return "\n".join(f"{r.case.label}: expected {r.case.describe()}, got {r.why}" for r in results if not r.passed)


# ---- the corpus itself -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def fresh() -> dict[str, bytes]:
    return render(corpus.generate())


def test_build_is_deterministic(fresh):
    again = render(corpus.generate())
    assert list(fresh) == list(again)
    assert [n for n in fresh if fresh[n] != again[n]] == []


def test_committed_corpus_equals_a_fresh_build(fresh):
    have = {p.name: p.read_bytes() for p in CORPUS.iterdir() if p.is_file()}
    missing, extra = sorted(set(fresh) - set(have)), sorted(set(have) - set(fresh))
    changed = sorted(n for n in fresh if n in have and have[n] != fresh[n])
    assert not (missing or extra or changed), (
        "fixtures/dos/conformance/ is stale; run `dosverify corpus build` "
        f"(missing {missing[:5]}, extra {extra[:5]}, changed {changed[:5]})"
    )


def test_shape_and_size(fresh):
    logs = [n for n in fresh if n.endswith(".log")]
    # small enough to read, large enough to cover (main + the engine options' fixtures and i_engine_ entries: 393)
    assert 150 <= len(fresh) <= 500  # grows with the rule fixtures
    assert sum(len(b) for b in fresh.values()) < 400_000
    assert max(len(fresh[n]) for n in logs) < 12_000
    for n in logs:
        assert n[:2] in ("y_", "n_", "i_"), n
        exp = n[:-4] + ".expected.json"
        assert (exp in fresh) == (n[0] != "y"), n
    for n, data in fresh.items():
        if n.endswith(".expected.json"):
            e = json.loads(data)
            if n[0] == "n":
                assert e["verdict"] in ("illegal", "malformed") and e["kind"] and e["rule"], n
                assert e["line"] is None or e["line"] >= 1, n
            else:
                runs = list(e["verdicts"].values()) + [r["verdict"] for r in e.get("options", ())]
                assert set(e["verdicts"]) <= RULESETS and set(runs) == {"legal", "illegal"}, n
    # every mutation operator, several player counts and every ruleset are represented
    for op in OPERATORS:
        assert sum(f"_{op}_" in n for n in logs) >= 2, op
    for rs in RULESETS:
        assert any(n.startswith("y_game_") and f"_{rs}_" in n for n in logs), rs
    assert {n.split("_")[2] for n in logs if n.startswith("y_game_")} == {"2p", "3p", "4p"}


# ---- our own checker over the corpus ---------------------------------------------------------


def test_whole_corpus_in_process_strict():
    cases = load_cases(CORPUS)
    assert len(cases) > 200
    results = run_cases(cases, corpus.api_checker(), strict=True)
    assert all(r.passed for r in results), _failures(results)


@pytest.mark.slow  # a process per case
def test_whole_corpus_through_the_cli(capsys):
    cmd = f"{sys.executable} -m dosverify check --format json {{file}}"
    argv = ["run", "--cmd", cmd, "--strict", "-j", "4", "--timeout", "60"]
    status = main_corpus(argv)
    out = capsys.readouterr().out
    assert status == 0, out
    assert "y (accept)" in out and "failures" not in out


def test_whole_corpus_through_the_http_service(capsys):
    pytest.importorskip("uvicorn")
    proc, base = start_server()
    try:
        status = main_corpus(["run", "--url", base + "/v1/check", "--strict", "-j", "4", "--timeout", "30"])
        out = capsys.readouterr().out
        assert status == 0, out
        assert "i (per ruleset)" in out
    finally:
        stop_server(proc)


# ---- the runner catches wrong checkers --------------------------------------------------------


def test_a_checker_that_accepts_everything_fails_every_reject():
    cases = load_cases(CORPUS)
    results = run_cases(cases, lambda c: Outcome(True, None, "exit 0"))
    failed = {r.case.category for r in results if not r.passed}
    assert failed == {"n", "i"}
    assert all(r.passed for r in results if r.case.category == "y")


def test_strict_grading_on_rule_and_line():
    case = Case(Path("n_x.log"), "n", "reject", "illegal", "match.double", "illegal-match", 14)
    good = {
        "verdict": "illegal",
        "findings": [{"rule": "match.double", "line": 14}, {"rule": "bonus.card", "line": 20}],
    }
    assert grade(case, Outcome(False, good), strict=True).passed
    early = {
        "verdict": "illegal",
        "findings": [{"rule": "turn.order", "line": 9}, {"rule": "match.double", "line": 14}],
    }
    assert not grade(case, Outcome(False, early), strict=True).passed
    assert grade(case, Outcome(False, early), strict=False).passed
    wrong_verdict = {"verdict": "malformed", "findings": [{"rule": "match.double", "line": 14}]}
    assert not grade(case, Outcome(False, wrong_verdict), strict=True).passed
    assert grade(case, Outcome(False, None), strict=True).passed  # no JSON report: graded on the exit status
    assert not grade(case, Outcome(None, None, "timeout after 1 s"), strict=True).passed


def test_cmd_runner_passes_the_ruleset_flag_and_times_out(tmp_path):
    (tmp_path / "i_x.log").write_text("dos 1\n")
    (tmp_path / "i_x.expected.json").write_text(json.dumps({"verdicts": {"italian": "legal", "official": "illegal"}}))
    (tmp_path / "y_slow.log").write_text("dos 1\n")
    tool = tmp_path / "tool.py"
    tool.write_text(
        "import sys, time\n"
        "if 'slow' in sys.argv[-1] or (sys.argv[1:] and 'slow' in sys.argv[1]): time.sleep(5)\n"
        "sys.exit(0 if '--rules=italian' in sys.argv else 1)\n"
    )
    check = corpus.cmd_checker(f"{sys.executable} {tool} {{file}}", "--rules={ruleset}", timeout=1.0)
    results = run_cases(load_cases(tmp_path), check, jobs=2)
    by = {r.case.label: r for r in results}
    assert by["i_x.log [italian]"].passed and by["i_x.log [official]"].passed
    assert not by["y_slow.log"].passed and "timeout" in by["y_slow.log"].why


def test_engine_entries_cover_every_value(fresh):
    """An i_engine_ entry per value of each engine option (V12-V17), legal under it and illegal
    under the other, and one with every departure at once."""
    from dosverify.spec import load_spec

    engine = {k: v for k, v in load_spec("dos").options.items() if v.get("engine")}
    for key, opt in engine.items():
        for value in opt["values"]:
            [name] = [n for n in fresh if n.startswith(f"i_engine_{key}_{value}_") and n.endswith(".expected.json")]
            runs = json.loads(fresh[name])["options"]
            assert {(tuple(r["options"].items()), r["verdict"]) for r in runs} == {
                (((key, value),), "legal"),
                (((key, next(v for v in opt["values"] if v != value)),), "illegal"),
            }
    assert any(n.startswith("i_engine_every_departure_") for n in fresh)


def test_cmd_runner_passes_the_option_flag(tmp_path):
    (tmp_path / "i_x.log").write_text("dos 1\n")
    (tmp_path / "i_x.expected.json").write_text(
        json.dumps(
            {
                "verdicts": {"official": "illegal"},
                "options": [{"ruleset": "official", "options": {"dcm-draws": "at-once"}, "verdict": "legal"}],
            }
        )
    )
    tool = tmp_path / "tool.py"
    tool.write_text("import sys\nsys.exit(0 if '--set=dcm-draws:at-once' in sys.argv else 1)\n")
    check = corpus.cmd_checker(
        f"{sys.executable} {tool} {{file}}", "--rules={ruleset}", timeout=10.0, option_flag="--set={key}:{value}"
    )
    results = {r.case.label: r for r in run_cases(load_cases(tmp_path), check)}
    assert set(results) == {"i_x.log [official]", "i_x.log [official dcm-draws=at-once]"}
    assert all(r.passed for r in results.values()), results


def test_sample_spreads_over_categories():
    cases = load_cases(CORPUS)
    s = sample(cases, 30)
    assert 25 <= len(s) <= 35
    assert {c.category for c in s} == {"y", "n", "i"}
    assert sample(cases, 30) == s


def test_export_writes_the_corpus_and_a_readme(tmp_path, capsys):
    assert main_corpus(["export", str(tmp_path / "out")]) == 0
    out = tmp_path / "out"
    readme = (out / "README.txt").read_text()
    assert "y_" in readme and "n_" in readme and "i_" in readme and "exit" in readme
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in CORPUS.iterdir() if p.is_file())


@pytest.mark.slow  # builds the whole corpus again
def test_build_check_reports_a_stale_directory(tmp_path, capsys):
    d = tmp_path / "c"
    assert main_corpus(["build", "--dir", str(d)]) == 0
    assert main_corpus(["build", "--dir", str(d), "--check"]) == 0
    victim = sorted(d.glob("n_*.expected.json"))[0]
    victim.write_text("{}\n")
    (d / "y_stale.log").write_text("dos 1\n")
    assert main_corpus(["build", "--dir", str(d), "--check"]) == 1
    assert main_corpus(["build", "--dir", str(d)]) == 0
    assert not (d / "y_stale.log").exists()
    assert main_corpus(["build", "--dir", str(d), "--check"]) == 0
