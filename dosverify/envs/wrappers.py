"""The wrappers ``env()`` puts around a raw environment: PettingZoo's own (order enforced, actions in
range), and, on request, one that allows an illegal action and explains it with the rule it breaks."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from .base import CardTableEnv


class ExplainIllegal(wrappers.BaseWrapper):
    """An action its mask forbids changes nothing: the same agent acts again, its reward is
    `illegal_reward`, and its ``info["illegal"]`` holds the action, the line it stands for and the
    referee's findings for that line (``Table.explain``: rule, message, line)."""

    def __init__(self, env: Any, illegal_reward: float = 0.0) -> None:
        super().__init__(env)
        self.illegal_reward = illegal_reward

    def step(self, action: Any) -> None:
        raw: CardTableEnv = self.env.unwrapped
        agent = raw.agent_selection
        dead = raw.terminations.get(agent) or raw.truncations.get(agent)
        if dead or action is None or int(action) in raw._choices:
            super().step(action)
            return
        verdict = raw.explain(agent, int(action))
        raw.infos[agent] = {
            "illegal": {
                "action": int(action),
                "line": None if verdict is None else verdict.line,
                "findings": [] if verdict is None else [f.to_dict() for f in verdict.findings],
            }
        }
        raw.rewards = dict.fromkeys(raw.agents, 0.0)
        raw.rewards[agent] = self.illegal_reward
        raw._cumulative_rewards[agent] = 0.0
        raw._accumulate_rewards()


def wrap(raw: CardTableEnv, explain_illegal: bool = False) -> Any:
    env: Any = raw
    if explain_illegal:
        env = ExplainIllegal(env)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
