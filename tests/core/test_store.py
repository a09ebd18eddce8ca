"""The event store (dosverify/store/) against SQLite and a real PostgreSQL server, the same tests
for both: audits kept exactly and once, concurrent submissions, recomputing under a newer spec,
standings by stated tie-breaks, migrations from nothing and from the previous schema, and
export then import giving the same event."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading

import pytest
import sqlalchemy as sa
import storekit
from storekit import MALFORMED, expected_ranking, game_logs, illegal_logs, uno_logs

from dosverify.cli import main
from dosverify.store.db import HEAD, Store, StoreUnavailable, revision_of
from dosverify.store.judge import judge
from dosverify.store.standings import BadOrder, parse_order, standings

pg_server, db_url = storekit.pg_server, storekit.db_url  # the fixtures: SQLite and PostgreSQL


def _text_outcome(data: bytes) -> tuple[dict[str, int], str | None]:
    """The log's own last `totals` line and `winner`, read from its text (not by the store)."""
    totals, winner = {}, None
    for line in data.decode().splitlines():
        words = line.split()
        if words[:1] == ["totals"]:
            totals = {words[i]: int(words[i + 1]) for i in range(1, len(words), 2)}
        elif words[:1] == ["winner"]:
            winner = words[1]
    return totals, winner


def test_an_audit_keeps_the_bytes_and_the_same_bytes_are_the_same_audit(db_url):
    store = Store(db_url)
    ev = store.create_event("club night")
    data = game_logs(1)[0].replace(b"\n", b"\r\n")  # exactly as sent, CRLF and all
    audit, new = store.submit(ev["id"], data, "table 1")
    again, new_again = store.submit(ev["id"], data, "table 1 again")
    assert (new, new_again) == (True, False)
    assert again["id"] == audit["id"] and again["name"] == "table 1"
    assert store.log_bytes(audit["id"]) == data
    assert audit["sha256"] == hashlib.sha256(data).hexdigest()
    assert audit["verdict"] == "legal" and audit["report"]["verdict"] == "legal"
    assert audit["spec_version"] == audit["report"]["spec_version"] and audit["ruleset"] == "official"
    assert store.event(ev["id"])["games"] == 1
    other = store.create_event("league")
    elsewhere, new_elsewhere = store.submit(other["id"], data, "t")
    assert new_elsewhere and elsewhere["id"] != audit["id"]  # the same bytes to another event: another audit


