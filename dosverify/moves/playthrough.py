"""Golden playthroughs of the move API (issue 33, "What to build" 5), as OpenSpiel's: a seeded game
played by a seeded random bot, with the legal lines recorded at every step, so that a change of a
move generator shows up as the first step whose listing moved, and an outside engine can hold its
own listing equal to ours (docs/engines.md, "Playthroughs").

A file is JSON lines: a head (the game, its players, seed, ruleset, options, the header lines),
then one record per step: who is to move, the count of legal lines, the hash of the sorted listing
(:func:`listing_hash`), the line played (and the lines it wrote when they are more: a round's
deal), the full listing every :data:`FULL_EVERY` th step; the last record is the position where
play stopped (no line played, its full listing, the scores). Pack-agnostic: any game whose pack
declares ``moves`` can be recorded.

    python -m dosverify.moves.playthrough --game dos --players 2 --seed 1 > FILE
    python -m dosverify.moves.playthrough            # the stored ones equal a fresh recording? (exit 1 if not)
    python -m dosverify.moves.playthrough --update   # rewrite the stored ones (a change meant)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .model import CHANCE, Move
from .table import DEAL, Table

ROOT = Path(__file__).resolve().parents[2]
FULL_EVERY = 10  # the full listing is stored at every step divisible by this, and at the last
NAMES = ("ann", "bob", "cyd", "dan")
MAX_STEPS = 20_000  # a bound on a recording, far above any one-round game


@dataclass(frozen=True)
class Spec:
    """One stored playthrough: the game and how it is played (seeded deals, seeded bot)."""

    game: str
    players: int
    seed: int
    ruleset: str = "official"
    options: dict[str, str] = field(default_factory=dict)
    rounds: int = 1  # play stops where round `rounds + 1` would be dealt (or at the game's end)

    @property
    def name(self) -> str:
        return f"{self.game.replace('-', '_')}_{self.players}p_{self.ruleset}_seed{self.seed}"

    def path(self, directory: Path | None = None) -> Path:
        return (directory or ROOT / "fixtures" / self.game / "playthroughs") / f"{self.name}.jsonl"


def stored() -> tuple[Spec, ...]:
    """The stored playthroughs (fixtures/<game>/playthroughs/), each told by its file's head line:
    the core names no game, and a game gets one by storing its file (`--game ... > FILE`)."""
    specs = []
    for path in sorted((ROOT / "fixtures").glob("*/playthroughs/*.jsonl")):
        head = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        players, ruleset = len(head["players"]), head["ruleset"]
        specs.append(Spec(head["game"], players, head["seed"], ruleset, head["options"], head["rounds"]))
    return tuple(specs)


def listing_hash(lines: list[str]) -> str:
    """sha256 of the listing's lines, sorted by code point and each ended by a newline, in UTF-8;
    the first 16 hex digits."""
    return hashlib.sha256("".join(f"{line}\n" for line in sorted(lines)).encode("utf-8")).hexdigest()[:16]


def _stops(table: Table, listing: list[Move], rounds: int) -> bool:
    """Play stops at the game's end, or where the deal of round `rounds + 1` is listed."""
    return not listing or any(m.kind == DEAL and m.line == f"round {rounds + 1}" for m in listing)


def _step(i: int, table: Table, listing: list[Move], full: bool) -> dict:
    record: dict = {"step": i, "to_move": table.to_move, "count": len(listing),
                    "hash": listing_hash([m.line for m in listing])}  # fmt: skip
    if full:
        record["moves"] = [m.to_dict() for m in listing]
    return record


def record(spec: Spec) -> tuple[list[dict], list[list[Move]]]:
    """A fresh recording of `spec`: its records (as stored) and the listing at every step."""
    players = list(NAMES[: spec.players])
    table = Table.new(spec.game, players, ruleset=spec.ruleset, options=spec.options, seed=spec.seed)
    bot = random.Random(spec.seed)  # the players' picks; chance is the table's own (play_chance)
    head = {"playthrough": 1, "game": spec.game, "players": players, "seed": spec.seed, "ruleset": spec.ruleset,
            "options": spec.options, "rounds": spec.rounds, "full_every": FULL_EVERY,
            "lines": table.log().splitlines()}  # fmt: skip
    records, listings = [head], []
    for i in range(MAX_STEPS):
        listing = table.legal_moves()
        listings.append(listing)
        if _stops(table, listing, spec.rounds):
            end = _step(i, table, listing, full=True)
            end.update(played=None, end="game over" if not listing else f"round {spec.rounds + 1} is dealt next",
                       scores=table.scores)  # fmt: skip
            records.append(end)
            return records, listings
        step = _step(i, table, listing, full=i % FULL_EVERY == 0)
        before = len(table.log().splitlines())
        move = table.play_chance() if table.to_move == CHANCE else table.play(bot.choice(listing))
        written = table.log().splitlines()[before:]
        step["played"] = move.line
        if written != [move.line]:
            step["written"] = written
        records.append(step)
    raise RuntimeError(f"playthrough {spec.name}: no end after {MAX_STEPS} steps")


