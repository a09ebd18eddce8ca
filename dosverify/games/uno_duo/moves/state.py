"""UNO Duo's position for the move API: what the referee knows between two lines, kept small so
that listing and playing a move is fast (self-play), and copied cheaply.

The fields mirror the referee's state (referee/state.py), whose small records (the pile, what a
player faces, the draws owed, the UNO calls, the turn) are reused as they are: a position built
from a log is the referee's state after its lines (dosverify.games.uno_duo.moves.fromlog), one
built by ``new()`` is dealt from a seed (moves.deal), and a listed move changes it as the referee
would (moves.apply)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..referee.state import UNSEEN as UNSEEN_CARD
from ..referee.state import Calls, Facing, Owed, Pile, TurnState

__all__ = ["UNSEEN_CARD", "Calls", "Facing", "Owed", "Pile", "RoundState", "TurnState", "copy_round"]


@dataclass(slots=True)
class RoundState:
    """One round, as the referee knows it: hands (base codes, ``?`` for a card nobody saw), the
    draw pile (known slots, unseen ones and the unseen cards behind them), the discard pile and
    its top, what the next turn faces, the draws owed, the calls, the turn on."""

    number: int
    drafter: str
    hands: dict[str, Counter]
    pile: Pile
    pool: Counter
    discards: list[str]  # base codes, oldest first
    top_colour: str | None = None
    top_rank: str | None = None
    first: str | None = None  # who takes the round's first turn
    facing: Facing | None = None  # what the next turn's player faces (set by the card that acted)
    owed: Owed | None = None
    calls: dict[str, Calls] = field(default_factory=dict)
    turn: TurnState | None = None
    last_turn: str | None = None
    turns: int = 0
    over: bool = False  # a hand was emptied
    out: str | None = None
    scored: bool = False
    totals_written: bool = False
    reshuffles: int = 0


def copy_round(st: RoundState) -> RoundState:
    """A copy sharing nothing mutable (Facing records are never changed once made)."""
    t = st.turn
    turn = None if t is None else TurnState(t.player, t.index, t.need, t.done, t.drawn, t.facing, t.damaged)
    owed = None if st.owed is None else Owed(st.owed.player, st.owed.n, st.owed.rule)
    return RoundState(
        st.number,
        st.drafter,
        {p: h.copy() for p, h in st.hands.items()},
        Pile(list(st.pile.slots), st.pile.loose, st.pile.under_rule),
        st.pool.copy(),
        list(st.discards),
        st.top_colour,
        st.top_rank,
        st.first,
        st.facing,
        owed,
        {p: Calls(c.called, c.caught, c.open) for p, c in st.calls.items()},
        turn,
        st.last_turn,
        st.turns,
        st.over,
        st.out,
        st.scored,
        st.totals_written,
        st.reshuffles,
    )


def round_key(st: RoundState) -> tuple:
    """The round's state as a hashable value (a position's key)."""
    t = st.turn
    turn = None if t is None else (t.player, t.need, t.done, t.drawn, facing_key(t.facing))
    calls = tuple(sorted((p, c.called, c.caught, c.open) for p, c in st.calls.items()))
    return (
        st.number,
        st.drafter,
        tuple(sorted((p, tuple(sorted((+h).items()))) for p, h in st.hands.items())),
        tuple(st.pile.slots),
        st.pile.loose,
        tuple(sorted((+st.pool).items())),
        tuple(st.discards),
        st.top_colour,
        st.top_rank,
        st.first,
        facing_key(st.facing),
        None if st.owed is None else (st.owed.player, st.owed.n, st.owed.rule),
        calls,
        turn,
        st.last_turn,
        st.over,
        st.out,
        st.scored,
        st.totals_written,
    )


def facing_key(f: Facing | None) -> tuple | None:
    return None if f is None else (f.kind, f.player, f.total, f.colour, f.by, f.legit, f.turned)


class GameState:
    """The referee's knowledge of a game between two lines: the totals, the round being played
    (None before round 1), and the lines so far (``body``: the header, then every line written).

    ``fresh``: a table ``new()`` made, whose decks (and a shuffled pile's reshuffles) come from
    ``seed``; a table read from a log deals its next rounds from ``seed`` too (0 unless given)."""

    def __init__(self, players: list[str], opts: dict[str, str], target: int, seed: int = 0, fresh: bool = False):
        self.players = list(players)
        self.opts = dict(opts)
        self.target = target
        self.seed = seed
        self.fresh = fresh
        self.totals = dict.fromkeys(self.players, 0)
        self.over_target = False  # a total reached the target (game.end)
        self.winner_done = False
        self.number = 0
        self.st: RoundState | None = None
        self.body: list[str] = []
        self.end_line = 0  # a log's position: the line its prefix ended at (for the owed steps)

    def other(self, p: str) -> str:
        a, b = self.players
        return b if p == a else a

    def rng_for(self, what: str) -> random.Random:
        """A random source of its own for one deal or reshuffle: the seed and what it is for."""
        return random.Random(f"uno-duo:{self.seed}:{what}")
