"""A DOS game simulator: legal logs in notation v1, deterministic for a seed.

This is an engine of its own, built from the rules digest (defaults V1-V11 of the
`official` ruleset and the options of spec/dos/options.toml), not from the referee:
the two are meant to check each other. Simple agents play every kind of move a
real table makes: single and double matches, both colour bonuses, declined
matches, draw-then-match, draw-then-place (or pass), Wild # and Wild DOS with
explicit declarations (in hand and on a wild lying in the Center Row), forgotten
DOS calls, late calls and catches in and out of turn, refills, reshuffles, the
end of a round with `score` and `totals`, and whole games to a target.

Entry points: :func:`simulate` (a :class:`~dosverify.games.dos.events.Log`),
:func:`simulate_text` (the log as text), :func:`simulate_json`, and for the CLI
:func:`add_simulate_arguments`, :func:`run_simulate` and :func:`main_simulate`.
The parts: :mod:`.matches` (the ways to match), :mod:`.state` and the layers on it
(:mod:`.agents`, :mod:`.piles`, :mod:`.calls`, :mod:`.turn`, :mod:`.game`),
:mod:`.departures` (where the engine options depart from `official`), :mod:`.emit`
(writing the game out), :mod:`.logs` (the entry points), :mod:`.command` (the CLI).
"""

from .command import add_simulate_arguments, main_simulate, program_text, run_simulate
from .game import ROUND_TURN_CAP, Sim
from .logs import simulate, simulate_json, simulate_text
from .matches import COLS, Opt, col, declare, is_wild, match_options, nums
from .state import NAMES, RoundOver

__all__ = [
    "COLS",
    "NAMES",
    "ROUND_TURN_CAP",
    "Opt",
    "RoundOver",
    "Sim",
    "add_simulate_arguments",
    "col",
    "declare",
    "is_wild",
    "main_simulate",
    "match_options",
    "nums",
    "program_text",
    "run_simulate",
    "simulate",
    "simulate_json",
    "simulate_text",
]