def test_concurrent_submissions_of_the_same_bytes_make_one_audit(db_url):
    Store(db_url).create_event("race")
    stores = [Store(db_url) for _ in range(8)]
    ev = stores[0].event("race")
    data = game_logs(1, start=7)[0]
    judged = judge(data, "x")
    barrier = threading.Barrier(len(stores))
    got: list = []

    def submit(store):
        barrier.wait()
        got.append(store.submit(ev["id"], data, "x", judged=judged))

    threads = [threading.Thread(target=submit, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({a["id"] for a, _ in got}) == 1
    assert sum(new for _, new in got) == 1
    assert len(stores[0].games(ev["id"])) == 1
    for s in stores:
        s.close()


def test_a_report_recomputed_under_a_newer_spec_keeps_both(db_url):
    store = Store(db_url)
    ev = store.create_event("e")
    data = illegal_logs()[0]
    audit, _ = store.submit(ev["id"], data, "g")
    newer = dataclasses.replace(judge(data, "g"), spec_version="9.9.9")
    after = store.recompute(audit["id"], newer)
    assert after["spec_version"] == "9.9.9" and after["id"] == audit["id"]
    history = store.audit(audit["id"], history=True)["reports"]
    assert [r["spec_version"] for r in history] == [audit["spec_version"], "9.9.9"]
    assert store.recompute(audit["id"], newer)["judged"] == after["judged"]  # the same again: no third
    assert len(store.audit(audit["id"], history=True)["reports"]) == 2


def test_standings_follow_the_logs_totals_and_winners(db_url):
    store = Store(db_url)
    ev = store.create_event("cup")
    logs = game_logs(4, whole=True, start=20) + game_logs(3, start=40, players=3)
    for i, data in enumerate(logs):
        store.submit(ev["id"], data, f"g{i}")
    rows = {r["player"]: r for r in store.standings(ev["id"])}
    want_wins: dict[str, int] = {}
    want_games: dict[str, int] = {}
    for data in logs[:4]:
        totals, winner = _text_outcome(data)
        assert winner is not None  # a whole simulated game ends with its winner
        want_wins[winner] = want_wins.get(winner, 0) + 1
    for data in logs:
        for p in re.search(rb"^players (.*)$", data, re.M).group(1).decode().split():
            want_games[p] = want_games.get(p, 0) + 1
    assert {p: r["wins"] for p, r in rows.items() if r["wins"]} == want_wins
    assert {p: r["games"] for p, r in rows.items()} == want_games
    # every game's points are its last `totals` line (the rounds-only games have one round each)
    points: dict[str, int] = {}
    for data in logs:
        for p, n in _text_outcome(data)[0].items():
            points[p] = points.get(p, 0) + n
    assert {p: r["points"] for p, r in rows.items()} == points
    games = store.games(ev["id"])
    assert [g["result"]["finished"] for g in games] == [True] * 4 + [False] * 3


def test_illegal_games_are_counted_only_when_asked_and_malformed_never(db_url):
    store = Store(db_url)
    ev = store.create_event("e")
    bad = illegal_logs()
    for i, data in enumerate(bad):
        store.submit(ev["id"], data, f"bad{i}")
    store.submit(ev["id"], MALFORMED, "junk")
    left_out = store.standings(ev["id"])
    counted = store.standings(ev["id"], count_illegal=True)
    assert all(r["games"] == 0 and r["points"] == 0 for r in left_out)
    assert sum(r["illegal"] for r in left_out) == sum(len(judge(d, "x").result["players"]) for d in bad)
    assert sum(r["games"] for r in counted) == sum(r["illegal"] for r in counted)
    junk = [g for g in store.games(ev["id"]) if g["name"] == "junk"][0]
    assert junk["verdict"] == "malformed" and junk["result"] is None


def test_tie_breaks_are_applied_in_the_order_stated():
    def res(players, winner, pts, finished=True):
        return {"players": players, "winner": winner, "finished": finished, "rounds_won": {}, "points": pts}

    results = [
        ("legal", res(["a", "b"], "a", {"a": 200, "b": 10})),
        ("legal", res(["b", "c"], "b", {"b": 250, "c": 0})),
        ("illegal", res(["a", "c"], "c", {"a": 0, "c": 300})),
        ("legal", res(["c", "a"], None, {"c": 50, "a": 60}, finished=False)),
    ]
    by_default = [r["player"] for r in standings(results)]
    assert by_default == ["b", "a", "c"]  # a and b: a win and 260 points each; b has no illegal game
    rows = {r["player"]: r for r in standings(results)}
    assert (rows["a"]["points"], rows["b"]["points"]) == (260, 260) and rows["a"]["illegal"] == 1
    assert [r["player"] for r in standings(results, count_illegal=True)] == ["c", "b", "a"]  # c: 350 points
    assert [r["player"] for r in standings(results, order=parse_order("games,points"))] == ["a", "b", "c"]  # then names
    assert [r["player"] for r in standings(results, order=parse_order("illegal,wins"))] == ["b", "a", "c"]
    with pytest.raises(BadOrder):
        parse_order("wins,luck")


def test_a_uno_duo_event_ranks_the_lower_total_first(db_url, capsys):
    """UNO Duo's lowest total wins (its pack's result rule): two whole games won by two players,
    a win each, and one-round games; the points rank fewer first, through the store, the CLI's
    three formats, and the rule is stated."""
    store = Store(db_url)
    ev = store.create_event("duo")
    logs = uno_logs((1, 2), whole=True) + uno_logs(range(1, 7))
    for i, data in enumerate(logs):
        store.submit(ev["id"], data, f"u{i}")
    want = expected_ranking(logs, "lower")
    assert want != expected_ranking(logs, "higher")  # the logs tell the two rules apart
    ranked = store.ranking(ev["id"])
    assert [r["player"] for r in ranked["standings"]] == want
    assert [r["wins"] for r in ranked["standings"][:2]] == [1, 1]  # the win each: points decide
    assert ranked["points_better"] == "lower"
    assert ranked["rules"] == [
        {"game": "uno-duo", "title": "UNO Duo", "points_better": "lower", "summary": "the lowest total wins"}
    ]
    by_points = [r["points"] for r in store.standings(ev["id"], order=parse_order("points"))]
    assert by_points == sorted(by_points) and by_points[0] < by_points[-1]
    url = ["--database-url", db_url]
    capsys.readouterr()
    assert _cli("standings", "duo", "--format", "json", *url) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in doc["standings"]] == want
    assert doc["points_better"] == "lower" and doc["rules"] == ranked["rules"]
    assert _cli("standings", "duo", "--format", "csv", *url) == 0
    assert [ln.split(",")[0] for ln in capsys.readouterr().out.splitlines()[1:]] == want
    assert _cli("standings", "duo", *url) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1] == "points: UNO Duo: the lowest total wins; fewer points rank first"
    assert [ln.split()[1] for ln in text[3:]] == want


