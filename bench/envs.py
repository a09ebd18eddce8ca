"""Steps/s of the PettingZoo environments (issue 34's speed goal: each at least 1.0 of PettingZoo's
RLCard-backed ``texas_holdem_v4``), every env through the same AEC loop with masked random actions,
in the same run.

A step is one ``env.step`` of the AEC loop (``agent_iter``, ``last``, a random action among those the
mask allows), the dead agents' ``step(None)`` at a game's end included, as PettingZoo's own
``performance_benchmark`` counts them; games are played to their end (the last one cut at the time), a new one reset each time.
``texas_holdem_v4`` needs rlcard and pygame (bench-only: ``pip install rlcard==1.2.0 pygame``);
without them its row says so.

    python bench/envs.py [--seconds 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import print_table


def aec_loop(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, float, int]:
    """Steps, seconds and games of masked random play through the AEC loop, timed by this process's
    CPU time: on the shared machine a wall clock counts the other work's share too, and swung the
    ratios of one run (0.93 and 1.38 for DOS at 2 players at a load of 13)."""
    env = make()
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=seed + games)
        games += 1
        for _agent in env.agent_iter():
            if steps % 256 == 0 and time.process_time() - start >= seconds:
                break  # a long game (UNO Duo's run to thousands of steps) stops on time too
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
    return steps, time.process_time() - start, games


def texas_holdem() -> Callable[[], Any] | str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import texas_holdem_v4
    except ImportError as exc:
        return f"not run: {exc} (pip install rlcard==1.2.0 pygame)"
    return texas_holdem_v4.env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time each loop runs (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    from dosverify.envs import dos_v0, uno_duo_v0

    loops: list[tuple[str, Callable[[], Any] | str]] = [
        ("texas_holdem_v4 (PettingZoo, RLCard)", texas_holdem()),
        ("dos_v0, 2 players", lambda: dos_v0.env(players=2)),
        ("dos_v0, 4 players", lambda: dos_v0.env(players=4)),
        ("uno_duo_v0", lambda: uno_duo_v0.env()),
    ]
    rows, rates = [], {}
    for name, make in loops:
        if isinstance(make, str):
            rows.append([name, "-", "-", "-", make])
            continue
        steps, secs, games = aec_loop(make, args.seconds, args.seed)
        rates[name] = steps / secs
        rows.append([name, steps, f"{secs:.1f}", games, f"{steps / secs:,.0f}"])
    print_table(["env", "steps", "s", "games", "steps/s"], rows, right={1, 2, 3, 4})
    base = rates.get(loops[0][0])
    if base:
        print()
        for name, rate in rates.items():
            if name != loops[0][0]:
                print(f"{name} / texas_holdem_v4 steps/s: {rate / base:.2f} (goal: at least 1.0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
