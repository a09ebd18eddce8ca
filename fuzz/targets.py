"""Fuzz targets: each takes arbitrary bytes and raises AssertionError (or any exception) only
on a bug. The contract: any input gives a report (legal, illegal or malformed) with findings
that name a rule of the spec, never a traceback; the service answers any body with a JSON
status other than 500.

Used by ``fuzz/run.py`` (atheris, coverage-guided) and by ``tests/test_fuzz.py`` (the
regression inputs in ``fuzz/regressions/``, and a short atheris run)."""

from __future__ import annotations

import asyncio
import functools
import json

VERDICTS = {"legal", "illegal", "malformed"}


def _rules() -> set[str]:
    from dosverify.spec import load_spec

    return set(load_spec("dos").rules)


def text_parser(data: bytes) -> None:
    """The notation parser: a Parsed with findings that name real rules, or a malformed verdict."""
    from dosverify.games.dos.notation import parse

    parsed = parse(data)
    rules = _rules()
    assert all(f.rule in rules for f in parsed.findings), [f.rule for f in parsed.findings]
    if parsed.malformed:
        assert parsed.findings, "malformed without a finding"
    if parsed.log is not None and not parsed.malformed:  # what was read writes back and reads again
        from dosverify.games.dos.notation import write

        again = parse(write(parsed.log))
        assert again.log is not None, [f.message for f in again.findings]


def json_loader(data: bytes) -> None:
    """The JSON form's loader: a Parsed, a malformed one with findings at JSON pointers."""
    from dosverify.games.dos.jsonform import load_json

    parsed = load_json(data)
    rules = _rules()
    assert all(f.rule in rules for f in parsed.findings)
    if parsed.malformed:
        assert parsed.findings, "malformed without a finding"


def whole_check(data: bytes) -> None:
    """The whole check and both renderers, as the CLI runs them."""
    from dosverify.api import check
    from dosverify.report import render_text

    report = check(data, name="fuzz")
    assert report.verdict in VERDICTS
    if report.verdict != "malformed":
        assert (report.verdict == "illegal") == (report.errors > 0), report.verdict
    json.loads(report.to_json_line())
    render_text(report, report.text)
    _capped_as_whole(data, report)


def _capped_as_whole(data: bytes, whole) -> None:
    """A check that keeps 3 findings (counting the rest as they are made) reports the whole
    check's first 3, its verdict and its counts (issue 22: memory for the findings kept)."""
    from dosverify.api import check
    from dosverify.findings import Keep

    capped = check(data, name="fuzz", keep=Keep(limit=3))
    assert capped.findings == whole.findings[:3], (capped.findings, whole.findings[:3])
    assert capped.truncated == max(0, len(whole.findings) - 3)
    assert (capped.verdict, capped.errors, capped.warnings) == (whole.verdict, whole.errors, whole.warnings)


# ---- the service's body handling, through the ASGI app in process --------------------------

_APP = None
_LOOP = None

_ROUTES = [  # (path, content type) chosen by the first byte of the input
    ("/v1/check", "text/plain"),
    ("/v1/check", "application/json"),
    ("/v1/check/batch", "application/json"),
    ("/v1/check/batch", "multipart/form-data; boundary=fuzzb"),
    ("/v1/convert", "text/plain"),
    ("/v1/convert", "application/json"),
    ("/v1/check", "text/plain; charset=latin-1"),
    ("/v1/check/batch", "multipart/form-data"),
]


def _app():
    global _APP, _LOOP
    if _APP is None:
        from dosverify.service import create_app

        _APP = create_app(max_log_bytes=64 * 1024, max_batch_items=8, workers=1, check_timeout=10)
        _LOOP = asyncio.new_event_loop()
    return _APP, _LOOP