def test_a_dos_event_still_ranks_more_points_first(db_url):
    store = Store(db_url)
    ev = store.create_event("dos")
    logs = game_logs(4, start=60)  # one round each: no winner, points decide
    for i, data in enumerate(logs):
        store.submit(ev["id"], data, f"d{i}")
    ranked = store.ranking(ev["id"])
    assert [r["player"] for r in ranked["standings"]] == expected_ranking(logs, "higher")
    assert ranked["points_better"] == "higher" and store.event("dos")["game"] == "dos"
    assert [(r["game"], r["summary"]) for r in ranked["rules"]] == [("dos", "the highest total at the target wins")]
    assert [t["game"] for t in ranked["tables"]] == ["dos"]  # one game: one table (mixed events: test_store_games)


def test_lower_points_rank_first_but_no_counted_game_is_no_total():
    def res(game, players, winner, pts):
        return {
            "game": game,
            "players": players,
            "winner": winner,
            "finished": winner is not None,
            "rounds_won": {},
            "points": pts,
        }

    results = [
        ("legal", res("uno-duo", ["a", "b"], None, {"a": 90, "b": 0})),
        ("legal", res("uno-duo", ["c", "a"], None, {"c": 40, "a": 0})),
        ("illegal", res("uno-duo", ["d", "e"], None, {"d": 0, "e": 300})),
    ]
    # d and e's only game is illegal and left out: no total, after those with one (0 is not the best)
    assert [r["player"] for r in standings(results)] == ["b", "c", "a", "d", "e"]
    assert [r["player"] for r in standings(results, count_illegal=True)] == ["b", "d", "c", "a", "e"]
    assert [r["player"] for r in standings(results, better="higher")] == ["a", "c", "b", "d", "e"]
    unknown = [("legal", res("chess", ["a", "b"], None, {"a": 1, "b": 2}))]  # a game no pack has: no crash
    assert [r["player"] for r in standings(unknown)] == ["b", "a"]


def test_an_alias_merges_a_name_into_a_player(db_url):
    store = Store(db_url)
    ev = store.create_event("e")
    data = game_logs(1, start=3)[0]
    renamed = data.replace(b"ann", b"Anna")
    store.submit(ev["id"], data, "g1")
    store.submit(ev["id"], renamed, "g2")
    assert {r["player"] for r in store.standings(ev["id"])} == {"ann", "Anna", "bob"}
    store.merge_alias(ev["id"], "Anna", "ann")
    rows = {r["player"]: r for r in store.standings(ev["id"])}
    assert set(rows) == {"ann", "bob"} and rows["ann"]["games"] == 2


