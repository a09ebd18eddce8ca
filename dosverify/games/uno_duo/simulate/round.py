"""One simulated UNO Duo round: the rules of design/uno-duo.md played out, move by move.

A second implementation of the rules, written from the contract (sections 1-3) without the referee:
the set-up (draft, the turned-up card and its action), the turn (a play, a Reverse run, a draw and
perhaps its play, a start run owed, a total or a WD4 faced, a challenge), Skips, UNO calls, catches
and late calls, and the end of the round. Every option of section 2 changes what is legal here;
the agents (agents.py) only ever choose among the moves this module lists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .agents import Agent, Move
from .cards import WD4, base, colour, face, hand_value, is_wild, matches, top_colour
from .table import Event, RoundLog, Table

ROUND_TURN_CAP = 500  # a round still open after this many turns ends the log (an unfinished game is valid)


class Stuck(Exception):
    """Nothing is left to draw where a draw is needed: the log ends before this turn (see :meth:`RoundPlay.run`).

    The contract's `pass` and lapsing draws exist for this; with 112 cards and two hands it needs
    hands of over 100 cards, so the simulator does not write it (listed as missing in its report)."""


@dataclass
class Pending:
    """What the player on turn faces as the turn begins (section 3, Turns)."""

    total: int = 0  # a Draw 2 total
    turned_up: bool = False  # the total or the WD4 is the turned-up card's
    wd4: bool = False
    legit: bool = True  # the faced WD4 would stand a challenge (U9)
    run: str | None = None  # the colour of a start run owed (U4, U7)


class UnoWatch:
    """Who owes an UNO call and can still be caught (U13 and the `uno-window` option)."""

    def __init__(self, rp: RoundPlay):
        self.rp = rp
        self.open: dict[str, bool] = {p: False for p in rp.players}

    def action_line(self) -> None:
        """A play, draw or pass line: under `uno-window next-action` it closes every window."""
        if self.rp.opts["uno-window"] == "next-action":
            self.open = {p: False for p in self.open}

    def hand_changed(self, p: str) -> None:
        self.open[p] = False

    def after_play(self, p: str, ev: list[Event]) -> None:
        """A play line left p with one card: p calls at once, or forgets (then may be caught at once)."""
        if len(self.rp.table.hands[p]) != 1:
            return
        if self.rp.agents[p].chance(self.rp.agents[p].p_call):
            ev.append(("uno", p))
            return
        self.open[p] = True
        q = self.rp.other(p)
        if self.rp.agents[q].chance(self.rp.agents[q].p_catch * 0.4):
            self.catch(p, ev)

    def point(self, ev: list[Event]) -> None:
        """A moment between actions: a forgotten call may be made late, or caught."""
        for p in self.rp.players:
            if not self.open[p] or len(self.rp.table.hands[p]) != 1:
                continue
            q = self.rp.other(p)
            if self.rp.agents[p].chance(self.rp.agents[p].p_late):
                ev.append(("uno", p))
                self.open[p] = False
            elif self.rp.agents[q].chance(self.rp.agents[q].p_catch):
                self.catch(p, ev)

    def catch(self, p: str, ev: list[Event]) -> None:
        ev.append(("catch", p, self.rp.other(p)))
        self.open[p] = False
        self.rp.owed_draw(p, 2, "penalty", ev)


class RoundPlay:
    """The table, the agents and the turn rules of one round."""

    def __init__(
        self,
        rng: random.Random,
        opts: dict[str, str],
        players: list[str],
        agents: dict[str, Agent],
        number: int,
        drafter: str,
    ):
        self.rng = rng
        self.opts = opts
        self.players = players
        self.agents = agents
        self.table = Table(rng, opts, players)
        self.table.eager = rng.choice((0.0, 0.5))
        self.p1 = drafter
        self.p2 = self.other(drafter)
        self.log = RoundLog(number, drafter, list(self.table.deck))
        self.uno = UnoWatch(self)
        self.pending = Pending()
        self.over = False
        self.finished = False  # the round reached its score

    def other(self, p: str) -> str:
        return self.players[1 - self.players.index(p)]

    # ---- the set-up
    def setup(self) -> str:
        """Draft, turn up the first card and set what its action asks of the first player (S2 JOCUL)."""
        self.log.picks = self.table.draft([self.p1, self.p2], lambda p, c: self.agents[p].keep_top(c))
        self.log.hands = {p: list(h) for p, h in self.table.hands.items()}
        card = self.table.turn_up()
        first = self.p2
        if is_wild(card):  # P1 names the colour
            card = f"{card}={self.agents[self.p1].name_colour(self.table.hands[self.p1])}"
            self.table.discard[-1] = card
        f = face(card)
        if base(card) == WD4:
            self.pending = Pending(wd4=True, turned_up=True)
        elif f == "+2":
            self.pending = Pending(total=2, turned_up=True)
        elif f == "S":
            first = self.p1  # U17: one ordinary action, no second
        elif f == "R":
            self.pending = Pending(run=card[0])  # U4
        self.log.start = card
        return first

    def run(self) -> None:
        first = self.setup()
        p = first
        for _ in range(ROUND_TURN_CAP):
            ev: list[Event] = []
            try:
                self.turn(p, ev)
            except Stuck:
                return
            self.log.turns.append((p, ev))
            if self.over:
                self.score()
                return
            p = self.other(p)

    def score(self) -> None:
        loser = next(p for p in self.players if self.table.hands[p])
        self.log.score = (loser, hand_value(self.table.hands[loser]))
        self.finished = True

    # ---- a turn
    def turn(self, p: str, ev: list[Event]) -> None:
        self.uno.point(ev)
        pend, self.pending = self.pending, Pending()
        if pend.total:
            self.face_total(p, pend, ev)
        elif pend.wd4:
            self.face_wd4(p, pend, ev)
        elif pend.run and any(colour(c) == pend.run for c in self.table.hands[p]):
            self.owe_run(p, pend.run, ev)
        else:
            self.action(p, ev)
        if not self.over:
            self.uno.point(ev)
            self.table.maybe_reshuffle(ev)

    def owed_draw(self, p: str, n: int, reason: str, ev: list[Event]) -> None:
        if self.table.drawable() < n:
            raise Stuck
        self.uno.action_line()
        self.table.draw(p, n, reason, ev)
        self.uno.hand_changed(p)

    def face_total(self, p: str, pend: Pending, ev: list[Event]) -> None:
        """Stack one Draw 2 (a volley, U8) or draw the total; a turned-up one is not stacked (U3)."""
        can = not (pend.turned_up and self.opts["start-volley"] == "no")
        d2 = [c for c in self.table.hands[p] if face(c) == "+2"] if can else []
        if d2 and (self.opts["volley"] == "must" or self.agents[p].chance(self.agents[p].p_stack)):
            self.play(p, Move((self.rng.choice(d2),)), ev, carry=pend.total)
        else:
            self.owed_draw(p, pend.total, "total", ev)

    def face_wd4(self, p: str, pend: Pending, ev: list[Event]) -> None:
        """Draw 4, or challenge a WD4 the opponent played (U10)."""
        if not pend.turned_up and self.agents[p].chance(self.agents[p].p_challenge):
            ev.append(("challenge",))
            if pend.legit:
                self.owed_draw(p, 6, "challenge6", ev)
            else:
                self.owed_draw(self.other(p), 4, "challenge4", ev)
                self.action(p, ev)
            return
        self.owed_draw(p, 4, "wd4", ev)

    def owe_run(self, p: str, c: str, ev: list[Event]) -> None:
        """U4/U7: the start run, every card of colour c in any order (optional under `start-reverse may`)."""
        if self.opts["start-reverse"] == "may" and self.agents[p].chance(0.3):
            self.action(p, ev)
            return
        cards = [x for x in self.table.hands[p] if colour(x) == c]
        self.rng.shuffle(cards)
        cards = self.agents[p].order_run(cards)
        if self.play(p, Move(tuple(cards), run=True), ev):
            self.action(p, ev, again=True)

    def action(self, p: str, ev: list[Event], again: bool = False) -> None:
        """One ordinary action (a play, a run, or a draw and perhaps its play), and the Skip's ones after it."""
        while True:
            if again and self.opts["skip-again"] == "optional" and self.agents[p].chance(0.3):
                return
            hand = self.table.hands[p]
            move = self.agents[p].choose(self.moves(p), len(hand))
            if move is None:
                if self.table.drawable() < 1:
                    raise Stuck
                self.owed_draw(p, 1, "one", ev)
                drawn = hand[-1]
                if not (matches(drawn, self.table.top) and self.agents[p].chance(self.agents[p].p_play_drawn)):
                    return
                move = self.rng.choice(self.moves(p, only=drawn))
            if not self.play(p, move, ev):
                return
            again = True
            self.uno.point(ev)

    def moves(self, p: str, only: str | None = None) -> list[Move]:
        """Every legal `play` line of an ordinary action (only: the drawn card's, whose WD4 is legitimate)."""
        hand = self.table.hands[p]
        top = self.table.top
        out: list[Move] = []
        for card in dict.fromkeys(hand):
            if (only is not None and card != only) or not matches(card, top):
                continue
            if is_wild(card):
                rest = list(hand)
                rest.remove(card)
                named = self.agents[p].name_colour(rest)
                out.append(Move((f"{card}={named}",), legit=only is not None or self.legit_wd4(rest, top)))
                continue
            out.append(Move((card,)))
            if face(card) == "R":
                others = list(hand)
                others.remove(card)
                others = [c for c in others if colour(c) == card[0]]
                if others:
                    out.append(Move((card, *self.agents[p].order_run(others)), run=True))
        return out

    def legit_wd4(self, rest: list[str], top: str) -> bool:
        """U9: illegitimate if another card, not a WD4, was playable (`wd4-legal colour`: of the current colour)."""
        if self.opts["wd4-legal"] == "colour":
            return not any(not is_wild(c) and c[0] == top_colour(top) for c in rest)
        return not any(base(c) != WD4 and matches(c, top) for c in rest)

    def play(self, p: str, move: Move, ev: list[Event], carry: int = 0) -> bool:
        """Lay a `play` line and apply its last card (U5-U7); True when one more action is owed (a Skip)."""
        self.uno.action_line()
        self.table.lay(p, list(move.cards))
        ev.append(("play", list(move.cards)))
        self.uno.hand_changed(p)
        last = move.cards[-1]
        if not self.table.hands[p]:
            self.end(p, last, ev, carry)
            return False
        self.uno.after_play(p, ev)
        f = face(last)
        if base(last) == WD4:
            self.pending = Pending(wd4=True, legit=move.legit)
        elif f == "+2":
            self.pending = Pending(total=carry + 2)
        elif f == "S":
            return True
        elif f == "R":
            if len(move.cards) > 1:
                if self.opts["run-reverse"] == "opponent":
                    self.pending = Pending(run=last[0])
            elif self.opts["reverse-alone"] == "skip":
                return True
        return False

    def end(self, p: str, last: str, ev: list[Event], carry: int) -> None:
        """The play emptying a hand ends the round (U14); under `last-draw yes` the opponent draws first."""
        self.over = True
        if self.opts["last-draw"] != "yes":
            return
        q = self.other(p)
        n = carry + 2 if face(last) == "+2" else 4 if base(last) == WD4 else 0
        if n:
            self.owed_draw(q, n, "last", ev)
