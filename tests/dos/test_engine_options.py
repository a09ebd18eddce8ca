"""The engine options V12-V17 (digest, "Variants that programs implement"): games the
simulator plays under any combination of them are legal under that combination, and
judged under `official` they get exactly one finding for each departure the simulator
counted as it played (issue 11, item 3). `DOSVERIFY_ENGINE_GAMES` sets how many games per
combination (default 10)."""

from __future__ import annotations

from collections import Counter

import pytest
from tiers import FULL, count, tier

from dosverify.api import check
from dosverify.games.dos.simulate import Sim, simulate_text
from dosverify.spec import load_spec

GAMES = count("DOSVERIFY_ENGINE_GAMES", 10, 4)

DEPARTURES = [
    ("dcm-draws", "at-once"),
    ("dcm-order", "first-seat"),
    ("own-penalty", "at-once"),
    ("round-end", "at-once"),
    ("deal-from", "first-seat"),
    ("discard-matched", "at-once"),
]


def combination(mask: int) -> dict[str, str]:
    return {k: v for i, (k, v) in enumerate(DEPARTURES) if mask >> i & 1}


def test_every_engine_option_cites_its_variant_and_defaults_to_official() -> None:
    spec = load_spec("dos")
    official = spec.ruleset("official").options
    for n, (key, value) in enumerate(DEPARTURES, start=12):
        opt = spec.options[key]
        assert opt["variant"] == f"V{n}" and f"digest V{n}" in opt["values"][value]
        assert official[key] == opt["default"] == next(iter(opt["values"]))
        for name in spec.rulesets:  # no named ruleset departs from official here
            assert spec.ruleset(name).options[key] == opt["default"]


def engine_game(mask: int, n: int) -> tuple[str, str, list[tuple[int, str, str]]]:
    """Game n of a combination: its log, the same log without `option` lines, and the departures
    the simulator counted, as (line, kind, rule) of the log without them."""
    sim = Sim(2 + n % 3, 1000 * mask + n, options=combination(mask), rounds=2, deck=n % 2 == 0).play()
    text = sim.to_text()
    official = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("option "))
    shift = len(combination(mask))  # the option lines come before every line a departure is on
    return text, official, [(line - shift, kind, rule) for line, kind, rule in sim.departure_lines()]


@pytest.mark.parametrize(
    "mask", range(64), ids=lambda m: "+".join(f"{k}={v}" for k, v in combination(m).items()) or "official"
)
def test_engine_games_are_legal_and_get_one_finding_per_departure_under_official(mask: int) -> None:
    opts = combination(mask)
    for n in range(GAMES):
        text, official, departures = engine_game(mask, n)
        for key, value in opts.items():
            assert f"option {key} {value}\n" in text
        report = check(text.encode(), name=f"sim-{mask}-{n}.log")
        assert report.verdict == "legal", (n, [(f.line, f.rule, f.message) for f in report.findings])
        assert all(report.options[k] == v for k, v in opts.items())
        if not opts:
            assert departures == []
        got = sorted(
            (f.line, f.kind, f.rule)
            for f in check(official.encode(), name="official.log").findings
            if f.severity == "error"
        )
        assert got == departures, (n, [x for x in got if x not in departures], [x for x in departures if x not in got])


def test_every_departure_is_counted_somewhere() -> None:
    """The simulator counts each option's departure (V12-V17), with the kind item 3 names, in the
    games of the test above: the test compares something."""
    seen = Counter()
    for mask in range(1, 64):
        for n in range(GAMES if tier() == FULL else 2):  # quick: 126 games still meet every departure
            seen.update((kind, rule) for _, kind, rule in engine_game(mask, n)[2])
    for kind_rule in [
        ("draw-order", "bonus.draw-time"),
        ("draw-order", "turn.steps"),
        ("card-accounting", "center.refill"),
        ("draw-order", "setup.deal"),
        ("card-accounting", "reshuffle.cards"),
    ]:
        assert seen[kind_rule] > 0, (kind_rule, seen)


# ---- options from outside the log: `check --option` and the service's `?option=` --------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
AT_ONCE = ROOT / "fixtures" / "dos" / "rules" / "bonus.draw-time" / "legal-2.log"  # an engine with dcm-draws=at-once


