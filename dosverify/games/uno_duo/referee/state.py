"""The referee's state, declared in one place: the game, the round, the turn, the draw pile and
what a player faces or owes. The parts of the referee (each handed a Judge) read and change
these, and nothing else."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: a card in a hand that nobody saw (a bare draw from an unknown pile, a draw taken as made)
UNSEEN = "?"


@dataclass
class Pile:
    """The draw pile, top first. A slot is a card code, or None: one of the unseen cards (`pool`).
    The last `loose` slots are known cards whose order is not (U11 `pile-order shuffled`).
    `under_rule` is the rule for a known card drawn out of its place (draft.under without a deck)."""

    slots: list[str | None] = field(default_factory=list)
    loose: int = 0
    under_rule: str = "draw.top"

    def __len__(self) -> int:
        return len(self.slots)

    def known_top(self) -> str | None:
        """The top card, where the order puts it (else None: a bare draw is not allowed)."""
        if not self.slots or len(self.slots) <= self.loose:
            return None
        return self.slots[0]

    def take(self, card: str, pool: Counter) -> str:
        """Take `card` from the pile: 'ok', 'misplaced' (in it, not where the order puts it) or
        'unseen' (not in it). A misplaced card is taken and the top takes its place; an unseen one
        is taken from the unseen cards and the top goes with it (one finding, not one a draw)."""
        slots = self.slots
        top = slots[0]
        if len(slots) <= self.loose:  # the whole rest is loose
            return self._take_loose(card, pool)
        if top is None and pool[card] > 0:
            pool[card] -= 1
            slots.pop(0)
            return "ok"
        if top is not None and top == card:
            slots.pop(0)
            return "ok"
        if card in slots:
            slots[slots.index(card)] = top
            slots.pop(0)
            return "misplaced"
        if top is not None and None in slots and pool[card] > 0:
            pool[card] -= 1
            slots[slots.index(None)] = top
            slots.pop(0)
            return "misplaced"
        slots.pop(0)
        return "unseen"

    def _take_loose(self, card: str, pool: Counter) -> str:
        self.loose -= 1
        if card in self.slots:
            self.slots.remove(card)
            return "ok"
        if None in self.slots and pool[card] > 0:
            pool[card] -= 1
            self.slots.remove(None)
            return "ok"
        self.slots.pop(0)
        return "unseen"

    def take_top(self) -> str:
        """Take the top card as it lies (a bare draw, or a draw taken as made): its code or UNSEEN."""
        unknown = len(self.slots) <= self.loose or self.slots[0] is None
        self.loose = max(0, self.loose - 1) if len(self.slots) <= self.loose else self.loose
        card = self.slots.pop(0)
        return UNSEEN if unknown or card is None else card


@dataclass
class Facing:
    """What the next turn's player faces, set by the card that acted: a Draw 2 total, a Wild Draw 4
    (`by` its player, None when turned up; `legit` as U9 judges it), or a start run of `colour`."""

    kind: str  # total, wd4, run
    player: str  # who faces it
    total: int = 0
    colour: str | None = None
    by: str | None = None
    legit: bool | None = True  # None: not knowable (a hand in doubt)
    turned: bool = False  # turned up at the start of the round


@dataclass
class Owed:
    """Draws owed at once (a catch's 2, a challenge's 4 or 6, a total or a WD4's 4 once begun)."""

    player: str
    n: int
    rule: str


@dataclass
class Calls:
    """A player's UNO state since their hand last came to 1 card."""

    called: bool = False
    caught: bool = False
    open: bool = False  # the window of `uno-window next-action`


@dataclass
class RoundState:
    number: int
    drafter: str | None = None
    second: str | None = None  # Player 2
    deck: list = field(default_factory=list)
    has_deck: bool = False
    composition: Counter = field(default_factory=Counter)
    pool: Counter = field(default_factory=Counter)  # the unseen cards behind the pile's None slots
    hands: dict[str, Counter] = field(default_factory=dict)  # player -> base codes (UNSEEN for unknown)
    doubt: set[str] = field(default_factory=set)  # hands in doubt after a card finding (until the round ends)
    pile: Pile = field(default_factory=Pile)
    discards: list[str] = field(default_factory=list)  # the discard pile, base codes, oldest first
    top_colour: str | None = None  # None: any colour (a wild that named none, or no top yet)
    top_rank: str | None = None
    first: str | None = None  # who takes the first turn
    facing: Facing | None = None
    owed: Owed | None = None
    calls: dict[str, Calls] = field(default_factory=dict)
    started: bool = False  # the `start` card is turned up
    over: bool = False  # a hand was emptied
    out: str | None = None  # who went out
    dead: bool = False  # a turn after the end was reported: the rest is not refereed
    scored: bool = False
    last_turn: str | None = None
    turns: int = 0
    not_scored: bool = False  # a round after the game's end: refereed, not scored
    bad_catch: str | None = None  # a catch that did not stand: its player's next draw of <= 2 is taken as written


@dataclass
class TurnState:
    player: str
    index: int
    need: str = "ordinary"  # ordinary, again, total, wd4, run, run-may
    done: bool = False  # the action was made
    drawn: str | None = None  # the ordinary draw's card: one play line starting with it may follow
    facing: Facing | None = None
    damaged: bool = False
    model: Any = None  # the Turn model (events.Turn) the turn is read from

    @property
    def faced(self) -> Facing:
        """What the turn faces, where its `need` says it faces something (total, wd4, run)."""
        assert self.facing is not None, f"a turn needing {self.need} faces nothing"
        return self.facing


@dataclass
class SetupStage:
    """A round's set-up lines as read so far (the drafter line, deck lines, picks, hands, start)."""

    drafter: Any = None
    deck: list[Any] = field(default_factory=list)
    drafts: list[Any] = field(default_factory=list)
    hands: list[Any] = field(default_factory=list)
    start: Any = None
    discards: list[str] = field(default_factory=list)  # the draft discards, in pick order
    shown: tuple[str, str] | None = None  # round 1: the drafter the picks or first turn show, and how (R29)
    picks: list[Any] = field(default_factory=list)  # the round's `draft` lines, all of them
    due: str | None = None  # the player due at the next pick
    swapped: bool = False  # the next pick is the second of a pair written in swapped order (R2)


@dataclass
class GameState:
    """Across the rounds: the running totals, who drafted, the round and turn being read."""

    players: list[str]
    totals: dict[str, int] = field(default_factory=dict)
    scored_totals: dict[str, int] = field(default_factory=dict)  # the written scores' sums (READINGS R26)
    rounds_seen: int = 0
    turns_seen: int = 0
    game_over: bool = False
    prev_drafter: str | None = None
    prev_number: int = 0
    next_turn: Any = None  # the round's `turn` after the one being read (READINGS R8)
    round: RoundState | None = None
    turn: TurnState | None = None

    def __post_init__(self) -> None:
        self.totals = self.totals or dict.fromkeys(self.players, 0)
        self.scored_totals = self.scored_totals or dict.fromkeys(self.players, 0)
