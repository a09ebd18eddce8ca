"""`dosverify profile --game uno-duo`: logs simulated under each option value, written as a program
would (no `option` lines), are profiled back to that value wherever their games show the choice;
the command line and `check --ruleset auto` read the same profile."""

from __future__ import annotations

import json
import re

import pytest

from dosverify.cli import main
from dosverify.games.uno_duo.profile import profile
from dosverify.games.uno_duo.simulate import simulate
from dosverify.games.uno_duo.simulate.cards import DEFAULTS, OPTIONS

#: options whose departures the simulated games always show (three whole games each): the test can
#: fail; the others (`volley must`, `uno-window next-action`: the logs are legal under the default
#: too; `run-reverse none`: as well explained by `start-reverse may`) need only be explained
SHOWN = {"deck", "start-volley", "start-reverse", "skip-again", "reverse-alone", "wd4-legal", "pile-order", "last-draw"}
DEPARTURES = [(k, v) for k, vals in OPTIONS.items() for v in vals[1:]]


def program_log(seed: int, options: dict, whole: bool = True) -> str:
    """A simulated game as a program would write it: its options in force, none in its header."""
    return re.sub(r"(?m)^option .*\n", "", simulate(seed=seed, options=options, whole_game=whole, target=150))


@pytest.mark.parametrize(("key", "value"), DEPARTURES, ids=[f"{k}={v}" for k, v in DEPARTURES])
def test_profile_recovers_each_option_value(key, value):
    logs = [(f"g{s}", program_log(s, {key: value})) for s in range(3)]
    prof = profile(logs)
    assert prof["legal"], prof["verdicts"]  # whatever it inferred explains every log
    r = prof["options"][key]
    if key in SHOWN:
        assert r["evidence"] and r["values"] == [value] and r["inferred"] == value, r
        assert r["deciding_lines"] > 0 and set(r["examples"]) == set(OPTIONS[key]) - {value}
    else:
        assert value in r["values"] or any(prof["inferred"][k] != DEFAULTS[k] for k in prof["inferred"] if k != key), r
    # the options the games do not show stay at their defaults
    for other, o in prof["options"].items():
        if not o["evidence"]:
            assert o["inferred"] == DEFAULTS[other] and o["values"] == list(OPTIONS[other])


def test_profile_of_official_games_is_official():
    logs = [(f"g{s}", program_log(s, {})) for s in range(3)]
    prof = profile(logs)
    assert prof["legal"] and prof["inferred"] == DEFAULTS
    assert prof["rulesets_consistent"] == ["official"]
    for key, r in prof["options"].items():  # a value ruled out has its example; the default never is
        assert DEFAULTS[key] in r["values"] and set(r["examples"]) == set(OPTIONS[key]) - set(r["values"]), r
    assert any(r["evidence"] for r in prof["options"].values())


def test_profile_fixed_option_is_not_inferred():
    logs = [(f"g{s}", program_log(s, {"deck": "108"})) for s in range(2)]
    prof = profile(logs, {"deck": "112"})
    assert "deck" not in prof["options"] and prof["fixed"] == {"deck": "112"}
    assert not prof["legal"]  # the 108-card deck lines stay wrong under the fixed 112
    assert any(f["rule"] == "cards.composition" for v in prof["verdicts"] for f in v["findings"])


def test_profile_command_and_ruleset_auto(tmp_path, capsys):
    for s in range(3):
        (tmp_path / f"g{s}.log").write_text(program_log(s, {"deck": "108", "pile-order": "shuffled"}, whole=False))
    assert main(["profile", "--game", "uno-duo", str(tmp_path), "--format", "json"]) == 0
    prof = json.loads(capsys.readouterr().out)
    assert prof["game"] == "uno-duo" and prof["inferred"]["deck"] == "108"
    assert "--option deck=108" in prof["command"] and prof["command"].endswith(str(tmp_path))
    assert main(["profile", "--game", "uno-duo", str(tmp_path / "g0.log")]) == 0
    assert "deck (U1): 108" in capsys.readouterr().out
    # without --game, a folder's game is its first log's (a notes file before it is passed over)
    (tmp_path / "a-notes.txt").write_text("not a log\n")
    assert main(["profile", str(tmp_path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["inferred"]["deck"] == "108"
    (tmp_path / "a-notes.txt").unlink()
    assert main(["check", str(tmp_path)]) == 1  # the program's logs under the official deck
    capsys.readouterr()
    assert main(["check", "--ruleset", "auto", str(tmp_path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "ruleset official with deck=108" in captured.err
    reports = [json.loads(line) for line in captured.out.splitlines() if line.startswith("{")]
    assert reports and all(r["verdict"] == "legal" and r["game"] == "uno-duo" for r in reports)


def test_profile_command_misuse_says_why(tmp_path, capsys):
    assert main(["profile", "--game", "uno-duo", "--option", "volley=sometimes", str(tmp_path)]) == 2
    assert main(["profile", "--game", "uno-duo", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "volley" in err and "no logs found" in err and "Traceback" not in err
