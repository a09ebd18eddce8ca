"""What both environments share: a game on the move API's table as a PettingZoo AEC environment.

The table lists (the mask comes from ``legal_moves()``) and plays (a step is ``play()`` of a listed
move, so no referee on the hot path: tests hold the listing equal to the referee). A game's codec
(``dos_v0``, ``uno_duo_v0``) says which listed lines an action index stands for and what a seat sees.
The env plays what nobody chooses itself: chance lines by their probabilities with its own random
source seeded by ``reset(seed=...)``, and the table's lines (``turn``, ``score``, ``totals``,
``winner``, ``round``). Catches (and calls) by a player not on turn: after each action, every
other agent with such a line gets one step whose mask is those lines and ``noop``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..moves.model import CHANCE, TABLE, Move
from ..moves.table import Table

#: The table's own lines, played by the env in this order of preference when several are listed
#: (the optional `totals` before the next round or the winner).
_TABLE_ORDER = ("totals", "score", "turn", "round", "winner")


class EnvTable(Table):
    """The table an episode plays on: no history kept (an episode never takes a move back, and a
    copy of the position per step is most of a step's time), everything else the table's own."""

    def _push(self, move: Move) -> None:
        self._pos.push(move)
        self._listing, self._explained = None, {}

    def pop(self) -> None:
        raise IndexError("an environment's table keeps no history")


class IllegalAction(ValueError):
    """An action its mask forbids; carries the referee's verdict on the line it stands for (or None)."""

    def __init__(self, message: str, verdict: Any = None) -> None:
        super().__init__(message)
        self.verdict = verdict


class Codec:
    """A game's action space and observation encoding (one subclass per environment)."""

    game: str
    n_actions: int
    obs_size: int
    NOOP: int
    DRAW: int
    END: int

    def turn_player(self, env: CardTableEnv) -> str | None:
        """The player whose turn is being played (None between turns)."""
        raise NotImplementedError

    def action_of(self, env: CardTableEnv, agent: str, move: Move) -> int:
        """The action index a listed decision line of `agent` is."""
        raise NotImplementedError

    def encode(self, env: CardTableEnv, agent: str) -> np.ndarray:
        raise NotImplementedError

    def line_of(self, env: CardTableEnv, agent: str, action: int) -> str | None:
        """The line an action would write here (for explaining an illegal one), None when none."""
        raise NotImplementedError

    def reward(self, env: CardTableEnv, move: Move) -> dict[str, float]:
        """The zero-sum rewards a `score` line gives (the game's rule of who gains)."""
        raise NotImplementedError


class CardTableEnv(AECEnv):
    """A whole game as an episode; agents are the seats' names."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, codec: Codec, players: list[str], render_mode: str | None = None, **table_kw: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (the log so far) is offered")
        self.codec = codec
        self.render_mode = render_mode
        self.possible_agents = list(players)
        self._table_kw = table_kw
        box = spaces.Box(0, np.iinfo(np.int32).max, shape=(codec.obs_size,), dtype=np.int32)
        mask = spaces.Box(0, 1, shape=(codec.n_actions,), dtype=np.int8)
        self._obs_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._act_space = spaces.Discrete(codec.n_actions)
        self.table: EnvTable | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ---- episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.table = cast(EnvTable, EnvTable.new(self.codec.game, self.agents, seed=seed, **self._table_kw))
        self._chance = random.Random(f"{self.codec.game}:chance:{seed}")  # the env's chance source only
        self._queue: list[str] = []  # agents owed an out-of-turn step (catch, call) after the last action
        self._interrupt = False
        self._choices: dict[int, list[Move]] = {}
        self.steps = 0
        self._advance()

    def _decider(self) -> str | None:
        """The player whose choice it is: the player on turn when a line is theirs, else nobody
        while a chance or table line is listed (the env plays on), else whoever a line is of (the
        table's ``to_move``, from its cached listing)."""
        assert self.table is not None
        actors = {m.actor for m in self.table.legal_moves()}
        turn = self.codec.turn_player(self)
        if turn in actors:
            return turn
        if CHANCE in actors or TABLE in actors or not actors:
            return None
        return min(actors)

    def _own(self, agent: str) -> list[Move]:
        assert self.table is not None
        return [m for m in self.table.legal_moves() if m.actor == agent]

    def _advance(self) -> None:
        """Play what nobody chooses until an agent has a choice (or the game is over), and set the
        agent selected and its choices (action index -> the listed lines it stands for)."""
        table = self.table
        assert table is not None
        while True:
            while self._queue:  # the out-of-turn steps owed after the last action
                a = self._queue.pop(0)
                own = self._own(a)
                if own and a != self._decider():
                    self._select(a, own, interrupt=True)
                    return
            moves = table.legal_moves()
            if not moves:
                self._finish()
                return
            who = self._decider()
            if who is not None:
                self._select(who, [m for m in moves if m.actor == who], interrupt=False)
                return
            self._play_on(moves)

    def _play_on(self, moves: list[Move]) -> None:
        """One line nobody chooses: a chance line by its probability (the env's seeded source), else
        the table's line."""
        chances = [m for m in moves if m.chance]
        if chances:
            weights = [m.probability if m.probability is not None else 1.0 for m in chances]
            self._push(self._chance.choices(chances, weights)[0])
            return
        table_moves = [m for m in moves if m.actor == TABLE]
        pick = min(table_moves or moves, key=lambda m: _TABLE_ORDER.index(m.kind) if m.kind in _TABLE_ORDER else 9)
        self._push(pick)

    def _select(self, agent: str, own: list[Move], interrupt: bool) -> None:
        choices: dict[int, list[Move]] = {}
        for m in own:
            choices.setdefault(self.codec.action_of(self, agent, m), []).append(m)
        if interrupt:
            choices[self.codec.NOOP] = []
        else:
            rest = [m for m in self.table.legal_moves() if m.actor in (CHANCE, TABLE)]  # type: ignore[union-attr]
            if rest:  # the game may go on without a line of the agent's: a draw, or the turn's next step
                mine = any(m.kind == "draw" and m.line.split()[1] == agent for m in rest if m.chance)
                choices[self.codec.DRAW if mine else self.codec.END] = rest
        self.agent_selection, self._choices, self._interrupt = agent, choices, interrupt

    def _finish(self) -> None:
        self.terminations = dict.fromkeys(self.agents, True)
        self._choices = {}
        self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def _push(self, move: Move) -> None:
        assert self.table is not None
        self.table.play(move)
        if move.kind == "score":
            for a, r in self.codec.reward(self, move).items():
                self.rewards[a] += r

    # ---- the AEC API --------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.codec.n_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[list(self._choices)] = 1
        return {"observation": self.codec.encode(self, agent), "action_mask": mask}

    def action_mask(self) -> np.ndarray:
        return self.observe(self.agent_selection)["action_mask"]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        action = int(action)  # type: ignore[arg-type]
        if action not in self._choices:
            raise IllegalAction(self._illegal_message(agent, action), self.explain(agent, action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.steps += 1
        self.infos[agent] = {}
        self._act(agent, action)
        if action != self.codec.NOOP:  # every other agent may now catch or call, once each
            seats = self.possible_agents
            i = seats.index(agent)
            self._queue = [seats[(i + k) % len(seats)] for k in range(1, len(seats))]
        self._advance()
        self._accumulate_rewards()

    def _act(self, agent: str, action: int) -> None:
        """Play the lines `action` stands for: one listed line, or the game going on (draw, end)."""
        lines = self._choices[action]
        if action in (self.codec.DRAW, self.codec.END):
            self._play_on(lines)
        elif lines:
            self._push(lines[0])

    def explain(self, agent: str, action: int) -> Any:
        """The referee's verdict on the line `action` would write for `agent` here (None when it
        writes none)."""
        line = self.codec.line_of(self, agent, action)
        if line is None or self.table is None:
            return None
        return self.table.explain(line)

    def _illegal_message(self, agent: str, action: int) -> str:
        verdict = self.explain(agent, action)
        why = ""
        if verdict is not None and verdict.findings:
            f = verdict.findings[0]
            why = f": {f.rule}: {f.message}"
        return f"action {action} is not legal for {agent} here{why}"

    def render(self) -> str | None:
        if self.render_mode is None or self.table is None:
            return None
        return self.table.log()

    def close(self) -> None:
        pass


EnvFactory = Callable[..., AECEnv]
