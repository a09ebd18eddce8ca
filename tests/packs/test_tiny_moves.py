"""The move API end to end on Tiny (issue 33), a game the core cannot name: its positions, unlisted
lines refused with the rule check gives, the deferred finding, `dosverify moves` (exit codes, text
and JSON) and `POST /v1/moves` (200, 422, the OpenAPI entry). Tiny's own generator is
tests/packs/tinygame/dosverify_tinygame/moves.py; the contract every pack meets is
tests/core/test_moves_table.py."""

from __future__ import annotations

import json
import os

import pytest

from dosverify.games import REGISTRY

if "tiny" not in REGISTRY:  # pragma: no cover - installed by .ci/run and the README's command
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("the tiny pack is not installed: pip install -e tests/packs/tinygame", pytrace=False)
    pytest.skip("the tiny pack is not installed (pip install -e tests/packs/tinygame)", allow_module_level=True)

from dosverify.api import check
from dosverify.cli import main
from dosverify.games import find_game
from dosverify.moves import IllegalMove, NotAPosition
from dosverify.moves.table import Table

LOG = """tiny 1
players ann bob
round 1
deal ann R1 R5 B3 B7 R9
deal bob B1 B2 R2 R3 B9
start R4
ann play R5
# a comment counts as a line
bob play B9
"""
JSON_KEYS = {"game", "after", "to_move", "moves", "prefix"}


def test_positions_and_the_ranges_a_refused_one_names():
    for after in (0, 1, 3, 4, 5, 99):
        with pytest.raises(NotAPosition) as err:
            Table.from_log(LOG, after)
        assert "2" in str(err.value) and "6-9" in str(err.value)
    assert Table.from_log(LOG, 8) == Table.from_log(LOG, 7)  # a comment: the position after the line before
    assert Table.from_log(LOG, 2).legal_moves()[0].line == "round 1"


def test_the_listing_is_the_rules():
    table = Table.from_log(LOG)
    assert table.to_move == "ann"
    assert [m.line for m in table.legal_moves()] == ["ann play B3", "ann play B7"]  # B9 on top: blue only
    assert table.explain("ann play R9").findings[0].rule == "play.follow"
    assert table.explain("ann play B1").findings[0].rule == "play.held"  # bob's card
    assert table.explain("bob play B1").findings[0].rule == "turn.order"
    assert table.explain("ann draw R7").findings[0].rule == "draw.stuck"
    may = Table.from_log(LOG, options={"forced-play": "may"})
    draws = [m for m in may.legal_moves() if m.kind == "draw"]
    assert draws and all(m.chance and m.actor == "chance" for m in draws)
    assert abs(sum(m.probability or 0 for m in draws) - 1) < 1e-9
    assert may.explain("ann draw R7").legal


def test_an_unlisted_line_check_finds_no_error_in_at_its_line_gets_the_deferred_finding():
    verdict = Table.from_log(LOG).explain("score ann 10")  # the round has not ended
    assert not verdict.legal and verdict.deferred
    assert [(f.rule, f.line) for f in verdict.findings] == [("turn.order", 10)]
    assert json.loads(json.dumps(verdict.to_dict()))["findings"][0]["deferred"] is True


def test_play_refuses_with_the_verdict_and_a_written_line_plays_its_move():
    table = Table.from_log(LOG)
    with pytest.raises(IllegalMove) as err:
        table.play("ann play R9")
    assert err.value.verdict.findings[0].rule == "play.follow" and "play.follow" in str(err.value)
    move = table.play("  ann   play B3   # spaced")
    assert move.line == "ann play B3" and table.to_move == "bob"
    table.pop()
    assert table == Table.from_log(LOG)


def test_an_illegal_prefix_plays_on_from_where_the_referee_recovers():
    bad = LOG + "bob play R1\n"  # bob again, out of turn, and a card he does not hold
    table = Table.from_log(bad)
    assert table.prefix.verdict == "illegal"
    assert {f.rule for f in table.prefix.findings} == {"turn.order", "play.held"}
    assert table.to_move == "ann"  # the referee hands the turn to the other player
    assert all(table.explain(m.line).legal for m in table.legal_moves())


def test_scores_owed_at_the_end_of_a_prefix_are_not_findings():
    log = find_game("tiny").simulate(seed=3)
    cut = next(i for i, ln in enumerate(log.splitlines()) if ln.startswith("score"))
    table = Table.from_log(log, cut)
    assert table.prefix.verdict == "legal" and table.round_over
    assert [m.kind for m in table.legal_moves()] == ["score"] * len(table.legal_moves())


def test_a_json_log_counts_event_objects():
    from dosverify.api import convert

    text = find_game("tiny").simulate(seed=4)
    doc, _ = convert(text, "json")
    assert doc is not None
    table = Table.from_log(doc, 3)  # the round's set-up, then two turns
    assert table == Table.from_log(text, 8)
    assert Table.from_log(doc) == Table.from_log(text)


