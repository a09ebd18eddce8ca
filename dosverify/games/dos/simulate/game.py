"""The game: each round dealt (V9, V16) and played turn by turn to its end and score (V11),
rounds to the target or the number asked for, the departures judged as it goes."""

from __future__ import annotations

from .. import events as ev
from ..cards import full_deck, value
from . import departures, emit
from .state import RoundOver, SimRound
from .turn import Turns

ROUND_TURN_CAP = 400  # a round still open after this many turns ends the log (an unfinished game is valid)


class Sim(Turns):
    """One simulated game; `rounds` holds its lines as tuples, written out by :mod:`.emit` at the end."""

    def play(self) -> Sim:
        dealer = self.rng.choice(self.names)
        number = 0
        while True:
            number += 1
            winner = self.play_round(number, dealer)
            if winner is None:
                break
            if any(t >= self.target for t in self.totals.values()):
                self.winner = max(self.names, key=lambda x: self.totals[x])
                break
            if self.rounds_max is not None and number >= self.rounds_max:
                break
            dealer = winner if self.opt["next-dealer"] == "winner" else self.left(dealer)
        return self

    def play_round(self, number: int, dealer: str) -> str | None:
        """Deal and play round `number`; its winner, or None when it was cut off unfinished."""
        deck, order, rnd = self.deal(number, dealer)
        p = order[0]
        for _ in range(ROUND_TURN_CAP):
            at_once = False
            try:
                ended = self.play_turn(p)
            except RoundOver:
                ended = at_once = True
            rnd["turns"].append((p, self.turn_events))
            departures.judge_turn(self, len(self.rounds) - 1, len(rnd["turns"]) - 1, at_once)
            if ended:
                pts = sum(value(c) for q in self.names if q != p for c in self.hands[q])
                self.totals[p] += pts
                rnd["score"] = (p, pts)
                rnd["totals"] = [(q, self.totals[q]) for q in self.names]
                departures.judge_deal(self, len(self.rounds) - 1, deck, order)
                return p
            p = self.left(p)
        departures.judge_deal(self, len(self.rounds) - 1, deck, order)
        return None

    def deal(self, number: int, dealer: str) -> tuple[list[str], list[str], SimRound]:
        """Shuffle and deal round `number`: the deck, the seat order from the dealer's left, the round."""
        deck = full_deck()
        self.rng.shuffle(deck)
        rnd: SimRound = {"number": number, "setup": [("dealer", dealer)], "turns": [], "score": None, "totals": None}
        self.rounds.append(rnd)
        if self.with_deck:
            for i in range(0, len(deck), 12):
                rnd["setup"].append(("deck", deck[i : i + 12]))
        order = [self.left(dealer)]
        while len(order) < len(self.names):
            order.append(self.left(order[-1]))
        self.hands = {p: [] for p in self.names}
        self.taken_in = None
        pile = list(deck)
        deal = list(self.names) if self.opt["deal-from"] == "first-seat" else order  # V16 (V9)
        for _ in range(7):  # V9: one card at a time from the dealer's left
            for p in deal:
                self.hands[p].append(pile.pop(0))
        self.cr = [pile.pop(0), pile.pop(0)]
        self.pile, self.discard = pile, []
        if not self.with_deck:
            for p in order:
                rnd["setup"].append(("hand", p, list(self.hands[p])))
            rnd["setup"].append(("center", list(self.cr)))
        self.status = {p: None for p in self.names}
        self.draining = self.long_round == "drain"
        self.endgame = False
        return deck, order, rnd

    # -- what the game leaves, written out
    def departure_lines(self) -> list[tuple[int, str, str]]:
        """The departures from `official` as (line, kind, rule) of :meth:`to_text`."""
        return departures.departure_lines(self)

    def header_lines(self) -> list[str]:
        return emit.header_lines(self)

    def to_log(self) -> ev.Log:
        return emit.to_log(self)

    def to_text(self) -> str:
        return emit.to_text(self)
