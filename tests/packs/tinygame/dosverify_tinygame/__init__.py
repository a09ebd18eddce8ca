"""Tiny: a deliberately small two-player card game (README.md), the test pack that proves a game in
its own distribution plugs into dosverify. Its data lives in this package: spec/, tiny.lark,
fixtures/."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dosverify.games import GamePack, GameResult, ResultRule

if TYPE_CHECKING:
    from dosverify.findings import Finding, Kept
    from dosverify.model import Parsed
    from dosverify.pipeline import Judge
    from dosverify.report import Report
    from dosverify.spec import Ruleset, SpecError


class TinyPack(GamePack):
    """Reads, judges, writes and generates Tiny logs."""

    name = "tiny"
    title = "Tiny"
    versions = (1,)
    folder = "tiny"
    capabilities = frozenset({"simulate", "replay", "result", "moves", "recognize"})
    #: README section 4: each player left holding cards scores their sum (score.round); the game
    #: ends after the first round leaving a total at or above the target, the lower total wins.
    result_rule = ResultRule(
        points_better="lower",
        summary="the lowest total wins",
        ends="the first round that leaves a total at or above the target (50, or `target N`), the totals unequal, "
        "ends the game",
        sources=("score.round",),
    )

    def spec_path(self) -> Path:
        from .spec import spec_path

        return spec_path()

    def fixtures_path(self) -> Path:
        return Path(str(files(__package__).joinpath("fixtures")))

    def parse(self, source: str | bytes | dict, form: str | None = None) -> Parsed:
        from .referee import parse

        return parse(source, form)

    def referee(self, log: Any, ruleset: Ruleset, *, sink: Kept, read: list[Finding], streamed: bool) -> Judge:
        from .referee import Referee

        return Referee(log, ruleset)

    def ruleset_finding(self, log: Any, ruleset: str, error: SpecError, text: str | None) -> Finding:
        from .referee import ruleset_finding

        return ruleset_finding(log, error)

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]:
        from .sniff import recognize

        return recognize(lines)

    def write(self, log: Any) -> str:
        from .log import write

        return write(log)

    def dump_json(self, log: Any) -> str:
        from .log import dump_json

        return dump_json(log)

    def json_schema(self) -> dict:
        from .log import json_schema

        return json_schema()

    def simulate(
        self,
        *,
        seed: int,
        players: int = 2,
        ruleset: str = "official",
        options: dict[str, str] | None = None,
        whole_game: bool = False,
        style: str = "canonical",
    ) -> str:
        from .simulate import simulate

        return simulate(seed=seed, ruleset=ruleset, options=options, whole_game=whole_game)

    def moves(self) -> Any:
        from .moves import TinyMoves

        return TinyMoves()

    def commands(self) -> dict[str, Callable[[list[str]], int]]:
        return {"simulate": _main_simulate}

    def result(self, source: str | bytes | dict, report: Report) -> GameResult | None:
        """Each round's `score P N` charges P N points; the round is won by the player without a
        score (or the lower of two); the game ends with the first round leaving a total at or above
        the target, the totals unequal; the winner is the `winner` line, else the lower total then."""
        ref = report.referee
        log = getattr(ref, "log", None)
        if log is None:
            parsed = self.parse(source)
            if parsed.malformed or parsed.log is None:
                return None
            log = parsed.log
        players = tuple(log.players)
        target = report.target or log.target or self.spec().ruleset(log.ruleset or "official").target
        won = dict.fromkeys(players, 0)
        points = dict.fromkeys(players, 0)
        finished = False
        for rnd in log.rounds:
            if finished:
                break
            if not rnd.score:
                continue
            charged = {p: rnd.score.get(p, 0) for p in players}
            low = min(charged.values())
            leaders = [p for p in players if charged[p] == low]
            if len(leaders) == 1:
                won[leaders[0]] += 1
            for p in players:
                points[p] += charged[p]
            a, b = points.values()
            finished = max(a, b) >= target and a != b
        winner = log.winner if log.winner in won else None
        if winner is None and finished:
            winner = min(players, key=lambda p: points[p])
        return GameResult(players, winner, won, points, finished or winner is not None)

    def replay(self, source: bytes, form: str | None, name: str, ruleset: str | None, options: dict) -> dict:
        from .referee import replay

        return replay(source, name=name, ruleset=ruleset, form=form, options=options)


def _main_simulate(argv: list[str]) -> int:
    """`dosverify simulate --game tiny [--seed N] [--whole-game] [--ruleset R] [--option K=V]`."""
    import argparse
    import sys

    from dosverify.spec import SpecError, parse_option_args

    ap = argparse.ArgumentParser(prog="dosverify simulate --game tiny", description="a seeded legal Tiny game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--whole-game", action="store_true")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    try:
        text = PACK.simulate(
            seed=args.seed, ruleset=args.ruleset, options=parse_option_args(args.option), whole_game=args.whole_game
        )
    except (SpecError, ValueError) as exc:
        print(f"dosverify simulate: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


PACK = TinyPack()
