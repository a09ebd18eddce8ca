"""Each output format read back by what consumes it: SARIF by its JSON schema, JUnit XML by a JUnit
parser, GitHub workflow commands and GitLab Code Quality by their documented shapes; and the
options that choose what fails (--select, --ignore, --warnings-as-errors, --exit-zero, --statistics)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "fixtures/dos/notation/example.log"
ILLEGAL = ROOT / "fixtures/dos/digest/s1-example1-illegal.log"
MANY = ROOT / "fixtures/dos/games/several-mistakes.log"  # several rules and kinds, independent of the corpus
SCHEMA = Path(__file__).parents[1] / "schemas" / "sarif-2.1.0-rtm.5.json"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def _findings(path: Path) -> list[dict]:
    return json.loads(run("check", "--format", "json", str(path)).stdout)["findings"]


def test_sarif_is_valid_and_carries_the_rules(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    out = tmp_path / "out.sarif"
    r = run("check", "--format", "sarif", "-o", str(out), str(LEGAL), str(MANY.relative_to(ROOT)), "no/such.log")
    assert r.returncode == 2 and r.stdout == ""
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    run0 = doc["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    assert {x["id"] for x in rules} == {x["id"] for x in json.loads(run("rules", "--format", "json").stdout)["rules"]}
    double = next(x for x in rules if x["id"] == "match.double")
    assert double["shortDescription"]["text"] and double["properties"]["sources"] and double["help"]["text"]
    expected = _findings(MANY)
    assert [(x["ruleId"], x["locations"][0]["physicalLocation"]["region"]["startLine"]) for x in run0["results"]] == [
        (f["rule"], f["line"]) for f in expected
    ]
    assert all(rules[x["ruleIndex"]]["id"] == x["ruleId"] for x in run0["results"])
    assert (
        run0["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        == MANY.relative_to(ROOT).as_posix()
    )
    assert any("no/such.log" in n["message"]["text"] for n in run0["invocations"][0]["toolExecutionNotifications"])


def test_junit_is_read_back_by_a_junit_parser(tmp_path: Path) -> None:
    junitparser = pytest.importorskip("junitparser")
    out = tmp_path / "out.xml"
    (tmp_path / "bad.log").write_text("not a log\n")
    r = run("check", "--format", "junit", "-o", str(out), str(LEGAL), str(ILLEGAL), str(tmp_path / "bad.log"))
    assert r.returncode == 2
    xml = junitparser.JUnitXml.fromfile(str(out))
    cases = [c for suite in xml for c in suite]
    assert [c.name for c in cases] == [str(LEGAL), str(ILLEGAL), str(tmp_path / "bad.log")]
    assert cases[0].is_passed
    (failure,) = cases[1].result
    assert isinstance(failure, junitparser.Failure) and failure.type == "draw-order"
    assert f"{ILLEGAL}:27:3: error[draw-order]" in failure.text
    (error,) = cases[2].result
    assert isinstance(error, junitparser.Error)
    suite = next(iter(xml))
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 1)


def test_github_annotations() -> None:
    r = run("check", "--format", "github", str(ILLEGAL.relative_to(ROOT)))
    assert r.returncode == 1
    cmds = [line for line in r.stdout.splitlines() if line.startswith("::")]
    assert len(cmds) == len(_findings(ILLEGAL))
    f = _findings(ILLEGAL)[0]
    head, msg = cmds[0][2:].split("::", 1)
    level, props = head.split(" ", 1)
    props = dict(p.split("=", 1) for p in props.split(","))
    assert level == "error"
    assert props == {
        "file": ILLEGAL.relative_to(ROOT).as_posix(),
        "line": str(f["line"]),
        "col": str(f["column"]),
        "title": f"{f['kind']} ({f['rule']})",
    }
    assert msg.startswith(f["message"].replace("%", "%25")) and "\n" not in msg


def test_gitlab_code_quality() -> None:
    r = run("check", "--format", "gitlab", str(LEGAL), str(MANY))
    issues = json.loads(r.stdout)
    assert r.returncode == 1 and len(issues) == len(_findings(MANY))
    for i in issues:
        assert set(i) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert i["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert i["location"]["path"] == str(MANY) and i["location"]["lines"]["begin"] >= 1
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_select_ignore_and_exit_zero() -> None:
    kinds = {f["kind"] for f in _findings(MANY)}
    assert "illegal-match" in kinds and len(kinds) > 1
    r = run("check", "--format", "json", "--ignore", ",".join(kinds), str(MANY))
    assert r.returncode == 0 and json.loads(r.stdout)["verdict"] == "legal"
    r = run("check", "--format", "json", "--select", "illegal-match", str(MANY))
    assert r.returncode == 1 and {f["kind"] for f in json.loads(r.stdout)["findings"]} == {"illegal-match"}
    r = run("check", "--format", "json", "--select", "match", str(MANY))  # a section of rule ids
    assert all(f["rule"].startswith("match.") for f in json.loads(r.stdout)["findings"])
    assert run("check", "--exit-zero", str(MANY)).returncode == 0
    r = run("check", "--select", "ilegal-match", str(MANY))
    assert r.returncode == 2 and "did you mean illegal-match" in r.stderr


def test_warnings_as_errors(tmp_path: Path) -> None:
    from dosverify.spec import load_spec

    warn = [r.id for r in load_spec("dos").rules.values() if r.severity == "warning"]
    assert warn
    fx = sorted((ROOT / "fixtures/dos/rules" / warn[0]).glob("*illegal*.log"))[0]
    d = json.loads(run("check", "--format", "json", str(fx)).stdout)
    assert d["verdict"] == "legal" and any(f["severity"] == "warning" for f in d["findings"])
    r = run("check", "--format", "json", "--warnings-as-errors", str(fx))
    assert r.returncode == 1 and json.loads(r.stdout)["verdict"] == "illegal"


def test_statistics_table() -> None:
    r = run("check", "-q", "--statistics", str(MANY), str(LEGAL))
    fs = _findings(MANY)
    assert "count  rule" in r.stdout and "count  kind" in r.stdout
    for rule in {f["rule"] for f in fs}:
        n = sum(1 for f in fs if f["rule"] == rule)
        assert f"{n:>6}  {rule}\n" in r.stdout
    assert f"{len(fs)} findings in all" in r.stdout


def test_settings_file_found_upward_and_overridden(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.dosverify]\nignore = ["illegal-match"]\nmax-errors = 1\n'
    )
    sub = tmp_path / "logs" / "deep"
    sub.mkdir(parents=True)
    d = json.loads(run("check", "--format", "json", str(MANY), cwd=sub).stdout)
    assert d["findings"] and all(f["kind"] != "illegal-match" for f in d["findings"]) and len(d["findings"]) == 1
    d = json.loads(run("check", "--format", "json", "--isolated", str(MANY), cwd=sub).stdout)
    assert any(f["kind"] == "illegal-match" for f in d["findings"]) and len(d["findings"]) > 1
    d = json.loads(run("check", "--format", "json", "--max-errors", "0", str(MANY), cwd=sub).stdout)
    assert len(d["findings"]) > 1 and d["truncated"] == 0  # the command line wins
    (sub / "dosverify.toml").write_text('select = ["mis-scored"]\n')  # nearer, and dosverify.toml first
    d = json.loads(run("check", "--format", "json", str(MANY), cwd=sub).stdout)
    assert {f["kind"] for f in d["findings"]} == {"mis-scored"}
    other = tmp_path / "other.toml"
    other.write_text('ruleset = "italian"\n')
    d = json.loads(run("check", "--format", "json", "--config", str(other), str(LEGAL), cwd=sub).stdout)
    assert d["ruleset"] == "italian"


def test_a_bad_settings_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "dosverify.toml").write_text("max-erors = 3\n")
    r = run("check", str(LEGAL), cwd=tmp_path)
    assert r.returncode == 2 and "unknown setting `max-erors`; did you mean `max-errors`?" in r.stderr
    (tmp_path / "dosverify.toml").write_text('max-errors = "3"\n')
    r = run("check", str(LEGAL), cwd=tmp_path)
    assert r.returncode == 2 and "`max-errors` must be an integer" in r.stderr and "Traceback" not in r.stderr


def test_settings_file_sets_options_under_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "dosverify.toml").write_text('[options]\ndcm-draws = "at-once"\nround-end = "at-once"\n')
    d = json.loads(run("check", "--format", "json", str(LEGAL), cwd=tmp_path).stdout)
    assert d["options"]["dcm-draws"] == "at-once" and d["options"]["round-end"] == "at-once"
    d = json.loads(
        run("check", "--format", "json", "--option", "dcm-draws=end-of-turn", str(LEGAL), cwd=tmp_path).stdout
    )
    assert d["options"]["dcm-draws"] == "end-of-turn" and d["options"]["round-end"] == "at-once"  # key by key
    (tmp_path / "dosverify.toml").write_text("[options]\ndcm-draws = 3\n")
    r = run("check", str(LEGAL), cwd=tmp_path)
    assert r.returncode == 2 and "`options` must be a table" in r.stderr
    (tmp_path / "dosverify.toml").write_text('[options]\ndcm-draws = "sometimes"\n')
    r = run("check", str(LEGAL), cwd=tmp_path)
    assert r.returncode == 2 and "dcm-draws" in r.stderr and "Traceback" not in r.stderr
