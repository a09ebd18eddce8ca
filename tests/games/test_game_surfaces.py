"""Every registered pack through every surface (issue 30 step 6): each option with each value in a
log of the game, audited into an event (the options are the log's own there) and sent over
`/v1/check` with its header and report naming the game and its spec version; a refused log's JSON
line, SARIF's run, `POST /v1/game` and the OpenAPI document name each game; and a sample through
the command line in a fresh process. A new pack inherits these tests by registering
(tests/games/test_game_options.py holds the options' misuse and the batch)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import pytest

from dosverify import api
from dosverify.cli import main
from dosverify.games import REGISTRY, find_game
from dosverify.report import Report

PACKS = list(REGISTRY)
TEXT = {"content-type": "text/plain"}
UNNAMED = Report.__dataclass_fields__["game"].default  # the game a report leaves unnamed in its JSON


def version(game: str) -> str:
    return find_game(game).spec().version


def game_of(report: dict) -> str:
    return report.get("game", UNNAMED)


def every_value(game: str) -> list[tuple[str, str]]:
    return [(k, v) for k, opt in find_game(game).spec().options.items() for v in opt["values"]]


@cache
def log_with(game: str, key: str | None = None, value: str | None = None) -> str:
    """A legal log of the game, setting `key` to `value` with its own option line."""
    pack = find_game(game)
    return pack.simulate(seed=5, players=pack.player_counts()[0], options={key: value} if key else None)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize("game", PACKS)
def test_every_option_value_in_a_log_is_judged_and_named(game):
    """A log's own option line, for every option and value: its report says the option, its game
    and its spec version (in process: the data path every surface takes)."""
    for key, value in every_value(game):
        report = api.check(log_with(game, key, value))
        assert report.verdict != "malformed", (key, value, report.findings[:2])
        assert report.options[key] == value and report.game == game and report.spec_version == version(game)


@pytest.mark.parametrize("game", PACKS)
def test_every_option_value_over_http_names_the_game(client, game):
    """`POST /v1/check?option=KEY=VALUE`: the report and `X-Spec-Version` are the log's game's."""
    from dosverify.service import GAMES_HEADER

    for key, value in every_value(game):
        r = client.post("/v1/check", params={"option": f"{key}={value}"}, content=log_with(game), headers=TEXT)
        assert r.status_code == 200, r.text
        report = r.json()
        assert report["options"][key] == value and game_of(report) == game
        assert report["spec_version"] == version(game)
        assert r.headers[GAMES_HEADER] == f"{game} {version(game)}"


@pytest.mark.parametrize("game", PACKS)
def test_every_option_value_in_an_event(tmp_path, game):
    """Each option value's log audited into an event: the audit keeps the log's options, its game's
    spec version and report; the standings rank the event's players."""
    from dosverify.store.db import Store

    store = Store(f"sqlite:///{tmp_path / 'events.db'}")
    event = store.create_event(f"{game} options")
    for i, (key, value) in enumerate(every_value(game)):
        audit, new = store.submit(event["id"], log_with(game, key, value).encode(), f"table {i}")
        assert new, (key, value)  # each option's log is a log of its own
        assert audit["options"][key] == value, audit["options"]
        assert audit["spec_version"] == version(game) and game_of(audit["report"]) == game
        assert audit["verdict"] != "malformed"


@pytest.mark.parametrize("game", PACKS)
def test_a_refused_log_names_its_own_game(tmp_path, capsys, game):
    """`check --format json` with an option the log's game lacks: the JSON line of that log is its
    game's (`game`, its spec version), and the error names the game's own options."""
    pack = find_game(game)
    mine = pack.spec().options
    others = [(k, next(iter(o["values"]))) for g in PACKS if g != game for k, o in find_game(g).spec().options.items()]
    foreign = next(((k, v) for k, v in others if k not in mine), None)
    if foreign is None:
        pytest.skip("no other game has an option this one lacks")
    path = tmp_path / "game.log"
    path.write_text(log_with(game), encoding="utf-8")
    capsys.readouterr()
    status = main(["check", "--format", "json", "--option", f"{foreign[0]}={foreign[1]}", str(path)])
    line = json.loads(capsys.readouterr().out)
    assert status == 2
    assert line["spec_version"] == version(game) and game_of(line) == game
    assert pack.title in line["error"] and all(k in line["error"] for k in mine)


def test_sarif_names_each_games_spec(tmp_path, capsys):
    """SARIF over a log of every game: a run per game, in the order its logs came, each naming its
    game's spec version and every game's of the output."""
    for game in PACKS:
        (tmp_path / f"{game}.log").write_text(log_with(game), encoding="utf-8")
    capsys.readouterr()
    main(["check", "--format", "sarif", str(tmp_path)])
    runs = json.loads(capsys.readouterr().out)["runs"]
    props = [r["tool"]["driver"]["properties"] for r in runs]
    assert [p["game"] for p in props] == sorted(PACKS)  # the folder's logs in sorted order
    for p in props:
        assert p["spec_versions"] == {g: version(g) for g in sorted(PACKS)}
        assert p["spec_version"] == version(p["game"])


@pytest.mark.parametrize("game", PACKS)
def test_the_game_of_a_log_and_its_schema(client, game):
    """`POST /v1/game` tells the log's game as /v1/check picks it (text and JSON); the OpenAPI
    document's `Log` is one of each game's."""
    r = client.post("/v1/game", content=log_with(game)[:4096], headers=TEXT)
    assert r.status_code == 200 and r.json() == {"game": game, "named": True}, r.text
    as_json, _ = api.convert(log_with(game), "json")
    assert as_json is not None
    r = client.post("/v1/game", content=as_json, headers={"content-type": "application/json"})
    assert r.json() == {"game": game, "named": True}, r.text
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"$ref": f"#/components/schemas/Log-{game}"} in schemas["Log"]["oneOf"]


@pytest.mark.parametrize("game", PACKS)
def test_a_sample_through_the_command_line(tmp_path, game):
    """A fresh `dosverify check` process with the game's first option value: the report is the game's."""
    key, value = every_value(game)[0]
    path = tmp_path / "game.log"
    path.write_text(log_with(game), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "dosverify", "check", "--format", "json", "--option", f"{key}={value}", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode in (0, 1), run.stderr
    report = json.loads(run.stdout)
    assert report["options"][key] == value and game_of(report) == game and report["spec_version"] == version(game)
