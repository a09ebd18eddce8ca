"""The table a DOS move generator keeps between two lines: what the round, the turn and each hand hold.

Plain slotted objects copied by hand (self-play copies and pushes millions of times); the game's
fixed facts (players, options) live in :class:`Game`, shared by every copy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ....spec import Ruleset

FACE_DOWN = "?"


@dataclass(eq=False)
class Game:
    """What does not change in a game: its players, ruleset and options, and where it was written from."""

    players: list[str]
    rs: Ruleset
    ruleset_name: str
    header: list[str]
    view: str | None = None  # None: an open log; "table"; or the seat a seat view shows
    left: dict[str, str] = field(default_factory=dict)
    dcm_order: dict[str, list[str]] = field(default_factory=dict)
    opt: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ps, k = self.players, len(self.players)
        self.left = {p: ps[(i + 1) % k] for i, p in enumerate(ps)}
        self.opt = dict(self.rs.options)
        from_left = {p: [ps[(i + j) % k] for j in range(1, k)] for i, p in enumerate(ps)}
        if self.opt.get("dcm-order") == "first-seat":  # V13
            self.dcm_order = {p: [q for q in ps if q != p] for p in ps}
        else:
            self.dcm_order = from_left

    @property
    def target(self) -> int:
        return self.rs.target


class TurnState:
    """The turn being played (V1-V7): the action, then the end-of-turn steps and what they still owe."""

    __slots__ = (
        "player",
        "matches",
        "drew",
        "drawn",
        "action_done",
        "discarded",
        "step",
        "refill_owed",
        "refilled",
        "bonus_owed",
        "bonus_may",
        "penalty_owed",
        "dcm_owed",
        "immediate",
        "now_dcm",
        "drawing",
        "ended",
        "refilled_cards",
        "reshuffled",
    )

    def __init__(self, player: str) -> None:
        self.player = player
        self.matches = 0
        self.drew = False  # the draw after no match was made (or lapsed: both piles empty, R18)
        self.drawn: str | None = None  # the card it drew (after-draw-match=drawn-only)
        self.action_done = False  # the card for no match placed, or `pass`
        self.discarded = False  # step 1 came: this turn's matched cards are on the discard pile
        self.step = 0  # the furthest end-of-turn step reached: 2 refill, 3 bonus, 4 penalty, 5 draws
        self.refill_owed = 0
        self.refilled = 0
        self.bonus_owed = 0  # bonus cards owed (bonus.card)
        self.bonus_may = 0  # Single Color Match cards that may be placed (single-color-bonus=optional)
        self.penalty_owed = 0  # the DOS penalty of the player on turn, at step 4 (dos.penalty, V14)
        self.dcm_owed: dict[str, int] = {}  # Double Color Match draws owed at step 5 (bonus.draw)
        self.immediate: tuple[str, int] | None = None  # a penalty drawn on the next lines (dos.penalty)
        self.now_dcm: list[str] = []  # dcm-draws=at-once: who draws next for the last match (V12)
        self.drawing: str | None = None  # between two lines of one reason's cards (R20)
        self.ended = False  # round-end=at-once: the line that emptied the hand ended the round (V15)
        self.refilled_cards: list[str] = []  # refilled this turn: not matchable (match.refilled)
        self.reshuffled = False  # the last line was a reshuffle: the draw or refill it was for comes next

    def copy(self) -> TurnState:
        t = TurnState.__new__(TurnState)
        for name in TurnState.__slots__:
            setattr(t, name, getattr(self, name))
        t.dcm_owed = dict(self.dcm_owed)
        t.now_dcm = list(self.now_dcm)
        t.refilled_cards = list(self.refilled_cards)
        return t

    def key(self) -> tuple:
        return tuple(
            tuple(sorted(v.items())) if isinstance(v, dict) else tuple(v) if isinstance(v, list) else v
            for v in (getattr(self, n) for n in TurnState.__slots__)
        )


class Table:
    """The round being played: hands, Center Row, piles, calls; the turn; the game's scores."""

    __slots__ = (
        "phase",
        "round_no",
        "dealer",
        "hands",
        "cr",
        "pile",
        "pile_n",
        "unseen",
        "discard",
        "pending",
        "called",
        "caught",
        "t",
        "prev",
        "went_out",
        "totals",
        "game_over",
        "deck",
    )

    def __init__(self, players: list[str]) -> None:
        # phase: "header" (before round 1), "setup" (after `round N`), "dealt" (before the first turn),
        # "turn", "ended" (the round ended: `score` owed), "scored", "totalled", "over" (after `winner`)
        self.phase = "header"
        self.round_no = 0
        self.dealer: str | None = None
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.cr: list[str] = []
        self.pile: list[str] | None = None  # the draw pile's order when known, top LAST
        self.pile_n = 0
        self.unseen: Counter = Counter()  # cards nobody at this log's table has seen: what a draw may bring
        self.discard: Counter = Counter()
        self.pending: list[str] = []  # this turn's matched cards, not yet discarded
        self.called: dict[str, bool] = {p: False for p in players}
        self.caught: dict[str, bool] = {p: False for p in players}
        self.t: TurnState | None = None
        self.prev: str | None = None  # who played the last turn
        self.went_out: str | None = None
        self.totals: dict[str, int] = {p: 0 for p in players}
        self.game_over = False
        self.deck: list[str] = []  # the round's `deck` lines, top first, while the set-up is read

    def copy(self) -> Table:
        c = Table.__new__(Table)
        c.phase, c.round_no, c.dealer = self.phase, self.round_no, self.dealer
        c.hands = {p: list(h) for p, h in self.hands.items()}
        c.cr = list(self.cr)
        c.pile = None if self.pile is None else list(self.pile)
        c.pile_n = self.pile_n
        c.unseen = self.unseen.copy()
        c.discard = self.discard.copy()
        c.pending = list(self.pending)
        c.called, c.caught = dict(self.called), dict(self.caught)
        c.t = None if self.t is None else self.t.copy()
        c.prev, c.went_out = self.prev, self.went_out
        c.totals = dict(self.totals)
        c.game_over = self.game_over
        c.deck = list(self.deck)
        return c

    def key(self) -> tuple:
        return (
            self.phase,
            self.round_no,
            self.dealer,
            tuple((p, tuple(sorted(h))) for p, h in self.hands.items()),
            tuple(sorted(self.cr)),
            None if self.pile is None else tuple(self.pile),
            self.pile_n,
            tuple(sorted((c, n) for c, n in self.unseen.items() if n > 0)),
            tuple(sorted((c, n) for c, n in self.discard.items() if n > 0)),
            tuple(sorted(self.pending)),
            tuple(sorted(self.called.items())),
            tuple(sorted(self.caught.items())),
            None if self.t is None else self.t.key(),
            self.prev,
            self.went_out,
            tuple(sorted(self.totals.items())),
            self.game_over,
        )

    def can_draw(self, with_pending: bool) -> bool:
        """A draw or refill can be paid (V5, R18): the draw pile or the discard pile holds a card
        (this turn's matched cards count once step 1 has come, or for a step line that brings it)."""
        return self.pile_n > 0 or sum(self.discard.values()) > 0 or (with_pending and bool(self.pending))
