"""The event model: one model of a game log shared by the text and JSON forms.

The text notation (``notation.py``) and the JSON form both become these
objects, and the referee only ever sees them. They are pydantic models so
that the JSON form is validated with precise locations and its schema is
published (``spec/log.schema.json``). Positions (text line and column, or a
JSON pointer) ride along as private attributes: they are never part of the
JSON form, but every finding can point back at what the client sent.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .cards import CARD_RE

CardCode = Annotated[
    str,
    StringConstraints(pattern=CARD_RE.pattern),
    Field(description="A card code: R1, R3..R10 (likewise G, B, Y), R# (Wild #), W2 (Wild DOS); declarations G#=7, W2=R"),
]
PlayerName = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,31}$"),
    Field(description="A player name as in the players line"),
]


class Located(BaseModel):
    """Base of every model: carries where it was written, outside the JSON form."""

    # defer_build: the text path only uses model_construct, so validators are built on the
    # first JSON log, not at import (keeps `dosverify check` on text fast to start)
    model_config = ConfigDict(extra="forbid", defer_build=True)

    _line: int | None = None
    _column: int | None = None
    _cols: dict = {}  # field name -> column (or list of columns, for card lists), where known
    _pointer: str | None = None

    def at(self, line: int | None, column: int | None = None, cols: dict | None = None) -> "Located":
        self._line, self._column = line, column
        if cols:
            self._cols = cols
        return self


# ---- turn events -------------------------------------------------------------------------


class Match(Located):
    """`match X with A [+ B]`: cover Center Row card X with one or two hand cards."""

    type: Literal["match"] = "match"
    target: CardCode
    cards: list[CardCode] = Field(min_length=1)


class Draw(Located):
    """`draw [Q] [C ...]`: Q (default: the player on turn) draws; no cards = one from the top."""

    type: Literal["draw"] = "draw"
    player: PlayerName | None = None
    cards: list[CardCode] = Field(default_factory=list)


class Refill(Located):
    """`refill [C ...]`: cards flipped from the draw pile into the Center Row."""

    type: Literal["refill"] = "refill"
    cards: list[CardCode] = Field(default_factory=list)


class Place(Located):
    """`place C`: the player on turn puts C from hand into the Center Row."""

    type: Literal["place"] = "place"
    card: CardCode


class Pass(Located):
    """`pass`: end the turn without placing (where the ruleset allows it)."""

    type: Literal["pass"] = "pass"


class Dos(Located):
    """`dos [Q]`: Q (default: the player on turn) calls DOS."""

    type: Literal["dos"] = "dos"
    player: PlayerName | None = None


class Catch(Located):
    """`catch Q by R`: R calls DOS before Q did."""

    type: Literal["catch"] = "catch"
    player: PlayerName
    by: PlayerName


class Reshuffle(Located):
    """`reshuffle [C ...]`: the discard pile becomes the draw pile (top first when listed)."""

    type: Literal["reshuffle"] = "reshuffle"
    cards: list[CardCode] = Field(default_factory=list)


TurnEvent = Annotated[Union[Match, Draw, Refill, Place, Pass, Dos, Catch, Reshuffle], Field(discriminator="type")]


class Turn(Located):
    """`turn P` and the event lines that follow it."""

    player: PlayerName
    events: list[TurnEvent] = Field(default_factory=list)


# ---- a round's set-up and end ------------------------------------------------------------


class Dealer(Located):
    type: Literal["dealer"] = "dealer"
    player: PlayerName


class Deck(Located):
    """`deck C ...`: part of the round's shuffled pile, top first."""

    type: Literal["deck"] = "deck"
    cards: list[CardCode] = Field(min_length=1)


class Hand(Located):
    type: Literal["hand"] = "hand"
    player: PlayerName
    cards: list[CardCode]


class Center(Located):
    type: Literal["center"] = "center"
    cards: list[CardCode]


SetupEvent = Annotated[Union[Dealer, Deck, Hand, Center], Field(discriminator="type")]


class Score(Located):
    """`score P N`: P went out and claims N points."""

    player: PlayerName
    points: int = Field(ge=0)


class Total(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    player: PlayerName
    points: int = Field(ge=0)


class Totals(Located):
    """`totals P N ...`: running totals after the round."""

    entries: list[Total] = Field(min_length=1)


class Round(Located):
    number: int = Field(ge=1)
    setup: list[SetupEvent] = Field(default_factory=list)
    turns: list[Turn] = Field(default_factory=list)
    score: Score | None = None
    totals: Totals | None = None


class Winner(Located):
    player: PlayerName


# ---- the whole log -----------------------------------------------------------------------


class Log(Located):
    """A DOS game log (notation v1): the header, then the rounds, then the winner."""

    model_config = ConfigDict(
        extra="forbid",
        defer_build=True,
        json_schema_extra={"$id": "https://dosverify.invalid/schema/log-v1.json", "title": "DOS game log, notation v1"},
    )

    dos: Literal[1] = 1
    players: list[PlayerName] = Field(min_length=2, max_length=4)
    ruleset: str | None = Field(default=None, description="a ruleset of spec/rulesets; default official")
    options: dict[str, str] = Field(default_factory=dict)
    target: int | None = Field(default=None, ge=1)
    tags: dict[str, str] = Field(default_factory=dict, description="free tags, kept as written and never judged")
    rounds: list[Round] = Field(default_factory=list)
    winner: Winner | None = None

    # where header lines were written (text form): "dos", "players", "ruleset", "target",
    # "option:KEY", "tag:NAME" -> (line, column); and the last line + 1 (for "missing" findings)
    _header_at: dict = {}
    _end_line: int | None = None


def attach_pointers(log: Log) -> Log:
    """Give every model of a log validated from JSON its JSON pointer."""
    log._pointer = ""
    if log.winner:
        log.winner._pointer = "/winner"
    for ri, rnd in enumerate(log.rounds):
        rp = f"/rounds/{ri}"
        rnd._pointer = rp
        for si, ev in enumerate(rnd.setup):
            ev._pointer = f"{rp}/setup/{si}"
        for ti, turn in enumerate(rnd.turns):
            tp = f"{rp}/turns/{ti}"
            turn._pointer = tp
            for ei, ev in enumerate(turn.events):
                ev._pointer = f"{tp}/events/{ei}"
        if rnd.score:
            rnd.score._pointer = f"{rp}/score"
        if rnd.totals:
            rnd.totals._pointer = f"{rp}/totals"
    return log
