"""UNO Duo mutation operators: each puts one defect into a legal log, states a rule of the contract's
section 4 with its kind, and touches only the place it claims; the test side's replayer finds exactly
that one error; and (once the referee is there) so does the referee, in every rendering."""

from __future__ import annotations

import difflib
import random
from functools import cache

import pytest
from tiers import FULL, tier

from dosverify.games import Mutation
from dosverify.games.uno_duo.mutate import KIND, OPERATORS
from dosverify.games.uno_duo.simulate import simulate
from dosverify.games.uno_duo.simulate.emit import STYLES
from dosverify.games.uno_duo.simulate.replay import errors, replay

from .simside import GAMES, error_findings, referee

# operator -> the rule it states (section 4); draw_swap states the one the pile's part gives
EXPECTED = {
    "bad_challenge": {"wd4.challenge"},
    "bogus_catch": {"uno.catch"},
    "card_for_name": {"notation.card"},
    "draft_order": {"draft.pick"},
    "draw_swap": {"draw.top", "draft.under"},
    "drawn_other": {"draw.drawn-only"},
    "drawn_unplayable": {"play.match"},
    "not_held": {"play.held"},
    "outcome_short": {"wd4.outcome"},
    "penalty_short": {"uno.penalty"},
    "play_match": {"play.match"},
    "reshuffle_early": {"reshuffle.when"},
    "reshuffle_missing": {"reshuffle.when"},
    "run_colour": {"reverse.colour"},
    "run_order": {"play.one"},
    "run_partial": {"reverse.all"},
    "show_line": {"notation.line"},
    "skip_dropped": {"skip.again"},
    "stack_other": {"volley.stack"},
    "volley_extra": {"volley.draw"},
    "volley_short": {"volley.draw"},
    "wd4_answer": {"wd4.answer"},
    "wild_colour": {"wild.colour"},
    "wrong_score": {"score.values"},
    "wrong_totals": {"score.totals"},
    "wrong_turn": {"turn.order"},
    "wrong_winner": {"game.winner"},
}
# section 4's kinds of those rules
KINDS = {"illegal-play", "draw-order", "challenge", "uno-call", "turn-order", "mis-scored", "syntax"}
RENDER = ("canonical", "no-deck", "hands", "mixed-draws", "decorated")
SCORE_OPS = {"wrong_score", "wrong_totals", "wrong_winner"}


def _log(seed: int, style: str, whole: bool) -> str:
    return simulate(seed=seed, style=style, whole_game=whole, target=60 if whole else None)


@cache
def found(name: str, limit: int = 90) -> tuple[Mutation, str, int, str] | None:
    """The first mutant the operator makes over seeded logs (styles in turn): the mutant, its log, seed, style."""
    op = OPERATORS[name]
    for seed in range(limit):
        style = RENDER[seed % len(RENDER)]
        text = _log(seed, style, whole=name in SCORE_OPS or seed % 4 == 3)
        m = op(text, random.Random(seed))
        if m is not None:
            return m, text, seed, style
    return None


def test_catalogue():
    assert set(EXPECTED) == set(OPERATORS)
    assert len(OPERATORS) >= 15
    for rules in EXPECTED.values():
        for rule in rules:
            assert KIND[rule] in KINDS, rule


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_operator_makes_one_defect(name):
    hit = found(name)
    assert hit is not None, f"{name} found no place in 90 logs"
    m, text, seed, style = hit
    assert m.operator == name and m.rule in EXPECTED[name] and m.kind == KIND[m.rule]
    assert m.text != text
    errs = errors(replay(m.text))
    assert [(e.line, e.rule) for e in errs] == [(m.line, m.rule)], (seed, style, errs[:4])
    _changes_only_its_place(text, m)


def _changes_only_its_place(text: str, m: Mutation) -> None:
    """The diff touches one place (the line claimed, or lines deleted just before it), plus `score`,
    `totals` and `winner` lines when the operator says they follow (or when the defect is in the scores)."""
    old, new = text.split("\n"), m.text.split("\n")
    hunks = [op for op in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if op[0] != "equal"]
    scored = ("score, totals and winner follow" in m.note) or m.operator in SCORE_OPS
    places = []
    for tag, i1, i2, j1, j2 in hunks:
        lines = new[j1:j2] + old[i1:i2]
        if scored and all(ln.strip().split()[:1] in (["score"], ["totals"], ["winner"]) for ln in lines if ln.strip()):
            continue
        places.append((tag, i1, i2, j1, j2))
    if not places:  # a defect in the scores themselves: the claimed line is one of them
        assert m.operator in SCORE_OPS and new[m.line - 1].split()[0] in ("score", "totals", "winner"), m.line
        return
    tag, i1, i2, j1, j2 = places[0]
    if tag in ("replace", "insert"):
        assert j1 + 1 <= m.line <= j2 or tag == "replace" and m.line > j2, (m.line, places)
    else:
        assert m.line >= j1, (m.line, places)
    if len(places) > 1:  # a replaced line and deleted ones right after it (an owed draw's lines taken out)
        assert all(p[0] == "delete" for p in places[1:]) and places[-1][1] - places[0][2] < 6, places


@pytest.mark.slow  # every operator in every rendering: the full tier's
def test_operators_in_every_rendering():
    """Every operator that finds a place in some rendering of a log keeps to one defect there too."""
    for name in sorted(OPERATORS):
        for style in ("everything", "hands-everything", "single"):
            for seed in range(4):
                text = _log(seed, style, whole=name in SCORE_OPS)
                m = OPERATORS[name](text, random.Random(seed))
                if m is not None:
                    errs = errors(replay(m.text))
                    assert [(e.line, e.rule) for e in errs] == [(m.line, m.rule)], (name, style, seed)


# ---- under the referee --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "style",  # the quick tier: the canonical rendering and the barest; the others in the full tier
    [s if s in ("canonical", "bare") else pytest.param(s, marks=pytest.mark.slow) for s in sorted(STYLES)],
)
def test_referee_gives_one_finding_per_mutant(style):
    """Every operator's mutants over DOSVERIFY_GAMES/10 logs of this rendering: exactly one error, at the
    operator's line, with its rule and kind."""
    pack = referee()
    bad = []
    for seed in range(max(10, GAMES // 10) if tier() == FULL else 2):  # quick: 2 logs per rendering
        text = _log(seed, style, whole=seed % 3 == 0)
        for name, op in sorted(OPERATORS.items()):
            m = op(text, random.Random(seed))
            if m is None:
                continue
            errs = error_findings(pack.check(m.text))
            got = [(f.line, f.rule, f.kind) for f in errs]
            if got != [(m.line, m.rule, m.kind)]:
                bad.append((name, seed, (m.line, m.rule), got[:3]))
    assert not bad, f"{len(bad)} mutants disagree, first: {bad[:5]}"
