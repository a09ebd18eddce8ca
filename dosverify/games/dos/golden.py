"""Golden playthroughs, in the style of OpenSpiel's: a few seeded games stored with the full
replayed state after every turn.

For each game in :data:`GAMES`, ``fixtures/dos/golden/`` holds ``NAME.log`` (the simulator's log)
and ``NAME.states.jsonl`` (one JSON object a line: the referee's
:meth:`~dosverify.games.dos.referee.Referee.snapshot` after every turn and after each round's score:
round, turn, player, hands, Center Row, draw and discard pile sizes, totals). A change to the
simulator, the notation writer or the referee that moves any of it shows up as a diff of the
first turn that differs.

``python -m dosverify.games.dos.golden`` checks the stored files against a fresh replay (exit 1 and the
first difference when they differ); ``--update`` rewrites them on purpose (after a change of
the specification), as does ``dosverify corpus golden --update``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
GOLDEN_DIR = ROOT / "fixtures" / "dos" / "golden"


@dataclass(frozen=True)
class Game:
    name: str
    players: int
    seed: int
    ruleset: str
    deck: bool = True
    game: bool = False
    target: int | None = None
    rounds: int | None = 1


GAMES: tuple[Game, ...] = (
    Game("official_2p_deck_seed3", 2, 3, "official"),
    Game("italian_3p_nodeck_seed7", 3, 7, "italian", deck=False),
    Game("strict_3p_deck_seed11", 3, 11, "strict"),
    Game("bosnian_4p_deck_game_t40_seed4", 4, 4, "bosnian", game=True, target=40, rounds=None),
)


def state_line(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def play(g: Game) -> tuple[str, list[str]]:
    """The game's log text and its state lines (one per turn and per score), freshly made."""
    from ...spec import load_spec
    from .notation.textstream import parse
    from .referee import Referee
    from .simulate import simulate_text

    text = simulate_text(g.players, g.seed, g.ruleset, rounds=g.rounds, game=g.game, deck=g.deck, target=g.target)
    parsed = parse(text)
    if parsed.malformed or parsed.log is None:
        raise RuntimeError(f"golden game {g.name}: the simulated log does not parse: {parsed.findings[:3]}")
    log = parsed.log
    rs = load_spec("dos").ruleset(log.ruleset or "official", log.options, log.target)
    states: list[str] = []
    ref = Referee(log, rs, visitor=lambda r: states.append(state_line(r.snapshot())))
    errors = [f for f in ref.run() if f.severity == "error"]
    if errors:
        f = errors[0]
        raise RuntimeError(f"golden game {g.name} is not legal: line {f.line}: {f.rule}: {f.message}")
    return text, states


def paths(g: Game, directory: Path = GOLDEN_DIR) -> tuple[Path, Path]:
    return directory / f"{g.name}.log", directory / f"{g.name}.states.jsonl"


def write(g: Game, directory: Path = GOLDEN_DIR) -> None:
    text, states = play(g)
    log_path, st_path = paths(g, directory)
    directory.mkdir(parents=True, exist_ok=True)
    log_path.write_bytes(text.encode("utf-8"))
    st_path.write_bytes(("\n".join(states) + "\n").encode("utf-8"))


def _describe(state: dict) -> str:
    return f"round {state.get('round')}, turn {state.get('turn')}, after {state.get('player')}"


def _state_diff(old: dict, new: dict, prefix: str = "") -> list[str]:
    out = []
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k, "<missing>"), new.get(k, "<missing>")
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            out += _state_diff(a, b, f"{prefix}{k}.")
        else:
            out.append(f"    {prefix}{k}: stored {json.dumps(a)}\n    {' ' * len(prefix + k)}  now    {json.dumps(b)}")
    return out


def compare(g: Game, directory: Path = GOLDEN_DIR) -> str | None:
    """None when the stored playthrough equals a fresh one, else a readable account of the
    first difference (the log's first differing lines, or the first differing turn)."""
    log_path, st_path = paths(g, directory)
    if not log_path.exists() or not st_path.exists():
        return f"{g.name}: no stored playthrough in {directory} (run `python -m dosverify.games.dos.golden --update`)"
    text, states = play(g)
    stored = log_path.read_bytes().decode("utf-8")
    if stored != text:
        diff = list(
            difflib.unified_diff(
                stored.splitlines(), text.splitlines(), f"stored {log_path.name}", f"fresh {g.name}", n=2, lineterm=""
            )
        )
        return (
            f"{g.name}: the log differs from a fresh simulation:\n"
            + "\n".join(diff[:40])
            + ("\n..." if len(diff) > 40 else "")
        )
    old = st_path.read_bytes().decode("utf-8").splitlines()
    for i, (a, b) in enumerate(zip(old, states, strict=False)):
        if a != b:
            sa, sb = json.loads(a), json.loads(b)
            return f"{g.name}: state line {i + 1} ({_describe(sb)}) differs from {st_path.name}:\n" + "\n".join(
                _state_diff(sa, sb)
            )
    if len(old) != len(states):
        return f"{g.name}: {len(old)} stored state lines, {len(states)} now"
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dosverify.games.dos.golden", description=__doc__.split("\n\n")[0])
    p.add_argument("--update", action="store_true", help="rewrite the stored playthroughs from a fresh replay")
    p.add_argument("--dir", type=Path, default=GOLDEN_DIR)
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    from ...resources import checkout, needs_checkout

    if checkout() is None and args.dir == GOLDEN_DIR:  # an install: never write into it
        print(needs_checkout("`corpus golden` without --dir"), file=sys.stderr)
        return 2
    if args.update:
        for g in GAMES:
            write(g, args.dir)
            print(f"wrote {paths(g, args.dir)[0].name} and {paths(g, args.dir)[1].name}")
        return 0
    status = 0
    for g in GAMES:
        d = compare(g, args.dir)
        if d:
            print(d)
            status = 1
        else:
            print(f"{g.name}: unchanged")
    if status:
        print("\n(when the change is intended: `python -m dosverify.games.dos.golden --update`)")
    return status


if __name__ == "__main__":
    sys.exit(main())
