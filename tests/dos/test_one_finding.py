"""One mistake, one finding: every mutation operator puts one slip into many generated legal
games, and the referee must report exactly one error, at the slip's line, with the operator's
rule; what only follows from the slip (a hand or pile in doubt, a score that differs only
because of the slip's card) is not reported. `DOSVERIFY_MUTANT_GAMES` sets how many games."""

from __future__ import annotations

import os
import random
from functools import cache

import pytest

from dosverify.api import check
from dosverify.games.dos.mutate import OPERATORS
from dosverify.games.dos.simulate import simulate_text

GAMES = int(os.environ.get("DOSVERIFY_MUTANT_GAMES", "40"))
RULESETS = ["official", "italian", "bosnian", "strict"]

# Operators whose defect still brings follow-on findings in some games (the recovery for them
# is not built yet). Strict xfail: once an operator gives one finding everywhere, this fails
# and the operator moves to the asserted set.
CASCADING = {  # operator: the follow-on findings seen in some games (recovery not built yet)
}


@cache
def _game(seed: int) -> str:
    r = random.Random(seed)
    return simulate_text(
        r.randint(2, 4), seed, r.choice(RULESETS), game=True, target=r.choice((40, 80)), deck=r.random() < 0.5
    )


def _errors(name: str) -> tuple[int, list]:
    applied, wrong = 0, []
    for seed in range(GAMES):
        m = OPERATORS[name](_game(seed), random.Random(seed))
        if m is None:
            continue
        applied += 1
        errors = [(f.line, f.rule, f.message) for f in check(m.text).findings if f.severity == "error"]
        if [(line, rule) for line, rule, _ in errors] != [(m.line, m.rule)]:
            wrong.append((seed, m.line, m.rule, m.note, errors[:4]))
    return applied, wrong


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=CASCADING[n])) if n in CASCADING else n
        for n in sorted(OPERATORS)
    ],
)
def test_one_mistake_one_finding(name):
    applied, wrong = _errors(name)
    assert applied > 0, f"{name} applied to none of {GAMES} games"
    assert not wrong, f"{len(wrong)} of {applied} mutants: " + "; ".join(map(str, wrong[:3]))


def test_cascading_list_names_operators():
    assert set(CASCADING) <= set(OPERATORS)
