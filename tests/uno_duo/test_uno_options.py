"""Each option of spec/uno-duo/options.toml changes what its text says, and only that."""

from __future__ import annotations

from pathlib import Path

import pytest

from dosverify.games import find_game
from dosverify.spec import SpecError

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "uno-duo"
PACK = find_game("uno-duo")
EX1 = (ROOT / "examples" / "example-1.log").read_text(encoding="utf-8")
EX2 = (ROOT / "examples" / "example-2.log").read_text(encoding="utf-8")
HEAD = """uno-duo 1
players ann bob

round 1
drafter ann
hand ann R1 R2 G3 GS GR G+2 W+4
hand bob B1 B2 R5 Y7 Y+2 BR W
"""


def small(start: str, body: str, head: str = HEAD) -> str:
    return head + f"start {start}\n" + body


def rules(text: str, **options: str) -> list[tuple[str, int]]:
    report = PACK.check(text, options=options or None)
    return [(f.rule, f.line) for f in report.findings]


def edit(text: str, line: int, new: str) -> str:
    lines = text.split("\n")
    lines[line - 1] = new
    return "\n".join(lines)


def test_deck() -> None:
    text = small(
        "R3", "turn bob\n  play R5\n", HEAD.replace("hand bob B1 B2 R5 Y7 Y+2 BR W", "hand bob W W W W W R5 Y7")
    )
    assert rules(text) == []
    assert rules(text, deck="108") == [("cards.unseen", 7)]


def test_start_volley() -> None:
    text = small("R+2", "turn bob\n  play Y+2\nturn ann\n  draw B6 B7 B8 B9\n")
    assert rules(text, **{"start-volley": "yes"}) == []
    # under `no` the stack is one finding; the Y+2 then acts alone: ann faces 2, not 4
    assert rules(text.replace("B6 B7 B8 B9", "B6 B7")) == [("volley.stack", 10)]


def test_start_reverse() -> None:
    text = small("BR", "turn bob\n  play B1\n")
    assert rules(text) == [("reverse.all", 10)]
    assert rules(text, **{"start-reverse": "may"}) == []


def test_skip_again() -> None:
    text = small("G7", "turn bob\n  draw B6\nturn ann\n  play GS\nturn bob\n  draw B7\n")
    assert rules(text) == [("skip.again", 13)]
    assert rules(text, **{"skip-again": "optional"}) == []


def test_reverse_alone() -> None:
    text = small("G7", "turn bob\n  draw B6\nturn ann\n  play GR\nturn bob\n  draw B7\n")
    assert rules(text) == []
    assert rules(text, **{"reverse-alone": "skip"}) == [("skip.again", 13)]


def test_run_reverse() -> None:
    assert rules(EX2) == []
    assert rules(EX2, **{"run-reverse": "none"}) == [("play.one", 53)]


def test_volley() -> None:
    text = small("Y3", "turn bob\n  play Y+2\nturn ann\n  draw B6 B7\n")
    assert rules(text) == []
    assert rules(text, volley="must") == [("volley.stack", 12)]


def test_wd4_legal() -> None:
    text = small(
        "B3",
        "turn bob\n  play B2\nturn ann\n  play W+4=R  # R2 matches the 2\nturn bob\n  challenge\n"
        "  draw ann B6 B7 B8 B9\n  draw B4\n",
    )
    assert rules(text) == []
    assert rules(text, **{"wd4-legal": "colour"}) == [("wd4.outcome", 15)]


def _long(reshuffle: str) -> str:
    text = (ROOT / "rules" / "reshuffle.cards" / "legal.log").read_text(encoding="utf-8")
    return text.replace("  reshuffle R7 R1 R2", reshuffle)


def test_pile_order() -> None:
    bare = _long("  reshuffle")
    assert rules(bare) == [] and rules(_long("  reshuffle R7 R1 R2")) == []
    n = bare.split("\n").index("  reshuffle") + 1
    # shuffled: the draft discards lie at the bottom in unknown order, so the first bare draw of
    # each player from them is cards.known (then that hand is in doubt)
    into_discards = [("cards.known", 196), ("cards.known", 198)]
    assert rules(bare, **{"pile-order": "shuffled"}) == into_discards
    assert rules(_long("  reshuffle R2 R1 R7"), **{"pile-order": "shuffled"}) == into_discards
    assert rules(_long("  reshuffle R2 R1 R7")) == [("reshuffle.cards", n)]


def test_uno_window() -> None:
    text = EX2.replace("  catch dee by cyd\n  draw dee Y7 G2  # the penalty, at once\n", "").replace(
        "  play BS  # Skip: one more action\n",
        "  play BS  # Skip: one more action\n  catch dee by cyd\n  draw dee Y7 G2\n",
    )
    assert rules(text) == []
    assert rules(text, **{"uno-window": "next-action"}) == [("uno.catch", 26)]


def test_last_draw() -> None:
    text = edit(edit(EX1, 18, "draft ann keep Y+2 discard Y3"), 43, "  play Y+2")
    assert rules(text) == []
    assert rules(text, **{"last-draw": "yes"}) == [("volley.draw", 44)]
    drawn = text.replace("score bob 86\ntotals ann 0 bob 86", "  draw bob G1 G2\nscore bob 89\ntotals ann 0 bob 89")
    assert rules(drawn, **{"last-draw": "yes"}) == []


def test_option_lines_and_unknown_options() -> None:
    text = small(
        "R+2",
        "turn bob\n  play Y+2\nturn ann\n  draw B6 B7 B8 B9\n",
        HEAD.replace("players ann bob", "players ann bob\noption start-volley yes"),
    )
    assert rules(text) == []
    report = PACK.check(HEAD.replace("players ann bob", "players ann bob\noption volley always"))
    assert report.verdict == "malformed" and [(f.rule, f.line) for f in report.findings] == [("notation.ruleset", 3)]
    report = PACK.check(HEAD.replace("players ann bob", "players ann bob\nruleset house"))
    assert report.verdict == "malformed" and report.findings[0].rule == "notation.ruleset"
    with pytest.raises(SpecError):
        PACK.check(EX1, options={"volley": "always"})
    with pytest.raises(SpecError):
        PACK.check(EX1, ruleset="house")


def test_report_fields() -> None:
    report = PACK.check(EX1, name="ex1.log")
    assert report.file == "ex1.log" and report.ruleset == "official" and report.target == 50
    assert report.options["deck"] == "112" and report.spec_version == PACK.spec().version
    assert (report.rounds, report.turns, report.lines) == (1, 8, 46)
