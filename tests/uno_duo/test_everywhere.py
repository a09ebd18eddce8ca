"""UNO Duo goes where a DOS log goes: its commands, its standings, mixed folders, SARIF, the service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dosverify.cli import main
from dosverify.games import find_game

SEEDS = (1, 2, 3)


def _run(capsys, argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


@pytest.mark.parametrize("seed", SEEDS)
def test_simulate_command_writes_a_legal_uno_duo_log(tmp_path, capsys, seed):
    out = tmp_path / "g.log"
    code, _ = _run(capsys, ["simulate", "--game", "uno-duo", "--seed", str(seed), "--whole-game", "-o", str(out)])
    assert code == 0
    text = out.read_text()
    assert text.startswith("uno-duo 1")
    code, stdout = _run(capsys, ["check", str(out), "--format", "json"])
    report = json.loads(stdout)
    assert code == 0, report["findings"]
    assert report["verdict"] == "legal" and report["game"] == "uno-duo"
    assert "\nwinner " in text


def test_simulate_command_takes_style_and_option(capsys):
    pack = find_game("uno-duo")
    style = pack.styles()[-1]
    code, text = _run(
        capsys, ["simulate", "--game=uno-duo", "--seed", "5", "--style", style, "--option", "volley=must"]
    )
    assert code == 0
    assert text == pack.simulate(seed=5, style=style, options={"volley": "must"})


def test_simulate_command_rejects_a_bad_option(capsys):
    assert main(["simulate", "--game", "uno-duo", "--option", "volley=sometimes"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def _lower_total_wins(text: str) -> tuple[str, str, dict[str, int]]:
    """The winner and loser a whole-game log's last `totals` line shows (the contract: the lower wins)."""
    last = [ln for ln in text.splitlines() if ln.startswith("totals ")][-1].split()[1:]
    totals = {last[i]: int(last[i + 1]) for i in range(0, len(last), 2)}
    low, high = sorted(totals, key=totals.get)
    return low, high, totals


@pytest.mark.parametrize("seed", SEEDS)
def test_result_reads_the_lower_total_as_the_winner(seed):
    pack = find_game("uno-duo")
    text = pack.simulate(seed=seed, whole_game=True)
    low, high, totals = _lower_total_wins(text)
    no_winner_line = "\n".join(ln for ln in text.splitlines() if not ln.startswith("winner ")) + "\n"
    for src in (text, no_winner_line):
        report = pack.check(src, whole=True)
        res = pack.result(src, report)
        assert res.finished and res.winner == low
        assert res.points == totals and totals[high] >= 200
        rounds = sum(1 for ln in text.splitlines() if ln.startswith("score "))
        assert sum(res.rounds_won.values()) == rounds


def test_event_standings_rank_the_lower_total_first(tmp_path, capsys):
    pack = find_game("uno-duo")
    logs = tmp_path / "logs"
    logs.mkdir()
    text = pack.simulate(seed=2, whole_game=True)
    (logs / "u.log").write_text(text)
    low, high, _ = _lower_total_wins(text)
    db = ["--data", str(tmp_path / "data")]
    assert main(["event", "create", "Duo night", *db]) == 0
    assert main(["event", "add", "Duo night", str(logs), *db]) == 0
    capsys.readouterr()
    code, out = _run(capsys, ["event", "standings", "Duo night", "--format", "json", *db])
    assert code == 0
    rows = json.loads(out)["standings"]
    assert [r["player"] for r in rows] == [low, high]
    assert rows[0]["wins"] == 1 and rows[1]["wins"] == 0


@pytest.fixture
def mixed(tmp_path):
    """A folder with a legal DOS log, a legal UNO Duo log and an illegal UNO Duo log."""

    (tmp_path / "a-dos.log").write_text(find_game("dos").simulate(seed=4))
    uno = find_game("uno-duo").simulate(seed=4)
    (tmp_path / "b-uno.log").write_text(uno)
    lines = uno.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("score "))
    _, who, points = lines[i].split()
    lines[i] = f"score {who} {int(points) + 1}"  # one point too many: score.values, at this line
    if lines[i + 1].startswith("totals "):  # the totals follow the claimed score (no second finding)
        words = lines[i + 1].split()
        at = words.index(who) + 1
        words[at] = str(int(words[at]) + 1)
        lines[i + 1] = " ".join(words)
    (tmp_path / "c-uno-bad.log").write_text("\n".join(lines) + "\n")
    return tmp_path, i + 1


def test_check_a_folder_of_both_games_judges_each_by_its_rules(mixed, capsys):
    folder, bad_line = mixed
    code, out = _run(capsys, ["check", str(folder), "--format", "json"])
    reports = {json.loads(ln)["file"].rsplit("/", 1)[1]: json.loads(ln) for ln in out.splitlines()}
    assert code == 1
    assert reports["a-dos.log"]["game"] == "dos" and reports["a-dos.log"]["verdict"] == "legal"
    assert reports["b-uno.log"]["game"] == "uno-duo" and reports["b-uno.log"]["verdict"] == "legal"
    bad = reports["c-uno-bad.log"]
    assert bad["game"] == "uno-duo" and bad["verdict"] == "illegal"
    assert [(f["rule"], f["line"]) for f in bad["findings"] if f["severity"] == "error"] == [("score.values", bad_line)]


