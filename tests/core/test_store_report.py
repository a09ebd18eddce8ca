"""`event report`: the hand-out HTML opened from a file in Chromium (Playwright driving Debian's
chromium) with the network cut off: no request leaves it, and it shows the standings, every
game's verdict, and for each illegal game its findings with the lines around them and the rule's
text. Skipped without chromium or Playwright, except under CI (CI=true), where .ci/run installs
both and a missing one is a failure."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from storekit import MALFORMED, expected_ranking, game_logs, illegal_logs, uno_logs

from dosverify.cli import main

CHROMIUM = os.environ.get("DOSVERIFY_CHROMIUM", "/usr/bin/chromium")


def _need(ok: bool, why: str) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(f"{why} (CI installs it: see .ci/run)")
        pytest.skip(why)


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, list[dict], dict]:
    """An event of legal, illegal and malformed logs, its report written by the CLI."""
    tmp = tmp_path_factory.mktemp("report")
    url = ["--database-url", f"sqlite:///{tmp / 'events.db'}"]
    folder = tmp / "logs"
    folder.mkdir()
    for i, data in enumerate(game_logs(2, whole=True, start=50) + illegal_logs()[:3] + [MALFORMED]):
        (folder / f"table{i}.log").write_bytes(data)
    assert main(["event", "create", "Club <night>", *url]) == 0
    assert main(["event", "add", "Club <night>", str(folder), *url]) == 2
    out = tmp / "report.html"
    assert main(["event", "report", "Club <night>", "-o", str(out), *url]) == 0
    from dosverify.store.db import Store

    store = Store(url[1])
    ev = store.event("Club <night>")
    return out, store.games(ev["id"]), {"standings": store.standings(ev["id"])}


def test_the_report_is_one_file_that_asks_for_nothing(report):
    html = report[0].read_text(encoding="utf-8")
    assert "<script" not in html and "<link" not in html
    assert "src=" not in html and "url(" not in html and "@import" not in html
    assert "Club &lt;night&gt;" in html  # names are escaped, never markup


def _standings_shown(html: str) -> list[str]:
    section = html.split('<section id="standings"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<tr><td>\d+</td><th scope="row">([^<]*)</th>', section)


def test_the_report_states_each_games_rule_and_ranks_uno_duo_lower_first(report, tmp_path):
    dos = report[0].read_text(encoding="utf-8")
    assert "Points: DOS: the highest total at the target wins; more points rank first." in dos
    assert _standings_shown(dos) == [r["player"] for r in report[2]["standings"]]
    url = ["--database-url", f"sqlite:///{tmp_path / 'events.db'}"]
    folder = tmp_path / "logs"
    folder.mkdir()
    logs = uno_logs((1, 2), whole=True) + uno_logs(range(1, 7))
    for i, data in enumerate(logs):
        (folder / f"u{i}.log").write_bytes(data)
    assert main(["event", "create", "Duo", *url]) == 0
    assert main(["event", "add", "Duo", str(folder), *url]) == 0
    out = tmp_path / "duo.html"
    assert main(["event", "report", "Duo", "-o", str(out), *url]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Points: UNO Duo: the lowest total wins; fewer points rank first." in html
    want = expected_ranking(logs, "lower")
    assert want != expected_ranking(logs, "higher") and _standings_shown(html) == want


def test_a_mixed_events_report_has_a_table_per_game_and_names_each_logs_game(tmp_path):
    url = ["--database-url", f"sqlite:///{tmp_path / 'events.db'}"]
    folder = tmp_path / "logs"
    folder.mkdir()
    dos, uno = game_logs(3, start=60), uno_logs((1, 2), whole=True) + uno_logs(range(1, 4))
    for i, data in enumerate(dos + uno):
        (folder / f"t{i}.log").write_bytes(data)
    assert main(["event", "create", "Both", "--mixed", *url]) == 0
    assert main(["event", "add", "Both", str(folder), *url]) == 0
    out = tmp_path / "both.html"
    assert main(["event", "report", "Both", "-o", str(out), *url]) == 0
    html = out.read_text(encoding="utf-8")
    section = html.split('<section id="standings"', 1)[1].split("</section>", 1)[0]
    parts = re.split(r"<h3 [^>]*>", section)[1:]  # one heading, rule and table per game
    assert [p.split("<", 1)[0] for p in parts] == ["DOS", "UNO Duo"]
    assert "Points: DOS: the highest total at the target wins; more points rank first." in parts[0]
    assert "Points: UNO Duo: the lowest total wins; fewer points rank first." in parts[1]
    for part, logs, better in ((parts[0], dos, "higher"), (parts[1], uno, "lower")):
        assert re.findall(r'<tr><td>\d+</td><th scope="row">([^<]*)</th>', part) == expected_ranking(logs, better)
    games = html.split('<section id="games"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"</th>\s*<td>(DOS|UNO Duo)</td>", games) == ["DOS"] * 3 + ["UNO Duo"] * 5
    assert re.search(r"Event created \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.", html)
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", html)  # no microseconds anywhere


def test_the_report_opens_offline_in_chromium_and_shows_every_finding(report):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        _need(False, "Playwright for Python is not installed")
    _need(Path(CHROMIUM).exists(), f"no chromium at {CHROMIUM}")
    path, games, data = report
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        try:
            context = browser.new_context(offline=True)
            page = context.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri())
            rows = page.locator("#standings tbody tr")
            assert rows.count() == len(data["standings"])
            assert rows.first.locator("th").inner_text() == data["standings"][0]["player"]
            verdicts = page.locator("#games tbody tr .verdict").all_inner_texts()
            assert verdicts == [g["verdict"] for g in games]
            for g in games:
                if g["verdict"] != "illegal":
                    continue
                card = page.locator(f"[id='audit-{g['id']}']")
                assert card.is_visible()
                findings = card.locator(".finding")
                assert findings.count() == len(g["report"]["findings"])
                for i, f in enumerate(g["report"]["findings"]):
                    shown = findings.nth(i)
                    assert f["message"] in shown.inner_text()
                    assert f["rule"] in shown.locator(".rule-text").inner_text()
                    if f.get("line"):
                        here = shown.locator("pre.excerpt .here").inner_text()
                        assert here.split(None, 1)[0] == str(f["line"])
            page.locator("#games a").first.click()  # the game's link goes to its findings
            assert page.url.endswith("#audit-" + next(g["id"] for g in games if g["verdict"] != "legal"))
        finally:
            browser.close()
    assert [u for u in requests if not u.startswith("file://")] == [], json.dumps(requests)


def test_one_game_is_counted_in_the_singular(tmp_path, capsys):
    """An event of one log: the report says `1 game`, export, import and recompute `1 audit`."""
    url = ["--database-url", f"sqlite:///{tmp_path / 'events.db'}"]
    log = tmp_path / "table1.log"
    log.write_bytes(game_logs(1, whole=True, start=70)[0])
    assert main(["event", "create", "One", *url]) == 0
    assert main(["event", "add", "One", str(log), *url]) == 0
    out = tmp_path / "report.html"
    assert main(["event", "report", "One", "-o", str(out), *url]) == 0
    html = out.read_text(encoding="utf-8")
    assert re.search(r"\b1 game: 1 legal, 0 illegal, 0 malformed\.", html), html[:2000]
    capsys.readouterr()
    assert main(["event", "export", "One", str(tmp_path / "exported"), *url]) == 0
    assert capsys.readouterr().out.strip().endswith("One, 1 audit")
    assert main(["event", "recompute", "One", *url]) == 0
    assert capsys.readouterr().out.strip() == "One: 0 of 1 audit judged anew"
    other = ["--database-url", f"sqlite:///{tmp_path / 'other.db'}"]
    assert main(["event", "import", str(tmp_path / "exported"), *other]) == 0
    assert capsys.readouterr().out.strip().endswith("\t1 audit")
