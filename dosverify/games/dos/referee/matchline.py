"""One `match` line as the referee judges it: shared by the part that judges the line
(:mod:`.matches`) and the part that takes the hand cards it plays (:mod:`.handcards`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..events import Match
from .matching import MatchJudgement as Judgement
from .table import CenterCard


@dataclass(slots=True, eq=False)
class MatchLine:
    """One match line as it is judged: what it names, the cards it seems to mean, what was reported."""

    ev: Match
    player: str
    target: Card
    cards: list[Card]
    written: Judgement  # the match as written
    meant: dict[int, str] = field(default_factory=dict)  # position -> the held card a typo stands for
    held_meant: dict[int, str] = field(default_factory=dict)  # position -> the held card that adds up (R42)
    uncertain: dict[int, list[str]] = field(default_factory=dict)  # position -> the held cards it may be
    slot: CenterCard | None = None  # the Center Row card covered
    only_refilled: bool = False  # the card covered is in the Center Row only as a card refilled this turn
    reported: bool = False
    unsure: bool = False  # which card was played is unknown, and so is the bonus it earned
