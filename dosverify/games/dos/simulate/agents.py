"""The players' temperament and choices: which match they make, which card they place, how
likely a forgotten DOS call is caught or made late, and, in a long round, when they decline."""

from __future__ import annotations

from .matches import Opt, is_wild
from .state import SimState


class Agents(SimState):
    """The simple agents every seat is played by (their temperament is drawn in :class:`SimState`)."""

    @property
    def hoarding(self) -> bool:
        """In a long round, whether the players decline every match now."""
        if self.long_round == "thin":  # once a hand is down to 3 cards, while the pile holds cards
            if not self.endgame:
                self.endgame = any(len(h) <= 3 for h in self.hands.values())
            return self.endgame and len(self.pile) >= self.thin_floor
        return self.draining

    def p_catch(self, p: float, mid_match: bool = True) -> float:
        """How likely a forgotten call is caught now: in a long round, nearly always when the pile
        holds 0 or 1 card (a penalty that the pile cannot pay, or pays across a reshuffle), and
        seldom before."""
        if self.long_round == "thin":  # and at the start or end of a turn, now and then, so that
            # some are left for the middle of the next player's matches
            return (0.9 if mid_match else 0.3) if len(self.pile) < 2 else 0.1
        return p

    def p_late(self, p: float) -> float:
        """How likely a forgotten call is made late now: in a long round, seldom, so that the
        forgotten calls wait for the low pile."""
        return 0.02 if self.long_round == "thin" else p

    def pick(self, opts: list[Opt]) -> Opt:
        """A match, colour matches and doubles likelier, wilds kept for later."""
        weights = []
        for o in opts:
            w = 1.0
            if o.colour:
                w *= 4
            if o.double:
                w *= 1.5
            w /= 1 + sum(is_wild(b) for b in o.bases) * 0.7
            weights.append(w)
        return self.rng.choices(opts, weights)[0]

    def choose_place(self, hand: list[str]) -> str:
        """The card placed in the Center Row, a wild seldom."""
        weights = [0.3 if is_wild(c) else 1.0 for c in hand]
        return self.rng.choices(hand, weights)[0]
