"""`check --ruleset auto` and `POST /v1/check/batch?ruleset=auto`: one inference over all the logs
given (as `dosverify profile`), then every log judged under it, the choice named in each report."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dosverify.games.dos.simulate import simulate_text

ROOT = Path(__file__).resolve().parents[2]
ENGINE = {"dcm-draws": "at-once", "deal-from": "first-seat"}
NAMED = "ruleset italian with dcm-draws=at-once, deal-from=first-seat"


def engine_log(players: int, seed: int, ruleset: str = "italian", options: dict = ENGINE) -> str:
    """A simulated game as a program writes it: no `ruleset` or `option` line in its header."""
    return re.sub(r"(?m)^(option|ruleset) .*\n", "", simulate_text(players, seed, ruleset=ruleset, options=options))


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        text=stdin is None,
    )


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("engine")
    for s in range(4):
        (d / f"g{s}.log").write_text(engine_log(2 + s % 3, s), encoding="utf-8")
    return d


def test_cli_infers_and_names_its_choice(logs):
    r = run("check", "--ruleset", "auto", str(logs))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"--ruleset auto: {NAMED} (inferred from 4 logs)" in r.stderr
    summaries = [line for line in r.stdout.splitlines() if ": legal:" in line]
    assert len(summaries) == 4
    assert all(f"{NAMED} (--ruleset auto: inferred from 4 logs)" in line for line in summaries)
    assert run("check", str(logs)).returncode == 1  # under the logs' own (official) rules they are illegal


def test_cli_json_lines_carry_the_choice(logs):
    r = run("check", "--ruleset", "auto", "--format", "json", str(logs))
    assert r.returncode == 0, r.stderr
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(reports) == 4
    for rep in reports:
        auto = rep["auto"]
        assert rep["ruleset"] == auto["ruleset"] == "italian" and rep["verdict"] == "legal"
        assert auto["named"] == NAMED.removeprefix("ruleset ") and auto["logs"] == 4 and auto["fixed"] == {}
        assert rep["options"] == auto["options"] and auto["options"]["dcm-draws"] == "at-once"
        assert {"dcm-draws", "deal-from", "no-match-after-draw"} <= set(auto["decided"])
    plain = json.loads(run("check", "--format", "json", str(logs / "g0.log")).stdout)
    assert "auto" not in plain  # left out of a report that was not inferred


def test_cli_option_stays_fixed(logs):
    r = run("check", "--ruleset", "auto", "--option", "dcm-draws=end-of-turn", "--format", "json", str(logs))
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    auto = reports[0]["auto"]
    assert auto["fixed"] == {"dcm-draws": "end-of-turn"} and "dcm-draws" not in auto["decided"]
    assert auto["options"]["dcm-draws"] == "end-of-turn" and auto["options"]["deal-from"] == "first-seat"
    # the engine draws at once: under the fixed value some logs break bonus.draw-time, and the exit says so
    assert r.returncode == 1
    assert any(f["rule"] == "bonus.draw-time" for rep in reports for f in rep["findings"])


def test_cli_auto_over_the_logs_own_lines_and_stdin(logs, tmp_path):
    """The inference judges over a log's own `ruleset` and `option` lines, as `--ruleset NAME` overrides
    the first; standard input is read once and profiled with the files."""
    text = engine_log(3, 9)
    lying = text.replace("players", "ruleset official\noption dcm-draws end-of-turn\nplayers", 1)
    assert run("check", "-", stdin=lying.encode()).returncode == 1
    r = subprocess.run(
        [sys.executable, "-m", "dosverify", "check", "--ruleset", "auto", "--format", "json", "-", str(logs)],
        input=lying.encode(),
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    assert reports[0]["file"] == "-" and len(reports) == 5
    assert all(rep["auto"]["logs"] == 5 and rep["verdict"] == "legal" for rep in reports)


def test_cli_illegal_log_stays_illegal_and_misuse(logs, tmp_path):
    bad = tmp_path / "bad.log"
    bad.write_text((ROOT / "fixtures/dos/rules/match.held/illegal.log").read_text(encoding="utf-8"), encoding="utf-8")
    r = run("check", "--ruleset", "auto", "-q", str(logs), str(bad))
    assert r.returncode == 1
    assert re.search(r"bad\.log: illegal: .*\(--ruleset auto: inferred from 5 logs\)", r.stdout)
    assert run("check", "--ruleset", "auto", str(tmp_path / "missing.log")).returncode == 2
    r = run("check", "--ruleset", "autox", str(bad))
    assert r.returncode == 2 and "or auto" in r.stderr


def test_api_batch_auto():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    body = [{"name": f"g{s}", "log": engine_log(2 + s % 3, s)} for s in range(3)]
    with TestClient(create_app()) as client:
        plain = client.post("/v1/check/batch", json=body).json()
        assert plain["illegal"] >= 1 and "auto" not in plain
        r = client.post("/v1/check/batch", params={"ruleset": "auto"}, json=body)
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["legal"] == 3 and data["auto"]["ruleset"] == "italian" and data["auto"]["logs"] == 3
        assert all(rep["auto"] == data["auto"] and rep["ruleset"] == "italian" for rep in data["reports"])
        r = client.post("/v1/check/batch", params={"ruleset": "auto", "option": "dcm-draws=end-of-turn"}, json=body)
        assert r.status_code == 200 and r.json()["auto"]["fixed"] == {"dcm-draws": "end-of-turn"}
        assert client.post("/v1/check/batch", params={"ruleset": "auto"}, json=[]).json()["count"] == 0
        # one log alone is not a batch to infer from: /v1/check keeps to named rulesets
        assert (
            client.post(
                "/v1/check", params={"ruleset": "auto"}, content=body[0]["log"], headers={"content-type": "text/plain"}
            ).status_code
            == 422
        )
        params = client.get("/openapi.json").json()["paths"]["/v1/check/batch"]["post"]["parameters"]
        assert "auto" in next(p for p in params if p["name"] == "ruleset")["schema"]["enum"]