def test_migration_from_an_empty_database(db_url):
    store = Store(db_url)
    assert revision_of(store.engine) == HEAD
    names = set(sa.inspect(store.engine).get_table_names())
    assert {"events", "audits", "reports", "aliases", "alembic_version"} <= names
    Store(db_url)  # opening again migrates nothing and breaks nothing
    assert revision_of(store.engine) == HEAD


def test_a_submission_numbers_its_audit_from_an_index_not_a_scan_of_the_event(db_url):
    """max(seq) + 1 of the event is one index lookup (migration 0003): without it each submission
    read every audit of its event, its cost growing with the event (bench/store.py)."""
    store = Store(db_url)
    indexes = {i["name"]: i["column_names"] for i in sa.inspect(store.engine).get_indexes("audits")}
    assert indexes.get("ix_audits_event_seq") == ["event_id", "seq"]
    if store.engine.dialect.name == "sqlite":
        from dosverify.store.insert import params, plan_sql

        row = dict.fromkeys(("id", "event_id", "sha256", "name", "log", "form", "submitted"), "e")
        rep = dict.fromkeys(("spec_version", "ruleset", "options", "verdict", "report", "result", "judged", "current"))
        with store.engine.connect() as conn:
            got = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + plan_sql("sqlite"), params(row, rep))
            plan = " ".join(str(r[-1]) for r in got)
        assert "ix_audits_event_seq" in plan, plan
    ev = store.create_event("club")
    for k, data in enumerate(game_logs(3), start=1):
        audit, _ = store.submit(ev["id"], data)
        assert [g["id"] for g in store.games(ev["id"])][-1] == audit["id"] and len(store.games(ev["id"])) == k


def test_migration_from_the_previous_revision_keeps_and_completes_the_data(db_url):
    old = Store(db_url, migrate_to="0001")
    assert revision_of(old.engine) == "0001"
    data = game_logs(1, whole=True, start=5)[0]
    j = judge(data, "old")
    with old.engine.begin() as conn:  # what a 0001 store held: no result column, no aliases
        conn.execute(
            sa.text("INSERT INTO events (id, name, created) VALUES ('ev1', 'old event', '2026-01-01T00:00:00.000000Z')")
        )
        conn.execute(
            sa.text(
                "INSERT INTO audits (id, event_id, sha256, name, log, form, submitted, seq) "
                "VALUES ('au1', 'ev1', :sha, 'old', :log, NULL, '2026-01-01T00:00:01.000000Z', 1)"
            ),
            {"sha": hashlib.sha256(data).hexdigest(), "log": data},
        )
        conn.execute(
            sa.text(
                "INSERT INTO reports (audit_id, spec_version, ruleset, options, verdict, report, judged, current) "
                "VALUES ('au1', :v, :rs, :opts, :verdict, :rep, '2026-01-01T00:00:01.000000Z', :cur)"
            ),
            {
                "v": j.spec_version,
                "rs": j.ruleset,
                "opts": json.dumps(j.options),
                "verdict": j.verdict,
                "rep": json.dumps(j.report),
                "cur": True,
            },
        )
    old.close()
    new = Store(db_url)
    assert revision_of(new.engine) == HEAD
    audit = new.audit("au1")
    assert new.log_bytes("au1") == data and audit["report"] == j.report
    assert audit["result"]["winner"] == _text_outcome(data)[1]
    assert [r["wins"] for r in new.standings("ev1") if r["player"] == audit["result"]["winner"]] == [1]


def _cli(*args: str) -> int:
    return main(["event", *args])


