"""The contract's worked examples (design/uno-duo.md, section 3) parse and mean what it says."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from dosverify.games import find_game
from dosverify.games.uno_duo.events import Challenge, Draft, Draw, Hand, Play, Start, Uno

EX = Path(__file__).resolve().parents[2] / "fixtures" / "uno-duo" / "examples"
PACK = find_game("uno-duo")


def _text(name: str) -> str:
    return (EX / f"{name}.log").read_text(encoding="utf-8")


def test_example_1_reads_as_written() -> None:
    parsed = PACK.parse(_text("example-1"))
    log = parsed.log
    assert not parsed.findings and log.players == ["ann", "bob"] and log.target == 50
    assert log.tags == {"event": "Kitchen table"}
    (rnd,) = log.rounds
    drafts = [e for e in rnd.setup if isinstance(e, Draft)]
    assert len(drafts) == 14 and [d.player for d in drafts] == ["ann", "bob"] * 7
    assert (drafts[1].first, drafts[1].keep, drafts[1].discard) == ("discard", "R+2", "B7")
    assert drafts[1].in_pile_order == ("B7", "R+2")
    assert isinstance(rnd.setup[-1], Start) and rnd.setup[-1].card == "R7"
    assert [t.player for t in rnd.turns] == ["bob", "ann", "bob", "ann", "bob", "ann", "bob", "ann"]
    assert rnd.turns[3].events[0].cards == ["GR", "G3", "G8"]  # one run line
    assert isinstance(rnd.turns[6].events[0], Challenge)
    assert isinstance(rnd.turns[7].events[1], Uno) and rnd.turns[7].events[1].player is None
    assert rnd.score.player == "bob" and rnd.score.points == 86 and log.winner.player == "ann"


def test_example_1_means_what_the_contract_says() -> None:
    report = PACK.check(_text("example-1"), whole=True)
    assert report.verdict == "legal" and report.findings == []
    assert (report.rounds, report.turns, report.target) == (1, 8, 50)
    ref = report._referee
    assert ref.totals == {"ann": 0, "bob": 86} and ref.game_over
    st = ref.st
    assert st.out == "ann" and sum(st.hands["ann"].values()) == 0
    assert st.hands["bob"] == Counter("B4 B9 Y2 W B1 R5 Y7 G0 R9 B6 Y+2 G7 R1 BS".split())
    assert st.drafter == "ann" and st.second == "bob" and st.first == "bob"


def test_example_1_variants_give_one_finding_each() -> None:
    lines = _text("example-1").split("\n")
    one = list(lines)
    one[33] = "  play B4"
    report = PACK.check("\n".join(one))
    assert [(f.kind, f.line, f.rule) for f in report.findings] == [("illegal-play", 34, "play.match")]
    two = list(lines)
    two.insert(28, "  challenge")
    report = PACK.check("\n".join(two))
    assert [(f.kind, f.line, f.rule) for f in report.findings] == [("challenge", 29, "wd4.challenge")]


def test_example_2_reads_and_means_what_it_says() -> None:
    parsed = PACK.parse(_text("example-2"))
    log = parsed.log
    assert not parsed.findings and [r.number for r in log.rounds] == [1, 2]
    hands = [e for e in log.rounds[0].setup if isinstance(e, Hand)]
    assert [h.player for h in hands] == ["dee", "cyd"] and all(len(h.cards) == 7 for h in hands)
    penalty = log.rounds[0].turns[5].events[2]
    assert isinstance(penalty, Draw) and penalty.player == "dee" and penalty.cards == ["Y7", "G2"]
    assert log.rounds[1].score is None and log.winner is None  # an unfinished game
    report = PACK.check(_text("example-2"), whole=True)
    assert report.verdict == "legal" and report.findings == []
    ref = report._referee
    assert ref.totals == {"cyd": 0, "dee": 23} and not ref.game_over
    st = ref.st  # round 2: dee's run ended in a Reverse, cyd played his green run
    assert st.drafter == "cyd" and st.first == "cyd"  # a turned-up Skip: P1 first
    assert isinstance(log.rounds[1].turns[-1].events[0], Play)
    assert not any(c.startswith("G") for c in st.hands["cyd"].elements())


def test_a_wild_without_colour_is_one_finding_and_matches_anything() -> None:
    text = _text("example-2").replace("  play W+4=G  # Y8 and R2 could be played", "  play W+4")
    report = PACK.check(text)
    assert [f.rule for f in report.findings] == ["wild.colour"]
