"""What every part of the referee is given, and the table saying which check enforces which rule.

A part (setup, plays, matches, hand cards, draws, calls, steps, scoring, face-down cards, engine
departures, turns, names) holds no state of its own: it is handed the :class:`~.state.RefereeState` it
reads and changes, the :class:`~.reporter.Reporter` it reports through, and the other parts it asks
(`parts`), so that what it depends on is written where it is built
(:class:`~dosverify.games.dos.referee.Referee`).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from ..events import Catch, Center, Deck, Dos, Draw, FaceDown, Hand, Match, Pass, Place, Refill, Reshuffle, Round, Turn
from .matchline import MatchLine
from .reporter import Reporter
from .state import RefereeState
from .turn import TurnState

F = TypeVar("F", bound=Callable)

# rule id -> the checks that enforce it ("module.Class.method"), filled by @enforces as the parts are imported
ENFORCED: dict[str, list[str]] = {}


def enforces(*rule_ids: str) -> Callable[[F], F]:
    """Mark a check with the ids of the rules it reports (a test holds each `report` call to them), so
    that "where is match.double enforced" is `ENFORCED["match.double"]`, or a search for its id."""

    def mark(check: F) -> F:
        name = f"{check.__module__.rsplit('.', 1)[-1]}.{check.__qualname__}"
        for rule_id in rule_ids:
            ENFORCED.setdefault(rule_id, []).append(name)
        check.enforces = rule_ids  # type: ignore[attr-defined]
        return check

    return mark


# What each part offers the parts above it (ORDER): the parts' modules import none of each other; the
# Referee alone builds the concrete parts, each handed only the parts it `uses`.
class CallsPart(Protocol):
    """What the other parts ask of :class:`~.calls.Calls`."""

    def on_dos(self, ev: Dos) -> None: ...
    def on_catch(self, ev: Catch) -> None: ...


class DrawsPart(Protocol):
    """What the other parts ask of :class:`~.draws.Draws`."""

    def on_draw(self, ev: Draw) -> None: ...


class EnginePart(Protocol):
    """What the other parts ask of :class:`~.engine.Engine`."""

    def dcm_draw_mid_turn(self, ev: Draw) -> bool: ...
    def penalty_mid_turn(self, ev: Draw) -> bool: ...
    def next_card_is_top(self, closing) -> bool: ...
    def next_card_drawn(self, ev) -> str | None: ...
    def reshuffle_mid_turn(self, ev: Reshuffle) -> bool: ...
    def deal_from_first_seat(self, rnd, dealt_left: dict, dealt_first: dict, pile: list | None = None): ...
    def draws_right_after(self, ev, q: str) -> list[Draw]: ...
    def rest_of_turn(self, ev): ...
    def draw_starts_next_turn(self, ev: Draw) -> bool: ...
    def split_draw(self, ev: Draw, k: int) -> tuple[Draw, Draw]: ...
    def turn_seems_missing(self, ev, cards: list[str]) -> str | None: ...


class FaceDownPart(Protocol):
    """What the other parts ask of :class:`~.facedown.FaceDown`."""

    def hidden_start_round(self, rnd: Round) -> None: ...
    def hidden_token(self, p: str, ev, index: int) -> None: ...
    def hidden_out(self, base: str, ev, index: int | None, what: str) -> None: ...
    def hidden_reshuffle(self) -> None: ...
    def hidden_reveal(self, p: str, base: str, ev, field: str, index: int | None, rule: str) -> None: ...
    def unverify(self, rule: str) -> None: ...
    def check_shows(self, rnd: Round) -> None: ...
    def score_over_choices(self, s, pts_known: int, hidden: int) -> None: ...


class PlaysPart(Protocol):
    """What the other parts ask of :class:`~.plays.Plays`."""

    def turn_meant(self, turn, rnd, want: str) -> bool: ...
    def start_implied_turn(self, p: str, ev) -> None: ...
    def lazy_penalty_shown(self, p: str, codes) -> None: ...
    def stand_taken_back(self) -> None: ...
    def on_place(self, ev: Place) -> None: ...
    def on_pass(self, ev: Pass) -> None: ...


class MatchesPart(Protocol):
    """What the other parts ask of :class:`~.matches.Matches`."""

    def on_match(self, ev: Match) -> None: ...


class HandCardsPart(Protocol):
    """What the other parts ask of :class:`~.handcards.HandCards`."""

    def take(self, m: MatchLine) -> None: ...


class MeantPart(Protocol):
    """What the other parts ask of :class:`~.meant.Meant`."""

    def likely_meant(self, ev: Match, p: str) -> dict[int, str]: ...
    def held_fits(self, ev: Match, p: str, only: int | None = None) -> tuple[dict[int, str], dict[int, list[str]]]: ...
    def slip_in_turn(self, ev: Match) -> bool: ...
    def meant_center(self, ev: Match): ...
    def shown_in_row(self, base: str): ...
    def maybe_covered(self, ev: Match) -> None: ...
    def covered_instead(self, base: str): ...
    def maybe_meant_row_card(self, ev: Match) -> None: ...


class PilePart(Protocol):
    """What the other parts ask of :class:`~.pile.Pile`."""

    def draw_from_pile(
        self, written: str | FaceDown | None, ev, index: int, what: str, who: str | None = None
    ) -> str | None: ...
    def catch_up(
        self, ev: Draw, written: str | FaceDown, dcm_of: str | None, q: str | None = None, own: int = 0
    ) -> None: ...


class RefillsPart(Protocol):
    """What the other parts ask of :class:`~.refills.Refills`."""

    def on_refill(self, ev: Refill) -> None: ...
    def on_reshuffle(self, ev: Reshuffle) -> None: ...


class RoundsPart(Protocol):
    """What the other parts ask of :class:`~.rounds.Rounds`."""

    def start(self, rnd: Round) -> tuple[int | None, str | None, str | None]: ...
    def finish(self, rnd: Round) -> None: ...
    def end(self, next_round: Round | None) -> None: ...
    def check_winner(self) -> None: ...


class ScoringPart(Protocol):
    """What the other parts ask of :class:`~.scoring.Scoring`."""

    def totals_text(self) -> str: ...
    def snapshot(self) -> dict: ...
    def round_points(self) -> int | None: ...
    def apply_score(self, claimed: int | None = None) -> None: ...
    def check_score(self, rnd: Round) -> None: ...
    def check_totals(self, rnd: Round) -> None: ...


class SetupPart(Protocol):
    """What the other parts ask of :class:`~.setup.Setup`."""

    def setup(self, rnd: Round, prev_no, prev_dealer, prev_winner) -> None: ...


class DealPart(Protocol):
    """What the other parts ask of :class:`~.deal.Deal`."""

    def setup_from_deck(
        self,
        rnd: Round,
        deck_ev: Deck,
        deck_cards: list[str],
        hands: dict[str, tuple[Hand, list[str]]],
        center_ev: Center | None,
    ) -> None: ...


class StepsPart(Protocol):
    """What the other parts ask of :class:`~.steps.Steps`."""

    def flush(self) -> None: ...
    def refill_possible(self) -> bool: ...
    def step(self, ev, n: int, what: str) -> None: ...
    def bonus_due(self) -> int: ...
    def arrive(self, key, ev) -> None: ...
    def lapse_bonus(self) -> None: ...
    def draw_left_out(self, q: str, n: int) -> None: ...


class SkippedPart(Protocol):
    """What the other parts ask of :class:`~.skipped.Skipped`."""

    def skipped_line(self, kw: str, n: int, words: tuple[str, ...] = ()) -> None: ...


class ClosingPart(Protocol):
    """What the other parts ask of :class:`~.closing.Closing`."""

    def close_turn(self, closing) -> None: ...
    def unneeded_reshuffle(self) -> None: ...


class TurnsPart(Protocol):
    """What the other parts ask of :class:`~.turns.Turns`."""

    def bind(self) -> None: ...
    def start(self, turn: Turn, rnd: Round) -> bool: ...
    def event(self, ev) -> None: ...


class NamesPart(Protocol):
    """What the other parts ask of :class:`~.names.Names`."""

    def resolve_names(self) -> None: ...
    def resolve_round(self, rnd: Round) -> None: ...
    def resolve_winner(self) -> None: ...


#: The parts from the lowest up. A part asks only parts before it here (the ones its class `uses`), so
#: the calls go one way: the engine's look-ahead, the face-down ledger, the hand-card readings and the
#: steps ask nobody; closing a turn asks the engine and the steps; a line's part asks the parts of what
#: the line does; `turns` dispatches the lines. Each part can be built, and tested, with the few it uses
#: (tests/dos/test_referee_part_units.py); the Referee asks all of them.
ORDER = (
    "calls",
    "engine",
    "facedown",
    "meant",
    "names",
    "steps",
    "skipped",
    "closing",
    "scoring",
    "rounds",
    "handcards",
    "plays",
    "matches",
    "pile",
    "refills",
    "draws",
    "deal",
    "setup",
    "turns",
)


class Parts:
    """The referee's parts, by name. The Referee's holds all of them; each part is handed one holding
    only the parts it `uses` (:func:`below`), so asking another is an AttributeError, not a circle."""

    setup: SetupPart
    deal: DealPart
    plays: PlaysPart
    matches: MatchesPart
    handcards: HandCardsPart
    meant: MeantPart
    draws: DrawsPart
    pile: PilePart
    refills: RefillsPart
    calls: CallsPart
    steps: StepsPart
    skipped: SkippedPart
    closing: ClosingPart
    scoring: ScoringPart
    facedown: FaceDownPart
    engine: EnginePart
    turns: TurnsPart
    names: NamesPart
    rounds: RoundsPart


def below(built: Parts, uses: tuple[str, ...]) -> Parts:
    """The parts a part is handed: the ones it `uses`, each built already (earlier in ORDER)."""
    view = Parts()
    for name in uses:
        setattr(view, name, getattr(built, name))
    return view


class Part:
    """One part of the rules: the state it works on, the reporter, and the parts below it it asks."""

    __slots__ = ("s", "r", "parts")
    #: the parts this one asks (each before it in ORDER; a test holds this to the calls its code makes)
    uses: ClassVar[tuple[str, ...]] = ()

    def __init__(self, state: RefereeState, reporter: Reporter, parts: Parts) -> None:
        self.s = state
        self.r = reporter
        self.parts = parts

    if TYPE_CHECKING:

        @property
        def t(self) -> TurnState:
            """The turn being played: the checks of a turn's lines run only within one."""
            ...

    else:  # the same, read in C (it is read on nearly every line of a log: no Python frame for it)
        t = property(attrgetter("s.t"), doc="The turn being played: the checks of a turn's lines run only within one.")
