"""The brute-force play-legality oracle: hand-checked cases from the contract, and (once the referee is
there) the referee's judgement of every card x top card x state against it."""

from __future__ import annotations

import pytest

from dosverify.games.uno_duo.oracle import State, every_card, every_top, judge, legal_set, matching_cards, table
from dosverify.games.uno_duo.simulate.cards import composition

from .simside import error_findings, referee

# (card, top, state, the rule the contract gives, None: legal): section 3's examples and section 1's rules
CASES = [
    ("G4", "GS", State(), None),  # Example 1, line 34: a green 4 on a green Skip
    ("B4", "GS", State(), "play.match"),  # its illegal variant 1
    ("GS", "YS", State(), None),  # symbol on symbol
    ("G+2", "R+2", State(), None),
    ("R7", "G7", State(), None),  # number on number
    ("R7", "G8", State(), "play.match"),
    ("W+4=Y", "G4", State(), None),  # "a Wild or WD4 may always be played, whatever the hand"
    ("W=B", "R9", State(), None),
    ("W", "R9", State(), "wild.colour"),  # `play W` parses and is one wild.colour error
    ("W+4", "R9", State(), "wild.colour"),
    ("G3", "W=G", State(), None),  # after a wild, the named colour
    ("R3", "W=G", State(), "play.match"),
    ("GS", "W+4=G", State(), None),
    ("G+2", "R+2", State(total=2), None),  # Example 1: the volley
    ("G5", "R+2", State(total=2), "volley.stack"),
    ("W=G", "R+2", State(total=4), "volley.stack"),  # only a Draw 2 continues (U8)
    ("W+4=G", "R+2", State(total=2), "volley.stack"),
    ("R+2", "G+2", State(total=2, total_turned_up=True), "volley.stack"),  # U3: no volley on a turned-up one
    ("R+2", "G+2", State(total=2, total_turned_up=True, start_volley="yes"), None),
    ("G4", "W+4=G", State(wd4=True), "wd4.answer"),  # facing a WD4, no play
    ("G+2", "W+4=G", State(wd4=True), "wd4.answer"),
    ("G7", "GR", State(owed_run="G", run_cards=3), "reverse.all"),  # Example 2: cyd's start run is every green
    ("G7", "GR", State(owed_run="G", run_cards=1), None),
    ("B7", "GR", State(owed_run="G", run_cards=1), "start.reverse"),
    ("W=G", "GR", State(owed_run="G", run_cards=1), "start.reverse"),
    ("B7", "GR", State(owed_run="G", run_cards=0), "play.match"),  # none held: an ordinary turn
    ("B7", "GR", State(owed_run="G", run_cards=2, start_reverse="may"), "play.match"),  # `may`: an ordinary play
    ("BR", "GR", State(owed_run="G", run_cards=2, start_reverse="may"), None),
]


@pytest.mark.parametrize("card,top,state,rule", CASES)
def test_hand_checked_cases(card, top, state, rule):
    assert judge(card, top, state) == rule


def test_every_card_and_top():
    cards = every_card()
    assert len(cards) == 4 * 13 + 2 * 5
    assert set(every_top()) == set(cards) - {"W", "W+4"}
    assert {c.split("=")[0] for c in cards} == set(composition())


def test_ordinary_legal_set_is_colour_face_or_wild():
    """In an ordinary state, the legal set is exactly: the top's colour, its number or symbol, any named wild."""
    for top in every_top():
        legal = legal_set(top)
        named_wilds = {c for c in every_card() if "=" in c}
        assert named_wilds <= legal
        assert legal - named_wilds == {c for c in matching_cards(top) if not c.startswith("W")}
        for card in legal - named_wilds:
            same_colour = card[0] == (top.split("=")[1] if top.startswith("W") else top[0])
            same_face = not top.startswith("W") and card[1:] == top[1:]
            assert same_colour or same_face, (card, top)


def test_facing_states_allow_only_a_draw_two_or_nothing():
    for top in every_top():
        assert legal_set(top, State(total=2)) == {f"{c}+2" for c in "RGBY"}
        assert legal_set(top, State(total=2, total_turned_up=True)) == set()
        assert legal_set(top, State(wd4=True)) == set()


def test_table_covers_every_state():
    rows = table()
    assert len(rows) > 20_000
    assert {r[3] for r in rows} == {
        None,
        "play.match",
        "wild.colour",
        "volley.stack",
        "wd4.answer",
        "start.reverse",
        "reverse.all",
    }


# ---- the referee against the oracle ------------------------------------------------------------------

FILL = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "B1", "B2", "B3", "B4", "B5", "B6", "B7"]


