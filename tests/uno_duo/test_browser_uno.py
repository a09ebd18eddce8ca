"""The organiser's page replays a UNO Duo game, in a real Chromium (Playwright, Debian's chromium)
against a real `dosverify serve` on 127.0.0.1: at every turn the page shows what the referee saw
(the top card and colour, both hands, the draw pile's count, the pending volley total or Wild Draw
4, the UNO state), a finding's turn and its UNO Duo rule. Every request must stay on the server.
Skipped without chromium or Playwright, except under CI (as tests/core/test_browser.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "browser"
sys.path.insert(0, str(ROOT / "tests"))
from browserkit import chromium, expect, guarded_page  # noqa: E402
from liveserver import start_server, stop_server  # noqa: E402

from dosverify.games import find_game  # noqa: E402

PACK = find_game("uno-duo")
EXAMPLES = ROOT / "fixtures" / "uno-duo" / "examples"
EXAMPLE_1 = (EXAMPLES / "example-1.log").read_text(encoding="utf-8")
ILLEGAL_1 = (EXAMPLES / "example-1-variant-1.log").read_text(encoding="utf-8")
COLOURS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow", None: "any"}
UNO_TEXT = {"called": "called UNO", "owed": "UNO not called", "caught": "caught", None: "–"}


@pytest.fixture(scope="module")
def server():
    proc, base = start_server("--no-access-log")
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture()
def page(browser, server):
    with guarded_page(browser, server) as pg:
        yield pg


def _pending(p) -> str:
    if p is None:
        return "nothing"
    if p["kind"] == "total":
        return f"{p['player']} faces a Draw 2 volley of {p['total']} cards"
    if p["kind"] == "wd4":
        return f"{p['player']} faces a Wild Draw 4"
    return f"{p['player']} owes a start run"


def assert_table(pg, want: dict, s: dict) -> None:
    """The page's table is the referee's state `s` (at a round's end, its score and totals too)."""
    if s["score"]:
        expect(pg.locator("#where")).to_contain_text(f"Round {s['round']}: the score")
        assert_score(pg, want, s)
    else:
        expect(pg.locator("#where")).to_contain_text(
            f"Round {s['round']}, turn {s['turn']}: after {s['player']}'s turn"
        )
        expect(pg.locator("#round-score")).to_have_count(0)
    expect(pg.locator("#top .card")).to_have_text(s["top"])
    expect(pg.locator("#colour")).to_have_text(COLOURS[s["colour"]])
    expect(pg.locator("#draw-pile")).to_have_text(str(s["draw_pile"]))
    expect(pg.locator("#discard-pile")).to_have_text(str(s["discard_pile"]))
    expect(pg.locator("#pending")).to_contain_text(_pending(s["pending"]))
    for p in want["players"]:
        row = pg.locator(f"table.seats tbody tr[data-player='{p}']")
        seat = s["seats"][p]
        assert row.locator("td").nth(0).locator(".card").all_inner_texts() == seat["hand"]
        expect(row.locator("td").nth(1)).to_have_text(str(seat["cards"]))
        expect(row.locator("td").nth(2)).to_have_text(UNO_TEXT[seat["uno"]])
        expect(row.locator("td").nth(3)).to_have_text(str(seat["total"]))


def assert_score(pg, want: dict, s: dict) -> None:
    """The round's end: each player's score and total, as the log writes them and the referee counts them."""
    sc = s["score"]
    for p in want["players"]:
        cells = pg.locator(f"#round-score tbody tr[data-player='{p}'] td")
        expect(cells).to_have_text(
            [str(sc["log_score"][p]), str(sc["points"][p]), str(sc["log_totals"][p]), str(sc["totals"][p])]
        )
    expect(pg.locator(".round-score")).to_contain_text(" / ".join(sc["lines"]))


@pytest.mark.parametrize(
    ("example", "pending", "uno"),
    [("example-1.log", {"total", "wd4"}, set()), ("example-2.log", {"wd4", "run"}, {"called"})],
)
def test_the_page_replays_a_uno_duo_game_turn_by_turn(page, example, pending, uno):
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    want = PACK.replay(text.encode(), None, "pasted log", None, {})
    states = want["states"]
    # what makes the test able to fail: example 1 has a volley and a Wild Draw 4, example 2 an UNO call and a run owed
    assert {s["pending"]["kind"] for s in states if s["pending"]} == pending
    assert {seat["uno"] for s in states for seat in s["seats"].values()} - {None} == uno
    page.fill("#log-text", text)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal: 0 errors, 0 warnings; ")
    page.locator("body").click(position={"x": 5, "y": 5})  # the arrow keys work when no field has the focus
    for n, s in enumerate(states):
        if n:
            page.keyboard.press("ArrowRight")
        assert_table(page, want, s)
        if s["pending"] and s["pending"]["kind"] == "wd4":
            OUT.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(OUT / f"uno-duo-replay-wd4-{example[:-4]}.png"), full_page=True)
    expect(page.locator("#next-btn")).to_be_disabled()
    # the table is drawn by UNO Duo's own script, from its pack, loaded for this game only
    assert page.locator("script[data-game]").evaluate_all("(s) => s.map((e) => e.getAttribute('src'))") == [
        "/games/uno-duo/replay.js"
    ]


