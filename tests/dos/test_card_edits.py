"""One slip, one finding, over random slips (issue 20, item 7): one card code of a generated
legal game replaced by another valid code. Every edit that makes the log illegal must give one
error finding; the distribution of error counts is printed (`pytest -s`).
`DOSVERIFY_EDIT_GAMES` sets how many games (three edits each); the CI default costs ~15 s."""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import cache

from dosverify.api import check
from dosverify.games.dos.mutate import card_code_edit
from dosverify.games.dos.simulate import simulate_text

GAMES = int(os.environ.get("DOSVERIFY_EDIT_GAMES", "60"))
RULESETS = ["official", "italian", "bosnian", "strict"]
EDITS = 3


def _game(seed: int) -> str:
    r = random.Random(seed)
    return simulate_text(
        r.randint(2, 4), seed, r.choice(RULESETS), game=True, target=r.choice((40, 80)), deck=r.random() < 0.5
    )


@cache
def distribution() -> tuple[Counter, list]:
    """How many error findings each illegal edit gave, and the edits that gave more than one."""
    dist: Counter = Counter()
    many = []
    for seed in range(GAMES):
        text = _game(seed)
        for k in range(EDITS):
            edit = card_code_edit(text, random.Random(seed * 7 + k))
            if edit is None:
                continue
            mutated, line = edit
            report = check(mutated)
            if report.verdict == "legal":
                continue  # the edit happened to keep the game legal
            errors = [(f.line, f.rule) for f in report.findings if f.severity == "error"]
            dist[len(errors)] += 1
            if len(errors) != 1:
                many.append((seed, k, line, errors[:4]))
    print(f"\nerror findings per illegal card-code edit ({GAMES} games): {sorted(dist.items())}")
    return dist, many


def test_every_illegal_edit_is_found():
    dist, _ = distribution()
    assert sum(dist.values()) > 0 and dist[0] == 0


def test_most_edits_give_one_finding_today():
    # the floor reached so far (98.3% on the 60 games of CI with READINGS R81-R92, 98.7% on 150 games, 98.1%
    # on 300; 96.6% with R75-R78, 80.9% before them, 74.2% before the place and decline fixes of the second
    # session): a change that brings cascades back fails here
    dist, many = distribution()
    assert dist[1] / sum(dist.values()) >= 0.98, many[:5]


def test_one_finding_in_95_percent_never_more_than_three():
    dist, many = distribution()
    assert dist[1] / sum(dist.values()) >= 0.95 and max(dist) <= 3, many[:5]