def case_log(card: str, top: str, st: State) -> tuple[str, int] | None:
    """A legal log up to a one-card `play CARD` line with `top` on the pile in state `st`, and that line's number;
    None when no log can reach the case (too few copies of a card, a run colour the hand cannot hold)."""
    b, t = card.split("=")[0], top.split("=")[0]
    if b == t and composition()[b] < 2:
        return None
    c = st.owed_run
    mine: list[str] = [b]
    if c is not None:
        of_colour = not card.startswith("W") and card[0] == c
        if of_colour and st.run_cards == 0:
            return None
        extra = st.run_cards - 1 if of_colour else st.run_cards
        mine += [x for x in (f"{c}{n}" for n in range(5, 10)) if x != b][:extra]
    fill = [x for x in FILL if x[0] != c and x not in (b, t)]
    mine += fill[: 7 - len(mine)]
    theirs = [x for x in ("R1", "R2", "G1", "G2", "R3", "G3", "R4", "G4") if x not in mine and x not in (b, t)][:7]
    if len(mine) != 7 or len(theirs) != 7:
        return None
    opts = []
    if st.start_volley != "no":
        opts.append(f"option start-volley {st.start_volley}")
    if st.start_reverse != "must":
        opts.append(f"option start-reverse {st.start_reverse}")
    # ann is P1 (drafter), bob P2: bob's first turn faces the turned-up card
    head = [
        "uno-duo 1",
        "players ann bob",
        *opts,
        "round 1",
        "drafter ann",
        "hand ann " + " ".join(theirs),
        "hand bob " + " ".join(mine),
    ]
    lines = [*head, f"start {top}", "turn bob"]
    faced = st.total or st.wd4 or c is not None
    if faced or (not top.startswith("W+4") and top[1:] not in ("S", "+2", "R")):
        pass  # bob, P2, takes the first turn in the state asked for
    elif top[1:] == "S":  # a turned-up Skip: P1 first; swap hands so the player holds the card
        lines = [*head[:-2], "hand ann " + " ".join(mine), "hand bob " + " ".join(theirs), f"start {top}", "turn ann"]
    else:
        return None  # an ordinary state on a turned-up action card needs more turns: not walked here
    lines.append(f"play {card}")
    return "\n".join(lines) + "\n", len(lines)


def cases():
    """Every (card, top, state) the referee comparison walks, with its log and the play line."""
    states = [
        State(),
        State(total=2, total_turned_up=True),
        State(total=2, total_turned_up=True, start_volley="yes"),
        State(wd4=True),
    ]
    states += [
        State(owed_run=c, run_cards=n, start_reverse=m) for c in "RGBY" for n in (0, 1, 2) for m in ("must", "may")
    ]
    for st in states:
        tops = every_top()
        if st.total:
            tops = [f"{c}+2" for c in "RGBY"]
        elif st.wd4:
            tops = [f"W+4={c}" for c in "RGBY"]
        elif st.owed_run:
            tops = [f"{st.owed_run}R"]
        for top in tops:
            for card in every_card():
                case = case_log(card, top, st)
                if case is not None:
                    yield card, top, st, case[0], case[1]


def _compare(findings_of) -> list:
    """The cases where the first error at the play line is not the oracle's rule, or where an error comes
    before that line (then the harness built a log that does not reach the case, and nothing is compared)."""
    disagree = []
    for card, top, st, text, line in cases():
        found = findings_of(text)
        early = [(n, rule) for n, rule in found if n < line]
        got = [rule for n, rule in found if n == line]
        want = judge(card, top, st)
        if early or (got[0] if got else None) != want:
            disagree.append((card, top, st, want, early or got))
    return disagree


def test_cases_walk_every_state():
    walked = list(cases())
    assert len(walked) > 3000
    assert {judge(c, t, s) for c, t, s, _, _ in walked} == {
        None,
        "play.match",
        "wild.colour",
        "volley.stack",
        "wd4.answer",
        "start.reverse",
        "reverse.all",
    }


def test_replayer_agrees_with_the_oracle():
    """The test side's own replayer (used to confirm mutants) judges the cases as the oracle does."""
    from dosverify.games.uno_duo.simulate.replay import errors, replay

    disagree = _compare(lambda text: [(f.line, f.rule) for f in errors(replay(text))])
    assert not disagree, f"{len(disagree)} disagreements, first: {disagree[:5]}"


def test_referee_agrees_with_the_oracle():
    """Every card x top x state: the referee's first error at the play line is the oracle's rule (or none)."""
    pack = referee()
    disagree = _compare(lambda text: [(f.line, f.rule) for f in error_findings(pack.check(text))])
    assert not disagree, f"{len(disagree)} disagreements, first: {disagree[:5]}"