def render(records: list[dict]) -> str:
    return "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in records)


def log_of(records: list[dict]) -> str:
    """The game a playthrough played, as a log: the head's lines, then each step's written lines."""
    lines = list(records[0]["lines"])
    for r in records[1:]:
        if r.get("played") is not None:
            lines += r.get("written", [r["played"]])
    return "\n".join(lines) + "\n"


def _show(moves: list | None, count: int, digest: str) -> str:
    if moves is None:
        return f"{count} lines, hash {digest} (the full listing is stored every {FULL_EVERY}th step only)"
    return f"{count} lines, hash {digest}:\n" + "\n".join(f"      {m['line']}" for m in moves)


def compare(spec: Spec, directory: Path | None = None) -> str | None:
    """None when the stored playthrough equals a fresh recording, else the first differing step
    with both listings (the stored one as far as it was stored)."""
    path = spec.path(directory)
    if not path.exists():
        return f"{spec.name}: no stored playthrough at {path} (run `python -m dosverify.moves.playthrough --update`)"
    stored = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    fresh, listings = record(spec)
    if stored[:1] != fresh[:1]:
        return f"{spec.name}: the head differs:\n  stored {json.dumps(stored[0])}\n  now    {json.dumps(fresh[0])}"
    for old, new, listing in zip(stored[1:], fresh[1:], listings, strict=False):
        if old == new:
            continue
        i = new["step"]
        now = [m.to_dict() for m in listing]
        olds = {m["line"] for m in old.get("moves", [])} if "moves" in old else None
        extra = "" if olds is None else (
            f"\n  only stored: {sorted(olds - {m['line'] for m in now})}"
            f"\n  only now:    {sorted({m['line'] for m in now} - olds)}"
        )  # fmt: skip
        wrote = ""
        if old.get("written") != new.get("written"):  # the same move wrote other lines (a deal, a reshuffle)
            was, got = old.get("written", [old.get("played")]), new.get("written", [new.get("played")])
            first = next((k for k, (a, b) in enumerate(zip(was, got, strict=False)) if a != b), min(len(was), len(got)))
            wrote = (
                f"\n  written: line {first + 1} of the move's lines differs:"
                f"\n    stored {was[first] if first < len(was) else '(none)'}"
                f"\n    now    {got[first] if first < len(got) else '(none)'}"
            )
        return (
            f"{spec.name}: step {i} differs (to move: stored {old.get('to_move')}, now {new['to_move']};"
            f" played: stored {old.get('played')!r}, now {new.get('played')!r})\n"
            f"  stored listing: {_show(old.get('moves'), old.get('count', 0), old.get('hash', ''))}\n"
            f"  now listing:    {_show(now, new['count'], new['hash'])}{extra}{wrote}"
        )
    if len(stored) != len(fresh):
        return f"{spec.name}: {len(stored) - 1} stored steps, {len(fresh) - 1} now"
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dosverify.moves.playthrough", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", help="record one playthrough of this game to stdout")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ruleset", default="official")
    p.add_argument("--rounds", type=int, default=1, help="rounds played before it stops (default 1)")
    p.add_argument("--update", action="store_true", help="rewrite the stored playthroughs")
    p.add_argument("--dir", type=Path, help="read and write the stored playthroughs here (all in one folder)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.game:
        sys.stdout.write(render(record(Spec(args.game, args.players, args.seed, args.ruleset, rounds=args.rounds))[0]))
        return 0
    from ..resources import checkout, needs_checkout

    if checkout() is None and args.dir is None:  # an install: never write into it
        print(needs_checkout("the stored playthroughs"), file=sys.stderr)
        return 2
    status = 0
    for spec in stored():
        if args.update:
            path = spec.path(args.dir)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(record(spec)[0]), encoding="utf-8")
            print(f"wrote {path}")
        elif diff := compare(spec, args.dir):
            print(diff)
            status = 1
        else:
            print(f"{spec.name}: unchanged")
    if status:
        print("\n(when the change is intended: `python -m dosverify.moves.playthrough --update`)")
    return status


if __name__ == "__main__":
    sys.exit(main())
