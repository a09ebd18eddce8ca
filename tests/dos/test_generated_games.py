"""Thousands of generated games replay clean: the simulator (an engine of its own) and the
referee agree on every one. `DOSVERIFY_GAMES` scales the count (default 2400 + 120 full games).
Games include the simulator's moments (catches at a low pile, reshuffles inside penalties,
long rounds: tests/test_moments.py)."""

from __future__ import annotations

import itertools

from tiers import count

from dosverify.api import check
from dosverify.games.dos.notation import write
from dosverify.games.dos.simulate import Sim

RULESETS = ("official", "italian", "bosnian", "strict")
N = count("DOSVERIFY_GAMES", 2400, 240)


def _check(games, what: str) -> None:
    bad = []
    for kw in games:
        report = check(write(Sim(**kw).play().to_log()), name="sim")
        if report.verdict != "legal":
            f = report.findings[0]
            bad.append(f"{kw}: {report.verdict}, first finding line {f.line} {f.rule}: {f.message}")
    assert not bad, f"{len(bad)} of {len(games)} {what} are not legal for the referee:\n" + "\n".join(bad[:10])


def test_thousands_of_one_round_games_replay_clean() -> None:
    combos = itertools.cycle(itertools.product((2, 3, 4), RULESETS, (True, False)))
    _check(
        [
            dict(players=p, seed=seed, ruleset=rs, deck=deck)
            for seed, (p, rs, deck) in zip(range(N), combos, strict=False)
        ],
        "generated games",
    )


def test_full_games_to_a_target_replay_clean() -> None:
    combos = itertools.cycle(itertools.product((2, 3, 4), RULESETS, (True, False)))
    _check(
        [
            dict(players=p, seed=10_000 + seed, ruleset=rs, deck=deck, game=True, target=60)
            for seed, (p, rs, deck) in zip(range(max(24, N // 20)), combos, strict=False)
        ],
        "full games",
    )
