"""The event model: one model of a game log shared by the text and JSON forms.

The text notation (the ``notation`` package) and the JSON form (``jsonform.py``) both
become these objects, and the referee only ever sees them. They are plain
dataclasses, so that checking a text log never pays for building validators;
their annotations carry the JSON form's constraints in a shape pydantic reads
(``Constrained``, ``Tagged``), and ``jsonform.py`` validates JSON logs straight
into them and publishes the schema (``spec/log.schema.json``).

Positions (text line and column, or a JSON pointer) ride along as plain
instance attributes (``_line``, ``_column``, ``_cols``, ``_pointer``): they are
not fields, so they are never part of the JSON form, never compared, yet every
finding can point back at what the client sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Annotated, Literal

from ...model import Constrained, Located, Tagged
from .cards import CARD_RE

PLAYER_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{0,31}$"


class FaceDown:
    """A face-down card (`?`): a card the writer of the log did not see.

    Its own type, not a card code: no function of card codes takes it (the type checker says
    so), so every place that reads a `hand` or `draw` line's cards decides what a card nobody
    saw means there. One value, :data:`FACE_DOWN`; written `?` in both forms."""

    __slots__ = ()
    _the: FaceDown | None = None

    def __new__(cls) -> FaceDown:
        if cls._the is None:
            cls._the = super().__new__(cls)
        return cls._the

    def __repr__(self) -> str:
        return "FACE_DOWN"

    def __str__(self) -> str:
        return FACE_DOWN_WORD

    def __reduce__(self):  # pickled (a pool's worker) and copied as the one value
        return (FaceDown, ())

    def __copy__(self) -> FaceDown:
        return self

    def __deepcopy__(self, memo) -> FaceDown:
        return self


#: The one face-down card.
FACE_DOWN = FaceDown()
#: How a face-down card is written, in text and in JSON.
FACE_DOWN_WORD = "?"
#: The JSON form's card pattern: a card code or `?` (judged where it stands, as in text).
CARD_OR_HIDDEN_PATTERN = "^(?:" + CARD_RE.pattern[1:-1] + r"|\?)$"


def word(card: str | FaceDown) -> str:
    """A card as it is written: its code, or `?`."""
    return FACE_DOWN_WORD if isinstance(card, FaceDown) else card


def seen(cards: Iterable[str | FaceDown]) -> list[str]:
    """The cards of a line that are written, not face down."""
    return [c for c in cards if not isinstance(c, FaceDown)]


class _CardOrFaceDown(Constrained):
    """The JSON form of a card of a `hand` or `draw` line: a card code or `?`, read as FACE_DOWN."""

    def __get_pydantic_core_schema__(self, source, handler):
        from pydantic_core import core_schema as cs

        text = cs.str_schema(pattern=CARD_OR_HIDDEN_PATTERN)
        return cs.no_info_after_validator_function(
            lambda v: FACE_DOWN if v == FACE_DOWN_WORD else v,
            text,
            serialization=cs.plain_serializer_function_ser_schema(word, when_used="always"),
            json_schema_input_schema=text,
        )

    def __get_pydantic_json_schema__(self, core_schema, handler):
        js = {"type": "string", "pattern": CARD_OR_HIDDEN_PATTERN}
        if self.description:
            js["description"] = self.description
        return js


#: A card code. The JSON form's schema admits `?` here too, so that a `?` outside `hand` and
#: `draw` is judged where it stands (R35): the loader (notation.face_down_checks) leaves out every
#: event that holds one before anything else reads the log, so these fields hold card codes only.
CardCode = Annotated[
    str,
    Constrained(
        "A card code: R1, R3..R10 (likewise G, B, Y), R# (Wild #), W2 (Wild DOS); declarations G#=7, W2=R; "
        "`?` for a face-down card (allowed only in hand and draw lines)",
        pattern=CARD_OR_HIDDEN_PATTERN,
    ),
]
#: A card of a `hand` or `draw` line: a card code, or FACE_DOWN (`?`).
HandCard = Annotated[
    str | FaceDown,
    _CardOrFaceDown(
        "A card code: R1, R3..R10 (likewise G, B, Y), R# (Wild #), W2 (Wild DOS); declarations G#=7, W2=R; "
        "`?` for a face-down card (allowed only in hand and draw lines)"
    ),
]
PlayerName = Annotated[str, Constrained("A player name as in the players line", pattern=PLAYER_PATTERN)]
Cards = list[CardCode]
SomeCards = Annotated[list[CardCode], Constrained(min_length=1)]
Points = Annotated[int, Constrained(ge=0)]

_FORBID = {"extra": "forbid"}  # as Located: a key the model lacks is refused


# ---- turn events -------------------------------------------------------------------------


@dataclass(kw_only=True)
class Match(Located):
    """`match X with A [+ B]`: cover Center Row card X with one or two hand cards."""

    type: Literal["match"] = "match"
    target: CardCode
    cards: SomeCards


@dataclass(kw_only=True)
class Draw(Located):
    """`draw [Q] [C ...]`: Q (default: the player on turn) draws; no cards = one from the top."""

    type: Literal["draw"] = "draw"
    player: PlayerName | None = None
    cards: list[HandCard] = field(default_factory=list)


@dataclass(kw_only=True)
class Refill(Located):
    """`refill [C ...]`: cards flipped from the draw pile into the Center Row."""

    type: Literal["refill"] = "refill"
    cards: Cards = field(default_factory=list)


@dataclass(kw_only=True)
class Place(Located):
    """`place C`: the player on turn puts C from hand into the Center Row."""

    type: Literal["place"] = "place"
    card: CardCode


@dataclass(kw_only=True)
class Pass(Located):
    """`pass`: end the turn without placing (where the ruleset allows it)."""

    type: Literal["pass"] = "pass"


@dataclass(kw_only=True)
class Dos(Located):
    """`dos [Q]`: Q (default: the player on turn) calls DOS."""

    type: Literal["dos"] = "dos"
    player: PlayerName | None = None


@dataclass(kw_only=True)
class Catch(Located):
    """`catch Q by R`: R calls DOS before Q did."""

    type: Literal["catch"] = "catch"
    player: PlayerName
    by: PlayerName


@dataclass(kw_only=True)
class Reshuffle(Located):
    """`reshuffle [C ...]`: the discard pile becomes the draw pile (top first when listed)."""

    type: Literal["reshuffle"] = "reshuffle"
    cards: Cards = field(default_factory=list)


TurnEvent = Annotated[Match | Draw | Refill | Place | Pass | Dos | Catch | Reshuffle, Tagged("type")]


@dataclass(kw_only=True)
class Turn(Located):
    """`turn P` and the event lines that follow it."""

    player: PlayerName
    events: list[TurnEvent] = field(default_factory=list)

    _damaged = False  # a line of this turn was not readable (a syntax finding) and was skipped
    # (events before it, keyword, card words, a match's words: its target and cards): a place, refill or match
    # line skipped for its card (R54, R93); typed in a comment, so that the dataclass does not take it for a field
    _skips = ()  # type: tuple[tuple[int, str, int, tuple[str, ...]], ...]


# ---- a round's set-up and end ------------------------------------------------------------


@dataclass(kw_only=True)
class Dealer(Located):
    type: Literal["dealer"] = "dealer"
    player: PlayerName


@dataclass(kw_only=True)
class Deck(Located):
    """`deck C ...`: part of the round's shuffled pile, top first."""

    type: Literal["deck"] = "deck"
    cards: SomeCards


