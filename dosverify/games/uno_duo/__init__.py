"""UNO Duo (Mark & Cristina Ball), the second game on the dosverify core: its pack.

The contract is design/uno-duo.md (`uno-duo 1`); the specification is spec/uno-duo/.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .. import GamePack, GameResult, Operator, ResultRule

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from ...findings import Finding, Kept
    from ...model import Parsed
    from ...moves.protocol import PackMoves
    from ...pipeline import Judge
    from ...report import Report
    from ...spec import Ruleset, SpecError


class UnoDuoPack(GamePack):
    """Reads, judges and writes UNO Duo logs."""

    name = "uno-duo"
    title = "UNO Duo"
    versions = (1,)
    folder = "uno-duo"
    default_rank = 10
    capabilities = frozenset({"simulate", "mutate", "profile", "replay", "result", "moves", "recognize", "page"})
    #: spec/uno-duo: the player left holding cards is charged their value, the one who went out
    #: scores zero (score.round, score.values); the first round that leaves a total at or above
    #: the target (200, or `target N`) ends the game (game.end) and that player loses: the lower
    #: total wins (game.winner, S2 CÂȘTIGARE; READINGS R28 for a log without a `winner` line).
    result_rule = ResultRule(
        points_better="lower",
        summary="the lowest total wins",
        ends="the first round that leaves a total at or above the target (200, or `target N`) ends the game, "
        "and that player loses",
        sources=("score.round", "score.values", "game.end", "game.winner"),
    )

    def referee(self, log: Any, ruleset: Ruleset, *, sink: Kept, read: list[Finding], streamed: bool) -> Judge:
        from .check import referee

        return referee(log, ruleset, read)

    def ruleset_finding(self, log: Any, ruleset: str, error: SpecError, text: str | None) -> Finding:
        from .check import ruleset_finding

        return ruleset_finding(log, ruleset, error)

    def parse(self, source: str | bytes | dict[str, Any], form: str | None = None) -> Parsed:
        from .check import parse

        return parse(source, form)

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]:
        from .sniff import recognize

        return recognize(lines)

    def write(self, log: Any) -> str:
        from .notation import write

        return write(log)

    def dump_json(self, log: Any) -> str:
        from .jsonform import dump_json

        return dump_json(log)

    def json_schema(self) -> dict[str, Any]:
        from .jsonform import json_schema

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

        return simulate(seed=seed, ruleset=ruleset, options=options, whole_game=whole_game, style=style)

    def styles(self) -> list[str]:
        from .simulate import STYLES

        return ["canonical", *(s for s in STYLES if s != "canonical")]

    def commands(self) -> dict[str, Callable[[list[str]], int]]:
        from .cli import main_replay, main_simulate
        from .corpus import main_corpus
        from .fmt import main_fmt
        from .profile import main_profile

        return {
            "simulate": main_simulate,
            "replay": main_replay,
            "profile": main_profile,
            "fmt": main_fmt,
            "corpus": main_corpus,
        }

    def profile(
        self, logs: list[tuple[str, str | bytes | dict[str, Any]]], fixed: dict[str, str] | None = None
    ) -> dict[str, Any]:
        from .profile import profile

        return profile(logs, fixed)

    def auto_choice(self, profile: dict[str, Any]) -> dict[str, Any]:
        from .profile import auto_choice

        return auto_choice(profile)

    def result(self, source: str | bytes | dict[str, Any], report: Report) -> GameResult | None:
        """UNO Duo's outcome: each round's `score P N` charges P (left holding cards) N points, and
        the other player won the round; the game ends with the first round that leaves a total at
        or above the target (that player loses); the winner is the `winner` line, else the lower
        total at the end (none on a tie)."""
        ref = report.referee
        log = getattr(ref, "log", None)
        if log is None:
            parsed = self.parse(source)
            if parsed.malformed or parsed.log is None:
                return None
            log = parsed.log
        players = tuple(log.players)
        if len(players) != 2:
            return None
        target = report.target or log.target or self.spec().ruleset(log.ruleset or "official").target
        won = dict.fromkeys(players, 0)
        points = dict.fromkeys(players, 0)
        finished = False
        for rnd in log.rounds:
            if finished:
                break
            if rnd.score is None or rnd.score.player not in points:
                continue
            other = players[1] if rnd.score.player == players[0] else players[0]
            won[other] += 1
            points[rnd.score.player] += rnd.score.points
            finished = max(points.values()) >= target
        winner = log.winner.player if log.winner and log.winner.player in won else None
        if winner is None and finished:
            low = min(points.values())
            leaders = [p for p in players if points[p] == low]
            winner = leaders[0] if len(leaders) == 1 else None
        return GameResult(players, winner, won, points, finished or winner is not None)

    def replay_model(self) -> Any:
        from .pagereplay import UnoReplayResult

        return UnoReplayResult

    def page_script(self) -> Traversable:
        """static/replay.js of this package: the game's table in the page's replay."""
        from importlib.resources import files

        return files(__package__).joinpath("static", "replay.js")

    def replay(
        self, source: bytes, form: str | None, name: str, ruleset: str | None, options: dict[str, str]
    ) -> dict[str, Any]:
        from .pagereplay import replay

        return replay(source, name=name, ruleset=ruleset, form=form, options=options)

    def moves(self) -> PackMoves:
        """The move generator (issue 33): positions read from a log or dealt from a seed."""
        from .moves import UnoDuoMoves

        return UnoDuoMoves()

    def operators(self) -> dict[str, Operator]:
        from .mutate import OPERATORS

        return dict(OPERATORS)


PACK = UnoDuoPack()
