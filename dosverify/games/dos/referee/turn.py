"""What the referee remembers within one turn (digest sections 3-7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..events import Turn


@dataclass(slots=True)
class TurnState:
    player: str
    turn: Turn
    matches: int = 0
    matches_after_draw: int = 0
    drew: bool = False  # the draw after no match was made
    drawn_card: str | None = None
    drawn_token: Any = None  # the drawn card's `?`, when it was drawn face down
    action_done: bool = False  # the card after an unmatched draw was placed, or `pass`
    bonus_earned: int = 0
    bonus_placed: int = 0
    dcm: int = 0
    dcm_owed: dict = field(default_factory=dict)
    # after an illegal match the bonus it would have earned may be honoured or not:
    # either way is a consequence of a finding already reported
    matched_targets: dict = field(default_factory=dict)  # Center Row cards matched this turn (match.once)
    bonus_maybe: int = 0
    dcm_maybe: dict = field(default_factory=dict)
    penalty_maybe: dict = field(default_factory=dict)
    drawing: set = field(
        default_factory=set
    )  # players between two lines of the cards owed for one reason  # penalty draws of a catch that did not stand
    penalty_owed: int = 0  # the player on turn, caught before the penalty step
    immediate: tuple | None = None  # (player, cards) a penalty to draw on the next line
    step: int = 0  # the furthest end-of-turn step reached: 2 refill, 3 bonus, 4 penalty, 5 DCM draws
    discarded: bool = False
    flushed: list = field(default_factory=list)  # this turn's matched cards, discarded at step 1
    refill_owed: int = 0
    refilled: int = 0
    refill_maybe: int = 0  # refills allowed but not owed (after a late, reported match)
    reshuffled: Any = None  # a `reshuffle` line that the next line must need (a draw or refill)
    order_reported: bool = False
    dcm_now: bool = False  # dcm-draws=at-once (V12): the owed Double Color Match draws must come on the next lines
    dcm_draw_ev: Any = None  # the first Double Color Match draw (dcm-draws=end-of-turn: a later match makes it early)
    dcm_early: bool = False  # this Double Color Match's draws, made mid-turn, were reported (bonus.draw-time, V12)
    dcm_order_early: tuple | None = None  # (event, player): a Double Color Match draw before that player's (V13)
    dcm_order_reported: bool = False  # the order of this Double Color Match's draws was reported
    ended: Any = None  # round-end=at-once (V15): the line that emptied the hand ended the round
    after_end_reported: bool = False
    # round-end=at-once with dcm-draws=at-once (digest, after V17): the match line that emptied the hand, whose
    # Double Color Match draws still come on the next lines; the round ends once they are made
    end_after_draws: Any = None
    ended_with_draws: bool = False  # the round ended after those draws
    reserved: dict = field(
        default_factory=dict
    )  # (kind, player) -> cards a later step's draw showed were taken first (R44)
    skipped: list[tuple[str, str | None, int]] = field(
        default_factory=list
    )  # (kind, player, n): steps left out, taken as made (R27)
    bonus_cap: int | None = None  # bonus cards placed at most, by the hand before a draw that came too early
    taken_back: list = field(default_factory=list)  # (Center Row card, hand cards): a match taken back (R47)
    early: tuple | None = None  # (event, awaited step, message, expected, found): a step that may have come too early

    def bonus_owed(self) -> int:
        return self.bonus_earned - self.bonus_placed
