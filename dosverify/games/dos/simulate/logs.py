"""The simulator's entry points: a seeded game as the event model, as text (in any style), as JSON."""

from __future__ import annotations

from .. import events as ev
from .game import Sim


def _run(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    options: dict | None = None,
    long_round: bool | str | None = None,
) -> Sim:
    return Sim(players, seed, ruleset, rounds, game, deck, target, options, long_round).play()


def simulate(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    options: dict | None = None,
    long_round: bool | str | None = None,
) -> ev.Log:
    """A legal game log (the event model) for `players` players, deterministic for `seed`.

    `rounds` rounds are played (fewer if the game reaches its target first); `game=True`
    plays until a total reaches the target (`target`, default the ruleset's) and writes
    `winner`. `deck=True` writes each round's shuffled pile (`deck` lines); `deck=False`
    writes `hand` and `center` lines instead. `options` overrides the ruleset's options (and is
    written as `option` lines); `long_round` (True, "drain" or "thin") makes the players decline
    and draw so that rounds run long and the piles run out (see :class:`Sim`; None: about 1 game
    in 8, False: never)."""
    return _run(players, seed, ruleset, rounds, game, deck, target, options, long_round).to_log()


def simulate_text(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    writer: str = "auto",
    options: dict | None = None,
    long_round: bool | str | None = None,
    style: str = "canonical",
) -> str:
    """The same game as :func:`simulate`, as notation v1 text.

    `style` names a style of :data:`dosverify.games.dos.render.STYLES` (the same game written another way
    notation v1 allows). `writer="auto"` renders with `dosverify.games.dos.notation.write` (or the renderer,
    for another style); `writer="own"` forces the simulator's own writer (canonical style only)."""
    sim = _run(players, seed, ruleset, rounds, game, deck, target, options, long_round)
    if style != "canonical":
        from ..render import render

        return render(sim.to_log(), style, seed).text
    if writer == "auto":
        from ..notation.writer import write

        return write(sim.to_log())
    return sim.to_text()


def simulate_json(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    options: dict | None = None,
    long_round: bool | str | None = None,
) -> str:
    """The same game as :func:`simulate`, in the JSON form."""
    from ..jsonform import dump_json

    return dump_json(simulate(players, seed, ruleset, rounds, game, deck, target, options, long_round))


# ---- CLI -----------------------------------------------------------------------------------
