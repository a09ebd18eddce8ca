"""The page's replay shows the legal next lines at the selected position and why the line the log
wrote next is illegal there (issue 33), in a real Chromium (Playwright, Debian's chromium) against
a real `dosverify serve`, on Tiny (a game the page cannot name). Every request stays on the server.
Skipped without chromium, Playwright or the Tiny pack, except under CI (as tests/core/test_browser.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from dosverify.games import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DOSVERIFY_CHROMIUM", "/usr/bin/chromium")


def _need(ok: bool, why: str) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI installs it: see .ci/run)")
        pytest.skip(why, allow_module_level=True)


try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None
_need(sync_playwright is not None, "Playwright for Python is not installed")
_need(Path(CHROMIUM).exists(), f"no chromium at {CHROMIUM}")
_need("tiny" in REGISTRY, "the tiny pack is not installed (pip install -e tests/packs/tinygame)")

sys.path.insert(0, str(ROOT / "tests"))
from liveserver import start_server, stop_server  # noqa: E402

from dosverify.moves.table import Table  # noqa: E402

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
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        context = b.new_context(viewport={"width": 1280, "height": 900})
        outside, errors = [], []

        def route(r):
            url = r.request.url
            if url.startswith(server + "/") or url.startswith(("blob:", "data:")):
                r.continue_()
            else:
                outside.append(url)
                r.abort()

        context.route("**/*", route)
        pg = context.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(server + "/")
        yield pg
        b.close()
        assert not outside, f"requests left the machine: {outside}"
        assert not errors, f"script errors on the page: {errors}"


def test_the_replay_shows_the_legal_next_lines_and_why_the_next_line_is_illegal(page):
    first = Table.from_log(LOG, 7)  # after ann's R5: bob's legal lines, and bob's R1 refused
    want = [m.line for m in first.legal_moves()]
    assert "bob play R1" not in want and first.explain("bob play R1").findings[0].rule == "play.held"
    page.fill("#log-text", LOG)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(page.locator("#moves-h")).to_have_text(f"Legal next lines ({len(want)})")
    assert page.locator("#moves-view ul.moves li code").all_inner_texts() == want
    expect(page.locator("#next-illegal")).to_contain_text("bob play R1")
    expect(page.locator("#next-illegal")).to_contain_text("play.held")
    page.keyboard.press("ArrowRight")  # after bob's line: ann's R9 is legal where the referee recovers
    second = Table.from_log(LOG, 8)
    expect(page.locator("#moves-h")).to_have_text(f"Legal next lines ({len(second.legal_moves())})")
    expect(page.locator("#next-legal")).to_contain_text("ann play R9")
    (ROOT / "test-output" / "browser").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ROOT / "test-output" / "browser" / "tiny-moves.png"), full_page=True)


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
    page.fill("#log-text", log)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Home")
    expect(page.locator("#moves-h")).to_have_text(f"Legal next lines ({len(want)})")
    assert page.locator("#moves-view ul.moves li code").all_inner_texts() == want
    expect(page.locator("#next-illegal")).to_contain_text("turn ann")
    expect(page.locator("#next-illegal")).to_contain_text("turn.order")
