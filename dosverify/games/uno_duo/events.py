"""The UNO Duo event model: one model of a log shared by the text and JSON forms.

Plain dataclasses, as DOS's events.py: checking a text log never builds validators. Positions
(text line and column, or a JSON pointer) are instance attributes (``_line``, ``_column``,
``_cols``, ``_pointer``), not fields, so they are never part of the JSON form nor compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...model import Located


class _Placed(Located):
    """A whole log's positions: where header lines were written ("players", "ruleset", "target",
    "option:KEY", "tag:NAME" -> (line, column)) and the last line + 1 (for "missing" findings);
    a plain base, so these are no dataclass fields."""

    _header_at: dict = {}
    _end_line: int | None = None


# ---- turn events -------------------------------------------------------------------------


@dataclass(kw_only=True)
class Play(Located):
    """`play C ...`: one card, or a run (or a start run), in play order."""

    type: Literal["play"] = "play"
    cards: list[str]


@dataclass(kw_only=True)
class Draw(Located):
    """`draw [Q] [C ...]`: Q (default: on turn) draws; no cards = one from the top."""

    type: Literal["draw"] = "draw"
    player: str | None = None
    cards: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Challenge(Located):
    type: Literal["challenge"] = "challenge"


@dataclass(kw_only=True)
class Uno(Located):
    """`uno [Q]`: Q (default: on turn) says UNO."""

    type: Literal["uno"] = "uno"
    player: str | None = None


@dataclass(kw_only=True)
class Catch(Located):
    """`catch Q by R`: R says UNO before Q did."""

    type: Literal["catch"] = "catch"
    player: str
    by: str


@dataclass(kw_only=True)
class Reshuffle(Located):
    """`reshuffle [C ...]`: the discards less the top become the draw pile (top first when listed)."""

    type: Literal["reshuffle"] = "reshuffle"
    cards: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Pass(Located):
    type: Literal["pass"] = "pass"


TurnEvent = Play | Draw | Challenge | Uno | Catch | Reshuffle | Pass


@dataclass(kw_only=True)
class Turn(Located):
    """`turn P` and its event lines."""

    player: str
    events: list[TurnEvent] = field(default_factory=list)

    _damaged = False  # a line of this turn was not readable (a syntax finding) and was skipped


# ---- set-up ------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Drafter(Located):
    type: Literal["drafter"] = "drafter"
    player: str


@dataclass(kw_only=True)
class Deck(Located):
    """`deck C ...`: part of the round's pile, top first (may go on over lines)."""

    type: Literal["deck"] = "deck"
    cards: list[str]


@dataclass(kw_only=True)
class Draft(Located):
    """`draft P keep C discard D` / `draft P discard D keep C`: one pick (`first`: the word written first)."""

    type: Literal["draft"] = "draft"
    player: str
    first: Literal["keep", "discard"]
    keep: str
    discard: str

    @property
    def in_pile_order(self) -> tuple[str, str]:
        return (self.keep, self.discard) if self.first == "keep" else (self.discard, self.keep)


@dataclass(kw_only=True)
class Hand(Located):
    type: Literal["hand"] = "hand"
    player: str
    cards: list[str]


@dataclass(kw_only=True)
class Start(Located):
    """`start C`: the card turned up."""

    type: Literal["start"] = "start"
    card: str


SetupEvent = Drafter | Deck | Draft | Hand | Start


@dataclass(kw_only=True)
class Score(Located):
    """`score P N`: P, left holding cards, scores N."""

    player: str
    points: int


@dataclass(kw_only=True)
class Total:
    player: str
    points: int


@dataclass(kw_only=True)
class Totals(Located):
    entries: list[Total]


@dataclass(kw_only=True)
class Round(Located):
    number: int
    setup: list[SetupEvent] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    score: Score | None = None
    totals: Totals | None = None

    _setup_damaged = False  # a set-up line was skipped (a syntax finding)


@dataclass(kw_only=True)
class Winner(Located):
    player: str


@dataclass(kw_only=True)
class Log(_Placed):
    """A UNO Duo log (`uno-duo 1`): the header, the rounds, the winner."""

    players: list[str]
    ruleset: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    target: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    winner: Winner | None = None


def attach_pointers(log: Log) -> Log:
    """Give every model of a log read from JSON its JSON pointer."""
    log._pointer = ""
    if log.winner:
        log.winner._pointer = "/winner"
    for ri, rnd in enumerate(log.rounds):
        rp = f"/rounds/{ri}"
        rnd._pointer = rp
        for si, ev in enumerate(rnd.setup):
            ev._pointer = f"{rp}/setup/{si}"
        for ti, turn in enumerate(rnd.turns):
            turn._pointer = f"{rp}/turns/{ti}"
            for ei, tev in enumerate(turn.events):
                tev._pointer = f"{rp}/turns/{ti}/events/{ei}"
        if rnd.score:
            rnd.score._pointer = f"{rp}/score"
        if rnd.totals:
            rnd.totals._pointer = f"{rp}/totals"
    return log
