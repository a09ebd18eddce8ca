"""The simulator's entry points: a round or a whole game played, and written as text or JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from .agents import Agent
from .cards import RULESETS, TARGET, resolve_options
from .emit import STYLES, Style, render_json, render_text
from .round import RoundPlay
from .table import GameLog

NAMES = ("ann", "bob", "cyd", "dee", "eve", "fay")
GAME_ROUND_CAP = 60  # a whole game still open after this many rounds ends there (unfinished, valid)


def play_game(
    *,
    seed: int,
    ruleset: str = "official",
    options: dict[str, str] | None = None,
    whole_game: bool = False,
    target: int | None = None,
) -> GameLog:
    """Play one round or a whole game; the log as it happened (every card known)."""
    if ruleset not in RULESETS:
        raise ValueError(f"unknown UNO Duo ruleset {ruleset}")
    opts = resolve_options(options)
    rng = random.Random(seed)
    players = rng.sample(NAMES, 2)
    hoarder = rng.random() < 0.2  # a game of long rounds: the pile runs out
    agents = {p: Agent(rng, hoarder=hoarder) for p in players}
    game = GameLog(players, dict(options or {}), target)
    goal = TARGET if target is None else target
    totals = {p: 0 for p in players}
    drafter = rng.choice(players)  # U16: round 1's P1 is not judged
    for number in range(1, GAME_ROUND_CAP + 1):
        rp = RoundPlay(rng, opts, players, agents, number, drafter)
        rp.run()
        game.rounds.append(rp.log)
        if not rp.finished:
            return game
        loser, points = rp.log.score or ("", 0)
        totals[loser] += points
        rp.log.totals = dict(totals)
        if max(totals.values()) >= goal:
            game.winner = min(players, key=lambda p: totals[p])
            return game
        if not whole_game:
            return game
        drafter = rp.p2  # the roles swap every round (S2 DRAFTING)
    return game


def resolve_style(style: Style | str | dict[str, Any] | None) -> Style:
    if style is None:
        return STYLES["canonical"]
    if isinstance(style, Style):
        return style
    if isinstance(style, str):
        return STYLES[style]
    return Style(**{"name": "custom", **style})


def simulate(
    *,
    seed: int,
    ruleset: str = "official",
    options: dict[str, str] | None = None,
    whole_game: bool = False,
    style: Style | str | dict[str, Any] | None = None,
    target: int | None = None,
    players: int = 2,
) -> str:
    """A legal `uno-duo 1` text log of a seeded game (one round, or the whole game), in `style`
    (a :class:`Style`, a name of :data:`STYLES`, or a dict of Style fields; default canonical)."""
    if players != 2:
        raise ValueError("UNO Duo is played by 2 players")
    game = play_game(seed=seed, ruleset=ruleset, options=options, whole_game=whole_game, target=target)
    return render_text(game, resolve_style(style), seed=seed)


def simulate_json(
    *,
    seed: int,
    ruleset: str = "official",
    options: dict[str, str] | None = None,
    whole_game: bool = False,
    target: int | None = None,
    deck: bool = True,
) -> dict:
    """The same game in the JSON form of section 3 (a dict; :func:`json.dumps` it for text)."""
    game = play_game(seed=seed, ruleset=ruleset, options=options, whole_game=whole_game, target=target)
    return render_json(game, deck=deck)


def simulate_json_text(**kwargs: Any) -> str:
    return json.dumps(simulate_json(**kwargs), indent=1)
