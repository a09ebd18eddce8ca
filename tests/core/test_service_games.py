"""The service's answers name the game they are about (issue 30 step 3): `X-Spec-Version` (the
log's game and its spec version; every game's for an answer about none), the deprecated
`X-DOS-Spec-Version` (DOS's, everywhere), /healthz's `games`, a problem's `spec_version` and
`game`, and a batch's `spec_versions`, for every registered game."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from dosverify.games import REGISTRY, find_game
from dosverify.service import GAMES_HEADER, SPEC_HEADER, create_app

GAMES = list(REGISTRY)
TEXT = {"content-type": "text/plain"}
DOS = find_game("dos").spec().version


def version(game: str) -> str:
    return find_game(game).spec().version


def header(*games: str) -> str:
    return ", ".join(f"{g} {version(g)}" for g in games)


EVERY = header(*GAMES)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.fixture(scope="module")
def logs() -> dict[str, str]:
    return {g: find_game(g).simulate(seed=1) for g in GAMES}


def test_the_games_differ() -> None:
    """The tests below tell the games apart only if their spec versions or names do (they do by
    name; a second game with DOS's version still has its own header value)."""
    assert len(GAMES) >= 2 and len({header(g) for g in GAMES}) == len(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_check_names_the_logs_game(client: TestClient, logs: dict, game: str) -> None:
    r = client.post("/v1/check", content=logs[game], headers=TEXT)
    assert r.status_code == 200, r.text
    assert r.json()["verdict"] == "legal" and r.json()["spec_version"] == version(game)
    assert r.headers[GAMES_HEADER] == header(game)
    assert r.headers[SPEC_HEADER] == DOS  # the deprecated header stays DOS's until 0.2.0


@pytest.mark.parametrize("game", GAMES)
def test_replay_convert_profile_name_the_logs_game(client: TestClient, logs: dict, game: str) -> None:
    r = client.post("/v1/replay", content=logs[game], headers=TEXT)
    assert r.status_code == 200 and r.headers[GAMES_HEADER] == header(game)
    r = client.post("/v1/convert", content=logs[game], headers=TEXT)
    assert r.status_code == 200, r.text
    assert r.headers[GAMES_HEADER] == header(game)
    as_json = json.dumps(r.json()["log"])
    r = client.post("/v1/convert", content=as_json, headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.headers[GAMES_HEADER] == header(game)
    r = client.post("/v1/profile", json=[logs[game]])
    if "profile" not in find_game(game).capabilities:  # a clear 422 naming the game, never a 500
        assert r.status_code == 422 and r.json()["error"] == "not-supported", r.text
        assert find_game(game).title in r.json()["detail"] and r.json()["game"] == game
        return
    assert r.status_code == 200, r.text
    assert r.headers[GAMES_HEADER] == header(game) and r.json()["spec_version"] == version(game)


@pytest.mark.parametrize("game", GAMES)
def test_spec_routes_name_the_asked_game(client: TestClient, game: str) -> None:
    for path in ("/v1/rules", "/v1/rulesets"):
        r = client.get(path, params={"game": game})
        assert r.status_code == 200 and r.headers[GAMES_HEADER] == header(game), path
        assert r.json()["spec_version"] == version(game)
    rule = next(iter(find_game(game).spec().rules))
    r = client.get(f"/v1/rules/{rule}", params={"game": game})
    assert r.status_code == 200 and r.headers[GAMES_HEADER] == header(game)
    r = client.get("/v1/rules/no.such-rule", params={"game": game})  # a problem about the asked game's spec
    assert r.status_code == 404 and r.headers[GAMES_HEADER] == header(game)
    assert r.json()["game"] == game and r.json()["spec_version"] == version(game)


def test_answers_about_no_game_name_every_game(client: TestClient) -> None:
    for path in ("/healthz", "/v1/games", "/openapi.json", "/problems/not-found", "/no/such/path"):
        r = client.get(path)
        assert r.headers[GAMES_HEADER] == EVERY, path
        assert r.headers[SPEC_HEADER] == DOS, path
    r = client.get("/v1/rules")  # no ?game=: DOS's specification
    assert r.headers[GAMES_HEADER] == header("dos")
    r = client.get("/no/such/path")  # a problem about no log: no game, DOS's version as before
    assert r.json()["game"] is None and r.json()["spec_version"] == DOS
    r = client.get("/v1/rules", params={"game": "chess"})
    assert r.status_code == 422 and r.headers[GAMES_HEADER] == EVERY and r.json()["game"] is None


def test_health_has_every_games_spec_version(client: TestClient) -> None:
    body = client.get("/healthz").json()
    assert body["games"] == {g: version(g) for g in GAMES}
    assert body["spec_version"] == DOS  # kept: DOS's


@pytest.mark.parametrize("game", GAMES)
def test_unknown_option_problem_is_the_logs_games(client: TestClient, logs: dict, game: str) -> None:
    """An option the log's game does not have: the problem carries that game and its version."""
    other = next(o for g in GAMES if g != game for o in find_game(g).spec().options if o not in _opts(game))
    value = next(iter(find_game(next(g for g in GAMES if other in _opts(g))).spec().options[other]["values"]))
    r = client.post("/v1/check", params={"option": f"{other}={value}"}, content=logs[game], headers=TEXT)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "unknown-option"
    assert body["game"] == game and body["spec_version"] == version(game)
    assert r.headers[GAMES_HEADER] == header(game) and r.headers[SPEC_HEADER] == DOS
    r = client.post("/v1/check", params={"ruleset": "no-such-ruleset"}, content=logs[game], headers=TEXT)
    assert r.status_code == 422 and r.json()["game"] == game and r.json()["spec_version"] == version(game)
    r = client.post("/v1/replay", params={"option": f"{other}={value}"}, content=logs[game], headers=TEXT)
    assert r.status_code == 422 and r.json()["game"] == game and r.json()["spec_version"] == version(game)


def _opts(game: str) -> set[str]:
    return set(find_game(game).spec().options)


def test_mixed_batch(client: TestClient, logs: dict) -> None:
    items = [logs[g] for g in reversed(GAMES)] + [logs[GAMES[0]]]
    r = client.post("/v1/check/batch", json=items)
    assert r.status_code == 200, r.text
    body = r.json()
    assert r.headers[GAMES_HEADER] == EVERY  # one per game present, in the registry's order
    assert body["spec_versions"] == {g: version(g) for g in GAMES}
    assert body["spec_version"] == version(GAMES[-1])  # the first report's game's
    assert [rep["spec_version"] for rep in body["reports"]] == [version(g) for g in reversed(GAMES)] + [DOS]


@pytest.mark.parametrize("game", GAMES)
def test_one_game_batch(client: TestClient, logs: dict, game: str) -> None:
    r = client.post("/v1/check/batch", json=[logs[game], {"name": "again", "log": logs[game]}])
    assert r.status_code == 200, r.text
    assert r.headers[GAMES_HEADER] == header(game)
    assert r.json()["spec_versions"] == {game: version(game)} and r.json()["spec_version"] == version(game)


def test_empty_batch(client: TestClient) -> None:
    r = client.post("/v1/check/batch", json=[])
    assert r.status_code == 200
    assert r.json()["spec_versions"] == {} and r.json()["spec_version"] == DOS
    assert r.headers[GAMES_HEADER] == EVERY


def test_batch_problem_names_the_items_game(client: TestClient, logs: dict) -> None:
    """A batch item whose game lacks the option: the problem is that item's game's."""
    for i, game in enumerate(GAMES):
        other = next(o for g in GAMES if g != game for o in find_game(g).spec().options if o not in _opts(game))
        owner = next(g for g in GAMES if other in _opts(g))
        value = next(iter(find_game(owner).spec().options[other]["values"]))
        items = [logs[owner], logs[game]]
        r = client.post("/v1/check/batch", params={"option": f"{other}={value}"}, json=items)
        assert r.status_code == 422, (i, r.text)
        assert r.json()["game"] == game and r.json()["spec_version"] == version(game)
        assert r.json()["problems"][0]["message"].startswith("item 1")


def test_openapi_declares_both_headers(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in doc["paths"].values():
        for op in path.values():
            for resp in op["responses"].values():
                assert GAMES_HEADER in resp["headers"] and SPEC_HEADER in resp["headers"]
                assert resp["headers"][SPEC_HEADER]["deprecated"] is True
    assert "game" in doc["components"]["schemas"]["ErrorBody"]["properties"]
    assert "spec_versions" in doc["components"]["schemas"]["BatchResult"]["required"]
    assert "games" in doc["components"]["schemas"]["Health"]["required"]
