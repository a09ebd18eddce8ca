"""The service's event store (/v1/events, /v1/audits) against SQLite and PostgreSQL: writes need
the bearer token, the same bytes answer 200 with the same audit, the JSON shapes scripts rely on,
the exact bytes back, and 503 with Retry-After (never 500) while the database is away."""

from __future__ import annotations

import hashlib
import json

import pytest
import storekit
from fastapi.testclient import TestClient
from storekit import MALFORMED, expected_ranking, game_logs, illegal_logs, uno_logs

from dosverify.service import create_app

pg_server, db_url = storekit.pg_server, storekit.db_url
TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TEXT = {"content-type": "text/plain; charset=utf-8"}


@pytest.fixture
def client(db_url, tmp_path, monkeypatch):
    (tmp_path / "token").write_text(TOKEN + "\n")
    monkeypatch.setenv("DOSVERIFY_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("DOSVERIFY_DATABASE_URL", db_url)
    with TestClient(create_app(workers=1)) as c:
        yield c


def _event(client, name="club") -> str:
    r = client.post("/v1/events", json={"name": name}, headers=AUTH)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_writes_need_the_token(client):
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}):
        r = client.post("/v1/events", json={"name": "x"}, headers=headers)
        assert r.status_code == 401 and r.headers["content-type"] == "application/problem+json"
        assert r.json()["status"] == 401 and r.json()["type"] == "/problems/unauthorized"
        assert r.headers["www-authenticate"].startswith("Bearer")
    eid = _event(client)
    r = client.post(f"/v1/events/{eid}/games", content=game_logs(1)[0], headers=TEXT)
    assert r.status_code == 401
    assert client.get(f"/v1/events/{eid}").status_code == 200  # reads are public


def test_a_log_is_201_then_200_with_the_same_audit_and_its_exact_bytes(client):
    eid = _event(client)
    data = game_logs(1, start=2)[0].replace(b"\n", b"\r\n")
    first = client.post(f"/v1/events/{eid}/games?name=table+1", content=data, headers={**AUTH, **TEXT})
    again = client.post(f"/v1/events/{eid}/games?name=other", content=data, headers={**AUTH, **TEXT})
    assert (first.status_code, again.status_code) == (201, 200)
    audit = first.json()
    assert list(audit)[:6] == ["id", "event", "sha256", "name", "verdict", "report"]
    assert again.json()["id"] == audit["id"] and audit["event"] == eid and audit["name"] == "table 1"
    assert audit["sha256"] == hashlib.sha256(data).hexdigest() and audit["verdict"] == "legal"
    assert client.get(f"/v1/audits/{audit['id']}").json() == audit
    log = client.get(f"/v1/audits/{audit['id']}/log")
    assert log.status_code == 200 and log.content == data
    assert client.get(f"/v1/events/{eid}").json()["games"] == 1


def test_json_logs_illegal_and_malformed_ones_are_kept_and_listed(client):
    eid = _event(client)
    from dosverify import api

    as_json, _ = api.convert(game_logs(1, start=4)[0].decode(), "json")
    sent = [(as_json.encode(), "application/json"), (illegal_logs()[0], "text/plain"), (MALFORMED, "text/plain")]
    for data, media in sent:
        r = client.post(f"/v1/events/{eid}/games", content=data, headers={**AUTH, "content-type": media})
        assert r.status_code == 201, r.text
    games = client.get(f"/v1/events/{eid}/games").json()
    assert games["event"] == eid
    assert [g["verdict"] for g in games["games"]] == ["legal", "illegal", "malformed"]
    assert [client.get(f"/v1/audits/{g['id']}/log").content for g in games["games"]] == [d for d, _ in sent]
    r = client.post(f"/v1/events/{eid}/games", content=b"x", headers={**AUTH, "content-type": "image/png"})
    assert r.status_code == 415 and r.headers["content-type"] == "application/problem+json"


def test_standings_shape_and_order(client):
    eid = _event(client)
    for data in game_logs(3, whole=True, start=30):
        assert client.post(f"/v1/events/{eid}/games", content=data, headers={**AUTH, **TEXT}).status_code == 201
    doc = client.get(f"/v1/events/{eid}/standings").json()
    assert list(doc) == ["event", "standings", "points_better", "rules", "mixed", "tables"] and doc["event"] == eid
    assert doc["points_better"] == "higher"
    assert doc["rules"] == [
        {"game": "dos", "title": "DOS", "points_better": "higher", "summary": "the highest total at the target wins"}
    ]
    rows = doc["standings"]
    keys = ["player", "games", "wins", "rounds_won", "points", "illegal"]
    assert all(list(r) == [*keys, "game"] and r["game"] == "dos" for r in rows)
    assert doc["mixed"] is False and [t["game"] for t in doc["tables"]] == ["dos"]
    assert [{**r, "game": "dos"} for r in doc["tables"][0]["standings"]] == rows
    assert sum(r["wins"] for r in rows) == 3
    assert [(r["wins"], r["points"]) for r in rows] == sorted(((r["wins"], r["points"]) for r in rows), reverse=True)
    by_points = client.get(f"/v1/events/{eid}/standings?tie_break=points").json()["standings"]
    assert [r["points"] for r in by_points] == sorted((r["points"] for r in rows), reverse=True)
    bad = client.get(f"/v1/events/{eid}/standings?tie_break=luck")
    assert bad.status_code == 422 and bad.headers["content-type"] == "application/problem+json"