def test_sarif_gives_each_game_its_run_and_points_into_its_rules(mixed, capsys):
    from dosverify.spec import load_spec

    folder, bad_line = mixed
    code, out = _run(capsys, ["check", str(folder), "--format", "sarif"])
    assert code == 1
    jsonschema = pytest.importorskip("jsonschema")
    schema = Path(__file__).parents[1] / "schemas" / "sarif-2.1.0-rtm.5.json"
    jsonschema.validate(json.loads(out), json.loads(schema.read_text()))
    runs = {r["tool"]["driver"]["properties"]["game"]: r for r in json.loads(out)["runs"]}
    dos, uno = load_spec("dos"), load_spec("uno-duo")
    assert sorted(runs) == ["dos", "uno-duo"]  # a run per game: a rule id two games share, once in each
    for game, spec in (("dos", dos), ("uno-duo", uno)):
        ids = [r["id"] for r in runs[game]["tool"]["driver"]["rules"]]
        assert ids == list(spec.rules) and len(set(ids)) == len(ids)
        assert runs[game]["tool"]["driver"]["properties"]["spec_version"] == spec.version
    rules = runs["uno-duo"]["tool"]["driver"]["rules"]
    (res,) = [r for r in runs["uno-duo"]["results"] if r["level"] == "error"]
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == "score.values"
    assert rules[res["ruleIndex"]]["properties"]["game"] == "uno-duo"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == bad_line
    assert not any(r["level"] == "error" for r in runs["dos"]["results"])


def test_sarif_of_dos_only_has_dos_rules_only(tmp_path, capsys):
    from dosverify.spec import load_spec

    (tmp_path / "a.log").write_text(find_game("dos").simulate(seed=4))
    _, out = _run(capsys, ["check", str(tmp_path), "--format", "sarif"])
    (run,) = json.loads(out)["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(load_spec("dos").rules)
    assert all("game" not in r["properties"] for r in rules)


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    return TestClient(create_app())


def test_service_lists_uno_duo_rules(client):
    from dosverify.spec import load_spec

    r = client.get("/v1/rules", params={"game": "uno-duo"})
    assert r.status_code == 200
    body = r.json()
    rules = body if isinstance(body, list) else body.get("rules", body)
    ids = {x["id"] for x in rules}
    assert ids == set(load_spec("uno-duo").rules)


def test_service_checks_a_uno_duo_log(client):
    pack = find_game("uno-duo")
    text = pack.simulate(seed=6)
    r = client.post("/v1/check", content=text, headers={"content-type": "text/plain"})
    assert r.status_code == 200
    assert r.json()["verdict"] == "legal" and r.json()["game"] == "uno-duo"
    bad = text.replace("\nscore ", "\nscore x", 1)
    r = client.post("/v1/check", content=bad, headers={"content-type": "text/plain"})
    assert r.status_code == 200 and r.json()["verdict"] != "legal"


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_command_shows_the_table_the_scores_come_from(tmp_path, capsys, seed):
    """After a round's last turn one hand is empty and the other's value is the `score` line's."""
    from dosverify.games.uno_duo.simulate.cards import hand_value

    text = find_game("uno-duo").simulate(seed=seed, whole_game=True)
    (tmp_path / "g.log").write_text(text)
    code, out = _run(capsys, ["replay", str(tmp_path / "g.log"), "--format", "json"])
    assert code == 0
    states = json.loads(out)["states"]
    turns = [s for s in states if not s["score"]]
    assert len(turns) == sum(1 for ln in text.splitlines() if ln.startswith("turn "))
    scores = [ln.split() for ln in text.splitlines() if ln.startswith("score ")]
    totals = [ln for ln in text.splitlines() if ln.startswith("totals ")]
    last = [s for i, s in enumerate(turns) if i + 1 == len(turns) or turns[i + 1]["round"] != s["round"]]
    ends = [s for s in states if s["score"]]  # each right after its round's last turn
    assert len(last) == len(scores) == len(ends)
    for s, end, (_, who, points), line in zip(last, ends, scores, totals, strict=True):
        assert sorted(len(h) == 0 for h in s["hands"].values()) == [False, True]
        assert hand_value(s["hands"][who]) == int(points)
        assert states[states.index(end) - 1] is s and end["round"] == s["round"]
        assert end["score"]["lines"] == [f"score {who} {points}", line]
        assert end["score"]["points"][who] == int(points) and end["score"]["totals"] == end["totals"]
    code, out = _run(capsys, ["replay", str(tmp_path / "g.log")])
    assert code == 0 and out.count("\n") == len(states) + 1 and " top " in out
    assert out.count(" score (line ") == len(ends) and f"the log: score {who} {points}; {line}" in out


def test_replay_of_an_illegal_log_exits_1_with_the_report(mixed, capsys):
    folder, bad_line = mixed
    code, out = _run(capsys, ["replay", str(folder / "c-uno-bad.log"), "--format", "json"])
    assert code == 1
    states = json.loads(out)["states"]
    found = [f["rule"] for s in states if not s["score"] for f in s["findings"]]
    assert "score.values" not in found  # the score line is after the last turn: on the round's end, if found
    assert [f["line"] for f in json.loads(out)["report"]["findings"] if f["severity"] == "error"] == [bad_line]


def test_service_checks_a_uno_duo_json_log(client):
    from dosverify.games.uno_duo.simulate import simulate_json

    body = simulate_json(seed=7, whole_game=True)
    r = client.post("/v1/check", json=body)
    assert r.status_code == 200
    assert r.json()["verdict"] == "legal" and r.json()["game"] == "uno-duo"
    assert r.json()["turns"] > 0
