"""The screenshots of docs/service.md (docs/images/): each game's report and replay on the
organiser's page, taken in Debian's chromium through Playwright against a real `dosverify serve`.

Run it after a change to the page: `.venv/bin/python tests/page_screenshots.py`. Each shot is a
part of the page at 1100 px wide (the report: the verdict, the log and the findings; the replay:
the round's score after its last turn), so that the files stay small."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from browserkit import ARGS, CHROMIUM  # noqa: E402
from liveserver import start_server, stop_server  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

OUT = ROOT / "docs" / "images"
#: each game's illegal log for its report (the example with one mistake in it), and its example for the replay
REPORTS = {
    "dos": ("DOS example", ("score bob 19", "score bob 18")),
    "uno-duo": ("UNO Duo example", ("  play G4\n", "  play B4\n")),  # the notation's variant 1
}


def clip_of(page, first: str, last: str) -> dict:
    """The page's area from the top of `first` to the bottom of `last`, the main column's width."""
    top, bottom, main = (page.locator(s).bounding_box() for s in (first, last, "main"))
    assert top and bottom and main
    y = top["y"] + page.evaluate("window.scrollY") - 8
    return {"x": main["x"], "y": y, "width": main["width"], "height": bottom["y"] + bottom["height"] - top["y"] + 16}


def shoot(page, game: str) -> list[Path]:
    button, (old, new) = REPORTS[game]
    page.click("#clear-btn")
    page.get_by_role("button", name=button).click()
    expect(page.locator("#log-text")).not_to_have_value("")
    text = page.locator("#log-text").input_value()
    assert old in text, (game, old)
    page.fill("#log-text", text.replace(old, new, 1))
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("#findings li").first.locator("button.goto").click()
    report = OUT / f"page-{game}-report.png"
    page.screenshot(path=str(report), clip=clip_of(page, "#single-h", ".cols"), full_page=True)
    page.click("#clear-btn")
    page.get_by_role("button", name=button).click()
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal")
    page.click("#last-btn")
    expect(page.locator("#round-score")).to_be_visible()
    replay = OUT / f"page-{game}-replay.png"
    page.screenshot(path=str(replay), clip=clip_of(page, "#replay-h", "#table-view"), full_page=True)
    return [report, replay]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    proc, base = start_server("--no-access-log")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.goto(base + "/")
            expect(page.locator("#examples")).to_be_visible()
            for game in REPORTS:
                for path in shoot(page, game):
                    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")
            browser.close()
    finally:
        stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
