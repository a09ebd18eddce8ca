"""`dosverify profile`: simulated engines under many option combinations are recovered exactly,
wherever their games show the choice; illegal logs stay named with their lines; CLI and HTTP."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from pathlib import Path

import pytest

from dosverify.cli import main
from dosverify.games.dos.profile import profile
from dosverify.games.dos.simulate import simulate_text
from dosverify.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
SPEC = load_spec("dos")
CHOICES = {k: list(v["values"]) for k, v in SPEC.options.items() if len(v["values"]) > 1}
ENGINE = [k for k, v in SPEC.options.items() if v.get("engine")]


def engine_log(players: int, seed: int, options: dict) -> str:
    """A simulated game as a program would write it: no `option` lines in its header."""
    return re.sub(r"(?m)^option .*\n", "", simulate_text(players, seed, options=options))


def combos(n: int = 10, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    return [{k: rng.choice(vals) for k, vals in CHOICES.items()} for _ in range(n)]


def test_profile_recovers_simulated_engines():
    shown: dict[str, set] = {k: set() for k in CHOICES}
    for n, combo in enumerate(combos()):
        logs = [(f"c{n}g{g}", engine_log(2 + g % 3, 100 + g, combo)) for g in range(5)]
        prof = profile(logs)
        assert prof["legal"], (combo, prof["verdicts"])
        for key, r in prof["options"].items():
            if r["evidence"] and len(r["values"]) == 1:  # the games show the choice: exactly the engine's value
                assert r["values"] == [combo[key]], (key, combo, r)
                assert r["inferred"] == combo[key] and r["deciding_lines"] > 0 and r["examples"]
                shown[key].add(combo[key])
            elif r["evidence"]:  # shown only together with another option of its group: the engine's among them
                assert combo[key] in r["values"], (key, combo, r)
            else:
                assert r["values"] == CHOICES[key] and r["deciding_lines"] == 0 and not r["examples"]
    # the simulated engines show both values of these options at least once: the test can fail
    for key in ("no-match-after-draw", "dcm-draws", "round-end", "deal-from"):
        assert shown[key] == set(CHOICES[key]), (key, shown[key])
    assert any(shown[k] - {SPEC.options[k]["default"]} for k in ENGINE)


# every combination of the engine options V12-V17, `official` otherwise; games per combination
# (2, 3, 4 players in turn): DOSVERIFY_PROFILE_GAMES=10 for the full figure
GAMES = int(os.environ.get("DOSVERIFY_PROFILE_GAMES", "3"))
ALL_ENGINE = [dict(zip(ENGINE, vals, strict=False)) for vals in itertools.product(*(CHOICES[k] for k in ENGINE))]


def assert_recovered(prof: dict, combo: dict, shown: dict | None = None) -> None:
    """Exactly the engine's value wherever the games show the choice, else every value and the
    default assumed; every game legal under it."""
    assert prof["legal"], (combo, prof["verdicts"])
    for key, want in combo.items():
        r = prof["options"][key]
        if r["evidence"] and len(r["values"]) == 1:
            assert r["values"] == [want] and r["inferred"] == want, (key, combo, r)
            assert r["deciding_lines"] > 0 and r["examples"]
            if shown is not None:
                shown[key].add(want)
        elif r["evidence"]:  # the games show it only together with another option of its group (both legal)
            assert want in r["values"], (key, combo, r)
        else:
            assert r["values"] == CHOICES[key] and r["inferred"] == SPEC.options[key]["default"], (key, combo, r)


def test_every_engine_combination_recovered():
    assert len(ALL_ENGINE) == 64
    shown: dict[str, set] = {k: set() for k in ENGINE}
    for n, combo in enumerate(ALL_ENGINE):
        logs = [(f"c{n}g{g}", engine_log(2 + g % 3, 7919 * n + g, combo)) for g in range(GAMES)]
        prof = profile(logs)
        assert prof["ruleset"] == "official"
        assert_recovered(prof, combo, shown)
        assert all(prof["inferred"][k] == SPEC.options[k]["default"] for k in CHOICES if k not in ENGINE)
    # the test can fail: both values of every engine option but V17 shown (V17 needs a reshuffle
    # in mid-turn: the next test)
    for key in ENGINE:
        if key != "discard-matched":
            assert shown[key] == set(CHOICES[key]), (key, shown[key])


@pytest.mark.parametrize("value", CHOICES["discard-matched"])
def test_discard_matched_shown_by_long_rounds(value):
    """Long rounds (the piles drained) reshuffle in mid-turn, where V17 shows."""
    combo = {"discard-matched": value, "dcm-draws": "at-once"}
    logs = [
        (f"g{g}", re.sub(r"(?m)^option .*\n", "", simulate_text(2 + g % 3, 50 + g, options=combo, long_round="thin")))
        for g in range(3)
    ]
    prof = profile(logs)
    assert prof["options"]["discard-matched"]["evidence"]
    assert_recovered(prof, combo)


@pytest.mark.parametrize(
    "combo",
    [
        {"no-match-after-draw": "pass"},
        {"decline-match": "forbidden"},
        {"after-draw-match": "drawn-only"},
        {"next-dealer": "left"},
    ],
    ids=lambda c: "=".join(next(iter(c.items()))),
)
def test_rulebook_options_recovered(combo):
    """V1-V4, one departure from `official` at a time, over whole games of 2 rounds (V4 shows
    from the second round on). A stricter value (V2 forbidden, V3 drawn-only) can only show in a
    game that departs from it, never in one that keeps it: its games show no evidence."""
    logs = [
        (f"g{g}", re.sub(r"(?m)^option .*\n", "", simulate_text(2 + g % 3, 300 + g, rounds=2, options=combo)))
        for g in range(4)
    ]
    prof = profile(logs)
    assert prof["legal"], prof["verdicts"]
    ((key, value),) = combo.items()
    r = prof["options"][key]
    if key in ("decline-match", "after-draw-match"):
        assert value in r["values"]
    else:
        assert r["evidence"] and r["values"] == [value] and prof["inferred"][key] == value


@pytest.mark.parametrize("ruleset,named", [("italian", "italian"), ("bosnian", "bosnian"), ("strict", "official")])
def test_named_rulesets_recovered(ruleset, named):
    """A ruleset is a bundle of rulebook values: italian and bosnian games show theirs; strict's
    only forbid (a decline, a match of a hand card after the draw), so its legal games are
    official ones too, and the profile names `official`, with strict among the consistent."""
    combo = {"dcm-draws": "at-once", "deal-from": "first-seat"}
    logs = [
        (
            f"g{g}",
            re.sub(
                r"(?m)^(option|ruleset) .*\n",
                "",
                simulate_text(2 + g % 3, 400 + g, ruleset=ruleset, rounds=2, options=combo),
            ),
        )
        for g in range(4)
    ]
    prof = profile(logs)
    assert prof["legal"], prof["verdicts"]
    assert prof["ruleset"] == named and ruleset in prof["rulesets_consistent"]
    own = SPEC.ruleset(named).options
    assert all(prof["inferred"][k] == own[k] for k in CHOICES if k not in ENGINE)
    assert prof["inferred"]["dcm-draws"] == "at-once" and prof["inferred"]["deal-from"] == "first-seat"
    assert (f"--ruleset {named}" in prof["command"]) == (named != "official")


def test_no_evidence_for_official_games_keeps_defaults():
    logs = [(f"g{s}", engine_log(3, s, {})) for s in range(3)]
    prof = profile(logs)
    assert prof["legal"]
    for key in ENGINE:
        assert prof["inferred"][key] == SPEC.options[key]["default"]


def test_illegal_log_named_with_its_lines():
    combo = {"dcm-draws": "at-once", "deal-from": "first-seat"}
    bad = (ROOT / "fixtures/dos/rules/match.held/illegal.log").read_text(encoding="utf-8")
    prof = profile([("a", engine_log(3, 1, combo)), ("b", engine_log(2, 2, combo)), ("bad", bad)])
    assert not prof["legal"]
    verdicts = {v["file"]: v for v in prof["verdicts"]}
    assert verdicts["a"]["verdict"] == verdicts["b"]["verdict"] == "legal"
    assert verdicts["bad"]["verdict"] == "illegal"
    assert {"file": "bad", "line": 12, "rule": "match.held"}.items() <= verdicts["bad"]["findings"][0].items()


def test_cli_text_json_and_the_command_it_prints(tmp_path, capsys):
    combo = {"dcm-draws": "at-once", "round-end": "at-once", "deal-from": "first-seat"}
    for s in range(4):
        (tmp_path / f"g{s}.log").write_text(engine_log(2 + s % 3, s, combo), encoding="utf-8")
    assert main(["profile", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "deal-from (V16): first-seat; decided by" in out and "all 4 logs legal" in out
    cmd = next(line for line in out.splitlines() if line.startswith("check with: ")).removeprefix("check with: ")
    assert "--option deal-from=first-seat" in cmd and "--option dcm-draws=at-once" in cmd
    args = cmd.split()
    assert args[:2] == ["dosverify", "check"]
    assert main(args[1:]) == 0  # the printed command judges the logs legal
    capsys.readouterr()
    assert main(["profile", "--format", "json", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["inferred"]["deal-from"] == "first-seat" and data["command"].endswith(str(tmp_path))
    assert main(["check", str(tmp_path)]) == 1  # under `official` the same logs are illegal


def test_cli_missing_path(tmp_path, capsys):
    assert main(["profile", str(tmp_path / "nope.log")]) == 2
    assert "nope.log" in capsys.readouterr().err
    assert main(["profile", "--option", "dcm-draws=sometimes", str(tmp_path)]) == 2
    assert "dcm-draws" in capsys.readouterr().err


def test_cli_option_fixed(tmp_path, capsys):
    combo = {"dcm-draws": "at-once", "deal-from": "first-seat"}
    for s in range(3):
        (tmp_path / f"g{s}.log").write_text(engine_log(2 + s, s, combo), encoding="utf-8")
    assert main(["profile", "--option", "dcm-draws=at-once", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "dcm-draws: at-once (fixed by --option, not inferred)" in out and "dcm-draws (V12)" not in out
    assert "--option dcm-draws=at-once" in out.splitlines()[-1]


def test_endpoint():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    combo = {"dcm-draws": "at-once", "deal-from": "first-seat"}
    body = [{"name": f"g{s}", "log": engine_log(2 + s, s, combo)} for s in range(2)]
    with TestClient(create_app()) as client:
        r = client.post("/v1/profile", json=body)
        assert r.status_code == 200, r.text
        data = r.json()
        assert data["legal"] and data["inferred"]["deal-from"] == "first-seat"
        assert [v["file"] for v in data["verdicts"]] == ["g0", "g1"]
        r = client.post("/v1/profile", params={"option": "deal-from=dealer-left"}, json=body)
        assert r.status_code == 200 and r.json()["fixed"] == {"deal-from": "dealer-left"} and not r.json()["legal"]
        assert client.post("/v1/profile", params={"option": "deal-from=nowhere"}, json=body).status_code == 422
        assert client.post("/v1/profile", json={"not": "an array"}).status_code == 422
        assert client.post("/v1/profile", json=[1]).status_code == 422
        ops = client.get("/openapi.json").json()["paths"]["/v1/profile"]["post"]
        assert ops["operationId"] == "profileLogs"
