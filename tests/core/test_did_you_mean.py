"""Did-you-mean on the command line (issue 35 item 7), as the service's problems have it: a
mistyped command, flag, choice, ruleset, option key or value is answered with the nearest real
one, and a rule id in another case is the rule it names. Every answer is one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from dosverify.cli import main

LOG = str(Path(__file__).resolve().parents[2] / "fixtures" / "dos" / "notation" / "example.log")


def _err(capsys, argv: list[str]) -> str:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own errors
        status = exc.code
    assert status == 2, argv
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["chek", LOG], "check"),
        (["check", "--formt", "json", LOG], "--format"),
        (["check", "--format", "jsn", LOG], "json"),
        (["check", "--ruleset", "offical", LOG], "official"),
        (["check", "--option", "dcm-draw=at-once", LOG], "dcm-draws"),
        (["check", "--option", "dcm-draws=at-onc", LOG], "at-once"),
        (["check", "--option", "uno-duo:volly=must", LOG], "volley"),
        (["fmt", "--chek", LOG], "--check"),
        (["simulate", "--playrs", "3"], "--players"),
        (["replay", "--game", "uno-duo", "--formt", "json", LOG], "--format"),
        (["event", "lst"], "list"),
        (["explain", "mach.double"], "match.double"),
    ],
)
def test_a_slip_is_answered_with_what_was_meant(capsys, argv, meant):
    line = _err(capsys, argv)
    assert f"did you mean `{meant}`" in line or f"did you mean {meant}," in line, line


def test_nothing_near_is_not_guessed(capsys):
    line = _err(capsys, ["check", "--zzzzzz", LOG])
    assert "unrecognized arguments: --zzzzzz" in line and "did you mean" not in line


def test_a_rule_id_in_any_case_is_that_rule(capsys):
    assert main(["explain", "MATCH.DOUBLE"]) == 0
    assert capsys.readouterr().out.startswith("match.double: ")
    assert main(["explain", "Dcm-Order"]) == 0
    assert capsys.readouterr().out.startswith("dcm-order: ")


def test_an_id_of_one_game_needs_no_game(capsys):
    assert main(["explain", "volley"]) == 0  # UNO Duo's option alone
    out = capsys.readouterr().out
    assert out.startswith("volley: ") and "Specification 1." in out
    assert main(["explain", "wd4.challenge"]) == 0  # UNO Duo's rule alone
    assert capsys.readouterr().out.startswith("wd4.challenge: ")


def test_an_id_both_games_have_shows_both(capsys):
    assert main(["explain", "turn.order"]) == 0
    out = capsys.readouterr().out
    assert "== DOS (`--game dos`) ==" in out and "== UNO Duo (`--game uno-duo`) ==" in out
    assert out.count("turn.order: ") == out.count("== ") >= 2  # each game that has it (the test pack too)
    assert main(["explain", "--game", "uno-duo", "turn.order"]) == 0
    assert "==" not in capsys.readouterr().out


def test_an_unknown_game_is_a_misuse(capsys):
    assert "unknown game `nosuch`" in _err(capsys, ["explain", "--game", "nosuch", "x"])
