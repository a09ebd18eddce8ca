"""Random self-play through UNO Duo's move generator (issue 33's speed goal: UNO Duo at least 1.0
of RLCard UNO's steps/s), beside RLCard 1.2's UNO in a bare ``env.step`` loop with random legal
actions, in the same run.

A step is one listing plus one push of a move picked at random among those listed (chance moves
too: a draw's card, a reshuffle, the next round's deal), as a bot's loop makes it. RLCard is a
bench-only dependency (`pip install rlcard==1.2.0`); without it its row says so.

    python bench/moves_uno_duo.py [--seconds 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import print_table

from dosverify.games.uno_duo import PACK


def uno_duo(seconds: float, seed: int) -> tuple[int, float, int]:
    """Steps, seconds and games of random self-play through the generator path."""
    moves = PACK.moves()
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos = moves.new(["ann", "bob"], "official", {}, seed + games)
        games += 1
        for _ in range(100_000):
            listed = pos.legal_moves()
            if not listed:
                break
            pos.push(rng.choice(listed))
            steps += 1
    return steps, time.perf_counter() - start, games


def rlcard_uno(seconds: float, seed: int) -> tuple[int, float, int] | str:
    """RLCard UNO's bare loop: ``env.step`` of a random legal action until the game is over."""
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return "rlcard is not installed (pip install rlcard==1.2.0)"
    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        games += 1
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return steps, time.perf_counter() - start, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time each loop runs (default 5)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ours = uno_duo(args.seconds, args.seed)
    theirs = rlcard_uno(args.seconds, args.seed)
    rows = [["UNO Duo (dosverify moves)", ours[0], f"{ours[1]:.1f}", ours[2], f"{ours[0] / ours[1]:,.0f}"]]
    if isinstance(theirs, str):
        rows.append(["RLCard 1.2 UNO", "-", "-", "-", theirs])
    else:
        rows.append(
            ["RLCard 1.2 UNO (env.step)", theirs[0], f"{theirs[1]:.1f}", theirs[2], f"{theirs[0] / theirs[1]:,.0f}"]
        )
    print_table(["loop", "steps", "s", "games", "steps/s"], rows, right={1, 2, 3, 4})
    if not isinstance(theirs, str):
        ratio = (ours[0] / ours[1]) / (theirs[0] / theirs[1])
        print(f"\nUNO Duo / RLCard UNO steps/s: {ratio:.2f} (goal: at least 1.0)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
