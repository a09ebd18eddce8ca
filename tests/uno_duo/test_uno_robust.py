"""Bad input never raises, and a line of DOS notation is one clear syntax finding."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dosverify.games import find_game

EX = Path(__file__).resolve().parents[2] / "fixtures" / "uno-duo" / "examples"
PACK = find_game("uno-duo")
EXAMPLES = [(EX / n).read_text(encoding="utf-8") for n in ("example-1.log", "example-2.log")]


@pytest.mark.parametrize(
    "line", ["  match R3 with R5", "  refill G6", "  place Y4", "dealer ann", "center R3 B10", "  dos", "  show ann G3"]
)
def test_a_dos_line_is_one_syntax_finding(line: str) -> None:
    lines = EXAMPLES[0].split("\n")
    lines.insert(26, line)
    report = PACK.check("\n".join(lines))
    assert [(f.kind, f.line) for f in report.findings] == [("syntax", 27)]
    if "show" not in line:
        assert "DOS notation" in report.findings[0].message


def test_a_dos_log_is_named_as_such() -> None:
    report = PACK.check("dos 1\nplayers ann bob\n")
    assert report.verdict == "malformed" and "DOS log" in report.findings[0].message


def test_dos_cards_are_card_findings() -> None:
    for word in ("R#", "G#=7", "W2", "R10", "RD", "W+2", "R5=G", "?"):
        report = PACK.check(EXAMPLES[0].replace("  play G4", f"  play {word}"))
        assert [(f.rule, f.line) for f in report.findings] == [("notation.card", 34)], word


def test_every_rendering_reads_the_same() -> None:
    base = PACK.check(EXAMPLES[1])
    crlf = PACK.check(("\ufeff" + EXAMPLES[1].replace("\n", "\r\n")).encode())
    flat = PACK.check("\n".join(line.strip() for line in EXAMPLES[1].split("\n")))
    one_by_one = PACK.check(EXAMPLES[0].replace("draw R9 B6 Y+2 G7 R1 BS", "draw R9 B6\n  draw Y+2 G7 R1\n  draw BS"))
    for r in (base, crlf, flat, one_by_one):
        assert r.verdict == "legal" and r.findings == []


EDITS = st.sampled_from(["delete", "duplicate", "swap", "junk", "truncate", "insert"])
JUNK = st.sampled_from(
    [
        "play",
        "draw ann bob",
        "turn",
        "score",
        "totals ann",
        "round x",
        "uno uno",
        "catch by",
        "  play W+4=Q",
        "deck",
        "draft ann keep",
        "hand ann R1 R1 R1",
        "start W",
        "reshuffle ?",
        "winner",
        "players a b c",
        "option deck 108",
        "target 0",
        "\x00\x01",
        "play R5 R5 R5 R5",
        "draw " + "R1 " * 50,
        "challenge",
        "pass",
        '"',
        "# comment",
        "uno-duo 1",
        "round 1",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXAMPLES), st.lists(st.tuples(EDITS, st.integers(0, 80), st.integers(0, 80), JUNK), max_size=5))
def test_random_line_edits_never_raise(text: str, edits) -> None:
    lines = text.split("\n")
    for op, i, j, junk in edits:
        if not lines:
            break
        i, j = i % len(lines), j % len(lines)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[j])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "junk":
            lines[i] = junk
        elif op == "truncate":
            lines[i] = lines[i][: j % (len(lines[i]) + 1)]
        else:
            lines.insert(i, junk)
    source = "\n".join(lines)
    report = PACK.check(source)
    assert report.verdict in ("legal", "illegal", "malformed")
    parsed = PACK.parse(source)
    if parsed.log is not None and not parsed.malformed:
        PACK.check(PACK.dump_json(parsed.log))


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(data: bytes) -> None:
    PACK.check(b"uno-duo 1\nplayers ann bob\n" + data)
    PACK.check(data)