def test_export_then_import_gives_the_same_event(db_url, tmp_path, capsys):
    logs = game_logs(3, start=60) + illegal_logs()[:2] + [MALFORMED]
    folder = tmp_path / "evening"
    folder.mkdir()
    for i, data in enumerate(logs):
        (folder / f"table{i}.log").write_bytes(data)
    url = ["--database-url", db_url]
    assert _cli("create", "evening", *url) == 0
    assert _cli("add", "evening", str(folder), *url) == 2  # a malformed log among them
    store = Store(db_url)
    ev = store.event("evening")
    store.merge_alias(ev["id"], "Bob", "bob")
    assert _cli("export", "evening", str(tmp_path / "out"), *url) == 0
    index = [json.loads(line) for line in (tmp_path / "out" / "index.jsonl").read_text().splitlines()]
    assert [(tmp_path / "out" / i["file"]).read_bytes() for i in index] == logs
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert _cli("import", str(tmp_path / "out"), "--database-url", other) == 0
    copy = Store(other)
    assert copy.dump(ev["id"]) == store.dump(ev["id"])
    assert copy.standings(ev["id"]) == store.standings(ev["id"])
    assert _cli("import", str(tmp_path / "out"), "--database-url", other) == 2  # once only
    assert "already" in capsys.readouterr().err


def test_event_add_says_a_line_per_file_and_exits_by_the_worst(db_url, tmp_path, capsys):
    url = ["--database-url", db_url]
    good, bad = tmp_path / "good.log", tmp_path / "bad.log"
    good.write_bytes(game_logs(1, start=80)[0])
    bad.write_bytes(illegal_logs()[0])
    assert _cli("create", "e", *url) == 0
    capsys.readouterr()
    assert _cli("add", "e", str(good), *url) == 0
    assert _cli("add", "e", str(good), str(bad), *url) == 1
    assert _cli("add", "e", str(tmp_path / "missing.log"), *url) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{good}: legal") and "(the same bytes as" in out[1]
    assert out[2].startswith(f"{bad}: illegal")
    assert _cli("standings", "e", "--format", "json", *url) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["event", "standings", "points_better", "rules", "mixed", "tables"]
    keys = ["player", "games", "wins", "rounds_won", "points", "illegal"]
    assert all(list(r) == [*keys, "game"] for r in doc["standings"])
    assert [list(r) for t in doc["tables"] for r in t["standings"]] == [keys] * len(doc["standings"])
    assert _cli("standings", "e", "--format", "csv", *url) == 0
    assert capsys.readouterr().out.splitlines()[0] == "player,games,wins,rounds_won,points,illegal,game"
    assert _cli("standings", "nope", *url) == 2


def test_a_database_that_is_away_is_store_unavailable(tmp_path):
    with pytest.raises(StoreUnavailable):
        Store(f"sqlite:///{tmp_path}")  # a folder: the database cannot be opened


def test_sqlite_is_in_wal_mode_with_full_sync_unless_told(tmp_path, monkeypatch):
    """WAL with synchronous=FULL: an audit acknowledged is on the disk (make_engine's docstring);
    DOSVERIFY_SQLITE_SYNC=normal trades that for speed, and anything else is refused in one line."""
    for env, want in ((None, 2), ("normal", 1), ("FULL", 2)):  # PRAGMA synchronous: 1 NORMAL, 2 FULL
        if env is None:
            monkeypatch.delenv("DOSVERIFY_SQLITE_SYNC", raising=False)
        else:
            monkeypatch.setenv("DOSVERIFY_SQLITE_SYNC", env)
        store = Store(f"sqlite:///{tmp_path / f'events-{env}.db'}")
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == want, env
        store.close()
    monkeypatch.setenv("DOSVERIFY_SQLITE_SYNC", "off")
    with pytest.raises(ValueError, match="DOSVERIFY_SQLITE_SYNC"):
        Store(f"sqlite:///{tmp_path / 'events-off.db'}")