def _official(path) -> bytes:
    return b"".join(line for line in path.read_bytes().splitlines(keepends=True) if not line.startswith(b"option "))


def test_check_option_judges_a_log_under_options_it_does_not_name(tmp_path) -> None:
    import json
    import subprocess
    import sys

    log = tmp_path / "engine.log"
    log.write_bytes(_official(AT_ONCE))

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "dosverify", "check", *args], capture_output=True, text=True, timeout=60
        )

    plain = run(str(log))
    assert plain.returncode == 1 and "bonus.draw-time" in plain.stdout
    given = run(str(log), "--option", "dcm-draws=at-once", "--option", "dcm-order=from-left")
    assert given.returncode == 0, given.stdout + given.stderr
    assert "ruleset official with dcm-draws=at-once" in given.stdout  # the summary names the departure
    js = run(str(log), "--option", "dcm-draws=at-once", "--format", "json")
    assert json.loads(js.stdout)["options"]["dcm-draws"] == "at-once"
    # over the log's own `option` line: the log says at-once, the command line says end-of-turn
    over = run(str(AT_ONCE), "--option", "dcm-draws=end-of-turn")
    assert over.returncode == 1 and "bonus.draw-time" in over.stdout
    for bad, said in (
        ("dcm-draws=soon", "cannot be `soon`"),
        ("dcm-draws", "KEY=VALUE"),
        ("colour=red", "unknown option"),
    ):
        r = run(str(log), "--option", bad)
        assert r.returncode == 2 and said in r.stderr and "Traceback" not in r.stderr


def test_service_check_and_batch_take_options() -> None:
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    client = TestClient(create_app())
    text = {"Content-Type": "text/plain"}
    body = _official(AT_ONCE)
    r = client.post("/v1/check", content=body, headers=text)
    assert r.status_code == 200 and r.json()["verdict"] == "illegal"
    r = client.post("/v1/check", content=body, headers=text, params={"option": ["dcm-draws=at-once"]})
    assert r.status_code == 200 and r.json()["verdict"] == "legal" and r.json()["options"]["dcm-draws"] == "at-once"
    r = client.post(
        "/v1/check", content=body, headers={**text, "Accept": "text/plain"}, params={"option": "dcm-draws=at-once"}
    )
    assert r.status_code == 200 and "with dcm-draws=at-once" in r.text
    r = client.post("/v1/check/batch", json=[body.decode(), body.decode()], params={"option": "dcm-draws=at-once"})
    assert r.status_code == 200 and r.json()["legal"] == 2
    for bad in ("dcm-draws=soon", "dcm-draws"):
        for path, kw in (
            ("/v1/check", {"content": body, "headers": text}),
            ("/v1/check/batch", {"json": [body.decode()]}),
        ):
            r = client.post(path, params={"option": bad}, **kw)
            assert r.status_code == 422 and r.json()["error"] == "unknown-option"


def test_simulate_option_writes_and_plays_the_option(tmp_path) -> None:
    import subprocess
    import sys

    out = tmp_path / "g.log"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "dosverify",
            "simulate",
            "--seed",
            "3",
            "--option",
            "deal-from=first-seat",
            "--option",
            "round-end=at-once",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "option deal-from first-seat\n" in text and "option round-end at-once\n" in text
    assert check(text.encode(), name="g.log").verdict == "legal"
    bad = subprocess.run(
        [sys.executable, "-m", "dosverify", "simulate", "--option", "deal-from=last"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "cannot be `last`" in bad.stderr and "Traceback" not in bad.stderr


def test_deal_message_follows_the_option() -> None:
    """setup.deal names the deal the ruleset asks for: the dealer's left (V9) or the first seat (V16)."""
    text = simulate_text(3, 5, options={"deal-from": "first-seat"}, deck=True)
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("deck "))
    lines.insert(at, "hand ann R1 R1 R3 R3 R4 R4 R5\n")  # not what the deck deals ann either way
    for options, said in (
        ({"deal-from": "dealer-left"}, "from the dealer's left"),
        ({"deal-from": "first-seat"}, "from the first seat"),
    ):
        deal = [f for f in check("".join(lines).encode(), options=options).findings if f.rule == "setup.deal"]
        assert deal and said in deal[0].message, [f.message for f in deal]
