"""Events and their games (issue 35 items 1 and 8), on SQLite and PostgreSQL: an event holds one
game unless created mixed, a log of another game is refused (store, CLI exit 2, HTTP 422) and
nothing is kept of it; a mixed event ranks each game in its own table by its own rule, the points
of DOS and UNO Duo never summed; an event kept before events had a game (schema 0003) that mixes
games is mixed, shown per game and never refused; the commands say which store they use."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest
import sqlalchemy as sa
import storekit
from fastapi.testclient import TestClient
from storekit import MALFORMED, expected_ranking, game_logs, uno_logs

from dosverify.cli import main
from dosverify.store.db import HEAD, OtherGame, Store, revision_of
from dosverify.store.judge import judge

pg_server, db_url = storekit.pg_server, storekit.db_url

DOS = game_logs(4, start=60)  # one round each: no winner, the points decide
UNO = uno_logs((1, 2), whole=True) + uno_logs(range(1, 5))  # bob plays in both games


def _fill(store: Store, event_id: str, logs: list[bytes], prefix: str) -> None:
    for i, data in enumerate(logs):
        store.submit(event_id, data, f"{prefix}{i}")


def test_an_event_of_one_game_refuses_another_games_log_and_keeps_nothing_of_it(db_url):
    store = Store(db_url)
    ev = store.create_event("duo night")
    assert (ev["game"], ev["mixed"]) == (None, False)
    store.submit(ev["id"], MALFORMED.replace(b"dos 1", b"???"), "no game")  # names no game: set nothing
    assert store.event(ev["id"])["game"] is None
    _fill(store, ev["id"], UNO[:2], "u")
    assert store.event(ev["id"])["game"] == "uno-duo"  # the first log naming a game sets it
    with pytest.raises(OtherGame) as got:
        store.submit(ev["id"], DOS[0], "table 9")
    said = str(got.value)
    assert "`table 9` is a DOS log" in said and "`duo night` holds UNO Duo logs" in said
    assert "dosverify event create NAME --mixed" in said and '"mixed": true' in said
    assert store.event(ev["id"])["games"] == 3 and store.lookup(ev["id"], hashlib.sha256(DOS[0]).hexdigest()) is None
    again, new = store.submit(ev["id"], UNO[0], "same")  # the same bytes are still the same audit
    assert not new and again["name"] == "u0" and again["game"] == "uno-duo"


def test_a_malformed_log_of_another_game_is_refused_too(db_url):
    store = Store(db_url)
    ev = store.create_event("duo")
    store.submit(ev["id"], UNO[0], "u")
    with pytest.raises(OtherGame):
        store.submit(ev["id"], MALFORMED, "dos header")  # `dos 1` then nonsense: a DOS log, malformed


def test_concurrent_first_logs_of_two_games_leave_an_event_of_one(db_url):
    """Eight submissions at once to an event with no game yet, half of each game: the game of the
    one that commits first is the event's, the others of that game are kept, every other refused."""
    Store(db_url).create_event("race")
    stores = [Store(db_url) for _ in range(8)]
    ev = stores[0].event("race")
    logs = [d for pair in zip(DOS, UNO, strict=False) for d in pair]
    judged = [judge(d, "x") for d in logs]
    outcome: list[str] = [""] * 8
    gate = threading.Barrier(8)

    def send(k: int) -> None:
        gate.wait()
        try:
            stores[k].submit(ev["id"], logs[k], f"t{k}", judged=judged[k])
            outcome[k] = "kept"
        except OtherGame:
            outcome[k] = "refused"

    threads = [threading.Thread(target=send, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = stores[0].event("race")["game"]
    assert game in ("dos", "uno-duo")
    assert outcome == ["kept" if j.game == game else "refused" for j in judged]
    assert {g["game"] for g in stores[0].games(ev["id"])} == {game}


def test_a_mixed_event_ranks_each_game_in_its_own_table_by_its_own_rule(db_url):
    store = Store(db_url)
    ev = store.create_event("both", mixed=True)
    _fill(store, ev["id"], DOS, "d")
    _fill(store, ev["id"], UNO, "u")
    assert store.event(ev["id"])["mixed"] and store.event(ev["id"])["game"] is None
    ranked = store.ranking(ev["id"])
    tables = {t["game"]: t for t in ranked["tables"]}
    assert list(tables) == ["dos", "uno-duo"]
    assert (tables["dos"]["points_better"], tables["uno-duo"]["points_better"]) == ("higher", "lower")
    assert tables["uno-duo"]["summary"] == "the lowest total wins" and tables["uno-duo"]["title"] == "UNO Duo"
    assert [r["player"] for r in tables["dos"]["standings"]] == expected_ranking(DOS, "higher")
    assert [r["player"] for r in tables["uno-duo"]["standings"]] == expected_ranking(UNO, "lower")
    for game, logs in (("dos", DOS), ("uno-duo", UNO)):  # a player of both games: each game's points alone
        only = store.create_event(f"only {game}")
        _fill(store, only["id"], logs, "x")
        assert tables[game]["standings"] == store.ranking(only["id"])["tables"][0]["standings"]
    assert ranked["points_better"] is None  # the tables disagree: no one rule for the event
    assert ranked["standings"] == [{**r, "game": g} for g, t in tables.items() for r in t["standings"]]
    assert [g["game"] for g in store.games(ev["id"])] == ["dos"] * len(DOS) + ["uno-duo"] * len(UNO)


def test_an_event_of_schema_0003_that_mixes_games_is_mixed_and_shown_per_game(db_url):
    """Kept before events had a game: one event with logs of both games, one of UNO Duo alone,
    one empty. Migrated with its data, the first is mixed (shown per game, takes either game),
    the second holds UNO Duo (a DOS log refused), the third takes its first log's game."""
    old = Store(db_url, migrate_to="0003")
    assert revision_of(old.engine) == "0003"
    with old.engine.begin() as conn:
        for eid in ("mix", "uno", "empty"):
            conn.execute(
                sa.text("INSERT INTO events (id, name, created) VALUES (:i, :i, '2026-01-01T00:00:00.000000Z')"),
                {"i": eid},
            )
        for seq, (eid, data) in enumerate([("mix", DOS[0]), ("mix", UNO[0]), ("mix", DOS[1]), ("uno", UNO[1])], 1):
            j = judge(data, f"g{seq}")
            conn.execute(
                sa.text(
                    "INSERT INTO audits (id, event_id, sha256, name, log, form, submitted, seq) "
                    "VALUES (:a, :e, :sha, :a, :log, NULL, '2026-01-01T00:00:01.000000Z', :seq)"
                ),
                {"a": f"a{seq}", "e": eid, "sha": hashlib.sha256(data).hexdigest(), "log": data, "seq": seq},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO reports (audit_id, spec_version, ruleset, options, verdict, report, result, judged, current)"
                    " VALUES (:a, :v, :rs, :opts, :verdict, :rep, :res, '2026-01-01T00:00:01.000000Z', :cur)"
                ),
                {
                    "a": f"a{seq}",
                    "v": j.spec_version,
                    "rs": j.ruleset,
                    "opts": json.dumps(j.options),
                    "verdict": j.verdict,
                    "rep": json.dumps(j.report),
                    "res": json.dumps(j.result),
                    "cur": True,
                },
            )
    old.close()
    new = Store(db_url)
    assert revision_of(new.engine) == HEAD
    assert [new.log_bytes(f"a{k}") for k in (1, 2, 3, 4)] == [DOS[0], UNO[0], DOS[1], UNO[1]]  # nothing lost
    mix, uno, empty = (new.event(e) for e in ("mix", "uno", "empty"))
    assert (mix["mixed"], mix["game"], mix["games"]) == (True, None, 3)
    assert (uno["mixed"], uno["game"]) == (False, "uno-duo")
    assert (empty["mixed"], empty["game"]) == (False, None)
    assert [t["game"] for t in new.ranking("mix")["tables"]] == ["dos", "uno-duo"]
    assert new.submit("mix", DOS[2], "new dos")[1] and new.submit("mix", UNO[2], "new uno")[1]  # never refused
    with pytest.raises(OtherGame):
        new.submit("uno", DOS[2], "d")
    new.submit("empty", DOS[3], "d")
    assert new.event("empty")["game"] == "dos"


def _cli(*args: str) -> int:
    return main(["event", *args])


def test_the_cli_creates_mixed_events_refuses_another_game_and_says_its_store(db_url, tmp_path, capsys):
    url = ["--database-url", db_url]
    folder = tmp_path / "night"
    folder.mkdir()
    for i, data in enumerate(DOS[:2] + UNO[:2]):
        (folder / f"t{i}.log").write_bytes(data)
    assert _cli("create", "Night", *url) == 0
    err = capsys.readouterr().err
    shown = sa.engine.make_url(db_url)
    if shown.get_backend_name() == "sqlite":
        assert f"the store {shown.database}" in err
    else:
        assert shown.password is None or shown.password not in err  # masked
        assert f"the store {shown.render_as_string(hide_password=True)}" in err
    assert _cli("add", "Night", str(folder), *url) == 2  # the UNO Duo logs refused, the rest kept
    out = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in out if "refused" in ln] == ["t2.log", "t3.log"]
    assert "is a UNO Duo log, and the event `Night` holds DOS logs" in out[2]
    assert _cli("create", "Both", "--mixed", *url) == 0
    assert _cli("add", "Both", str(folder), *url) == 0
    capsys.readouterr()
    assert _cli("standings", "Both", *url) == 0
    text = capsys.readouterr().out
    assert "one table per game" in text.splitlines()[0]
    assert "points: DOS: the highest total at the target wins; more points rank first" in text
    assert "points: UNO Duo: the lowest total wins; fewer points rank first" in text
    assert _cli("standings", "Both", "--format", "csv", *url) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].endswith(",game") and {r.rsplit(",", 1)[1] for r in rows[1:]} == {"dos", "uno-duo"}
    assert _cli("standings", "Both", "--format", "json", *url) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mixed"] is True and [t["title"] for t in doc["tables"]] == ["DOS", "UNO Duo"]
    assert _cli("show", "Both", *url) == 0
    shown_text = capsys.readouterr().out
    head = shown_text.splitlines()[0]
    assert "4 games (mixed)" in head and head.endswith(" UTC") and "." not in head.split("created")[1]
    assert "\tUNO Duo\tlegal\t" in shown_text and "\tDOS\tlegal\t" in shown_text
    assert _cli("standings", "nowhere", *url) == 2
    err = capsys.readouterr().err
    assert "no event `nowhere` in the store" in err


