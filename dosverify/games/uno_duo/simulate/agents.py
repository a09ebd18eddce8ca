"""The simulator's players: seeded agents that only ever choose among legal moves.

The driver (round.py) lists the legal moves of each moment; an agent picks one. Agents are
steered, through a temperament drawn once per game, towards the moments where a referee goes
wrong: Draw 2 volleys (they stack eagerly), Reverse runs that empty the hand (weighted up), runs
that end on an action card, WD4 bluffs that get challenged (so challenges are won and lost),
forgotten UNO calls that are caught or called late, and, in "hoarder" games, long rounds where
players draw instead of playing, so that the pile runs out and is reshuffled, in a volley too.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .cards import COLOURS, WD4, base, face, is_action, is_wild


@dataclass(frozen=True)
class Move:
    """One legal `play` line: its cards as written (wilds with their colour), `run` when it is a Reverse
    run (or a start run), `legit` whether a WD4 in it would stand a challenge (U9)."""

    cards: tuple[str, ...]
    run: bool = False
    legit: bool = True


class Agent:
    """One player's habits for a whole game (seeded from the game's random source)."""

    def __init__(self, rng: random.Random, hoarder: bool = False):
        self.rng = rng
        self.hoarder = hoarder
        self.p_draw = rng.choice((0.35, 0.5)) if hoarder else rng.choice((0.0, 0.04, 0.08))
        self.p_call = rng.choice((0.5, 0.7, 0.9))
        self.p_catch = rng.choice((0.5, 0.8))
        self.p_late = rng.choice((0.3, 0.6))
        self.p_bluff = rng.choice((0.2, 0.5))
        self.p_challenge = rng.choice((0.3, 0.6))
        self.p_stack = rng.choice((0.8, 0.95))
        self.p_play_drawn = rng.choice((0.7, 0.95))
        self.p_keep = rng.choice((0.4, 0.6))

    # ---- the draft
    def keep_top(self, card: str) -> bool:
        """Keep the card drawn (else it is discarded and the next one kept): actions are liked."""
        p = self.p_keep + (0.25 if is_action(card) else 0.0)
        return self.rng.random() < p

    # ---- colours and orders
    def name_colour(self, hand: list[str]) -> str:
        held = Counter(c[0] for c in hand if not is_wild(c))
        if not held or self.rng.random() < 0.2:
            return self.rng.choice(COLOURS)
        best = max(held.values())
        return self.rng.choice(sorted(c for c, n in held.items() if n == best))

    def order_run(self, cards: list[str]) -> list[str]:
        """The order of a run's cards after its Reverse: often an action card last (it acts, U7)."""
        cards = list(cards)
        self.rng.shuffle(cards)
        actions = [c for c in cards if is_action(c)]
        if actions and self.rng.random() < 0.6:
            last = self.rng.choice(actions)
            cards.remove(last)
            cards.append(last)
        return cards

    # ---- a turn
    def weight(self, move: Move, hand_size: int) -> float:
        cards = move.cards
        last = cards[-1]
        w = 1.0
        if move.run:
            w = 3.0 * (6.0 if len(cards) == hand_size else 1.0)
        elif base(last) == WD4:
            w = 1.0 if move.legit else 0.0
            if hand_size == 2:
                w *= 8.0  # the WD4's new turn then empties the hand: the 4 drawn are scored, never played
        elif is_wild(last):
            w = 0.6
        elif face(last) in ("+2", "S"):
            w = 2.0
        if len(cards) == hand_size and is_action(last):
            w *= 4.0  # a round ending on an action card
        return w

    def choose(self, moves: list[Move], hand_size: int) -> Move | None:
        """A move, or None to draw instead (always allowed: playing is optional)."""
        if not moves or self.rng.random() < self.p_draw:
            return None
        weights = [self.weight(m, hand_size) for m in moves]
        bluffs = [m for m in moves if base(m.cards[-1]) == WD4 and not m.legit]
        if bluffs and self.rng.random() < self.p_bluff:
            return self.rng.choice(bluffs)
        if sum(weights) == 0:
            return None
        return self.rng.choices(moves, weights)[0]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p
