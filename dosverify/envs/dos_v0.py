"""DOS as a PettingZoo AEC environment, version 0: built for DOS spec 1.4.0 (``SPEC_VERSION``).

The action space is one fixed ``Discrete`` for 2 to 4 players, at the level of meaning (docs/moves.md,
"PettingZoo", holds the index order): two copies of one card kind are the same action, a match is
named by the Center Row card kind, the hand card kinds and the bonus it earns. The card kinds and the
matches that can add up come from ``spec/dos/deck.toml``; a new spec version that changes them makes
a ``dos_v1``.

    from dosverify.envs import dos_v0
    env = dos_v0.env(players=3)
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from ..moves.model import Move
from ..spec import spec_file
from .base import CardTableEnv, Codec

SPEC_VERSION = "1.4.0"
MAX_PLAYERS = 4
NAMES = ("player_0", "player_1", "player_2", "player_3")

# the fixed actions, then a `place` per card kind, then every single match, then every double
DRAW, PASS, DOS, END, NOOP = 0, 1, 2, 3, 4
CATCH = 5  # CATCH + k - 1: catch the seat k places to the left (k = 1..3)
PLACE = CATCH + MAX_PLAYERS - 1


@cache
def kinds() -> tuple[str, ...]:
    """The card kinds in deck order (colour R, G, B, Y; numbers up, `#`; the Wild DOS), from the deck."""
    deck = spec_file("deck.toml", "dos")
    return (*(f"{c}{face}" for c in deck["colours"] for face in deck["per_colour"]), "W2")


@cache
def _readings(kind: str) -> list[tuple[int, str, str]]:
    """(number, colour, code as declared) for each way a card kind may count, smallest first."""
    colours = spec_file("deck.toml", "dos")["colours"]
    if kind == "W2":
        return [(2, c, f"W2={c}") for c in colours]
    if kind[1:] == "#":
        return [(n, kind[0], f"{kind}={n}") for n in range(1, 11)]
    return [(int(kind[1:]), kind[0], kind)]


def _match_lines(target: str, cards: tuple[str, ...]) -> dict[bool, str]:
    """For each bonus a match may earn (colour or not), the line with the smallest declarations."""
    got: dict[bool, str] = {}
    for tn, tc, tcode in _readings(target):
        combos: list[tuple[tuple[int, ...], tuple[str, ...], str]]
        if len(cards) == 1:
            combos = [((hn,), (hc,), hcode) for hn, hc, hcode in _readings(cards[0])]
        else:
            combos = [
                ((an, bn), (ac, bc), f"{acode} + {bcode}")
                for an, ac, acode in _readings(cards[0])
                for bn, bc, bcode in _readings(cards[1])
            ]
        for nums, cols, code in combos:
            if sum(nums) == tn:
                got.setdefault(all(c == tc for c in cols), f"match {tcode} with {code}")
    return got


@cache
def actions() -> tuple[tuple[str, ...], dict[tuple, int]]:
    """The action names in index order, and each match's index by (target, cards, colour)."""
    ks = kinds()
    names = ["draw", "pass", "dos", "end", "noop", *(f"catch +{k}" for k in range(1, MAX_PLAYERS))]
    names += [f"place {k}" for k in ks]
    index: dict[tuple, int] = {}
    lines: list[str] = []
    pairs = [(a,) for a in ks] + [(a, b) for i, a in enumerate(ks) for b in ks[i:]]
    for cards in pairs:  # every single match first, then every double
        for target in ks:
            for colour, line in sorted(_match_lines(target, cards).items()):
                index[(target, cards, colour)] = len(names) + len(lines)
                lines.append(line)
    return tuple(names + lines), index


@cache
def _deck_order() -> dict[str, int]:
    return {k: i for i, k in enumerate(kinds())}


def _colour(code: str) -> str:
    return code[3] if code.startswith("W2=") else code[0]


@cache
def match_key(line: str) -> tuple:
    """(target kind, hand kinds in deck order, colour bonus) of a canonical `match` line."""
    words = line.split()
    codes = [words[1], *words[3::2]]
    target, hand = codes[0], codes[1:]
    order = _deck_order()
    cards = tuple(sorted((c.split("=")[0] for c in hand), key=order.__getitem__))
    return target.split("=")[0], cards, all(_colour(c) == _colour(target) for c in hand)


