"""UNO Duo as a PettingZoo AEC environment, version 0: built for UNO Duo spec 1.2.0 (``SPEC_VERSION``).

One action per card kind (a wild with the colour it names), plus draw, pass, `uno`, catch, challenge,
end and noop (docs/moves.md, "PettingZoo"). A run (several cards on one `play` line) is played one
card per step: the same agent acts again, its mask the cards that can still follow and ``end`` once
the cards chosen are a listed line; the line is played when the run is complete.

    from dosverify.envs import uno_duo_v0
    env = uno_duo_v0.env()
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import numpy as np

from ..moves.model import CHANCE, TABLE, Move
from ..spec import spec_file
from .base import CardTableEnv, Codec

SPEC_VERSION = "1.2.0"
NAMES = ("player_0", "player_1")
DRAW, PASS, UNO, CATCH, CHALLENGE, END, NOOP = range(7)
CARD = 7  # CARD + i: play the card kind kinds()[i] (a wild: with the colour it names)
NEEDS = ("ordinary", "again", "total", "wd4", "run", "run-may")


@cache
def bases() -> tuple[str, ...]:
    """The physical card kinds in deck order (colour R, G, B, Y; 0-9, Skip, Reverse, Draw 2; W, W+4)."""
    deck = spec_file("deck.toml", "uno-duo")
    return (*(f"{c}{face}" for c in deck["colours"] for face in deck["per_colour"]), "W", "W+4")


@cache
def kinds() -> tuple[str, ...]:
    """The card codes an action plays: each coloured kind, and each wild with each colour."""
    colours = spec_file("deck.toml", "uno-duo")["colours"]
    return (*bases()[:-2], *(f"{w}={c}" for w in ("W", "W+4") for c in colours))


def action_names() -> tuple[str, ...]:
    return ("draw", "pass", "uno", "catch", "challenge", "end", "noop", *(f"play {k}" for k in kinds()))


def _cards(line: str) -> list[str]:
    return line.split()[1:]


def _fits(prefix: list[str], cards: list[str]) -> bool:
    """The run chosen so far can still become the listed line `cards`."""
    return cards[0] == prefix[0] and not Counter(prefix[1:]) - Counter(cards[1:])


def _is(prefix: list[str], cards: list[str]) -> bool:
    """The run chosen is the listed line (first and last card as played; the middle in any order)."""
    return (
        len(prefix) == len(cards)
        and prefix[0] == cards[0]
        and prefix[-1] == cards[-1]
        and Counter(prefix[1:-1]) == Counter(cards[1:-1])
    )


class UnoDuoCodec(Codec):
    game = "uno-duo"
    NOOP, DRAW, END = NOOP, DRAW, END

    def __init__(self) -> None:
        self.card_index = {k: CARD + i for i, k in enumerate(kinds())}
        self.base_index = {k: i for i, k in enumerate(bases())}
        self.n_actions = CARD + len(self.card_index)
        self.obs_size = 3 * len(self.base_index) + 4 + len(NEEDS) + 8

    def turn_player(self, env: CardTableEnv) -> str | None:
        assert env.table is not None
        st = env.table.position.st  # type: ignore[attr-defined]
        return None if st is None or st.turn is None else st.turn.player

    def action_of(self, env: CardTableEnv, agent: str, move: Move) -> int:
        kind = move.kind
        if kind == "play":
            return self.card_index[_cards(move.line)[0]]
        fixed = {"pass": PASS, "uno": UNO, "catch": CATCH, "challenge": CHALLENGE}
        if kind in fixed:
            return fixed[kind]
        raise ValueError(f"`{move.line}` is no decision of {agent}'s")

    def line_of(self, env: CardTableEnv, agent: str, action: int) -> str | None:
        other = next(a for a in env.possible_agents if a != agent)
        if action >= CARD and action < self.n_actions:
            run = getattr(env, "run", [])
            return "play " + " ".join([*run, kinds()[action - CARD]])
        return {
            DRAW: f"draw {agent}",
            PASS: "pass",
            UNO: f"uno {agent}",
            CATCH: f"catch {other} by {agent}",
            CHALLENGE: "challenge",
        }.get(action)

    def reward(self, env: CardTableEnv, move: Move) -> dict[str, float]:
        """score.round: the player charged the points loses them, the other gains them."""
        _, charged, points = move.line.split()
        n = float(points)
        return {a: (-n if a == charged else n) for a in env.possible_agents}

    def encode(self, env: CardTableEnv, agent: str) -> np.ndarray:
        """The acting seat's view (docs/moves.md, "PettingZoo"): its hand, the top card and colour,
        the run chosen so far, what the turn faces, the other's card count, the piles, the totals."""
        assert env.table is not None
        pos: Any = env.table.position  # the UNO Duo generator's position: read, never changed
        st = pos.st
        k = len(self.base_index)
        out = np.zeros(self.obs_size, dtype=np.int32)
        other = next(a for a in env.possible_agents if a != agent)
        base = 3 * k
        if st is not None:
            for c, n in st.hands[agent].items():
                if n > 0 and c in self.base_index:
                    out[self.base_index[c]] = n
            if st.discards and st.discards[-1] in self.base_index:
                out[k + self.base_index[st.discards[-1]]] = 1
            if st.top_colour is not None:
                out[base + "RGBY".index(st.top_colour)] = 1
            t = st.turn
            if t is not None and t.player == agent:
                out[base + 4 + NEEDS.index(t.need)] = 1
                if t.need == "total" and t.facing is not None:
                    out[base + 4 + len(NEEDS) + 7] = t.facing.total or 0
            rest = base + 4 + len(NEEDS)
            out[rest] = sum(st.hands[other].values())
            out[rest + 1] = len(st.pile.slots)
            out[rest + 2] = len(st.discards)
            out[rest + 5] = 1 if t is not None and t.player == agent else 0
        for c in getattr(env, "run", []):
            b = c.split("=")[0]
            out[2 * k + self.base_index[b]] += 1
        rest = base + 4 + len(NEEDS)
        out[rest + 3] = pos.totals[agent]
        out[rest + 4] = pos.totals[other]
        out[rest + 6] = pos.number
        return out


