"""Every registered game's options, through every surface that takes them: a log's ruleset and
options are its own game's on the command line, `/v1/check`, the batch, the page's replay and
the profile, and another game's option is a clear misuse naming the log's game and what it has
(exit 2, 422 `unknown-option`), never a traceback. A new pack inherits these tests by registering."""

from __future__ import annotations

import json
from functools import cache

import pytest

from dosverify.cli import main
from dosverify.games import REGISTRY, GamePack, find_game

PACKS = list(REGISTRY)


@cache
def log_of(game: str) -> str:
    pack = find_game(game)
    return pack.simulate(seed=3, players=pack.player_counts()[0])


def other_option(pack: GamePack) -> tuple[str, str]:
    """An option (and a value) of another game that this game does not have."""
    mine = pack.spec().options
    for name in PACKS:
        if name == pack.name:
            continue
        for key, opt in find_game(name).spec().options.items():
            if key not in mine:
                return key, next(iter(opt["values"]))
    pytest.skip("no other game has an option this one lacks")


def every_value(game: str) -> list[tuple[str, str]]:
    return [(k, v) for k, opt in find_game(game).spec().options.items() for v in opt["values"]]


CASES = [(g, k, v) for g in PACKS for k, v in every_value(g)]


def cli(tmp_path, capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize(("game", "key", "value"), CASES, ids=[f"{g}-{k}={v}" for g, k, v in CASES])
def test_every_option_value_on_the_command_line(tmp_path, capsys, game, key, value):
    """`check --option KEY=VALUE` on a log of the game: judged under it (its report says so)."""
    path = tmp_path / "game.log"
    path.write_text(log_of(game), encoding="utf-8")
    status, out, err = cli(tmp_path, capsys, "check", "--format", "json", "--option", f"{key}={value}", str(path))
    assert status in (0, 1), err
    report = json.loads(out)
    assert report["options"][key] == value
    assert report["spec_version"] == find_game(game).spec().version


@pytest.mark.parametrize(("game", "key", "value"), CASES, ids=[f"{g}-{k}={v}" for g, k, v in CASES])
def test_every_option_value_over_http(client, game, key, value):
    """`POST /v1/check?option=KEY=VALUE`, and the batch, on a log of the game."""
    body = log_of(game).encode()
    resp = client.post(
        "/v1/check", params={"option": f"{key}={value}"}, content=body, headers={"content-type": "text/plain"}
    )
    assert resp.status_code == 200, resp.text
    assert resp.json()["options"][key] == value
    resp = client.post("/v1/check/batch", params={"option": f"{key}={value}"}, json=[log_of(game)])
    assert resp.status_code == 200, resp.text
    [report] = resp.json()["reports"]
    assert report["options"][key] == value


@pytest.mark.parametrize("game", PACKS)
def test_another_games_option_is_a_misuse_naming_the_logs_game(tmp_path, capsys, client, game):
    pack = find_game(game)
    key, value = other_option(pack)
    path = tmp_path / "game.log"
    path.write_text(log_of(game), encoding="utf-8")
    status, out, err = cli(tmp_path, capsys, "check", "--option", f"{key}={value}", str(path))
    assert status == 2
    assert "Traceback" not in err
    assert f"option `{key}` is not one of {pack.title}'s" in err
    assert all(k in err for k in pack.spec().options)  # its own options, named
    assert out.strip() == ""  # no report: the log was not judged

    text = {"content-type": "text/plain"}
    resp = client.post("/v1/check", params={"option": f"{key}={value}"}, content=log_of(game).encode(), headers=text)
    assert resp.status_code == 422, resp.text
    problem = resp.json()
    assert problem["error"] == "unknown-option"
    assert pack.title in problem["detail"] and all(k in problem["detail"] for k in pack.spec().options)

    resp = client.post("/v1/check/batch", params={"option": f"{key}={value}"}, json=[log_of(game)])
    assert resp.status_code == 422 and resp.json()["error"] == "unknown-option", resp.text
    assert "item 0" in resp.json()["detail"]

    resp = client.post("/v1/replay", params={"option": f"{key}={value}"}, content=log_of(game).encode(), headers=text)
    assert resp.status_code == 422 and resp.json()["error"] == "unknown-option", resp.text


def test_a_mixed_folder_takes_each_games_options_qualified(tmp_path, capsys):
    """`GAME:KEY=VALUE` sets an option for that game's logs only, so one run over a folder of
    every game can set each game's options; a plain option another game lacks refuses that
    game's logs (exit 2) and still judges the rest."""
    argv = []
    for game in PACKS:
        (tmp_path / f"{game}.log").write_text(log_of(game), encoding="utf-8")
        key, value = every_value(game)[-1]
        argv += ["--option", f"{game}:{key}={value}"]
    status, out, err = cli(tmp_path, capsys, "check", "--format", "json", *argv, str(tmp_path))
    assert status in (0, 1), err
    reports = [json.loads(line) for line in out.splitlines()]
    assert len(reports) == len(PACKS)
    for report in reports:
        game = report["file"].rsplit("/", 1)[-1][: -len(".log")]
        key, value = every_value(game)[-1]
        assert report["options"][key] == value
        others = {k for g in PACKS if g != game for k, _ in every_value(g)} - set(find_game(game).spec().options)
        assert not others & set(report["options"]), report["options"]

    if len(PACKS) > 1:
        first = PACKS[0]
        key, value = other_option(find_game(first))
        status, out, err = cli(
            tmp_path, capsys, "check", "--format", "json", "--option", f"{key}={value}", str(tmp_path)
        )
        assert status == 2 and "Traceback" not in err
        lines = [json.loads(line) for line in out.splitlines()]
        refused = [d for d in lines if "error" in d]
        assert len(lines) == len(PACKS) and len(refused) >= 1  # the others were judged
        assert all(find_game(first).title in d["error"] for d in refused if d["file"].endswith(f"{first}.log"))


def test_an_option_no_game_has_is_refused_before_reading(tmp_path, capsys):
    path = tmp_path / "x.log"
    path.write_text(log_of(PACKS[0]), encoding="utf-8")
    status, out, err = cli(tmp_path, capsys, "check", "--option", "no-such-option=1", str(path))
    assert status == 2 and out == ""
    assert "unknown option `no-such-option`" in err
    assert all(find_game(g).title in err for g in PACKS)
    status, out, err = cli(tmp_path, capsys, "check", "--option", "chess:castle=yes", str(path))
    assert status == 2 and "no game `chess`" in err
