"""Dump the reports of many logs, and compare two dumps: a referee change that must not change
any report (findings, lines, messages) is checked by dumping before and after.

    .venv/bin/python bench/reports.py dump OUT.jsonl [--games N]
    .venv/bin/python bench/reports.py cmp OLD.jsonl NEW.jsonl

The logs: every fixture log of both games (fixtures/dos, fixtures/uno-duo: `.log` and `.json`),
N generated DOS games (1, 2 and 3 rounds to a target, 2-4 players, the four rulesets, with and
without `deck`), each game also with every mutation operator (dosverify.games.dos.mutate), three
card-code edits and three `turn` lines renamed to another player (the out-of-order turns of
READINGS R49), and N generated UNO Duo games (one round, or a whole game), each also with every UNO Duo
mutation operator. One JSON line each: the input's name and its whole
report (`Report.to_json_line`), or the exception it raised.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RULESETS = ("official", "italian", "bosnian", "strict")


def _rename_turn(text: str, rng: random.Random) -> str | None:
    lines = text.split("\n")
    players = re.search(r"(?m)^players (.*)$", text)
    sites = [i for i, ln in enumerate(lines) if ln.startswith("turn ")]
    if not sites or players is None:
        return None
    names = players.group(1).split()
    i = rng.choice(sites)
    who = lines[i].split()[1]
    lines[i] = f"turn {rng.choice([n for n in names if n != who] or names)}"
    return "\n".join(lines)


def inputs(games: int) -> Iterator[tuple[str, str | bytes]]:
    from dosverify.games.dos.mutate import OPERATORS, card_code_edit
    from dosverify.games.dos.simulate import simulate_text

    for path in sorted((ROOT / "fixtures").rglob("*")):
        if path.suffix in (".log", ".json") and path.is_file() and not path.name.endswith(".expected.json"):
            yield str(path.relative_to(ROOT)), path.read_bytes()
    for seed in range(games):
        r = random.Random(seed)
        game = seed % 3 != 0
        text = simulate_text(
            r.randint(2, 4), seed, r.choice(RULESETS), game=game, target=r.choice((40, 80)), deck=r.random() < 0.5
        )
        yield f"dos-game-{seed}", text
        for op in sorted(OPERATORS):
            m = OPERATORS[op](text, random.Random(seed * 31 + len(op)))
            if m is not None:
                yield f"dos-game-{seed}-{op}", m.text
        for k in range(3):
            edit = card_code_edit(text, random.Random(seed * 7 + k))
            if edit is not None:
                yield f"dos-game-{seed}-edit-{k}", edit[0]
            renamed = _rename_turn(text, random.Random(seed * 11 + k))
            if renamed is not None:
                yield f"dos-game-{seed}-turn-{k}", renamed
    from dosverify.games.uno_duo.mutate import OPERATORS as UNO_OPERATORS
    from dosverify.games.uno_duo.simulate import simulate

    for seed in range(games):
        text = simulate(seed=seed, whole_game=seed % 2 == 1)
        yield f"uno-game-{seed}", text
        for op in sorted(UNO_OPERATORS):
            m = UNO_OPERATORS[op](text, random.Random(seed * 31 + len(op)))
            if m is not None:
                yield f"uno-game-{seed}-{op}", m.text


def dump(out: Path, games: int) -> int:
    from dosverify.api import check

    n = 0
    with out.open("w", encoding="utf-8") as f:
        for name, src in inputs(games):
            try:
                line = check(src, name=name).to_json_line()
            except Exception as exc:  # a crash is a result to compare too
                line = json.dumps({"raised": repr(exc)})
            f.write(json.dumps({"input": name}) + "\t" + line + "\n")
            n += 1
    return n


def cmp(old: Path, new: Path) -> int:
    a = old.read_text(encoding="utf-8").splitlines()
    b = new.read_text(encoding="utf-8").splitlines()
    diff = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    for x, y in diff[:5]:
        print("-", x[:400], "\n+", y[:400])
    print(f"{len(a)} and {len(b)} reports, {len(diff)} differ")
    return 0 if not diff and len(a) == len(b) else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--games", type=int, default=120)
    c = sub.add_parser("cmp")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        print(f"{dump(args.out, args.games)} reports in {args.out}")
        return 0
    return cmp(args.old, args.new)


if __name__ == "__main__":
    sys.exit(main())
