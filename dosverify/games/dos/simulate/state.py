"""A simulated game's state, declared in one place, and the few acts every part of the
simulator uses: the seats, and emitting a line at a step of the turn.

The parts build on it in layers, each using only those below: :mod:`.agents` (the players'
temperament and choices), :mod:`.piles` (drawing and reshuffling), :mod:`.calls` (DOS calls,
catches, penalties), :mod:`.turn` (one turn), :mod:`.game` (dealing, rounds, the game);
:mod:`.departures` and :mod:`.emit` read the state the game leaves."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypedDict

from ....spec import load_spec

NAMES = ("ann", "bob", "cyd", "dan")

#: One line of a turn as a tuple: ("match", target, cards), ("draw", player or None, cards),
#: ("refill", cards), ("place", card), ("pass",), ("dos", player or None), ("catch", player, by),
#: ("reshuffle", cards); :mod:`.emit` writes them.
Event = tuple[Any, ...]
#: Where a departure lies: ("turn", round, turn, event), ("after", round, turn) (the line after
#: that turn) or ("score", round) (the round's end).
Place = tuple[Any, ...]


class SimRound(TypedDict):
    """One round as played: its set-up lines as tuples, its turns, and its end."""

    number: int
    setup: list[tuple[Any, ...]]  # ("dealer", p), ("deck", cards), ("hand", p, cards), ("center", cards)
    turns: list[tuple[str, list[Event]]]
    score: tuple[str, int] | None
    totals: list[tuple[str, int]] | None


class RoundOver(Exception):
    """round-end=at-once (V15): the line that emptied the hand ended the round there."""


class SimState:
    """The game, the table and the turn being played; the parts above read and change it."""

    # the table, dealt each round (:meth:`.game.Sim.play_round`)
    hands: dict[str, list[str]]
    cr: list[str]  # the Center Row
    pile: list[str]  # the draw pile, top first
    discard: list[str]
    status: dict[str, str | None]  # each player's DOS call: None, "owed", "called", "caught" (V6)
    endgame: bool  # a long "thin" round: a hand is down to 3 cards
    # an unlisted V17 reshuffle: where it was, and the pile `official` believes in
    taken_in: tuple[Place, Counter[str]] | None
    # the turn being played (reset by :meth:`.turn.Turns.start_turn`)
    on_turn: str
    turn_events: list[Event]
    turn_cls: list[int | None]  # the end-of-turn step of each line (see :meth:`emit`)
    cand_dcm: list[int]  # at-once Double Color Match draws (V12), by event index
    cand_penalty: list[int]  # at-once own penalties (V14)
    dcm_groups: list[tuple[int, int]]  # the events of each group of Double Color Match draws (V13)
    matched_in_discard: int  # this turn's matched cards on the discard pile already (V17)
    matched_now: list[str]  # and which cards
    last_dcm: bool  # the last line was a Double Color Match whose draws are owed at the end (V15)
    v17_shuffles: list[tuple[int, bool]]  # (index, listed): reshuffles that took this turn's matched cards in
    reshuffles_mid: list[int]  # listed reshuffles inside at-once draws, before the discard (V12, V14)
    penalty_lapsed: bool  # an own at-once penalty that found both piles empty (V14)
    lapsed: list[str]  # who drew nothing for an at-once Double Color Match, both piles being empty (V12)
    pending: bool  # the player on turn owes the DOS penalty at the penalty step
    past_penalty: bool
    matching_now: bool
    discarded: bool  # this turn's matched cards are on the discard pile (step 1 done)
    covered: list[str]  # the Center Row cards matched this turn
    used: list[str]  # the hand cards that matched them
    bonus: int  # cards owed to the Center Row at step 3 (colour bonuses)
    dcm: int  # Double Color Match draws owed by each other player at step 5

    def __init__(
        self,
        players: int,
        seed: int,
        ruleset: str = "official",
        rounds: int | None = 1,
        game: bool = False,
        deck: bool = True,
        target: int | None = None,
        options: dict | None = None,
        long_round: bool | str | None = None,
    ):
        if not 2 <= players <= 4:
            raise ValueError("DOS is played by 2 to 4 players")
        self.rng = random.Random(seed)
        self.rs = load_spec("dos").ruleset(ruleset, options, target)
        self.opt = self.rs.options
        self.options_given = dict(options or {})
        self.ruleset_name = ruleset
        self.target_given = target
        self.target = self.rs.target
        self.rounds_max = None if game else (rounds if rounds is not None else 1)
        self.with_deck = deck
        self.names = list(NAMES[:players])
        # agent temperament, fixed per game
        self.p_call = self.rng.choice((0.55, 0.7, 0.85))
        self.p_decline = 0.08
        self.p_stop_after_draw = 0.1  # a player who declined may decline again after the draw
        # long rounds, where the piles run out (V5): every player declines and draws (the Center
        # Row grows, or the hands) until the draw pile first runs out ("drain": then both piles
        # are empty), or, once a hand is down to 3 cards, whenever the pile holds a card or two
        # ("thin": the rest of the round is played at a pile of 0 or 1, so that catches,
        # penalties and Double Color Match draws meet it); forgetful callers in both. Chosen
        # for about 1 game in 8 unless asked for (True: either).
        if long_round is None:
            long_round = self.rng.random() < 0.125
        if long_round is True:
            long_round = self.rng.choice(("drain", "thin"))
        if long_round not in (False, "drain", "thin"):
            raise ValueError(f"long_round must be a bool, 'drain' or 'thin', not {long_round!r}")
        self.long_round: bool | str = long_round
        self.draining = False
        # caught at once in their own turn (the penalty at the step), or left owed for the others
        self.p_self_catch = 0.15 if long_round == "thin" else 0.5
        self.thin_floor = self.rng.choice((1, 2, 2)) if long_round == "thin" else 0
        if long_round:
            self.p_call = 0.3 if long_round == "drain" else 0.15
        self.moments: Counter[str] = Counter()  # what happened, for the tests that count the moments
        # where an engine option (V12-V17) made the game depart from `official`, as the referee
        # judges it under `official`: (place, kind, rule), place as in :func:`.departures.departure_lines`
        self.departures: list[tuple[Place, str, str]] = []
        self.step_cls: int | None = None  # the end-of-turn step of the card lines emitted now (V7)
        self.rounds: list[SimRound] = []
        self.winner: str | None = None
        self.totals = {p: 0 for p in self.names}

    # -- seats
    def left(self, p: str) -> str:
        return self.names[(self.names.index(p) + 1) % len(self.names)]

    def others_from_left(self, p: str) -> list[str]:
        i = self.names.index(p)
        n = len(self.names)
        return [self.names[(i + k) % n] for k in range(1, n)]

    def dcm_order(self, p: str) -> list[str]:
        """Who draws for p's Double Color Match, in order (V13)."""
        if self.opt["dcm-order"] == "first-seat":
            return [q for q in self.names if q != p]
        return self.others_from_left(p)

    # -- emission
    def emit(self, *event: Any) -> None:
        self.turn_events.append(event)
        # the step of the turn a line belongs to (0 matching, 2 refill, 3 place, 4 own penalty, 5 the
        # others' Double Color Match draws); None for lines outside the order (calls, catches, reshuffles,
        # another player's at-once penalty)
        self.turn_cls.append(None if event[0] in ("reshuffle", "dos", "catch") else self.step_cls)

    @contextmanager
    def at_step(self, cls: int | None) -> Iterator[None]:
        """Emit the lines of what follows as lines of end-of-turn step `cls`."""
        saved = self.step_cls
        self.step_cls = cls
        try:
            yield
        finally:
            self.step_cls = saved

    def first_draw(self, start: int) -> int | None:
        """The index of this turn's first `draw` line from `start` on."""
        return next((i for i in range(start, len(self.turn_events)) if self.turn_events[i][0] == "draw"), None)
