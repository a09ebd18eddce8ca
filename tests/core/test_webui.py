"""The organiser's page and what it rests on, in process: the page and every asset come from
the package (no CDN: /docs and /redoc work offline), and POST /v1/replay gives the table after
every turn, consistent with the report and with the golden playthroughs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from dosverify import api
from dosverify.games.dos.golden import GAMES, paths
from dosverify.service import create_app
from dosverify.webui import STATIC_DIR

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "fixtures" / "dos" / "notation" / "example.log").read_text(encoding="utf-8")
ILLEGAL = EXAMPLE.replace("turn bob ", "turn cyd ", 1)
TEXT = {"content-type": "text/plain"}
URL_IN_PAGE = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def test_page_at_root_names_the_docs_and_loads_only_local_assets(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert 'href="/docs"' in r.text
    urls = URL_IN_PAGE.findall(r.text)
    assert urls and all(u.startswith("/") or u.startswith("#") for u in urls), urls
    for u in urls:
        if u.startswith("/static/"):
            assert client.get(u).status_code == 200, u


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_pages_load_nothing_from_outside(client, path):
    r = client.get(path)
    assert r.status_code == 200
    urls = URL_IN_PAGE.findall(r.text) + re.findall(r"url: '([^']+)'", r.text)
    assert urls and all(u.startswith("/") for u in urls), urls
    assert "googleapis" not in r.text and "cdn.jsdelivr" not in r.text and "tiangolo" not in r.text
    for u in urls:
        got = client.get(u)
        assert got.status_code == 200 and len(got.content) > 100, u


def test_vendored_assets_carry_their_licences():
    vendor = STATIC_DIR / "vendor"
    for d in ("swagger-ui", "redoc"):
        assert (vendor / d / "LICENSE").stat().st_size > 500
    assert "Apache License" in (vendor / "swagger-ui" / "LICENSE").read_text()
    assert "MIT License" in (vendor / "redoc" / "LICENSE").read_text()
    readme = (vendor / "README.md").read_text()
    assert "swagger-ui-dist" in readme and "redoc" in readme


def test_replay_report_equals_check(client):
    r = client.post("/v1/replay", params={"name": "g.log"}, content=ILLEGAL.encode(), headers=TEXT)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["report"] == json.loads(api.check(ILLEGAL.encode(), name="g.log").to_json_line())
    assert out["players"] == ["ann", "bob", "cyd"]
    states = out["states"]
    # the first turn plays bob's cards under `turn cyd`: judged as bob's, the name a slip (READINGS R49)
    assert [(s["round"], s["turn"], s["player"]) for s in states] == [(1, 1, "bob"), (1, 2, "cyd")]
    # every finding of a turn is listed on that turn's state, and lies within the turn's lines
    for s in states:
        for k in s["findings"]:
            f = out["report"]["findings"][k]
            assert (f["round"], f["turn"]) == (s["round"], s["turn"])
            assert s["line"] <= f["line"] <= s["end_line"]
    listed = sorted(k for s in states for k in s["findings"])
    assert listed == [k for k, f in enumerate(out["report"]["findings"]) if f["turn"] is not None]


def test_replay_states_equal_the_golden_playthroughs(client):
    """The replay's table is the referee's snapshot, stored for the golden games."""
    for g in GAMES:
        log_path, st_path = paths(g)
        golden = [json.loads(line) for line in st_path.read_text(encoding="utf-8").splitlines()]
        out = client.post("/v1/replay", content=log_path.read_bytes(), headers=TEXT).json()
        assert out["report"]["verdict"] == "legal"
        turns = [s for s in out["states"] if s["score"] is None]  # each round's end has a state of its own
        assert len(turns) == len(golden), g.name
        for s, want in zip(turns, golden, strict=True):
            assert (s["round"], s["turn"], s["player"]) == (want["round"], want["turn"], want["player"])
            assert s["center"] == want["center"]
            assert {p: seat["hand"] for p, seat in s["seats"].items()} == want["hands"]
            assert (s["draw_pile"], s["discard_pile"]) == (want["draw_pile"], want["discard_pile"])
            assert {p: seat["total"] for p, seat in s["seats"].items()} == want["totals"]
            for seat in s["seats"].values():
                assert (seat["dos"] is not None) == (seat["cards"] == 2)


def _round_ends(text: str) -> list[tuple[str | None, str | None]]:
    """Each round's `score` and `totals` lines, in the log's order."""
    out: list[tuple[str | None, str | None]] = []
    for ln in text.splitlines():
        word = ln.split("#")[0].strip()
        if word.startswith("round "):
            out.append((None, None))
        elif word.startswith("score "):
            out[-1] = (word, out[-1][1])
        elif word.startswith("totals "):
            out[-1] = (out[-1][0], word)
    return out


@pytest.mark.parametrize(
    "log",
    [
        ROOT / "fixtures" / "dos" / "golden" / "bosnian_4p_deck_game_t40_seed4.log",
        ROOT / "fixtures" / "uno-duo" / "examples" / "example-1.log",
    ],
    ids=["dos", "uno-duo"],
)
def test_replay_shows_the_score_and_totals_at_each_rounds_end(client, log):
    """After a round's last turn comes a state of the same round and turn with `score`: the log's score
    and totals lines and the referee's count, its totals the game goes on from; a wrong score is
    found on that state, the referee's count beside the log's."""
    text = log.read_text(encoding="utf-8")
    out = client.post("/v1/replay", content=text.encode(), headers=TEXT).json()
    states = out["states"]
    ends = [s for s in states if s["score"] is not None]
    written = _round_ends(text)
    assert len(ends) == len(written) >= 1
    for end, (score, totals) in zip(ends, written, strict=True):
        before = states[end["index"] - 1]
        assert (before["round"], before["turn"], before["score"]) == (end["round"], end["turn"], None)
        assert before["round_over"] and end["round_over"]
        assert end["score"]["lines"] == [score, totals]
        assert end["line"] == next(n for n, ln in enumerate(text.splitlines(), 1) if ln.split("#")[0].strip() == score)
        player, points = score.split()[1], int(score.split()[2])
        assert end["score"]["log_score"] == {p: points if p == player else 0 for p in out["players"]}
        assert end["score"]["points"] == end["score"]["log_score"]  # a legal log: the referee counts as it says
        want_totals = dict(zip(totals.split()[1::2], map(int, totals.split()[2::2]), strict=True))
        assert end["score"]["log_totals"] == want_totals == end["score"]["totals"]
        assert {p: seat["total"] for p, seat in end["seats"].items()} == want_totals
    assert ends[-1]["score"]["totals"] == out["totals"]
    # a wrong score: the finding is on the round's end, the referee's count beside the log's
    score, _ = written[0]
    player, points = score.split()[1], int(score.split()[2])
    bad = text.replace(f"\n{score}", f"\nscore {player} {points + 1}", 1)
    out = client.post("/v1/replay", content=bad.encode(), headers=TEXT).json()
    end = next(s for s in out["states"] if s["score"] is not None)
    assert end["score"]["log_score"][player] == points + 1 and end["score"]["points"][player] == points
    found = [out["report"]["findings"][k]["rule"] for k in end["findings"]]
    assert found and found[0].startswith("score."), found
    assert all(out["report"]["findings"][k]["line"] >= end["line"] for k in end["findings"])


def test_replay_json_form_and_options(client):
    log = api.convert(EXAMPLE, "json")[0]
    r = client.post(
        "/v1/replay",
        content=log.encode(),
        headers={"content-type": "application/json"},
        params={"option": ["decline-match=forbidden"]},
    )
    assert r.status_code == 200
    out = r.json()
    assert out["report"]["options"]["decline-match"] == "forbidden"
    assert out["states"] and out["states"][0]["line"] is None and out["states"][0]["pointer"] == "/rounds/0/turns/0"


def test_replay_malformed_log_has_no_states(client):
    r = client.post("/v1/replay", content=b"hello\n", headers=TEXT)
    assert r.status_code == 200
    assert r.json()["report"]["verdict"] == "malformed" and r.json()["states"] == []


def test_replay_refuses_unknown_options_and_rulesets(client):
    r = client.post("/v1/replay", content=EXAMPLE.encode(), headers=TEXT, params={"option": "decline-match=maybe"})
    assert r.status_code == 422 and r.json()["error"] == "unknown-option"
    assert "allowed" in r.json()["detail"]
    r = client.post("/v1/replay", content=EXAMPLE.encode(), headers=TEXT, params={"option": "colour"})
    assert r.status_code == 422 and r.json()["error"] == "unknown-option"
    r = client.post("/v1/replay", content=EXAMPLE.encode(), headers=TEXT, params={"ruleset": "nope"})
    assert r.status_code == 422 and r.json()["error"] == "unknown-ruleset"


def test_app_js_names_no_game():
    """The page's core script draws no game's table: a pack with a view of its own ships it (capability
    `page`), any other game gets the generic view; so app.js names no game, in code or comment."""
    from dosverify.games import usable_packs

    text = (STATIC_DIR / "app.js").read_text(encoding="utf-8")
    words = {w for pack in usable_packs() for w in (pack.name, pack.title, *re.split(r"[- ]", pack.name))}
    assert {"dos", "uno-duo", "UNO Duo", "uno"} <= words
    for word in sorted(words):
        hits = [m.group(0) for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.I)]
        assert not hits, f"app.js names `{word}`"


def test_each_game_with_a_view_of_its_own_has_its_script_served_from_its_pack(client):
    """GET /v1/games names each game's page script (capability `page`); the service serves it from
    the pack's own package, as JavaScript; a game without one has none (404), and the page then
    shows the generic replay."""
    from dosverify.games import find_game, usable_packs

    listed = {g["name"]: g for g in client.get("/v1/games").json()["games"]}
    for pack in usable_packs():
        url = listed[pack.name]["page_script"]
        if "page" not in pack.capabilities:
            assert url is None
            r = client.get(f"/games/{pack.name}/replay.js")
            assert r.status_code == 404 and r.json()["error"] == "not-found"
            continue
        assert url == f"/games/{pack.name}/replay.js"
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers["content-type"] == "text/javascript; charset=utf-8"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.content == pack.page_script().read_bytes()
        assert f'registerReplayView("{pack.name}"' in r.text
    for name in ("dos", "uno-duo"):  # the built-in games draw their own tables
        assert "page" in find_game(name).capabilities
        assert find_game(name).page_script().name == "replay.js"
    assert client.get("/games/no-such-game/replay.js").status_code == 404
    assert client.get("/v1/games").json()["log_suffixes"] == [".log", ".dos", ".txt", ".json"]


def test_each_games_example_and_notation_are_served_from_its_pack(client, monkeypatch):
    """GET /v1/games says where each game's example log and notation are; the service serves them as
    its pack bundles them (the example checks legal); a game without one has none (404)."""
    from dosverify.games import find_game

    listed = client.get("/v1/games").json()["games"]
    assert {"dos", "uno-duo"} <= {g["name"] for g in listed}
    for g in listed:
        pack = find_game(g["name"])
        assert g["example"] == f"/v1/games/{pack.name}/example"
        assert g["notation"] == f"/v1/games/{pack.name}/notation"
        r = client.get(g["example"])
        assert r.status_code == 200 and r.headers["content-type"] == "text/plain; charset=utf-8"
        assert r.content == pack.example_path().read_bytes()
        assert r.headers["x-spec-version"] == f"{pack.name} {pack.spec().version}"
        checked = client.post("/v1/check", content=r.content, headers=TEXT).json()
        assert (checked["game"], checked["verdict"]) == (pack.name, "legal")
        r = client.get(g["notation"])
        assert r.status_code == 200 and r.content == pack.notation_path().read_bytes()
    r = client.get("/v1/games/no-such-game/example")
    assert r.status_code == 404 and "no game `no-such-game`" in r.json()["detail"]
    monkeypatch.setattr(find_game("uno-duo"), "example_path", lambda: None)
    assert next(g for g in client.get("/v1/games").json()["games"] if g["name"] == "uno-duo")["example"] is None
    r = client.get("/v1/games/uno-duo/example")
    assert r.status_code == 404 and r.json()["detail"] == "the game `uno-duo` has no example log"
