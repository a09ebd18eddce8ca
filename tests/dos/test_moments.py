"""The simulator really plays the moments real logs contain (issue 8, "Moments"): counted over
generated games, each happens. The properties over generated games (test_styles.py,
test_generated_games.py) then judge logs that contain them."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from dosverify.games.dos.simulate import Sim

RULESETS = ("official", "italian", "bosnian", "strict")

MOMENTS = {
    "catch of another player while the player on turn is matching",
    "catch of the player on turn, penalty at the step",
    "catch with the pile at 0",
    "catch with the pile at 1",
    "late call",
    "reshuffle before penalty-now",  # between a catch and its penalty
    "reshuffle inside penalty-now",  # inside an at-once penalty
    "reshuffle before dcm",  # inside the Double Color Match draws (between two players')
    "reshuffle inside dcm",  # inside one player's Double Color Match draws
    "reshuffle before this turn's matched cards are discarded",
    "round ends with Double Color Match draws",
    "both piles empty",
    "pass",
}


def _count(games) -> tuple[Counter, Counter]:
    moments, games_with = Counter(), Counter()
    for kw in games:
        sim = Sim(**kw).play()
        moments.update(sim.moments)
        games_with.update(set(sim.moments))
    return moments, games_with


@pytest.mark.slow  # up to 750 games; the quick tier keeps test_moments_in_default_games
def test_every_moment_happens():
    """150 short and 150 long-round games, then more long-round games (up to 600) while a moment
    is still missing: the rarest (a catch at an empty pile, a reshuffle before an at-once penalty)
    need a few hundred games since bosnian plays without DOS calls."""
    combos = itertools.cycle(itertools.product((2, 3, 4), RULESETS, ("thin", "thin", "drain")))
    long_games = (
        dict(players=p, seed=seed, ruleset=rs, deck=seed % 2 == 0, long_round=lr)
        for seed, (p, rs, lr) in zip(range(600), combos, strict=False)
    )
    short = [dict(players=2 + seed % 3, seed=seed, ruleset=RULESETS[seed % 4], long_round=False) for seed in range(150)]
    moments, _ = _count(short + list(itertools.islice(long_games, 150)))
    for kw in long_games:
        if not MOMENTS - {k for k, v in moments.items() if v}:
            break
        moments.update(Sim(**kw).play().moments)
    missing = MOMENTS - {k for k, v in moments.items() if v}
    assert not missing, f"never played in 600 long-round games: {sorted(missing)}; counts: {dict(moments)}"


def test_moments_in_default_games():
    """Without asking for long rounds, about 1 game in 8 has one, and catches mid-match happen."""
    moments, games_with = _count(dict(players=2 + s % 3, seed=s, ruleset=RULESETS[s % 4]) for s in range(240))
    assert games_with["both piles empty"] + games_with["reshuffle inside dcm"] >= 4, dict(games_with)
    assert moments["catch of another player while the player on turn is matching"] >= 1, dict(moments)
    assert moments["late call"] >= 5 and moments["pass"] >= 20, dict(moments)


def test_options_are_written_and_played():
    sim = Sim(3, 4, "official", options={"no-match-after-draw": "pass", "decline-match": "forbidden"}).play()
    text = sim.to_text()
    assert "option no-match-after-draw pass\noption decline-match forbidden\n" in text
    assert sim.to_log().options == {"no-match-after-draw": "pass", "decline-match": "forbidden"}
    assert sim.moments["pass"] > 0