def test_http_refuses_another_games_log_with_a_problem_and_makes_mixed_events(db_url, tmp_path, monkeypatch):
    from dosverify.service import create_app

    (tmp_path / "token").write_text("t0ken\n")
    monkeypatch.setenv("DOSVERIFY_TOKEN_FILE", str(tmp_path / "token"))
    monkeypatch.setenv("DOSVERIFY_DATABASE_URL", db_url)
    token = {"Authorization": "Bearer t0ken"}
    auth = {**token, "content-type": "text/plain"}
    with TestClient(create_app(workers=1)) as c:
        one = c.post("/v1/events", json={"name": "one"}, headers=token).json()
        assert (one["game"], one["mixed"]) == (None, False)
        assert c.post(f"/v1/events/{one['id']}/games?name=u", content=UNO[0], headers=auth).status_code == 201
        r = c.post(f"/v1/events/{one['id']}/games?name=d", content=DOS[0], headers=auth)
        assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
        assert r.json()["error"] == "other-game" and "`d` is a DOS log" in r.json()["detail"]
        assert c.get(f"/v1/events/{one['id']}").json()["games"] == 1
        assert c.post("/v1/events", json={"name": "x", "mixed": "yes"}, headers=token).status_code == 422
        both = c.post("/v1/events", json={"name": "both", "mixed": True}, headers=token).json()
        for data in DOS + UNO:
            assert c.post(f"/v1/events/{both['id']}/games", content=data, headers=auth).status_code == 201
        doc = c.get(f"/v1/events/{both['id']}/standings").json()
        assert doc["mixed"] is True and doc["points_better"] is None
        assert [(t["game"], t["points_better"]) for t in doc["tables"]] == [("dos", "higher"), ("uno-duo", "lower")]
        assert [r["player"] for r in doc["tables"][1]["standings"]] == expected_ranking(UNO, "lower")
        games = c.get(f"/v1/events/{both['id']}/games").json()["games"]
        assert [g["game"] for g in games] == ["dos"] * len(DOS) + ["uno-duo"] * len(UNO)
