"""The contract's worked examples (spec/uno-duo/notation.md) parse and mean what it says."""

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
    ref = report.referee
    assert ref.totals == {"ann": 0, "bob": 86} and ref.game_over
    st = ref.st
    assert st.out == "ann" and sum(st.hands["ann"].values()) == 0
    assert st.hands["bob"] == Counter(
        ["B4", "B9", "Y2", "W", "B1", "R5", "Y7", "G0", "R9", "B6", "Y+2", "G7", "R1", "BS"]
    )
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
    ref = report.referee
    assert ref.totals == {"cyd": 0, "dee": 23} and not ref.game_over
    st = ref.st  # round 2: dee's run ended in a Reverse, cyd played his green run
    assert st.drafter == "cyd" and st.first == "cyd"  # a turned-up Skip: P1 first
    assert isinstance(log.rounds[1].turns[-1].events[0], Play)
    assert not any(c.startswith("G") for c in st.hands["cyd"].elements())


def test_a_wild_without_colour_is_one_finding_and_matches_anything() -> None:
    text = _text("example-2").replace("  play W+4=G  # Y8 and R2 could be played", "  play W+4")
    report = PACK.check(text)
    assert [f.rule for f in report.findings] == ["wild.colour"]


def _reshuffle_fragment(reshuffle: str = "  reshuffle R7 G7 G3 G5") -> str:
    from dosverify.games.uno_duo.cards import composition

    ann, bob = ["G3", "G+2", "R1", "R2", "R3", "R4", "R6"], ["G7", "G5", "B1", "B2", "B3", "B4", "B5"]
    pool = composition() - Counter(ann + bob + ["R7"])
    order = sorted(pool.elements())
    order.remove("B6")
    order.append("B6")  # the draw pile's last card
    lines = [
        "uno-duo 1",
        "players ann bob",
        "round 1",
        "drafter ann",
        "hand ann " + " ".join(ann),
        "hand bob " + " ".join(bob),
        "start R7",
        "turn bob",
        "  play G7",
        "turn ann",
        "  play G3",
        "turn bob",
        "  play G5  # the discard pile: R7 G7 G3 G5",
    ]
    on = "ann"
    for card in order[:-1]:
        lines += [f"turn {on}", f"  draw {card}"]
        on = "bob" if on == "ann" else "ann"
    assert on == "ann"
    lines += [
        "turn ann",
        "  play G+2",
        "turn bob",
        "  draw B6  # the draw pile's last card; one more is owed",
        reshuffle,
        "  draw  # bare: the new pile's order is known (R7)",
    ]
    return "\n".join(lines) + "\n"


def test_the_reshuffle_fragment_means_what_it_says() -> None:
    report = PACK.check(_reshuffle_fragment(), whole=True)
    assert report.verdict == "legal" and report.findings == []
    st = report.referee.st
    assert st.pile.slots == ["G7", "G3", "G5"] and st.discards == ["G+2"]
    assert st.hands["bob"]["R7"] == 1 and st.hands["bob"]["B6"] >= 1
    bare = PACK.check(_reshuffle_fragment("  reshuffle"))
    assert bare.verdict == "legal"
    left_out = _reshuffle_fragment("  # no reshuffle line")
    n = left_out.split("\n").index("  # no reshuffle line") + 2
    assert [(f.rule, f.line) for f in PACK.check(left_out).findings] == [("reshuffle.when", n)]
