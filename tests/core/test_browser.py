"""The organiser's page in a real browser: Playwright for Python driving Debian's chromium,
against a real `dosverify serve` on 127.0.0.1.

The server keeps events in a real SQLite store (`serve --data DIR --token-file FILE`), so that the
event view, the audits' permalinks and the upload of a folder into an event run end to end.
Every request the page makes is intercepted: one to anywhere but the server under test is
refused and fails the test. Screenshots of the main views go to test-output/browser/.
Without chromium or Playwright the tests are skipped, except under CI (CI=true), where
.ci/run installs both and a missing one is a failure.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "browser"

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browserkit import CHROMIUM, expect, loaded, sync_playwright  # noqa: E402
from liveserver import start_server, stop_server  # noqa: E402

from dosverify import api  # noqa: E402
from dosverify.games.dos.replay import replay  # noqa: E402
from dosverify.spec import load_spec  # noqa: E402

# The machine the tests share may be busy: the first check starts the worker pool.
expect.set_options(timeout=20_000)

EXAMPLE = (ROOT / "fixtures" / "dos" / "notation" / "example.log").read_text(encoding="utf-8")
ILLEGAL = EXAMPLE.replace("turn bob ", "turn cyd ", 1)


TOKEN = "organiser-s3cret"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("store")
    (tmp / "token").write_text(TOKEN + "\n")
    proc, base = start_server("--no-access-log", "--data", str(tmp / "data"), "--token-file", str(tmp / "token"))
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser, server):
    """A fresh page whose every request must go to the server under test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    seen, outside, errors = [], [], []

    def route(r):
        url = r.request.url
        seen.append(url)
        if url.startswith(server + "/") or url.startswith("blob:") or url.startswith("data:"):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    loaded(pg)
    pg.seen, pg.outside = seen, outside  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not outside, f"requests left the machine: {outside}"
    assert not errors, f"script errors on the page: {errors}"


