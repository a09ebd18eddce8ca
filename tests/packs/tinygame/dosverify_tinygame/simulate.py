"""Seeded legal games of Tiny, in the notation `tiny 1` (the canonical rendering)."""

from __future__ import annotations

import random

from .log import CARDS, Round, TinyLog, Turn, write
from .referee import follows
from .spec import spec

PLAYERS = ("ann", "bob")


def simulate(
    *, seed: int, ruleset: str = "official", options: dict[str, str] | None = None, whole_game: bool = False
) -> str:
    rs = spec().ruleset(ruleset, options)
    rng = random.Random(seed)
    log = TinyLog(1, list(PLAYERS), ruleset=None if ruleset == "official" else ruleset, options=dict(options or {}))
    totals = dict.fromkeys(PLAYERS, 0)
    number = 0
    while True:
        number += 1
        deck = list(CARDS)
        rng.shuffle(deck)
        hands = {p: [deck.pop() for _ in range(5)] for p in PLAYERS}
        rnd = Round(number, {p: list(h) for p, h in hands.items()}, deck.pop())
        top = rnd.start
        player = PLAYERS[(number - 1) % 2]
        while all(hands.values()):
            can = [c for c in hands[player] if follows(c, top)]
            if can and (rs.opt("forced-play") == "must" or not deck or rng.random() < 0.8):
                card = rng.choice(can)
                hands[player].remove(card)
                top = card
                rnd.turns.append(Turn(player, "play", card))
            elif deck:
                card = deck.pop()
                hands[player].append(card)
                rnd.turns.append(Turn(player, "draw", card))
            else:
                break  # stuck with an empty pile: the round is over
            player = PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]
        for p in PLAYERS:
            if hands[p]:
                rnd.score[p] = sum(int(c[1:]) for c in hands[p])
                totals[p] += rnd.score[p]
        log.rounds.append(rnd)
        a, b = totals.values()
        if not whole_game:
            break
        if max(a, b) >= rs.target and a != b:
            log.winner = min(PLAYERS, key=lambda p: totals[p])
            break
    return write(log)