class UnoDuoEnv(CardTableEnv):
    """The shared env, with a run built up one card per step."""

    codec: UnoDuoCodec

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.run: list[str] = []
        super().reset(seed, options)

    def _select(self, agent: str, own: list[Move], interrupt: bool) -> None:
        if not self.run:
            super()._select(agent, own, interrupt)
            return
        choices: dict[int, list[Move]] = {}
        for m in own:
            cards = _cards(m.line) if m.kind == "play" else []
            if cards and len(cards) > len(self.run) and _fits(self.run, cards):
                nxt = Counter(cards[1:]) - Counter(self.run[1:])
                for c in nxt:
                    choices.setdefault(self.codec.card_index[c], []).append(m)
            if cards and _is(self.run, cards):
                choices[END] = [m]
        self.agent_selection, self._choices, self._interrupt = agent, choices, False

    def _act(self, agent: str, action: int) -> None:
        lines = self._choices[action]
        if not self.run and (action < CARD or all(len(_cards(m.line)) == 1 for m in lines)):
            self.run = []
            super()._act(agent, action)
            return
        if action == END:  # the run chosen is complete: its line
            self.run = []
            self._push(lines[0])
            return
        self.run.append(kinds()[action - CARD])
        complete = [m for m in lines if _is(self.run, _cards(m.line))]
        if complete and all(len(_cards(m.line)) == len(self.run) for m in lines):
            self.run = []  # nothing can follow: the line is played
            self._push(complete[0])

    def step(self, action: int | None) -> None:
        """A card of a run (its first, or one after) is a step of its own: the same agent acts again
        and nobody steps in until the run's line is played."""
        a = None if action is None else int(action)
        lines = self._choices.get(a, []) if a is not None else []
        runs = a is not None and a >= CARD and (bool(self.run) or any(len(_cards(m.line)) > 1 for m in lines))
        if not runs:
            super().step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.steps += 1
        self.infos[agent] = {}
        self._act(agent, a)  # type: ignore[arg-type]
        if not self.run:  # the run's line was played: the other may now step in
            self._queue = [q for q in self.possible_agents if q != agent]
        self._advance()
        self._accumulate_rewards()


def raw_env(players: list[str] | None = None, render_mode: str | None = None, **table_kw: Any) -> UnoDuoEnv:
    """UNO Duo for its 2 players (default seats player_0, player_1), its whole game an episode;
    `ruleset=` and `options=` as ``Table.new`` takes them."""
    env = UnoDuoEnv(UnoDuoCodec(), list(players or NAMES), render_mode=render_mode, **table_kw)
    env.metadata = {**env.metadata, "name": "uno_duo_v0"}
    return env


def env(
    players: list[str] | None = None, render_mode: str | None = None, explain_illegal: bool = False, **table_kw: Any
):
    """raw_env wrapped as PettingZoo's classic games are (order enforced, actions in range); with
    `explain_illegal` an illegal action is refused with the referee's findings in `info`."""
    from .wrappers import wrap

    return wrap(raw_env(players, render_mode, **table_kw), explain_illegal)


__all__ = ["CHANCE", "TABLE", "env", "raw_env"]
