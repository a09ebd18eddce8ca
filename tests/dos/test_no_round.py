"""notation.rounds: a log with a header and no round is legal but never passes in silence (one
warning at the line after the last, or at /rounds in the JSON form); after an unreadable line
there is no such warning (the line may have been the `round`: a follow-on)."""

from __future__ import annotations

from pathlib import Path

from dosverify.api import check, convert

ROOT = Path(__file__).resolve().parents[2]


def rules(report) -> list[tuple[str, int | None, str | None]]:
    return [(f.rule, f.line, f.pointer) for f in report.findings]


def test_header_alone_and_junk_tags_warn_once():
    for text, line in (("dos 1\nplayers ann bob\n", 3), ("dos 1\nplayers ann bob\nword word\nrnd 1\n", 5)):
        r = check(text)
        assert r.verdict == "legal" and rules(r) == [("notation.rounds", line, None)]
        assert r.findings[0].severity == "warning"


def test_json_form_points_at_rounds():
    js, _ = convert("dos 1\nplayers ann bob\n", "json")
    r = check(js)
    assert r.verdict == "legal" and rules(r) == [("notation.rounds", None, "/rounds")]


def test_no_warning_after_an_unreadable_line_or_with_a_round():
    r = check("dos 1\nplayers ann bob\nthis is not a line of the notation\n")
    assert r.verdict == "illegal" and "notation.rounds" not in {f.rule for f in r.findings}
    assert check((ROOT / "fixtures/dos/rules/notation.rounds/legal.log").read_bytes()).findings == []