def shot(pg, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def drop_files(pg, files: dict[str, str], zone: str = "#drop") -> None:
    """Drop files on a drop zone, as a user dragging them from a file manager."""
    dt = pg.evaluate_handle(
        """(files) => {
        const dt = new DataTransfer();
        for (const [name, text] of Object.entries(files)) dt.items.add(new File([text], name, {type: "text/plain"}));
        return dt;
    }""",
        files,
    )
    pg.dispatch_event(zone, "drop", {"dataTransfer": dt})


def test_paste_a_legal_log_and_see_legal(page):
    page.fill("#log-text", EXAMPLE)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal: 0 errors, 0 warnings; 1 round, 2 turns")
    expect(page.locator("#verdict")).to_have_class("verdict v-legal")
    expect(page.locator("#findings")).to_contain_text("No findings")
    assert page.locator("#log-lines .line").count() == EXAMPLE.count("\n")
    shot(page, "single-legal")


def test_drop_an_illegal_log_every_finding_on_its_line(page):
    drop_files(page, {"table-7.log": ILLEGAL})
    expect(page.locator("#verdict")).to_contain_text("illegal")
    expect(page.locator("#single-h")).to_have_text("table-7.log")
    report = api.check(ILLEGAL.encode())
    assert report.findings
    items = page.locator("#findings li")
    assert items.count() == len(report.findings)
    for i, f in enumerate(report.findings):
        line = page.locator(f"#L{f.line}")
        expect(line).to_have_class(re.compile(rf"\bfinding\b.*\b{f.severity}\b"))
        expect(line.locator(".kind", has_text=f.kind)).to_have_count(1)
        expect(items.nth(i)).to_contain_text(f"{f.severity}[{f.kind}] line {f.line}")
    shot(page, "single-illegal")


def test_json_log_findings_are_marked_on_the_laid_out_json(page):
    """A JSON log's findings carry pointers: the page lays the JSON out one event a line and
    marks the line of each pointer."""
    log = json.loads(api.convert(ILLEGAL, "json")[0])
    drop_files(page, {"table-8.json": json.dumps(log)})  # one long line, as programs write it
    expect(page.locator("#verdict")).to_contain_text("illegal")
    report = api.check(json.dumps(log).encode())
    assert report.findings and all(f.line is None and f.pointer for f in report.findings)
    assert page.locator("#log-lines .line").count() > 20
    items = page.locator("#findings li")
    for i, f in enumerate(report.findings):
        items.nth(i).locator("button.goto").click()
        line = page.locator("#log-lines .line.current")
        expect(line).to_have_count(1)
        expect(line).to_be_focused()
        expect(line.locator(".kind", has_text=f.kind)).to_have_count(1)
        last = f.pointer.rsplit("/", 1)[-1]
        if not last.isdigit():  # the line shows the member the pointer names, or the event holding it
            assert f'"{last}"' in line.inner_text() or '"type"' in line.inner_text()
    # the replay marks the turn's lines on the laid-out JSON too
    expect(page.locator("#log-lines .line.turn").first).to_be_visible()


def test_click_a_finding_lands_on_its_line_and_explains_the_rule(page):
    page.fill("#log-text", ILLEGAL)
    page.click("#check-btn")
    report = api.check(ILLEGAL.encode())
    k, f = 0, report.findings[0]  # turn.order: `turn cyd` written for bob's turn (READINGS R49)
    item = page.locator("#findings li").nth(k)
    item.locator("button.goto").click()
    line = page.locator(f"#L{f.line}")
    expect(line).to_be_focused()
    expect(line).to_have_class(re.compile(r"\bcurrent\b"))
    assert page.evaluate("location.hash") == f"#L{f.line}"
    box = line.bounding_box()
    assert box is not None and box["height"] > 0
    log_box = page.locator("#log-lines").bounding_box()
    assert log_box["y"] <= box["y"] <= log_box["y"] + log_box["height"], "the line is scrolled into view"
    item.get_by_role("button", name=f"rule {f.rule}").click()
    rule = load_spec("dos").rules[f.rule].to_dict()
    expect(item.locator(".rule")).to_contain_text(rule["title"])
    for s in rule["sources"]:
        expect(item.locator(".rule")).to_contain_text(s["part"][:40])
        if s["quote_en"] and s["quote_en"] not in s["part"]:  # the rulebook's words, and in English (issue 35)
            expect(item.locator(".rule")).to_contain_text("English: " + s["quote_en"][:40])
    assert any(s["quote_en"] not in s["part"] for s in rule["sources"]), "a rule quoting a seed, not only notation.md"


def test_replay_steps_to_a_findings_turn_and_shows_the_center_row(page):
    text = (ROOT / "fixtures" / "dos" / "golden" / "official_2p_deck_seed3.log").read_text(encoding="utf-8")
    # an illegal version: the third turn's player is the wrong one
    lines = text.splitlines(keepends=True)
    turn_lines = [i for i, ln in enumerate(lines) if ln.startswith("turn ")]
    i = turn_lines[2]
    who = lines[i].split()[1]
    other = next(p for p in ("ann", "bob") if p != who)
    lines[i] = lines[i].replace(f"turn {who}", f"turn {other}", 1)
    bad = "".join(lines)
    want = replay(bad.encode())
    target = next(s for s in want["states"] if s["findings"])
    page.fill("#log-text", bad)
    page.click("#check-btn")
    expect(page.locator("#where")).to_contain_text("Round 1, turn 1")
    page.locator("body").click(position={"x": 5, "y": 5})  # the arrow keys work when no field has the focus
    page.click("#next-btn")
    for _ in range(target["index"] - 1):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#where")).to_contain_text(f"Round {target['round']}, turn {target['turn']}")
    center = page.locator("#center .card").all_inner_texts()
    assert center == target["center"]
    assert page.locator("#draw-pile").inner_text() == str(target["draw_pile"])
    for k in target["findings"]:
        expect(page.locator(".turn-findings")).to_contain_text(want["report"]["findings"][k]["message"])
    seats = page.locator("table.seats tbody tr")
    for n, p in enumerate(want["players"]):
        expect(seats.nth(n).locator("td").nth(0)).to_have_text("".join(target["seats"][p]["hand"]))
    shot(page, "replay")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#where")).to_contain_text(f"({target['index']} of")


def twenty_logs(tmp_path: Path) -> Path:
    conf = ROOT / "fixtures" / "dos" / "conformance"
    d = tmp_path / "night"
    d.mkdir()
    picked = sorted(conf.glob("y_game_*.log"))[:10] + sorted(conf.glob("n_*.log"))[:10]
    for p in picked:
        shutil.copy(p, d / p.name)
    expected = next(conf.glob("n_*.expected.json"))  # not a log: the page leaves it out, as `check DIR` does
    shutil.copy(expected, d / expected.name)
    return d


def test_load_twenty_logs_sort_filter_open_and_download(page, tmp_path):
    d = twenty_logs(tmp_path)
    files = sorted(p for p in d.iterdir() if not p.name.endswith(".expected.json"))
    assert len(files) == 20
    page.set_input_files("#folder", str(d))  # a folder, as an organiser picks the night's logs
    page.click("#check-btn")
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(20)
    errors = {p.name: sum(1 for f in api.check(p.read_bytes()).findings if f.severity == "error") for p in files}
    page.click("#games th button[data-key=errors]")
    expect(page.locator("#games th").nth(5)).to_have_attribute("aria-sort", "descending")
    shown = [int(t) for t in page.locator("#games tbody tr td:nth-child(6)").all_inner_texts()]
    assert shown == sorted(errors.values(), reverse=True)
    names = page.locator("#games tbody tr th").all_inner_texts()
    assert [errors[n] for n in names] == shown
    page.click("#games th button[data-key=errors]")
    shown = [int(t) for t in page.locator("#games tbody tr td:nth-child(6)").all_inner_texts()]
    assert shown == sorted(errors.values())
    shot(page, "many")
    assert page.locator("#player-totals").count() == 0  # totals across unrelated games are no standing
    # filter, then download what is shown
    page.select_option("#verdict-filter", "legal")
    expect(rows).to_have_count(sum(1 for n in errors if n.startswith("y_")))
    with page.expect_download() as dl:
        page.click("#dl-csv")
    table = list(csv.DictReader(io.StringIO(Path(dl.value.path()).read_text())))
    assert {r["name"] for r in table} == {n for n in errors if n.startswith("y_")}
    assert all(r["verdict"] == "legal" and r["errors"] == "0" for r in table)
    with page.expect_download() as dl:
        page.click("#dl-json")
    data = json.loads(Path(dl.value.path()).read_text())
    assert {g["name"] for g in data} == {r["name"] for r in table} and all(
        g["report"]["verdict"] == "legal" for g in data
    )
    # each row opens the single view
    page.select_option("#verdict-filter", "")
    name = next(n for n in sorted(errors) if n.startswith("n_"))
    page.fill("#filter", name)
    expect(rows).to_have_count(1)
    rows.first.locator("th button").click()
    expect(page.locator("#single-h")).to_have_text(name)
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.click("#back-btn")
    expect(page.locator("#many")).to_be_visible()


def serious_accessibility_violations(pg) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(pg)
    return [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_accessibility_of_every_view(page, tmp_path):
    assert serious_accessibility_violations(page) == []  # the empty page
    page.fill("#log-text", ILLEGAL)
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("illegal")
    page.locator("#findings li").first.get_by_role("button", name="rule turn.order").click()
    expect(page.locator("#findings li .rule").first).to_be_visible()
    assert serious_accessibility_violations(page) == []  # the single view and the replay
    seat = ROOT / "fixtures" / "dos" / "rules" / "turn.order" / "legal-seat-view.log"
    page.fill("#log-text", seat.read_text(encoding="utf-8"))
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal")
    expect(page.locator("#table-view .card.back").first).to_be_visible()
    assert serious_accessibility_violations(page) == []  # a replay with face-down cards
    page.set_input_files("#folder", str(twenty_logs(tmp_path)))
    page.click("#check-btn")
    expect(page.locator("#games tbody tr")).to_have_count(20)
    assert serious_accessibility_violations(page) == []  # the many-logs view


def api_json(base: str, path: str, body: dict | None = None) -> dict:
    """The service's own answer, to hold the page to (a POST with the token when body is given)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"}
    with urllib.request.urlopen(urllib.request.Request(base + path, data, headers), timeout=60) as r:
        return json.loads(r.read())


def errors_of(audit: dict) -> int:
    return sum(f["severity"] == "error" for f in audit["report"]["findings"])


def standings_cells(want: list[dict]) -> list[list[str]]:
    cols = ("games", "wins", "rounds_won", "points", "illegal")
    return [[str(k + 1), s["player"], *(str(s[c]) for c in cols)] for k, s in enumerate(want)]


def test_a_folder_becomes_an_event_with_standings_permalinks_and_audits(page, server, tmp_path):
    """Create an event, upload a folder into it (each file its own audit, each with its answer),
    read the standings, filter and sort the games, reopen that view from its permalink, open an
    audit (its log, findings and replay) and a finding's line from theirs; the same folder again
    makes no second audit."""
    d = twenty_logs(tmp_path)
    files = sorted(p for p in d.iterdir() if not p.name.endswith(".expected.json"))
    verdicts = {p.name: api.check(p.read_bytes()).verdict for p in files}
    page.fill("#token", TOKEN)
    page.fill("#event-name", "Club night")
    page.click("#create-form button")
    expect(page.locator("#event-h")).to_have_text("Club night")
    eid = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('event')")
    assert api_json(server, f"/v1/events/{eid}")["name"] == "Club night"

    page.set_input_files("#event-folder", str(d))
    expect(page.locator("#event-chosen")).to_contain_text("20 files chosen")  # not the .expected.json
    page.click("#upload-btn")
    # two of the twenty are the same bytes under two names: one audit, answered twice
    distinct = {hashlib.sha256(p.read_bytes()).hexdigest() for p in files}
    again = 20 - len(distinct)
    assert again == 1
    expect(page.locator("#upload-status")).to_contain_text(
        f"{len(distinct)} new audits, {again} already in the event, 0 refused"
    )
    results = page.locator("#upload-results li")
    assert results.count() == 20
    expect(page.locator("#upload-results li[data-status='201']")).to_have_count(len(distinct))
    for i in range(20):
        name = results.nth(i).inner_text().split(":")[0]
        expect(results.nth(i).locator(".badge")).to_have_text(verdicts[name])
    games = api_json(server, f"/v1/events/{eid}/games")["games"]
    assert {g["sha256"] for g in games} == distinct
    assert all(g["verdict"] == verdicts[g["name"]] for g in games)  # named as in the folder, as `event add DIR` does
    by_name = {g["name"]: g for g in games}

    want = api_json(server, f"/v1/events/{eid}/standings")["standings"]
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(want))
    for k, cells in enumerate(standings_cells(want)):  # expect retries: the table is redrawn when its answer comes
        expect(rows.nth(k).locator("th, td")).to_have_text(cells)
    expect(page.locator("#standings-order")).to_contain_text(
        "Points: DOS: the highest total at the target wins; more points rank first."
    )
    page.check("#count-illegal")
    want = api_json(server, f"/v1/events/{eid}/standings?count_illegal=true")["standings"]
    expect(rows).to_have_count(len(want))
    for k, cells in enumerate(standings_cells(want)):
        expect(rows.nth(k).locator("th, td")).to_have_text(cells)

    # the same folder again: every file answered with the audit it already has
    page.set_input_files("#event-folder", str(d))
    page.click("#upload-btn")
    expect(page.locator("#upload-status")).to_contain_text("0 new audits, 20 already in the event")
    expect(page.locator("#upload-results li[data-status='200']")).to_have_count(20)
    assert api_json(server, f"/v1/events/{eid}")["games"] == len(distinct)

    # filter and sort; the URL is the view's permalink
    page.select_option("#event-verdict", "illegal")
    page.click("#event-games th button[data-key=errors]")
    illegal = [g for g in games if g["verdict"] == "illegal"]
    shown_rows = page.locator("#event-games tbody tr")
    expect(shown_rows).to_have_count(len(illegal))
    shown = page.locator("#event-games tbody tr th").all_inner_texts()
    assert [errors_of(by_name[n]) for n in shown] == sorted(map(errors_of, illegal), reverse=True)
    link = page.url
    assert "verdict=illegal" in link and "sort=-errors" in link and "count_illegal=true" in link
    assert page.locator("#event-link").get_attribute("href") == "#" + link.split("#", 1)[1]
    shot(page, "event")
    assert serious_accessibility_violations(page) == []  # the event view
    other = page.context.new_page()  # a fresh tab, no token: reads are public by id
    other.goto(link)
    expect(other.locator("#event-h")).to_have_text("Club night")
    expect(other.locator("#event-games tbody tr")).to_have_count(len(illegal))
    assert other.locator("#event-games tbody tr th").all_inner_texts() == shown
    expect(other.locator("#count-illegal")).to_be_checked()
    other.close()

    # an audit: its log, its findings, the replay, each a click from the event
    audit = by_name[shown[0]]
    page.locator("#event-games tbody tr th a").first.click()
    expect(page.locator("#single-h")).to_have_text(audit["name"])
    assert page.evaluate("location.hash") == f"#audit={audit['id']}"
    expect(page.locator("#verdict")).to_contain_text("illegal")
    expect(page.locator("#findings li")).to_have_count(len(audit["report"]["findings"]))
    expect(page.locator("#audit-meta")).to_contain_text(audit["sha256"])
    expect(page.locator("#replay")).to_be_visible()
    text = (d / audit["name"]).read_text(encoding="utf-8")
    assert page.locator("#log-lines .line").count() == len(text.splitlines())
    k, f = next((k, f) for k, f in enumerate(audit["report"]["findings"]) if f["line"])
    page.locator("#findings li").nth(k).locator("button.goto").click()
    assert page.evaluate("location.hash") == f"#audit={audit['id']}&line={f['line']}"
    shot(page, "audit")
    assert serious_accessibility_violations(page) == []  # the audit view
    other = page.context.new_page()
    other.goto(page.url)
    expect(other.locator("#single-h")).to_have_text(audit["name"])
    expect(other.locator(f"#L{f['line']}")).to_have_class(re.compile(r"\bcurrent\b"))
    other.close()
    page.click("#back-btn")  # back to the event as it was left
    expect(page.locator("#event")).to_be_visible()
    expect(shown_rows).to_have_count(len(illegal))
    assert "verdict=illegal" in page.url


def test_logs_dropped_on_an_event_each_answered_a_wrong_token_refused(page, server):
    eid = api_json(server, "/v1/events", {"name": "Drop night"})["id"]
    page.fill("#event-ref", f"{server}/#event={eid}")  # an event's link pasted, as sent round
    page.click("#open-form button")
    expect(page.locator("#event-h")).to_have_text("Drop night")
    logs = {"table-1.log": EXAMPLE, "table-2.log": ILLEGAL}
    page.fill("#token", "not-the-token")
    drop_files(page, logs, "#event-drop")
    expect(page.locator("#upload-results li[data-status='401']")).to_have_count(2)
    expect(page.locator("#upload-results li").first).to_contain_text("table-1.log: refused (401)")
    assert api_json(server, f"/v1/events/{eid}")["games"] == 0
    page.fill("#token", TOKEN)
    drop_files(page, logs, "#event-drop")
    expect(page.locator("#upload-results li[data-status='201']")).to_have_count(2)
    expect(page.locator("#event-games tbody tr")).to_have_count(2)
    expect(page.locator("#event-games tbody tr[data-verdict=illegal] th")).to_have_text("table-2.log")
    want = api_json(server, f"/v1/events/{eid}/standings")["standings"]
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(want))
    assert [rows.nth(k).locator("th, td").all_inner_texts() for k in range(len(want))] == standings_cells(want)
    page.goto(server + "/#event=no-such-event")
    expect(page.locator("#event-status")).to_contain_text("No event no-such-event")
    page.goto(server + "/#audit=no-such-audit")
    expect(page.locator("#event-status")).to_contain_text("No audit no-such-audit")


def test_a_uno_duo_event_states_its_rule_and_ranks_the_lower_total_first(page, server):
    from storekit import expected_ranking, uno_logs

    eid = api_json(server, "/v1/events", {"name": "Duo night"})["id"]
    page.goto(f"{server}/#event={eid}")
    expect(page.locator("#event-h")).to_have_text("Duo night")
    logs = uno_logs((1, 2), whole=True) + uno_logs(range(1, 7))
    page.fill("#token", TOKEN)
    drop_files(page, {f"u{i}.log": data.decode() for i, data in enumerate(logs)}, "#event-drop")
    expect(page.locator("#upload-results li[data-status='201']")).to_have_count(len(logs))
    want = expected_ranking(logs, "lower")
    assert want != expected_ranking(logs, "higher")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(want))
    for k, player in enumerate(want):  # expect retries: the table is redrawn when its answer comes
        expect(rows.nth(k).locator("th")).to_have_text(player)
    expect(page.locator("#standings-order")).to_contain_text(
        "Points: UNO Duo: the lowest total wins; fewer points rank first."
    )


def test_a_mixed_event_has_a_table_per_game_and_every_list_names_each_logs_game(page, server, tmp_path):
    """Logs of both games: the batch table names each file's game; a mixed event created on the
    page ranks each game in its own table by its own rule, and its games list names each game;
    its times are readable (no microseconds, the zone said)."""
    from storekit import game_logs, uno_logs

    d = tmp_path / "both"
    d.mkdir()
    for i, data in enumerate(game_logs(2, start=60) + uno_logs((1, 2))):
        (d / f"t{i}.log").write_bytes(data)
    page.set_input_files("#folder", str(d))
    page.click("#check-btn")
    expect(page.locator("#games tbody tr")).to_have_count(4)
    assert page.locator("#games tbody tr td:nth-child(2)").all_inner_texts() == ["DOS", "DOS", "UNO Duo", "UNO Duo"]
    page.fill("#token", TOKEN)
    page.fill("#event-name", "Both games")
    page.check("#event-mixed")
    page.click("#create-form button")
    expect(page.locator("#event-h")).to_have_text("Both games")
    page.set_input_files("#event-folder", str(d))
    page.click("#upload-btn")
    expect(page.locator("#upload-status")).to_contain_text("4 new audits")
    eid = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('event')")
    data = api_json(server, f"/v1/events/{eid}/standings")
    assert data["mixed"] is True and [t["title"] for t in data["tables"]] == ["DOS", "UNO Duo"]
    tables = page.locator("#standings table")
    expect(tables).to_have_count(2)
    for k, t in enumerate(data["tables"]):
        expect(tables.nth(k).locator("caption")).to_contain_text(f"{t['title']}, in rank order")
        rows = tables.nth(k).locator("tbody tr")
        expect(rows).to_have_count(len(t["standings"]))
        for j, cells in enumerate(standings_cells(t["standings"])):
            expect(rows.nth(j).locator("th, td")).to_have_text(cells)
    expect(page.locator("#standings-order")).to_contain_text(
        "Points: UNO Duo: the lowest total wins; fewer points rank first."
    )
    expect(page.locator("#event-games tbody tr")).to_have_count(4)
    games = sorted(page.locator("#event-games tbody tr td:nth-child(2)").all_inner_texts())
    assert games == ["DOS", "DOS", "UNO Duo", "UNO Duo"]
    expect(page.locator("#event-meta")).to_contain_text("a mixed event, one table per game")
    assert re.search(r"created \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC;", page.locator("#event-meta").inner_text())
    submitted = page.locator("#event-games tbody tr td:nth-child(8)").all_inner_texts()
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", t) for t in submitted), submitted
    assert serious_accessibility_violations(page) == []


def test_phone_width_labels_and_no_outside_requests(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    outside = []
    context.route(
        "**/*",
        lambda r: (
            r.continue_() if r.request.url.startswith(server + "/") else (outside.append(r.request.url), r.abort())
        ),
    )
    pg = context.new_page()
    pg.goto(server + "/")
    pg.fill("#log-text", ILLEGAL)
    pg.click("#check-btn")
    expect(pg.locator("#verdict")).to_contain_text("illegal")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390, "the page fits a phone's width"
    unlabelled = pg.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter((e) => !e.labels || e.labels.length === 0).map((e) => e.id)""")
    assert unlabelled == []
    assert serious_accessibility_violations(pg) == []
    shot(pg, "phone")
    for path in ("/docs", "/redoc"):
        pg.goto(server + path)
        pg.wait_for_load_state("networkidle")
        expect(pg.locator("text=dosverify").first).to_be_visible()  # drawn after the last request, on a busy machine
    context.close()
    assert not outside, outside


# ---- the page as the eye meets it (issue 35, "The page") ----------------------------------


def in_view(pg, selector: str) -> None:
    """The element is wholly within the window as it is scrolled now."""
    box = pg.locator(selector).bounding_box()
    size = pg.viewport_size
    assert box is not None and size is not None, selector
    assert -1 <= box["y"] and box["y"] + box["height"] <= size["height"] + 1, (selector, box, size)


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["laptop", "phone"])
def test_the_report_is_where_the_eye_is_after_check(browser, server, size):
    """Check is on the first screen (the options folded away); after it the report (its heading and
    verdict) is in the window with the focus on it, for one log and for many."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(server + "/")
    before = pg.locator("#check-btn").bounding_box()
    loaded(pg)
    assert pg.locator("#check-btn").bounding_box() == before, "loading the games moves nothing"
    in_view(pg, "#check-btn")
    pg.fill("#log-text", ILLEGAL)
    pg.click("#check-btn")
    expect(pg.locator("#verdict")).to_contain_text("illegal")
    expect(pg.locator("#single-h")).to_be_focused()
    in_view(pg, "#single-h")
    in_view(pg, "#verdict")
    assert pg.evaluate("window.scrollY") > 0, "the window scrolled to the report"
    pg.evaluate("window.scrollTo(0, 0)")
    drop_files(pg, {"a.log": EXAMPLE, "b.log": ILLEGAL})
    expect(pg.locator("#games tbody tr")).to_have_count(2)
    expect(pg.locator("#many-h")).to_be_focused()
    in_view(pg, "#many-h")
    context.close()
    assert not errors, errors


def test_options_are_folded_away_and_only_the_logs_games(page, server):
    """The options are in a closed <details> until asked for; a DOS log shows DOS's options only,
    a UNO Duo log UNO Duo's only (each game's, as GET /v1/rulesets?game= gives them)."""
    box = page.locator("#options-box")
    expect(page.locator("#opt-game")).to_have_value("dos")
    assert box.evaluate("(d) => d.tagName === 'DETAILS' && !d.open")
    expect(page.locator("#option-list select").first).to_be_hidden()
    uno = (ROOT / "fixtures" / "uno-duo" / "examples" / "example-1.log").read_text(encoding="utf-8")
    for log, game in ((uno, "uno-duo"), (EXAMPLE, "dos")):
        page.fill("#log-text", log)
        expect(page.locator("#opt-game")).to_have_value(game)
        keys = list(api_json(server, f"/v1/rulesets?game={game}")["options"])
        options = page.locator("#option-list select")
        expect(options).to_have_count(len(keys))
        assert options.evaluate_all("(s) => s.map((e) => e.dataset.option)") == keys
    assert not box.evaluate("(d) => d.open")  # pasting a log leaves them folded
    page.click("#options-box summary")
    expect(page.locator("#opt-dos-call")).to_be_visible()
    assert serious_accessibility_violations(page) == []  # the options opened


def test_counts_are_in_real_plurals(page):
    """No `(s)` anywhere on the page after a check of one log and of two: `1 log`, `2 logs`,
    `1 error`, `0 errors`."""

    def text() -> str:
        return page.evaluate("document.body.innerText")

    assert "(s)" not in text()
    page.fill("#log-text", ILLEGAL)
    page.click("#check-btn")
    errors = sum(f.severity == "error" for f in api.check(ILLEGAL.encode()).findings)
    expect(page.locator("#verdict")).to_contain_text(f"illegal: {errors} error{'s' if errors != 1 else ''}, ")
    expect(page.locator("#status")).to_have_text("Checked 1 log: 0 legal, 1 not.")
    assert "(s)" not in text()
    drop_files(page, {"a.log": EXAMPLE, "b.log": ILLEGAL})
    expect(page.locator("#status")).to_have_text("Checked 2 logs: 1 legal, 1 not.")
    expect(page.locator("#chosen")).to_contain_text("2 files chosen")
    assert "(s)" not in text()
    page.locator("#games tbody tr[data-verdict=legal] th button").click()
    expect(page.locator("#verdict")).to_contain_text("legal: 0 errors, 0 warnings; 1 round, 2 turns")
    assert "(s)" not in text()
    page.fill("#log-text", ILLEGAL.replace("turn cyd\n", "turn ann\n", 1))
    page.click("#clear-btn")
    page.set_input_files("#files", str(ROOT / "fixtures" / "dos" / "notation" / "example.log"))
    expect(page.locator("#chosen")).to_contain_text("1 file chosen")
    assert "(s)" not in text()


def test_each_game_has_an_example_one_click_away_that_checks_legal(page, server):
    """A button per registered game loads its pack's example log (GET /v1/games/{game}/example) into
    the box, and it checks legal; each game's notation is linked."""
    listed = api_json(server, "/v1/games")["games"]
    assert {"dos", "uno-duo"} <= {g["name"] for g in listed if g["example"] and g["notation"]}
    expect(page.locator("#example-list button")).to_have_count(sum(1 for g in listed if g["example"]))
    for g in listed:
        page.click("#clear-btn")
        expect(page.locator("#single")).to_be_hidden()
        page.get_by_role("button", name=f"{g['title']} example").click()
        with urllib.request.urlopen(server + g["example"], timeout=60) as r:
            want = r.read().decode()
        expect(page.locator("#log-text")).to_have_value(want)
        expect(page.locator("#opt-game")).to_have_value(g["name"])
        page.click("#check-btn")
        expect(page.locator("#single")).to_be_visible()  # this log's report (Clear hid the last one)
        expect(page.locator("#log-lines .line")).to_have_count(len(want.splitlines()))
        expect(page.locator("#verdict")).to_have_class("verdict v-legal")
        expect(page.locator("#verdict")).to_contain_text("legal: 0 errors, 0 warnings")
        link = page.get_by_role("link", name=f"{g['title']} notation")
        assert link.get_attribute("href") == g["notation"]
        with urllib.request.urlopen(server + g["notation"], timeout=60) as r:
            assert r.status == 200 and "notation" in r.read().decode().splitlines()[0].lower()
    assert serious_accessibility_violations(page) == []