class DosCodec(Codec):
    """DOS's actions and observation (docs/moves.md, "PettingZoo")."""

    game = "dos"
    NOOP, DRAW, END = NOOP, DRAW, END

    def __init__(self) -> None:
        self.names, self.match_index = actions()
        self.n_actions = len(self.names)
        self.kind_index = {k: i for i, k in enumerate(kinds())}
        self.obs_size = 2 * len(self.kind_index) + 21

    def turn_player(self, env: CardTableEnv) -> str | None:
        assert env.table is not None
        t = env.table.position.tb.t  # type: ignore[attr-defined]
        return None if t is None else t.player

    def action_of(self, env: CardTableEnv, agent: str, move: Move) -> int:
        kind = move.kind
        if kind == "match":
            return self.match_index[match_key(move.line)]
        if kind == "place":
            return PLACE + self.kind_index[move.line.split()[1]]
        if kind == "pass":
            return PASS
        if kind == "dos":
            return DOS
        if kind == "catch":
            seats = env.possible_agents
            return CATCH + (seats.index(move.line.split()[1]) - seats.index(agent)) % len(seats) - 1
        raise ValueError(f"`{move.line}` is no decision of {agent}'s")

    def line_of(self, env: CardTableEnv, agent: str, action: int) -> str | None:
        if not 0 <= action < self.n_actions or action in (END, NOOP):
            return None
        name = self.names[action]
        if action == DRAW:
            return f"draw {agent}"
        if action == DOS:
            return f"dos {agent}"
        if name.startswith("catch +"):
            seats = env.possible_agents
            k = int(name[7:])
            if k >= len(seats):
                return None
            return f"catch {seats[(seats.index(agent) + k) % len(seats)]} by {agent}"
        return name  # pass, place K, or a match line

    def reward(self, env: CardTableEnv, move: Move) -> dict[str, float]:
        """score.round: the round's winner gains its points, the others share the loss."""
        _, winner, points = move.line.split()
        n, others = float(points), len(env.possible_agents) - 1
        return {a: (n if a == winner else -n / others) for a in env.possible_agents}

    def encode(self, env: CardTableEnv, agent: str) -> np.ndarray:
        """The acting seat's view (docs/moves.md, "PettingZoo"): its own hand, the Center Row, the
        others' card counts, pile sizes, totals, calls, the turn; never another seat's cards."""
        assert env.table is not None
        tb: Any = env.table.position.tb  # type: ignore[attr-defined]  # the DOS generator's table: read, never changed
        k = len(self.kind_index)
        out = np.zeros(self.obs_size, dtype=np.int32)
        for c in tb.hands[agent]:
            if c in self.kind_index:
                out[self.kind_index[c]] += 1
        for c in tb.cr:
            if c in self.kind_index:
                out[k + self.kind_index[c]] += 1
        seats = env.possible_agents
        i, base = seats.index(agent), 2 * k
        for j in range(len(seats)):
            q = seats[(i + j) % len(seats)]
            out[base + j] = len(tb.hands[q])  # j = 0: the agent itself
            out[base + 4 + j] = tb.totals[q]
            out[base + 8 + j] = 1 if tb.called[q] else 0
            out[base + 12 + j] = 1
        t = tb.t
        out[base + 16] = tb.pile_n
        out[base + 17] = sum(tb.discard.values())
        out[base + 18] = 1 if t is not None and t.player == agent else 0
        out[base + 19] = t.matches if t is not None else 0
        out[base + 20] = tb.round_no
        return out


def raw_env(players: int | list[str] = 2, render_mode: str | None = None, **table_kw: Any) -> CardTableEnv:
    """DOS for 2 to 4 players (a count: seats player_0 to player_3; or their names), its whole game an episode;
    `ruleset=` and `options=` as ``Table.new`` takes them."""
    names = list(NAMES[:players]) if isinstance(players, int) else list(players)
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"DOS is played by 2 to {MAX_PLAYERS} players, not {len(names)}")
    env = CardTableEnv(DosCodec(), names, render_mode=render_mode, **table_kw)
    env.metadata = {**env.metadata, "name": "dos_v0"}
    return env


def env(players: int | list[str] = 2, render_mode: str | None = None, explain_illegal: bool = False, **table_kw: Any):
    """raw_env wrapped as PettingZoo's classic games are (order enforced, actions in range); with
    `explain_illegal` an illegal action is refused with the referee's findings in `info`."""
    from .wrappers import wrap

    return wrap(raw_env(players, render_mode, **table_kw), explain_illegal)