async def _call(app, path: str, ctype: str, body: bytes, chunks: int) -> tuple[int, dict, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"fuzz"),
            (b"content-type", ctype.encode()),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    step = max(1, len(body) // chunks) if body else 1
    pieces = [body[i : i + step] for i in range(0, len(body), step)] or [b""]
    sent: list[dict] = []

    async def receive():
        if pieces:
            piece = pieces.pop(0)
            return {"type": "http.request", "body": piece, "more_body": bool(pieces)}
        await asyncio.sleep(3600)  # the app never waits for a disconnect in these tests
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body_out = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body_out


def service_body(data: bytes) -> None:
    """POST the input to an endpoint (chosen by its first byte, the body in 1-4 chunks): the
    answer is JSON with a status other than 500; a 200 check is a report with a verdict."""
    if not data:
        return
    app, loop = _app()
    path, ctype = _ROUTES[data[0] % len(_ROUTES)]
    chunks = 1 + (data[0] >> 4) % 4
    body = data[1:]
    if ctype.endswith("boundary=fuzzb") and data[0] & 0x80:  # a well-formed multipart frame
        body = (
            b'--fuzzb\r\nContent-Disposition: form-data; name="files"; filename="f.log"\r\n\r\n'
            + body
            + b"\r\n--fuzzb--\r\n"
        )
    status, headers, out = loop.run_until_complete(asyncio.wait_for(_call(app, path, ctype, body, chunks), 60))
    assert status != 500 and status < 600, (status, out[:500])
    assert headers.get(b"content-type", b"").startswith(b"application/"), headers
    doc = json.loads(out)
    if status == 200 and path == "/v1/check":
        assert doc["verdict"] in VERDICTS
    if status == 200 and path == "/v1/check/batch":
        assert all(r["verdict"] in VERDICTS for r in doc["reports"])


# ---- views of generated games: the face-down paths ------------------------------------------

_VIEW_RULESETS = ("official", "italian", "bosnian", "strict")
_CARD_WORDS = ("R1", "G5", "B10", "Y7", "R#", "W2", "G#", "B3", "Y9", "R6", "G8", "B4", "Y1", "R10", "W2", "?")
#: the generated games the views target draws on: simulating a game cost half of an input's time (and
#: twice that instrumented), while what the fuzzer explores is the view and its edits, not the game
VIEW_POOL = 512
SEARCH_BUDGET, ROUND_BUDGET = 400, 4000  # referee/hidden.py's budgets while the views target runs


def view_game(data: bytes) -> tuple[str, str, bool]:
    """The view (text) the first four bytes name, and whether the rest of the input edits it. Bytes
    0-1: one of VIEW_POOL generated games (2-4 players, any ruleset, `deck` or `hand` lines, 1-2
    rounds, some long: piles run out, reshuffles); byte 2: the table or a seat; byte 3: the whole
    log (192 and over) or the log cut before one of its `turn` lines (a log may end after any complete
    turn): a check costs what the log is long, and a round cut off is a shape of its own."""
    head = data[:4].ljust(4, b"\0")
    index = (head[0] | head[1] << 8) % VIEW_POOL
    players = len(_pool_game(index).split("\n", 3)[1].split()) - 1
    seat = head[2] % (players + 1)  # 0: the table
    text = _view_text(index, seat, head[3])
    edits = data[4:]
    what = f"game {index}/seat {seat}/cut {head[3]}"
    return (_edit(text, edits) if edits else text), what, bool(edits)


def _pool_config(index: int) -> dict:
    import random

    r = random.Random(index)
    return dict(
        players=r.randint(2, 4),
        seed=index,
        ruleset=r.choice(_VIEW_RULESETS),
        rounds=r.choice((1, 1, 2)),
        deck=r.random() < 0.5,
        long_round=r.choice((None, False, False, "drain", "thin")),
    )


@functools.lru_cache(maxsize=VIEW_POOL)
def _pool_game(index: int) -> str:
    """The open log of pool game `index`, kept in fuzz/out/pool-views/ (built once, uninstrumented:
    `run.py views` builds the pool in a plain process before it starts)."""
    import os
    from pathlib import Path

    out = Path(os.environ.get("DOSVERIFY_FUZZ_OUT", Path(__file__).resolve().parent / "out")) / "pool-views"
    path = out / f"{index:04d}.log"
    if path.exists():
        return path.read_text(encoding="utf-8")
    from dosverify.games.dos.notation import write
    from dosverify.games.dos.simulate import simulate

    cfg = _pool_config(index)
    text = write(simulate(cfg.pop("players"), cfg.pop("seed"), **cfg))
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return text


def build_pool(inputs: list[bytes] | None = None) -> int:
    """Build the pool games these inputs name (all of them when None), in this process: `run.py views`
    calls it in a plain process, so that the games are not simulated under instrumentation."""
    wanted = (
        range(VIEW_POOL)
        if inputs is None
        else {int.from_bytes(b[:2].ljust(2, b"\0"), "little") % VIEW_POOL for b in inputs}
    )
    for index in wanted:
        _pool_game(index)
    return len(wanted)


@functools.lru_cache(maxsize=VIEW_POOL)
def _pool_log(index: int):
    from dosverify.games.dos.notation import parse

    return parse(_pool_game(index)).log  # hide copies it: the cached log is never changed


@functools.lru_cache(maxsize=VIEW_POOL * 5)
def _hidden_text(index: int, seat: int) -> str:
    """The whole view, kept for every cut of it: hiding a game (a deep copy of its log) cost a
    quarter of an input's time when it was made again for each of the 193 cuts."""
    from dosverify.games.dos.hide import hide
    from dosverify.games.dos.notation import write

    log = _pool_log(index)
    return write(hide(log, "table" if seat == 0 else f"seat:{log.players[seat - 1]}"))


def _view_text(index: int, seat: int, cut: int) -> str:
    text = _hidden_text(index, seat)
    if cut >= 192:
        return text
    lines = text.splitlines()
    turns = [i for i, ln in enumerate(lines) if ln.startswith("turn ")]
    at = turns[cut * len(turns) // 192] if turns else len(lines)
    return "\n".join(lines[:at]) + "\n"


def _edit(text: str, edits: bytes) -> str:
    """Edits two bytes each (operation, where): a card word turned face down (`?`) or face up (another
    card), a line dropped, doubled or moved up: the slips a table's scribe makes, mostly with `?`."""
    lines = text.splitlines()
    for k in range(0, len(edits) - 1, 2):
        op, at = edits[k], edits[k + 1]
        if not lines:
            break
        kind = op % 8
        if kind < 5:  # a card word (the words after a line's keyword and player) becomes `?` or another card
            spots = [(i, j) for i, ln in enumerate(lines) for j, w in enumerate(ln.split()) if j and w[:1] in "RGBYW?"]
            if not spots:
                continue
            i, j = spots[(at * 7 + op) % len(spots)]
            words = lines[i].split()
            words[j] = "?" if kind < 3 else _CARD_WORDS[(op >> 3) % len(_CARD_WORDS)]
            lines[i] = ("  " if lines[i].startswith(" ") else "") + " ".join(words)
        elif kind == 5:
            del lines[at % len(lines)]
        elif kind == 6:
            i = at % len(lines)
            lines.insert(i, lines[i])
        else:
            i = at % len(lines)
            if i:
                lines[i - 1], lines[i] = lines[i], lines[i - 1]
    return "\n".join(lines) + "\n"


def face_down_views(data: bytes) -> None:
    """A view (table or seat) of a generated legal game, perhaps cut short or edited: the check and its
    reports as in `whole_check`, never a traceback; an unedited view is legal, and the witness of a legal
    view is a legal open log (checked once a process for each unedited view: it is the same each time)."""
    from dosverify.games.dos.referee.hidden import Provenance

    # the provenance's exact search at a fiftieth of its budgets: an edited view's reveals that fail search at
    # line after line, which cost most of the time of the inputs that reach them; the paths (a search that
    # finds, fails, or gives up undecided, R33) are the same, so are the crashes they can hold
    saved = Provenance.SEARCH_BUDGET, Provenance.ROUND_BUDGET
    Provenance.SEARCH_BUDGET, Provenance.ROUND_BUDGET = SEARCH_BUDGET, ROUND_BUDGET
    try:
        _judge_view(data)
    finally:
        Provenance.SEARCH_BUDGET, Provenance.ROUND_BUDGET = saved


def _judge_view(data: bytes) -> None:
    from dosverify.api import check
    from dosverify.report import render_text

    text, what, edited = view_game(data)
    report = check(text, name="fuzz-view")
    assert report.verdict in VERDICTS
    if report.verdict != "malformed":
        assert (report.verdict == "illegal") == (report.errors > 0), report.verdict
    json.loads(report.to_json_line())
    render_text(report, report.text)
    if not edited:
        errors = [(f.line, f.rule, f.message) for f in report.findings if f.severity == "error"]
        assert report.verdict == "legal", (what, errors[:3])
        _witness_holds(text, what)
    elif report.verdict == "legal":
        _witness_holds.__wrapped__(text, what)


@functools.lru_cache(maxsize=4096)
def _witness_holds(text: str, what: str) -> bool:
    """The witness of a legal log, when one is given, is a legal open log (no `?`, no error)."""
    from dosverify.api import check, witness

    proof, _ = witness(text)
    if proof is None:
        return False
    again = check(proof, name="fuzz-witness")
    errors = [(f.line, f.rule, f.message) for f in again.findings if f.severity == "error"]
    assert not errors, (what, "the witness is not a legal open log", errors[:3])
    assert again.face_down == 0, what
    return True


def _uno_rules() -> set[str]:
    from dosverify.games import find_game

    return set(find_game("uno-duo").spec().rules)


def uno_check(data: bytes) -> None:
    """A UNO Duo log (text or JSON), as `dosverify check` judges one: the reader's findings name
    UNO Duo rules, a malformed log has one, what was read writes back and reads again to the same
    game (text and JSON alike), and the check and its reports hold as in `whole_check`."""
    from dosverify.games import find_game
    from dosverify.report import render_text

    pack = find_game("uno-duo")
    rules = _uno_rules()
    parsed = pack.parse(data)
    assert all(f.rule in rules for f in parsed.findings), [f.rule for f in parsed.findings]
    if parsed.malformed:
        assert parsed.findings, "malformed without a finding"
    elif parsed.log is not None:
        again = pack.parse(pack.write(parsed.log))
        assert again.log is not None and not again.malformed, [f.message for f in again.findings]
        assert pack.dump_json(again.log) == pack.dump_json(parsed.log), "text does not write back to the same game"
        back = pack.parse(pack.dump_json(parsed.log), "json")
        assert back.log is not None and pack.dump_json(back.log) == pack.dump_json(parsed.log), "JSON round trip"
    report = pack.check(data, name="fuzz-uno")
    assert report.verdict in VERDICTS
    assert all(f.rule in rules for f in report.findings), [f.rule for f in report.findings]
    if report.verdict != "malformed":
        assert (report.verdict == "illegal") == (report.errors > 0), report.verdict
    json.loads(report.to_json_line())
    render_text(report, report.text)


TARGETS = {
    "text": text_parser,
    "json": json_loader,
    "check": whole_check,
    "service": service_body,
    "views": face_down_views,
    "uno": uno_check,
}
