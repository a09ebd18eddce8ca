"""1,000 generated UNO Duo games are legal, in every rendering the notation allows, in CI.

Measured first (2 shared cores, one process, `time.process_time`): a game costs about 5 ms to
play and 17 ms to check per rendering, so 1,000 games in each of the 10 renderings would cost
about 175 s of CPU, over the ~60 s a property may take in CI. So they are spread: 1,000 games,
each written in one rendering chosen by its seed (every rendering gets a tenth), with option
values drawn per game (about 22 s); and a tenth of them, 100 games, each written in every
rendering (about 15 s), where the same game must also give the same rounds and turns whatever
the rendering. DOSVERIFY_GAMES sets the number of games (default 1,000)."""

from __future__ import annotations

import random

from tiers import count

from dosverify.games import find_game
from dosverify.games.uno_duo.simulate import play_game
from dosverify.games.uno_duo.simulate.cards import OPTIONS
from dosverify.games.uno_duo.simulate.emit import STYLES, render_text

GAMES = count("DOSVERIFY_GAMES", 1000, 100)
ALL_RENDERINGS = max(2, GAMES // 10)
STYLE_NAMES = sorted(STYLES)
PACK = find_game("uno-duo")


def game(seed: int):
    """Seed `seed`'s game: option values drawn for it, one game in ten played to the target."""
    rng = random.Random(seed)
    options = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.3}
    return options, play_game(seed=seed, options=options, whole_game=seed % 10 == 0, target=150)


def errors(text: str, name: str) -> list[tuple]:
    report = PACK.check(text, name=name)
    return [(f.line, f.rule, f.message) for f in report.findings if f.severity == "error"]


def test_a_thousand_games_each_in_the_rendering_its_seed_picks():
    bad = []
    for seed in range(GAMES):
        options, played = game(seed)
        style = STYLE_NAMES[seed % len(STYLE_NAMES)]
        found = errors(render_text(played, STYLES[style], seed=seed), f"seed{seed}")
        if found:
            bad.append((seed, style, options, found[:2]))
    assert not bad, f"{len(bad)} of {GAMES} games illegal, first: {bad[:3]}"


def test_a_tenth_of_them_in_every_rendering_alike():
    bad = []
    for seed in range(ALL_RENDERINGS):
        options, played = game(seed)
        seen = set()
        for style in STYLE_NAMES:
            report = PACK.check(render_text(played, STYLES[style], seed=seed), name=f"seed{seed}-{style}")
            found = [(f.line, f.rule) for f in report.findings if f.severity == "error"]
            if found:
                bad.append((seed, style, options, found[:2]))
            seen.add((report.verdict, report.rounds, report.turns))
        assert len(seen) == 1, (seed, seen)  # one game, whatever the rendering: the same rounds and turns
    assert not bad, f"{len(bad)} renderings illegal, first: {bad[:3]}"
