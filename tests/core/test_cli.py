"""The command line, end to end in a subprocess: exit codes, JSON Lines, stdin, misuse."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "fixtures/dos/notation/example.log"
ILLEGAL = ROOT / "fixtures/dos/digest/s1-example1-illegal.log"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60
    )


def test_legal_exits_0_and_says_legal() -> None:
    r = run("check", str(LEGAL))
    assert r.returncode == 0, r.stderr
    assert b"legal" in r.stdout and b"Traceback" not in r.stderr


def test_illegal_prints_actionable_findings() -> None:
    r = run("check", "--color", "never", str(ILLEGAL))
    assert r.returncode == 1
    out = r.stdout.decode()
    assert "error[draw-order]" in out and "(turn.steps)" in out
    assert f"--> {ILLEGAL}:27:3" in out
    assert "^^^^" in out and "help:" in out and "expected:" in out
    assert "\x1b[" not in out  # no colour when not asked for and not a terminal


def test_colour_on_request() -> None:
    assert b"\x1b[" in run("check", "--color", "always", str(ILLEGAL)).stdout


def test_json_lines_one_report_per_file_in_order() -> None:
    r = run("check", "--format", "json", str(LEGAL), str(ILLEGAL), "-", stdin=b"not a log\n")
    assert r.returncode == 2  # one malformed file
    reports = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert [x["verdict"] for x in reports] == ["legal", "illegal", "malformed"]
    assert reports[2]["file"] == "-"
    for rep in reports:
        for key in ("file", "verdict", "ruleset", "spec_version", "findings"):
            assert key in rep
    f = reports[1]["findings"][0]
    for key in (
        "kind",
        "rule",
        "severity",
        "line",
        "column",
        "round",
        "turn",
        "player",
        "message",
        "expected",
        "found",
    ):
        assert key in f
    assert (f["kind"], f["rule"], f["line"], f["round"], f["turn"]) == ("draw-order", "turn.steps", 27, 1, 3)


def test_missing_file_does_not_hide_the_others() -> None:
    r = run("check", "-q", "no/such.log", str(LEGAL))
    assert r.returncode == 2
    assert b"cannot read no/such.log" in r.stderr
    assert b"example.log: legal" in r.stdout


def test_unknown_ruleset_override_is_a_misuse() -> None:
    r = run("check", "--ruleset", "nope", str(LEGAL))
    assert r.returncode == 2 and b"unknown ruleset `nope`" in r.stderr


def test_ruleset_override_is_reported() -> None:
    r = run("check", "--format", "json", "--ruleset", "italian", str(LEGAL))
    rep = json.loads(r.stdout)
    assert rep["ruleset"] == "italian" and rep["options"]["no-match-after-draw"] == "pass"
    # under the italian rules cyd keeps the drawn card: placing it is a finding
    assert [f["rule"] for f in rep["findings"]] == ["place.no-match"]


def test_explain_prints_text_and_sources() -> None:
    r = run("explain", "match.double")
    out = r.stdout.decode()
    assert r.returncode == 0
    assert "match.double" in out and "Sources:" in out and "000_506ef99b11807f86.txt" in out


def test_explain_unknown_rule_suggests() -> None:
    r = run("explain", "match.dobule")
    assert r.returncode == 2 and b"did you mean match.double" in r.stderr


def test_explain_an_option_by_key_or_variant_point() -> None:
    """Every option explains itself like a rule: its values (the default marked), the rulesets
    that take each value, the rules it changes, its sources, and how to set it."""
    from dosverify.spec import load_spec

    spec = load_spec("dos")
    variants = [o["variant"] for o in spec.options.values()]
    for key, opt in spec.options.items():
        unique = variants.count(opt["variant"]) == 1
        for name in (key, opt["variant"], opt["variant"].lower()) if unique else (key,):
            r = run("explain", name)
            out = r.stdout.decode()
            assert r.returncode == 0, (name, r.stderr)
            if key in spec.kinds:  # `dos-call` is a finding kind too: the kind first, then the option
                assert out.startswith(f"{key}: {spec.kinds[key]}") and f"\n{key}: {opt['text']}" in out
            else:
                assert out.startswith(f"{key}: {opt['text']}")
            assert f"{opt['default']} (default)" in out
            for rule in opt.get("rules", ()):
                assert rule in spec.rules and rule in out
            for src in opt.get("sources", ()):
                assert src["part"] in out
            assert f"--option {key}=VALUE" in out
    out = run("explain", "after-draw-match").stdout.decode()
    assert "drawn-only: " in out and "bosnian" in out.split("drawn-only: ")[1].split("\n  any")[0]
    data = json.loads(run("explain", "V12", "--format", "json").stdout)
    assert data["option"] == "dcm-draws" and data["rulesets"]["end-of-turn"] == sorted(spec.rulesets)
    assert json.loads(run("explain", "dos-call", "--format", "json").stdout)["option"]["variant"] == "S3"
    assert run("explain", "S3").returncode == 2  # two options of seed S3: named by key
    r = run("explain", "dcm-ordr")
    assert r.returncode == 2 and b"did you mean dcm-order" in r.stderr


def test_rules_lists_every_rule() -> None:
    from dosverify.spec import load_spec

    out = run("rules").stdout.decode()
    for rid in load_spec("dos").rules:
        assert rid in out


def test_convert_round_trip(tmp_path: Path) -> None:
    js = tmp_path / "g.json"
    r = run("convert", str(LEGAL), "-o", str(js))
    assert r.returncode == 0, r.stderr
    back = run("convert", str(js))
    assert back.returncode == 0
    from dosverify.games.dos.notation import parse

    a, b = parse(LEGAL.read_text()).log, parse(back.stdout.decode()).log
    assert a.to_dict() == b.to_dict()
    # the JSON form gets the same verdict, with JSON pointers
    rep = json.loads(run("check", "--format", "json", str(js)).stdout)
    assert rep["verdict"] == "legal"


def test_convert_refuses_to_drop_a_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text(LEGAL.read_text().replace("place B1", "place B2"))
    r = run("convert", str(bad))
    assert r.returncode == 2 and b"not converted" in r.stderr


def test_a_directory_checks_every_log_under_it() -> None:
    r = run("check", "-q", "fixtures/dos/digest")
    out = r.stdout.decode()
    assert r.returncode == 1  # one of them is illegal
    assert out.count("fixtures/dos/digest/") == 5 and ".expected.json" not in out
    assert out.strip().endswith("5 files: 4 legal, 1 illegal")


def test_a_game_no_pack_has_is_one_line_and_exit_2() -> None:
    from dosverify.games import REGISTRY

    for command in (["rules"], ["rulesets"], ["explain", "match.single"], ["schema"]):
        r = run(*command, "--game", "chess")
        assert r.returncode == 2 and b"Traceback" not in r.stderr, r.stderr
        known = ", ".join(REGISTRY)  # the games installed, found by entry point
        assert r.stderr.decode() == f"dosverify {command[0]}: unknown game `chess` (known: {known})\n"
