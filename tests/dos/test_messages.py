"""Messages that say how to fix the slip: UTF-16 files, a ruleset in the wrong case, plurals,
`explain KIND`, `--version` with the spec's version, FORCE_COLOR and TERM=dumb."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "fixtures/dos/notation/example.log"


def run(*args: str, stdin: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**e, **(env or {})},
        timeout=60,
    )


def test_utf16_is_named_with_what_to_do() -> None:
    for data in (
        LEGAL.read_text().encode("utf-16"),
        LEGAL.read_text().encode("utf-16-le"),
        b'{"dos": 1}'.decode().encode("utf-16-le"),
    ):
        d = json.loads(run("check", "--format", "json", "-", stdin=data).stdout)
        assert d["verdict"] == "malformed"
        (f,) = d["findings"]
        assert f["rule"] == "notation.encoding" and "UTF-16" in f["message"] and "save it as UTF-8" in f["message"]


def test_ruleset_in_the_wrong_case_points_at_the_value() -> None:
    log = b"dos 1\nplayers ann bob\nruleset Italian\n"
    d = json.loads(run("check", "--format", "json", "-", stdin=log).stdout)
    (f,) = d["findings"]
    assert (f["line"], f["column"], f["found"]) == (3, 9, "Italian")
    assert "did you mean `italian`?" in f["message"] and "dosverify rulesets" in f["message"]


def test_summary_in_proper_plurals() -> None:
    out = run("check", "-q", str(LEGAL)).stdout.decode()
    assert ": legal: 0 errors, 0 warnings; 1 round, 2 turns;" in out and "(s)" not in out


def test_explain_a_kind_lists_its_rules() -> None:
    from dosverify.spec import load_spec

    r = run("explain", "missed-bonus")
    assert r.returncode == 0
    for rule in load_spec("dos").rules.values():
        assert (f"  {rule.id} " in r.stdout.decode()) == (rule.kind == "missed-bonus")
    assert "did you mean missed-bonus" in run("explain", "missed-bonu").stderr.decode()


def test_version_names_each_games_spec() -> None:
    from dosverify import __version__
    from dosverify.games import REGISTRY, find_game

    r = run("--version")
    assert r.returncode == 0
    lines = r.stdout.decode().splitlines()
    assert lines[0] == f"dosverify {__version__}"
    for name in REGISTRY:
        pack = find_game(name)
        assert any(
            ln.strip().startswith(f"{name}: {pack.title}, rules specification {pack.spec().version}, notation")
            for ln in lines
        ), lines


def test_force_color_and_term_dumb() -> None:
    assert b"\x1b[" in run("check", "-q", str(LEGAL), env={"FORCE_COLOR": "1"}).stdout
    assert b"\x1b[" not in run("check", "-q", str(LEGAL), env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert b"\x1b[" not in run("check", "-q", str(LEGAL), env={"TERM": "dumb"}).stdout
    assert b"\x1b[" in run("check", "-q", "--color", "always", str(LEGAL), env={"TERM": "dumb"}).stdout


HEAD = b"dos 1\nplayers ann bob\nround 1\ndealer ann\nhand ann R3 B5 G10 Y1 W2 R# B7\nhand bob B3 B7 G3 Y4 G9 R1 R8\ncenter R3 B10\nturn bob\n"


def _first(log: bytes, rule: str | None = None) -> dict:
    """The first finding (of `rule`, if given): a line read through a slip may break a rule as well."""
    fs = json.loads(run("check", "--format", "json", "-", stdin=log).stdout)["findings"]
    return next(f for f in fs if rule is None or f["rule"] == rule)


def test_card_code_slips_say_the_fix() -> None:
    for word, says in (
        ("b10", "card codes are upper case: B10"),
        ("w2=r", "card codes are upper case: W2=R"),
        ("R5,", "stray punctuation `,` (write R5)"),
        ("Y4#first", "a comment needs a space before #"),
    ):
        f = _first(HEAD + b"  match B10 with B3 + " + word.encode() + b"\n", "notation.card")
        assert (f["line"], f["column"], f["found"]) == (9, 23, word) and says in f["message"], f


def test_player_names_did_you_mean() -> None:
    for name, hint in (
        ("Ann", "did you mean `ann`? (names are case-sensitive)"),
        ("anne", "did you mean `ann`?"),
        ("bobb", "did you mean `bob`?"),
    ):
        d = json.loads(
            run("check", "--format", "json", "-", stdin=HEAD.replace(b"dealer ann", b"dealer " + name.encode())).stdout
        )
        f = next(f for f in d["findings"] if f["rule"] == "notation.player")
        assert f["message"].endswith(hint) and f["found"] == name
    d = json.loads(run("check", "--format", "json", "-", stdin=HEAD.replace(b"dealer ann", b"dealer zed")).stdout)
    assert "did you mean" not in next(f for f in d["findings"] if f["rule"] == "notation.player")["message"]


def test_no_finding_says_card_s() -> None:
    """Counts in proper plurals: over every rule fixture, no message reads `card(s)` or `bonus(es)`."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "dosverify",
            "check",
            "--format",
            "json",
            "--max-errors",
            "0",
            "fixtures/dos/rules",
            "fixtures/dos/digest",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    texts = [
        f"{f['message']} {f['expected'] or ''} {f['found'] or ''}"
        for line in r.stdout.splitlines()
        for f in json.loads(line)["findings"]
    ]
    assert len(texts) > 50
    assert not [t for t in texts if "(s)" in t or "(es)" in t]
    d = json.loads(run("check", "--format", "json", "-", stdin=HEAD.replace(b" R1 R8\n", b" R1\n")).stdout)
    assert any("bob is dealt 6 cards, not 7" in f["message"] for f in d["findings"])