def test_a_uno_duo_finding_shows_its_turn_and_its_rule(page):
    want = PACK.replay(ILLEGAL_1.encode(), None, "table-3.log", None, {})
    report = want["report"]
    k, f = next((k, f) for k, f in enumerate(report["findings"]) if f["severity"] == "error")
    assert f["rule"] == "play.match" and f["line"] == 34
    target = next(s for s in want["states"] if k in s["findings"])
    page.fill("#log-text", ILLEGAL_1)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal: 1 error, ")
    item = page.locator("#findings li").nth(k)
    item.get_by_role("button", name="show the turn in the replay").click()
    assert_table(page, want, target)
    expect(page.locator(".turn-findings")).to_contain_text(f["message"])
    assert "B4" in [c for seat in target["seats"].values() for c in seat["hand"]] or target["top"] == "B4"
    item.get_by_role("button", name=f"rule {f['rule']}").click()  # the rule is UNO Duo's, from ?game=uno-duo
    rule = PACK.spec().rules[f["rule"]].to_dict()
    expect(item.locator(".rule")).to_contain_text(rule["title"])
    expect(item.locator(".rule")).to_contain_text(rule["sources"][0]["part"][:30])


def test_a_uno_duo_log_in_the_json_form_replays_too(page):
    parsed = PACK.parse(EXAMPLE_1.encode())
    body = PACK.dump_json(parsed.log)
    want = PACK.replay(body.encode(), "json", "g.json", None, {})
    assert want["states"] and want["states"][-1]["round_over"]
    page.fill("#log-text", json.dumps(json.loads(body)))
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal")
    page.click("#last-btn")
    assert want["states"][-1]["score"] and want["states"][-1]["score"]["lines"][0] == "score bob 86"
    assert_table(page, want, want["states"][-1])  # the round's score, after its last turn
    page.click("#prev-btn")
    assert_table(page, want, want["states"][-2])
    expect(page.locator("#where")).to_contain_text("(the round is over)")


def test_the_chooser_shows_the_logs_game_and_sends_its_options(page):
    """Pasting a UNO Duo log shows UNO Duo's rulesets and options; one chosen is the one judged
    under (the server would refuse a DOS option for this log), and DOS keeps its own choices. The
    options are folded away until asked for, and only the log's game's are shown."""
    expect(page.locator("#opt-game")).to_have_value("dos")
    expect(page.locator("#opt-dos-call")).to_be_hidden()  # folded away
    page.click("#options-box summary")
    page.select_option("#opt-dos-call", "off")  # a DOS choice: kept for DOS logs, never sent as this log's
    expect(page.locator("#options-summary")).to_have_text("DOS: the log's own ruleset, dos-call=off")
    page.fill("#log-text", EXAMPLE_1)
    expect(page.locator("#opt-game")).to_have_value("uno-duo")
    expect(page.locator("#opt-volley")).to_be_attached()
    expect(page.locator("#opt-dos-call")).to_have_count(0)
    keys = list(PACK.spec().options)
    expect(page.locator("#option-list select")).to_have_count(len(keys))
    assert page.locator("#option-list select").evaluate_all("(s) => s.map((e) => e.dataset.option)") == keys
    expect(page.locator("#options-legend")).to_contain_text("UNO Duo options")
    expect(page.locator("#options-summary")).to_have_text("UNO Duo: the log's own ruleset and options")
    page.select_option("#opt-volley", "must")
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("ruleset official with volley=must")
    expect(page.locator("#verdict")).to_contain_text(f"(spec {PACK.spec().version})")
    page.select_option("#opt-game", "dos")
    expect(page.locator("#opt-dos-call")).to_have_value("off")
