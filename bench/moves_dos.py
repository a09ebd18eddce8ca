"""Random self-play through DOS's move generator (issue 33): steps per second, each step one listing
(`legal_moves`) and one `push` of a random listed move, for 2 and 4 players; beside it, in the same
run, RLCard 1.2's UNO in a bare `env.step` loop with random legal actions, when rlcard is installed
(a bench-only dependency: `pip install rlcard==1.2.0`). Goal: DOS at least 0.5 of RLCard's steps/s.

    python bench/moves_dos.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table import print_table

from dosverify.games.dos.moves import DosMoves

NAMES = ["ann", "bob", "cyd", "dan"]


def dos_rate(players: int, seconds: float) -> tuple[float, int]:
    """Steps/s of random self-play, whole games one after another (a new seed each)."""
    moves, steps, seed = DosMoves(), 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos = moves.new(NAMES[:players], "official", {}, seed)
        rng = random.Random(seed)
        while ms := pos.legal_moves():
            pos.push(rng.choice(ms))
            steps += 1
        seed += 1
    return steps / (time.perf_counter() - start), seed


def rlcard_rate(seconds: float) -> tuple[float, int] | None:
    """Steps/s of RLCard's UNO (`env.step` with a random legal action), or None without rlcard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    steps, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        games += 1
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _ = env.step(action)
            steps += 1
    return steps / (time.perf_counter() - start), games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="time per row (default 10)")
    args = ap.parse_args(argv)
    rows = []
    uno = rlcard_rate(args.seconds)
    for players in (2, 4):
        rate, games = dos_rate(players, args.seconds)
        ratio = f"{rate / uno[0]:.2f}" if uno else "n/a"
        rows.append([f"DOS, {players} players (moves generator)", f"{rate:,.0f}", games, ratio])
    if uno:
        rows.append(["RLCard 1.2 UNO, env.step", f"{uno[0]:,.0f}", uno[1], "1.00"])
    else:
        rows.append(["RLCard 1.2 UNO", "not installed", "", ""])
    print_table(["loop", "steps/s", "games", "vs RLCard"], rows, right={1, 2, 3})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
