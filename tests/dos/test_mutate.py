"""Mutation operators: each puts one known defect into a legal log, and the referee
must report the operator's kind and rule at the operator's line, and nothing earlier."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dosverify.games.dos.mutate import OPERATORS, analyse
from dosverify.games.dos.simulate import simulate_text
from dosverify.spec import load_spec

RULESETS = ["official", "italian", "bosnian", "strict"]


# (operator, expected kind, expected rule): the catalogue, checked against spec/rules
EXPECTED = {
    "double_sum": ("illegal-match", "match.double"),
    "single_number": ("illegal-match", "match.single"),
    "matched_twice": ("illegal-match", "match.once"),
    "refilled_matched": ("illegal-match", "match.refilled"),
    "not_held": ("illegal-match", "match.held"),
    "drop_bonus": ("missed-bonus", "bonus.card"),
    "extra_bonus": ("missed-bonus", "bonus.card"),
    "drop_dcm_draw": ("missed-bonus", "bonus.draw"),
    "extra_dcm_draw": ("draw-order", "draw.reason"),
    "swap_refill_bonus": ("draw-order", "turn.steps"),
    "swap_bonus_penalty": ("draw-order", "turn.steps"),
    "swap_penalty_dcm": ("draw-order", "turn.steps"),
    "draw_not_top": ("draw-order", "draw.top"),
    "missing_refill": ("card-accounting", "center.refill"),
    "missing_reshuffle": ("draw-order", "reshuffle.when"),
    "wrong_turn": ("turn-order", "turn.order"),
    "bogus_catch": ("dos-call", "dos.catch"),
    "drop_penalty": ("dos-call", "dos.penalty"),
    "wrong_score": ("mis-scored", "score.round"),
    "wrong_totals": ("mis-scored", "score.totals"),
    "wrong_winner": ("mis-scored", "game.winner"),
    "wrong_dealer": ("turn-order", "setup.dealer"),
    "wrong_first_dealer": ("turn-order", "turn.order"),
    "bad_pass": ("turn-order", "turn.pass"),
    "excess_copies": ("card-accounting", "cards.composition"),
    "glued_words": ("syntax", "notation.line"),
    "invalid_card": ("syntax", "notation.card"),
    "invalid_match_card": ("syntax", "notation.card"),
    "card_typo": ("illegal-match", "match.held"),
    "lower_codes": ("syntax", "notation.card"),
    "misspelt_turn": ("syntax", "notation.player"),
    "misspelt_name": ("syntax", "notation.player"),
    "drop_turn_line": ("turn-order", "turn.order"),
    "swapped_cards": ("draw-order", "draw.top"),
    "swapped_refills": ("draw-order", "draw.top"),
    "drop_nomatch_draw": ("draw-order", "draw.no-match"),
    "drop_nomatch_place": ("draw-order", "place.no-match"),
}
# operators whose defect depends on the line they pick: each (kind, rule) they may state
EXPECTED_ANY = {
    "drop_line": {
        ("missed-bonus", "bonus.card"),
        ("card-accounting", "center.refill"),
        ("dos-call", "dos.penalty"),
        ("missed-bonus", "bonus.draw"),
    },
}

# operators whose slip stands on a line before the one where it shows: the keyword of each line they edit there
EARLIER_EDIT = {
    "wrong_first_dealer": ["dealer"],  # R97: the finding is at the first `turn`, the `dealer` line related
}


def _log(seed: int) -> str:
    r = random.Random(seed)
    return simulate_text(
        r.randint(2, 4), seed, r.choice(RULESETS), game=True, target=r.choice((40, 80)), deck=r.random() < 0.5
    )


def test_catalogue_matches_spec():
    spec = load_spec("dos")
    assert set(EXPECTED) | set(EXPECTED_ANY) == set(OPERATORS)
    for name, (kind, rule) in [*EXPECTED.items(), *((n, kr) for n, krs in EXPECTED_ANY.items() for kr in krs)]:
        assert rule in spec.rules, rule
        assert spec.rules[rule].kind == kind, (name, rule)


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_operator_applies_and_changes_one_place(name):
    """Every operator finds a place in some small game, and states its rule and kind."""
    for seed in range(400):
        text = _log(seed)
        m = OPERATORS[name](text, random.Random(seed))
        if m is None:
            continue
        assert m.text != text
        assert (m.kind, m.rule) in EXPECTED_ANY.get(name, {EXPECTED.get(name)})
        assert 1 <= m.line <= m.text.count("\n") + 1
        # nothing before the expected line changed (but the line a slip shows at a later line: EARLIER_EDIT)
        before = [(a, b) for a, b in zip(text.splitlines()[: m.line - 1], m.text.splitlines(), strict=False) if a != b]
        assert [b.split()[0] for _, b in before] == EARLIER_EDIT.get(name, [])
        return
    pytest.fail(f"{name} applied to none of 400 games")


def test_analyse_roles():
    text = _log(3)
    a = analyse(text)
    roles = {ln.role for ln in a.lines}
    assert {"match-single", "refill", "nomatch-draw"} <= roles
    assert all(t.after > t.start for t in a.turns)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(sorted(OPERATORS)))
def test_referee_finds_the_defect(seed, name):
    from dosverify.api import check

    text = _log(seed)
    m = OPERATORS[name](text, random.Random(seed))
    assume(m is not None)
    report = check(m.text, name=f"{name}-{seed}")
    assert report.verdict == "illegal", (m.note, report.verdict)
    earlier = [(f.line, f.kind, f.rule, f.message) for f in report.findings if f.line is not None and f.line < m.line]
    assert earlier == [], (m.operator, m.line, m.note, earlier)
    at = [(f.kind, f.rule) for f in report.findings if f.line == m.line]
    assert (m.kind, m.rule) in at, (
        m.operator,
        m.line,
        m.note,
        [(f.line, f.kind, f.rule, f.message) for f in report.findings][:4],
    )
