"""Random self-play through the move API (issue 33, "Speed"): steps per second for DOS with 2 and 4
players and for UNO Duo, beside RLCard 1.2's UNO in a bare ``env.step`` loop with random legal
actions, in the same run, and the ratios to it (goals: UNO Duo at least 1.0, DOS at least 0.5).

A step is one listing (``legal_moves``) and one ``push`` of a move picked at random among those
listed (chance moves too: a draw's card, a reshuffle, the next round's deal), through the generator
path; the ``Table`` rows play the same loop through the core's table (its history for ``pop``
included, chance moves picked by probability). RLCard is a bench-only dependency
(``pip install rlcard==1.2.0``); without it its row says so. Replaces bench/moves_dos.py and
bench/moves_uno_duo.py.

    python bench/moves.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import print_table

from dosverify.games import find_game
from dosverify.moves.table import Table

NAMES = ["ann", "bob", "cyd", "dan"]
Rate = tuple[int, float, int]  # steps, seconds, games


def generator(game: str, players: int, seconds: float) -> Rate:
    """Whole games one after another (a new seed each), pushed on the pack's position."""
    moves = find_game(game).moves()
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pos = moves.new(NAMES[:players], "official", {}, games)
        rng = random.Random(games)
        games += 1
        for _ in range(200_000):
            listed = pos.legal_moves()
            if not listed:
                break
            pos.push(rng.choice(listed))
            steps += 1
    return steps, time.perf_counter() - start, games


def table(game: str, players: int, seconds: float) -> Rate:
    """The same loop through the core's Table (a bot's loop: play_chance at a chance node)."""
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        t = Table.new(game, NAMES[:players], seed=games)
        rng = random.Random(games)
        games += 1
        for _ in range(200_000):
            listed = t.legal_moves()
            if not listed:
                break
            t.play_chance() if t.to_move == "chance" else t.play(rng.choice(listed))
            steps += 1
    return steps, time.perf_counter() - start, games


def rlcard_uno(seconds: float) -> Rate | None:
    """RLCard UNO's bare loop: ``env.step`` of a random legal action until the game is over."""
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        games += 1
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return steps, time.perf_counter() - start, games


def _long_log(game: str) -> str:
    """A simulated log of `game` of about 1,000 lines or more (whole games, rounds to a high target)."""
    if game == "dos":
        from dosverify.games.dos.simulate import simulate_text

        return simulate_text(3, 0, "official", rounds=15, target=5000)
    from dosverify.games.uno_duo.simulate import simulate

    return simulate(seed=0, whole_game=True, target=2000)


def prefix_ratio(game: str = "dos", reps: int = 9) -> tuple[int, float, float]:
    """`moves --after N` (a table read from a log's first N lines, and the answer the command prints:
    its listing, the prefix's findings) beside `check` of the same lines, on a simulated log of
    about 1,000 lines (goal: within 2x); each the median of `reps` runs, the two interleaved so
    that a busy machine weighs on both alike."""
    from dosverify.api import check
    from dosverify.moves.answer import answer

    text = _long_log(game)
    lines = text.splitlines()[:1000]
    n = max(k for k in range(len(lines), 0, -1) if lines[k - 1].strip().startswith("turn"))
    cut = "\n".join(lines[:n]) + "\n"
    runs: dict[str, list[float]] = {"check": [], "moves": []}
    jobs: dict[str, Callable[[], object]] = {
        "check": lambda: check(cut),
        "moves": lambda: answer(Table.from_log(text, n)),
    }
    for name in [*jobs, *jobs]:  # warm both (the spec, the grammar, the caches) before timing
        jobs[name]()
    for _ in range(reps):
        for name, fn in jobs.items():
            t0 = time.process_time()  # CPU time: the machine's other load weighs less than on a clock
            fn()
            runs[name].append(time.process_time() - t0)
    return n, statistics.median(runs["check"]), statistics.median(runs["moves"])


def print_prefix_ratios() -> None:
    for game in ("dos", "uno-duo"):
        n, checked, listed = prefix_ratio(game)
        print(f"moves --after {n} ({find_game(game).title}): {listed * 1000:.1f} ms; check of those lines:"
              f" {checked * 1000:.1f} ms; ratio {listed / checked:.2f} (goal: at most 2; CPU time, medians of 9 interleaved runs)")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time each loop runs (default 5)")
    ap.add_argument("--after-only", action="store_true", help="only the `moves --after` against `check` ratio")
    args = ap.parse_args(argv)
    s = args.seconds
    if args.after_only:
        print_prefix_ratios()
        return 0
    loops: list[tuple[str, str | None, Callable[[], Rate | None]]] = [
        ("RLCard 1.2 UNO, env.step", None, lambda: rlcard_uno(s)),
        ("DOS, 2 players (generator)", "0.5", lambda: generator("dos", 2, s)),
        ("DOS, 4 players (generator)", "0.5", lambda: generator("dos", 4, s)),
        ("UNO Duo (generator)", "1.0", lambda: generator("uno-duo", 2, s)),
        ("DOS, 2 players (Table)", None, lambda: table("dos", 2, s)),
        ("UNO Duo (Table)", None, lambda: table("uno-duo", 2, s)),
    ]
    base: float | None = None
    rows = []
    for name, goal, run in loops:
        got = run()
        if got is None:
            rows.append([name, "-", "-", "-", "not installed (pip install rlcard==1.2.0)", ""])
            continue
        rate = got[0] / got[1]
        base = rate if base is None and name.startswith("RLCard") else base
        ratio = f"{rate / base:.2f}" if base else "n/a"
        rows.append([name, got[0], got[2], f"{rate:,.0f}", ratio, goal or ""])
    print_table(["loop", "steps", "games", "steps/s", "vs RLCard", "goal"], rows, right={1, 2, 3, 4, 5})
    print()
    print_prefix_ratios()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