@dataclass(kw_only=True)
class Hand(Located):
    type: Literal["hand"] = "hand"
    player: PlayerName
    cards: list[HandCard]


@dataclass(kw_only=True)
class Center(Located):
    type: Literal["center"] = "center"
    cards: Cards


SetupEvent = Annotated[Dealer | Deck | Hand | Center, Tagged("type")]


@dataclass(kw_only=True)
class Show(Located):
    """`show P C ...`: P turns their hand face up for scoring (after the turn that ended the round)."""

    player: PlayerName
    cards: SomeCards


@dataclass(kw_only=True)
class Score(Located):
    """`score P N`: P went out and claims N points."""

    player: PlayerName
    points: Points


@dataclass(kw_only=True)
class Total:
    __pydantic_config__ = _FORBID
    player: PlayerName
    points: Points


@dataclass(kw_only=True)
class Totals(Located):
    """`totals P N ...`: running totals after the round."""

    entries: Annotated[list[Total], Constrained(min_length=1)]


@dataclass(kw_only=True)
class Round(Located):
    number: Annotated[int, Constrained(ge=1)]
    setup: list[SetupEvent] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    shows: list[Show] = field(default_factory=list)
    score: Score | None = None
    totals: Totals | None = None


@dataclass(kw_only=True)
class Winner(Located):
    player: PlayerName


# ---- the whole log -----------------------------------------------------------------------


@dataclass(kw_only=True)
class Log(Located):
    """A DOS game log (notation v1): the header, then the rounds, then the winner."""

    dos: Literal[1] = 1
    players: Annotated[list[PlayerName], Constrained(min_length=2, max_length=4)]
    ruleset: Annotated[str | None, Constrained("a ruleset of spec/rulesets; default official")] = None
    options: dict[str, str] = field(default_factory=dict)
    target: Annotated[int, Constrained(ge=1)] | None = None
    tags: Annotated[dict[str, str], Constrained("free tags, kept as written and never judged")] = field(
        default_factory=dict
    )
    rounds: list[Round] = field(default_factory=list)
    winner: Winner | None = None

    # where header lines were written (text form): "dos", "players", "ruleset", "target",
    # "option:KEY", "tag:NAME" -> (line, column); and the last line + 1 (for "missing" findings)
    # not annotated (typed in comments): not fields
    _header_at = {}  # type: dict[str, tuple[int, int]]
    _end_line = None  # type: int | None


def attach_pointers(log: Log) -> Log:
    """Give every model of a log validated from JSON its JSON pointer."""
    log._pointer = ""
    if log.winner:
        log.winner._pointer = "/winner"
    for ri, rnd in enumerate(log.rounds):
        attach_round_pointers(rnd, ri)
    return log


def attach_round_pointers(rnd: Round, ri: int) -> Round:
    """attach_pointers for the round at index `ri` of the log's `rounds` (read on its own)."""
    rp = f"/rounds/{ri}"
    rnd._pointer = rp
    for si, ev in enumerate(rnd.setup):
        ev._pointer = f"{rp}/setup/{si}"
    for ti, turn in enumerate(rnd.turns):
        tp = f"{rp}/turns/{ti}"
        turn._pointer = tp
        for ei, tev in enumerate(turn.events):
            tev._pointer = f"{tp}/events/{ei}"
    for si, sh in enumerate(rnd.shows):
        sh._pointer = f"{rp}/shows/{si}"
    if rnd.score:
        rnd.score._pointer = f"{rp}/score"
    if rnd.totals:
        rnd.totals._pointer = f"{rp}/totals"
    return rnd
