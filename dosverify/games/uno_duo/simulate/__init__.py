"""The UNO Duo simulator: legal `uno-duo 1` logs, deterministic for a seed, from the contract alone.

A second implementation of the rules (design/uno-duo.md; it does not import the referee): the
round is played in :mod:`.round` by the agents of :mod:`.agents` on the table of :mod:`.table`, and
written by :mod:`.emit` in one of the renderings the notation allows (:data:`STYLES`).
:func:`simulate` gives one round, or a whole game to the target with scores, totals and winner.
:mod:`.replay` (on the pile of :mod:`.pile`) is the test side's small replayer, which the mutation
operators use too.

The deck and the option values are the contract's, copied in :mod:`.cards` (spec/uno-duo/ is the
referee's and is not read here).
"""

from .emit import STYLES, Style, render_json, render_text
from .logs import GAME_ROUND_CAP, NAMES, play_game, resolve_style, simulate, simulate_json, simulate_json_text

__all__ = [
    "GAME_ROUND_CAP",
    "NAMES",
    "STYLES",
    "Style",
    "play_game",
    "render_json",
    "render_text",
    "resolve_style",
    "simulate",
    "simulate_json",
    "simulate_json_text",
]