def test_the_bot_loop_of_docs_moves_md_runs():
    """The example in docs/moves.md is run as written."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "moves.md").read_text(encoding="utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "docs/moves.md", "exec"), scope)
    table = scope["table"]
    assert table.game_over and check(table.log(), game="tiny").verdict == "legal"


# ---- the command line -----------------------------------------------------------------------


@pytest.fixture
def logfile(tmp_path):
    path = tmp_path / "game.log"
    path.write_text(LOG, encoding="utf-8")
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_exit_codes(capsys, logfile):
    assert run(capsys, "moves", logfile)[0] == 0
    assert run(capsys, "moves", logfile, "--try", "ann play B3")[0] == 0
    status, out, _ = run(capsys, "moves", logfile, "--try", "ann play R9")
    assert status == 1 and "play.follow" in out and "^" in out and "ann play R9" in out
    status, out, _ = run(capsys, "moves", logfile, "--try", "ann jumps")
    assert status == 1 and "syntax" in out
    status, _, err = run(capsys, "moves", logfile, "--after", "4")
    assert status == 2 and "positions: lines 2, 6-9" in err
    assert run(capsys, "moves", logfile, "--ruleset", "auto")[0] == 2
    assert run(capsys, "moves", logfile, "--option", "forced-play=never")[0] == 2
    assert run(capsys, "moves", logfile + ".missing")[0] == 2


def test_cli_text_groups_the_lines_by_actor(capsys, logfile):
    status, out, _ = run(capsys, "moves", logfile, "--after", "7", "--option", "tiny:forced-play=may")
    assert status == 0 and "bob to move" in out and "  bob:\n    bob play B9" in out and "  chance:\n" in out


def test_cli_json_keys_and_max_moves(capsys, logfile):
    status, out, _ = run(capsys, "moves", logfile, "--format", "json", "--try", "bob play B1", "--max-moves", "1")
    doc = json.loads(out)
    assert status == 1 and JSON_KEYS <= set(doc) and doc["game"] == "tiny" and doc["after"] == 9
    assert len(doc["moves"]) == 1 and doc["moves_left_out"] == 1
    assert set(doc["moves"][0]) == {"line", "actor", "kind", "chance", "probability"}
    assert set(doc["prefix"]) == {"verdict", "findings"}
    assert set(doc["try"]) == {"line", "canonical", "legal", "findings"}
    assert doc["try"]["findings"][0]["rule"] == "turn.order" and doc["try"]["findings"][0]["line"] == 10


def test_cli_a_game_without_moves_is_named(capsys, tmp_path):
    if not any("moves" not in find_game(g).capabilities for g in REGISTRY):
        pytest.skip("every installed game has a move generator")
    game = next(g for g in REGISTRY if "moves" not in find_game(g).capabilities)
    path = tmp_path / "x.log"
    path.write_text(find_game(game).simulate(seed=0), encoding="utf-8")
    status, _, err = run(capsys, "moves", str(path))
    assert status == 2 and f"`{game}`" in err and "no move generator" in err


def test_cli_an_unreadable_prefix_is_exit_2(capsys, tmp_path):
    path = tmp_path / "bad.log"
    path.write_text(LOG + "what now\n", encoding="utf-8")
    status, _, err = run(capsys, "moves", str(path))
    assert status == 2 and "cannot be read" in err


# ---- HTTP -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    from dosverify.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


TEXT = {"Content-Type": "text/plain"}


def test_http_answers_as_the_cli_does(client, capsys, logfile):
    r = client.post("/v1/moves", params={"after": 7, "try": "bob play R1"}, content=LOG, headers=TEXT)
    assert r.status_code == 200, r.text
    doc = r.json()
    main(["moves", logfile, "--after", "7", "--try", "bob play R1", "--format", "json"])
    assert doc == json.loads(capsys.readouterr().out)
    assert doc["try"]["legal"] is False and doc["try"]["findings"][0]["rule"] == "play.held"


def test_http_problems_are_422(client):
    for params, error in (
        ({"after": 4}, "not-a-position"),
        ({"ruleset": "auto"}, "unknown-ruleset"),
        ({"option": "forced-play=never"}, "unknown-option"),
    ):
        r = client.post("/v1/moves", params=params, content=LOG, headers=TEXT)
        assert r.status_code == 422 and r.json()["error"] == error, r.text
    r = client.post("/v1/moves", content=LOG + "what\n", headers=TEXT)
    assert r.status_code == 422 and r.json()["error"] == "unreadable-prefix"
    r = client.post("/v1/moves", params={"after": -1}, content=LOG, headers=TEXT)
    assert r.status_code == 422


def test_http_max_moves_and_openapi(client):
    r = client.post("/v1/moves", params={"max_moves": 1}, content=LOG, headers=TEXT)
    assert r.status_code == 200 and len(r.json()["moves"]) == 1 and r.json()["moves_left_out"] == 1
    doc = client.get("/openapi.json").json()
    op = doc["paths"]["/v1/moves"]["post"]
    assert {p["name"] for p in op["parameters"]} >= {"after", "try", "ruleset", "option", "max_moves"}
    schema = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/MovesResult")
    props = doc["components"]["schemas"]["MovesResult"]["properties"]
    assert {"game", "after", "to_move", "moves", "prefix", "try", "moves_left_out"} <= set(props)


def test_an_unreadable_json_log_is_malformed_not_a_position():
    from dosverify.moves import MalformedLog

    with pytest.raises(MalformedLog):
        Table.from_log('{"tiny": 1, "players": ["ann"]}', 0)