def test_the_dos_replay_shows_the_score_and_totals_at_the_rounds_end(page, server):
    """After the round's last turn, a step shows each player's score and running total, as the log
    writes them and as the referee counts them."""
    example = api_json(server, "/v1/games")["games"][0]
    assert example["name"] == "dos"
    page.get_by_role("button", name="DOS example").click()
    expect(page.locator("#log-text")).not_to_have_value("")
    text = page.locator("#log-text").input_value()
    want = replay(text.encode())
    end = want["states"][-1]
    assert end["score"] and end["score"]["lines"] == ["score bob 19", "totals ann 0 bob 19"]
    page.click("#check-btn")
    expect(page.locator("#verdict")).to_contain_text("legal")
    page.click("#last-btn")
    expect(page.locator("#where")).to_contain_text(
        f"Round 1: the score, after the round's last turn ({len(want['states'])} of"
    )
    for p in want["players"]:
        cells = page.locator(f"#round-score tbody tr[data-player='{p}'] td")
        sc = end["score"]
        expect(cells).to_have_text([str(sc[k][p]) for k in ("log_score", "points", "log_totals", "totals")])
    expect(page.locator(".round-score")).to_contain_text("score bob 19 / totals ann 0 bob 19")
    expect(page.locator("table.seats tbody tr[data-player='bob'] td").nth(3)).to_have_text("19")  # the total after it
    page.click("#prev-btn")  # the last turn: the round is over, not yet scored
    expect(page.locator("#where")).to_contain_text("(the round is over)")
    expect(page.locator("#round-score")).to_have_count(0)
    expect(page.locator("table.seats tbody tr[data-player='bob'] td").nth(3)).to_have_text("0")
    shot(page, "replay-score")
    assert serious_accessibility_violations(page) == []