def test_a_uno_duo_event_ranks_the_lower_total_first(client):
    eid = _event(client, "duo")
    logs = uno_logs((1, 2), whole=True) + uno_logs(range(1, 7))
    for data in logs:
        assert client.post(f"/v1/events/{eid}/games", content=data, headers={**AUTH, **TEXT}).status_code == 201
    doc = client.get(f"/v1/events/{eid}/standings").json()
    want = expected_ranking(logs, "lower")
    assert want != expected_ranking(logs, "higher")
    assert [r["player"] for r in doc["standings"]] == want
    assert doc["points_better"] == "lower"
    assert [(r["title"], r["summary"]) for r in doc["rules"]] == [("UNO Duo", "the lowest total wins")]
    by_points = client.get(f"/v1/events/{eid}/standings?tie_break=points").json()["standings"]
    assert [r["points"] for r in by_points] == sorted(r["points"] for r in doc["standings"])


def test_unknown_ids_are_404_problems_and_ids_are_unguessable(client):
    eid = _event(client, "named")
    assert len(eid) >= 22
    for path in ("/v1/events/named", "/v1/events/nope/standings", "/v1/audits/nope", "/v1/audits/nope/log"):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json", path
    r = client.post("/v1/events/nope/games", content=b"dos 1\n", headers={**AUTH, **TEXT})
    assert r.status_code == 404
    assert client.post("/v1/events", json={"name": "named"}, headers=AUTH).status_code == 409


def test_the_openapi_document_has_the_event_routes(client):
    doc = client.get("/openapi.json").json()
    for path in (
        "/v1/events",
        "/v1/events/{event_id}",
        "/v1/events/{event_id}/games",
        "/v1/events/{event_id}/standings",
        "/v1/audits/{audit_id}",
        "/v1/audits/{audit_id}/log",
    ):
        assert path in doc["paths"], path
    assert set(doc["components"]["schemas"]["Standings"]["properties"]) == {
        "event",
        "standings",
        "points_better",
        "rules",
        "mixed",
        "tables",
    }
    assert doc["components"]["schemas"]["GameRule"]["properties"]["points_better"]["enum"] == ["higher", "lower"]
    assert set(doc["components"]["schemas"]["Standing"]["properties"]) == {
        "game",
        "player",
        "games",
        "wins",
        "rounds_won",
        "points",
        "illegal",
    }


def test_a_database_that_cannot_be_opened_is_503_with_retry_after(tmp_path, monkeypatch):
    monkeypatch.setenv("DOSVERIFY_DATABASE_URL", f"sqlite:///{tmp_path}")  # a folder: never opens
    (tmp_path / "token").write_text(TOKEN)
    monkeypatch.setenv("DOSVERIFY_TOKEN_FILE", str(tmp_path / "token"))
    with TestClient(create_app(workers=1)) as c:
        for r in (c.get("/v1/events/x"), c.post("/v1/events", json={"name": "x"}, headers=AUTH)):
            assert r.status_code == 503 and r.headers["retry-after"].isdigit()
            assert r.headers["content-type"] == "application/problem+json"
        assert c.get("/healthz").status_code == 200


def test_postgres_stopped_then_started_is_503_then_served(pg_server, tmp_path, monkeypatch):
    url = pg_server.new_database("away")
    (tmp_path / "token").write_text(TOKEN)
    monkeypatch.setenv("DOSVERIFY_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("DOSVERIFY_DATABASE_URL", url)
    with TestClient(create_app(workers=1)) as c:
        eid = _event(c, "kept")
        pg_server.stop()
        try:
            r = c.post(f"/v1/events/{eid}/games", content=game_logs(1)[0], headers={**AUTH, **TEXT})
            assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
            assert c.get(f"/v1/events/{eid}").status_code == 503
        finally:
            pg_server.start()
        r = c.post(f"/v1/events/{eid}/games", content=game_logs(1)[0], headers={**AUTH, **TEXT})
        assert r.status_code == 201 and json.loads(r.text)["event"] == eid


def test_audit_answers_name_their_logs_games(client):
    """`X-Spec-Version` on the event routes: the audits' games, each with its spec version (a mixed
    event's list names both); the event itself is about no one game (every game's)."""
    from dosverify.games import REGISTRY, find_game

    def header(*games: str) -> str:
        return ", ".join(f"{g} {find_game(g).spec().version}" for g in games)

    r = client.post("/v1/events", json={"name": "every game", "mixed": True}, headers=AUTH)
    assert r.status_code == 201 and r.json()["mixed"] is True
    eid = r.json()["id"]
    for game in REGISTRY:
        r = client.post(f"/v1/events/{eid}/games", content=find_game(game).simulate(seed=1), headers={**AUTH, **TEXT})
        assert r.status_code == 201, r.text
        assert r.headers["x-spec-version"] == header(game)
        audit = r.json()["id"]
        assert client.get(f"/v1/audits/{audit}").headers["x-spec-version"] == header(game)
        assert client.get(f"/v1/audits/{audit}/log").headers["x-spec-version"] == header(game)
    assert client.get(f"/v1/events/{eid}/games").headers["x-spec-version"] == header(*REGISTRY)
    assert client.get(f"/v1/events/{eid}").headers["x-spec-version"] == header(*REGISTRY)
