"""A third game proves the core knows none (issue 30 step 5): Tiny (tests/packs/tinygame), a pack in
its own distribution whose spec, grammar and fixtures live in its own package, goes through every
path: `check` (text, JSON, SARIF), `explain`, `rules`, `rulesets`, `simulate`, `convert`, an
event's audits and standings (SQLite, ranked lower-first by its result rule), and the HTTP service
(`/v1/check`, `/v1/rules`, `/v1/games`, `/v1/replay`, the OpenAPI document). Skipped when the pack
is not installed (`pip install -e tests/packs/tinygame`), except under CI (CI=true), where it fails."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dosverify.games import REGISTRY

if "tiny" not in REGISTRY:  # pragma: no cover - the pack is installed by .ci/run and the README's command
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("the tiny pack is not installed: pip install -e tests/packs/tinygame", pytrace=False)
    pytest.skip("the tiny pack is not installed (pip install -e tests/packs/tinygame)", allow_module_level=True)

from dosverify import api
from dosverify.cli import main
from dosverify.games import find_game

PACK = find_game("tiny")
FIX = PACK.fixtures_path() / "rules"
ILLEGAL = FIX / "play.follow" / "illegal.log"
LEGAL = FIX / "score.round" / "legal-winner.log"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_pack_is_its_own_distribution_with_its_own_data():
    assert REGISTRY["tiny"].dist == "dosverify-tinygame"
    import dosverify

    core = Path(dosverify.__file__).resolve().parent
    for path in (PACK.spec_path(), PACK.fixtures_path()):
        assert core not in path.resolve().parents  # nothing of it is in dosverify's own folders
    assert PACK.spec().game == "tiny" and PACK.spec() is not find_game("uno-duo").spec()
    assert PACK.spec().rules["play.held"].kind != find_game("uno-duo").spec().rules["play.held"].kind  # never collide


def test_check_text_json_and_sarif(capsys, tmp_path):
    status, out, _ = run(capsys, "check", str(LEGAL), str(ILLEGAL))
    assert status == 1 and ": legal:" in out and ": illegal:" in out and "play.follow" in out
    status, out, _ = run(capsys, "check", "--format", "json", str(ILLEGAL))
    report = json.loads(out)
    assert report["game"] == "tiny" and [f["rule"] for f in report["findings"]] == ["play.follow"]
    status, out, _ = run(
        capsys, "check", "--format", "sarif", str(ILLEGAL), "fixtures/uno-duo/rules/play.held/illegal.log"
    )
    runs = {r["tool"]["driver"]["properties"]["game"]: r for r in json.loads(out)["runs"]}
    assert sorted(runs) == ["tiny", "uno-duo"]  # a run per game
    for one in runs.values():
        rules = one["tool"]["driver"]["rules"]
        for res in one["results"]:
            assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    assert all(r["properties"]["game"] == "tiny" for r in runs["tiny"]["tool"]["driver"]["rules"])


def test_convert_both_ways_and_json_check(capsys, tmp_path):
    status, out, _ = run(capsys, "convert", str(LEGAL), "--to", "json")
    assert status == 0 and json.loads(out)["tiny"] == 1
    doc = tmp_path / "game.json"
    doc.write_text(out, encoding="utf-8")
    assert api.check(doc.read_bytes()).verdict == "legal"
    status, back, _ = run(capsys, "convert", str(doc), "--to", "text")
    assert status == 0 and back.startswith("tiny 1\n") and api.check(back).verdict == "legal"


def test_explain_rules_rulesets_and_simulate(capsys, tmp_path):
    status, out, _ = run(capsys, "explain", "draw.stuck")  # only Tiny has it: found without --game
    assert status == 0 and "draw.stuck: A player draws only when they cannot play" in out
    assert "README.md" in out and "fixtures/rules/draw.stuck/" in out
    status, out, _ = run(capsys, "explain", "play.held")  # UNO Duo's and Tiny's, in the packs' rank
    assert status == 0 and out.index("== UNO Duo (`--game uno-duo`) ==") < out.index("== Tiny (`--game tiny`) ==")
    assert out.count("play.held: ") == 2 and "README.md" in out.split("== Tiny")[1]
    status, out, _ = run(capsys, "explain", "play.held", "--format", "json")  # one object: the higher rank's
    assert status == 0 and json.loads(out)["id"] == "play.held" and "README.md" not in out
    status, out, _ = run(capsys, "explain", "play.held", "--game", "tiny")
    assert status == 0 and "card-accounting" in out
    status, out, _ = run(capsys, "rules", "--game", "tiny")
    assert status == 0 and out.startswith("Tiny rules specification 1.0.0: 6 rules")
    status, out, _ = run(capsys, "rulesets", "--game", "tiny")
    assert status == 0 and "relaxed" in out and "forced-play" in out
    status, out, _ = run(capsys, "simulate", "--game", "tiny", "--seed", "5", "--whole-game")
    assert status == 0 and out.startswith("tiny 1\n") and "winner " in out
    assert api.check(out).verdict == "legal"


def test_an_event_ranks_tiny_lower_first(capsys, tmp_path):
    data = tmp_path / "data"
    logs = []
    for seed in range(3):
        path = tmp_path / f"g{seed}.log"
        path.write_text(PACK.simulate(seed=seed, whole_game=True), encoding="utf-8")
        logs.append(str(path))
    assert run(capsys, "event", "create", "cup", "--data", str(data))[0] == 0
    status, out, err = run(capsys, "event", "add", "cup", *logs, "--data", str(data))
    assert status == 0, err
    status, out, _ = run(capsys, "event", "standings", "cup", "--data", str(data), "--format", "json")
    assert status == 0, out
    doc = json.loads(out)
    assert doc["points_better"] == "lower" and doc["rules"] == [
        {"game": "tiny", "title": "Tiny", "points_better": "lower", "summary": PACK.result_rule.summary}
    ]
    rows = doc["standings"]
    wins = {r["player"]: r["wins"] for r in rows}
    points = {r["player"]: r["points"] for r in rows}
    assert sum(wins.values()) == 3
    results = [PACK.result(Path(p).read_text(), PACK.check(Path(p).read_text(), whole=True)) for p in logs]
    for res in results:
        assert res is not None and res.finished and res.points[res.winner] == min(res.points.values())
    assert points == {p: sum(r.points[p] for r in results) for p in points}


def test_http_check_rules_games_replay_and_openapi():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    body = ILLEGAL.read_bytes()
    with TestClient(create_app()) as c:
        r = c.post("/v1/check", content=body, headers={"content-type": "text/plain"})
        assert r.status_code == 200 and r.json()["game"] == "tiny" and r.json()["verdict"] == "illegal"
        r = c.get("/v1/rules", params={"game": "tiny"})
        assert r.status_code == 200 and {x["id"] for x in r.json()["rules"]} == set(PACK.spec().rules)
        r = c.get("/v1/rules/draw.stuck", params={"game": "tiny"})
        assert r.status_code == 200 and r.json()["kind"] == "illegal-play"
        games = c.get("/v1/games").json()
        assert "tiny" in [g["name"] for g in games["games"]]
        r = c.post("/v1/replay", content=body, headers={"content-type": "text/plain"})
        replay = r.json()
        assert r.status_code == 200 and replay["view"] == "generic" and replay["game"] == "tiny"
        assert replay["states"] and "top card" in replay["states"][0]["state"]
        [k] = [i for s in replay["states"] for i in s["findings"]]
        assert replay["report"]["findings"][k]["rule"] == "play.follow"
        doc = c.get("/openapi.json").json()
        assert "tiny" in json.dumps(doc["paths"]["/v1/rules"])
