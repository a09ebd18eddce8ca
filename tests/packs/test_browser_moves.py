"""The page's replay shows the legal next lines at the selected position and why the line the log
wrote next is illegal there (issue 33), in a real Chromium (Playwright, Debian's chromium) against
a real `dosverify serve`, on Tiny (a game the page cannot name). Every request stays on the server.
Skipped without chromium, Playwright or the Tiny pack, except under CI (as tests/core/test_browser.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from browserkit import chromium, expect, guarded_page, need  # noqa: E402
from liveserver import start_server, stop_server  # noqa: E402

from dosverify.games import REGISTRY  # noqa: E402
from dosverify.moves.table import Table  # noqa: E402

need("tiny" in REGISTRY, "the tiny pack is not installed (pip install -e tests/packs/tinygame)")
expect.set_options(timeout=20_000)

# ann plays R5 on R4, then bob plays R1, a card he does not hold (line 8): illegal there
LOG = """tiny 1
players ann bob
round 1
deal ann R1 R5 B3 B7 R9
deal bob B1 B2 R2 R3 B9
start R4
ann play R5
bob play R1
ann play R9
"""


@pytest.fixture(scope="module")
def server():
    proc, base = start_server("--no-access-log")
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def page(server):
    with chromium() as browser, guarded_page(browser, server) as pg:
        yield pg


def _shows(page, log: str, want: list[str], line: str, rule: str) -> None:
    """The log checked on the page, its first position selected: `want` listed, and the log's next
    line (`line`) refused there under `rule`."""
    page.fill("#log-text", log)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(page.locator("#moves-h")).to_have_text(f"Legal next lines ({len(want)})")
    assert page.locator("#moves-view ul.moves li code").all_inner_texts() == want
    expect(page.locator("#next-illegal")).to_contain_text(line)
    expect(page.locator("#next-illegal")).to_contain_text(rule)


def test_the_replay_shows_the_legal_next_lines_and_why_the_next_line_is_illegal(page):
    first = Table.from_log(LOG, 7)  # after ann's R5: bob's legal lines, and bob's R1 refused
    want = [m.line for m in first.legal_moves()]
    assert "bob play R1" not in want and first.explain("bob play R1").findings[0].rule == "play.held"
    _shows(page, LOG, want, "bob play R1", "play.held")
    page.keyboard.press("ArrowRight")  # after bob's line: ann's R9 is legal where the referee recovers
    second = Table.from_log(LOG, 8)
    expect(page.locator("#moves-h")).to_have_text(f"Legal next lines ({len(second.legal_moves())})")
    expect(page.locator("#next-legal")).to_contain_text("ann play R9")
    (ROOT / "test-output" / "browser").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ROOT / "test-output" / "browser" / "tiny-moves.png"), full_page=True)


def test_a_game_without_a_script_of_its_own_gets_the_generic_replay(page):
    """Tiny's pack ships no page script (no capability `page`): its states are shown as the pack
    states them, key by key, and the page loads no game's script for it."""
    from dosverify.games import find_game

    pack = find_game("tiny")
    assert "page" not in pack.capabilities
    want = pack.replay(LOG.encode(), None, "pasted log", None, {})
    assert want["view"] == "generic"
    page.fill("#log-text", LOG)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("End")
    last = want["states"][-1]
    expect(page.locator("#where")).to_contain_text(f"Round {last['round']}, turn {last['turn']}")
    rows = page.locator("#generic-state tbody tr")
    expect(rows).to_have_count(len(last["state"]))
    for n, (key, value) in enumerate(last["state"].items()):
        expect(rows.nth(n).locator("th")).to_have_text(key)
        expect(rows.nth(n).locator("td")).to_have_text(str(value))
    assert page.locator("script[data-game]").count() == 0


def test_a_dos_replay_shows_its_legal_next_lines(page):
    """DOS through the same page: the first turn's position lists what the core lists there, and the
    log's next line (a turn given out of seat order) is refused with the rule check gives."""
    from dosverify.games.dos.replay import replay

    log = (ROOT / "fixtures" / "dos" / "notation" / "example.log").read_text()
    log = log.replace("\nturn cyd\n", "\nturn ann\n", 1)  # bob's left is cyd: turn.order
    after = replay(log)["states"][0]["end_line"]
    table = Table.from_log(log, after)
    want = [m.line for m in table.legal_moves()]
    assert want == ["turn cyd"] and table.explain("turn ann").findings[0].rule == "turn.order"
    _shows(page, log, want, "turn ann", "turn.order")
