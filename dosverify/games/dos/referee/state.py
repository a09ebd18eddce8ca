"""What the referee remembers while it replays a log: every attribute its parts share, declared here once.

The parts of the referee (setup, plays, draws, calls, steps, scoring, face-down cards, engine departures)
read and change this one object; none of them keeps state of its own, so what a part may touch is what
this class declares.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ....findings import Finding
from ....spec import Ruleset
from ..events import Log, Round
from .hidden import Provenance
from .table import Table
from .turn import TurnState


@dataclass(eq=False)
class RefereeState:
    """The game, the round and the turn being replayed. Built by :func:`new_state`."""

    log: Log
    rs: Ruleset
    players: list[str]
    seat: dict[str, int]  # player -> seat, clockwise
    from_left: dict[str, list[str]]  # player -> the others in seat order from their left
    dcm_order_of: dict[str, list[str]]  # player -> the others in the order they draw for a Double Color Match (V13)
    table: Table
    findings: list[Finding]
    totals: dict[str, int]
    # the running totals over the scores as written and over the scores the replay gives (R65)
    totals_written: dict[str, int]
    totals_replayed: dict[str, int]
    # called after every turn and after the score of a round (the Referee binds its visitor here)
    watch: Callable[[], None] | None = None
    follow_written: bool = False
    rounds_seen: int = 0
    turns_seen: int = 0
    game_over: bool = False
    game_winner: str | None = None
    # per round
    round_no: int | None = None
    turn_no: int = 0
    dealer: str | None = None
    dealer_slip: tuple[Any, str] | None = None  # (the `dealer` line, the name written): R97, reported at the first turn
    # R98 (fork.py): the match line of the round's fork, once one opened; where a turn stopped for it; and the
    # reading its line takes now ("R26" or "R42")
    fork_line: Any = None
    fork_at: int | None = None
    fork_take: str | None = None
    round_winner: str | None = None  # who went out
    round_over: bool = False
    scored: bool = False
    called: dict[str, bool] = field(default_factory=dict)
    caught: dict[str, bool] = field(default_factory=dict)
    t: TurnState | None = None  # the turn being played, None between turns
    prev_player: str | None = None  # who played the turn before (turn.order)
    turn_at: int = -1  # where the turn being started stands in its round's turns (Plays.turn_meant)
    after_end_reported: bool = False  # a turn after the round ended was reported (once a round)
    closing_round: Round | None = None  # the round whose score end_round still checks
    prev_round_over: bool = True  # whether the round before the current one ended
    # one mistake, one finding: after a finding about a player's cards, what that hand holds is in doubt for
    # the rest of the round, and so is the pile after an unreadable line; the findings a rule's spec entry
    # marks `follow_on` are then not reported (Reporter)
    doubt: set[str] = field(default_factory=set)
    slips: Counter = field(default_factory=Counter)  # per player: the findings about their cards this round
    # per player: where this round's first finding about them is (line, JSON pointer), for a later message
    # that rests on it (a score over a hand in doubt names the finding that put it there)
    found_at: dict[str, tuple[int | None, str | None]] = field(default_factory=dict)
    pile_doubt: bool = False
    deck_alias: tuple[str, str] | None = None  # (card over the deck, card missing): R66
    deck_apart: bool = False  # the round's deck line stands apart from its deal (reported once a round)
    split_keep: list = field(default_factory=list)  # the parts of draw lines carrying two reasons (Draws.split_draw)
    # (reshuffle, cards): a bare mid-turn reshuffle that may have taken this turn's matches (V17)
    taken_in: tuple | None = None
    score_written: int | None = None  # the written score, taken when the hands are in doubt
    lazy_skip: tuple[str, int] | None = None  # (player, n): a penalty not drawn at once, perhaps left out (R27)
    places: tuple[Any, dict[int, int]] | None = None  # (turn, where each of its lines stands): Engine.turn_index
    next_step: tuple[Any, list] | None = None  # (turn, the next draw, refill or play after each line): Engine
    plays_ahead: tuple[Any, dict] | None = None  # (turn, per player: its plays and draws indexed): Engine
    # face-down cards (facedown.py): the round's provenance (None in an open round), every round's (None: kept
    # for no witness), the number of `?`, the last `?` drawn, and the rules the choice of cards decides
    prov: Provenance | None = None
    provs: list | None = field(default_factory=list)
    face_down: int = 0
    last_token: Any = None
    unverified: list[str] = field(default_factory=list)
    match_lines_found: set[int] = field(default_factory=set)  # lines with a finding of a match line (R62)
    guessed_covers: dict = field(default_factory=dict)  # row card R63 took as covered -> the match line (R79, R88)
    # options read on every match or placed card: read from the ruleset once, by new_state
    discard_at_once: bool = False  # discard-matched=at-once (V17)
    end_at_once: bool = False  # round-end=at-once (V15)

    def left(self, p: str) -> str:
        """The player sitting left of p: the next to play."""
        return self.players[(self.seat[p] + 1) % len(self.players)]

    def hand_changed(self, p: str) -> None:
        """p's hand changed: a DOS call or catch made before it no longer stands (V6)."""
        self.called[p] = False
        self.caught[p] = False

    def dcm_order(self, p: str) -> list[str]:
        """The others in the order they draw for p's Double Color Match (V13)."""
        return self.dcm_order_of[p]

    def seats_from_left(self, p: str) -> list[str]:
        """The other players in seat order, starting at p's left."""
        return self.from_left[p]

    def new_round(self) -> None:
        """What a round starts with: no hand in doubt, no call owed, nothing carried from the last round."""
        self.round_winner = None
        self.round_over = False
        self.scored = False
        self.doubt = set()
        self.slips = Counter()
        self.found_at = {}
        self.deck_alias = None
        self.dealer_slip = None
        self.fork_line = self.fork_take = None
        self.match_lines_found = set()  # lines of earlier rounds never come again (and a fork copies no more)
        self.pile_doubt = False
        self.taken_in = None
        self.guessed_covers = {}
        self.score_written = None
        self.lazy_skip = None
        self.called = {p: False for p in self.players}
        self.caught = {p: False for p in self.players}


def new_state(log: Log, ruleset: Ruleset, findings: list[Finding]) -> RefereeState:
    """The state before the first round of `log`, judged under `ruleset`."""
    players = list(log.players)
    k = len(players)
    from_left = {p: [players[(i + j) % k] for j in range(1, k)] for i, p in enumerate(players)}
    if ruleset.options.get("dcm-order") == "first-seat":  # V13
        dcm_order_of = {p: [q for q in players if q != p] for p in players}
    else:
        dcm_order_of = from_left
    return RefereeState(
        log=log,
        rs=ruleset,
        players=players,
        seat={p: i for i, p in enumerate(players)},
        from_left=from_left,
        dcm_order_of=dcm_order_of,
        table=Table(players),
        findings=findings,
        totals={p: 0 for p in players},
        totals_written={p: 0 for p in players},
        totals_replayed={p: 0 for p in players},
        discard_at_once=ruleset.opt("discard-matched") == "at-once",
        end_at_once=ruleset.opt("round-end") == "at-once",
    )
