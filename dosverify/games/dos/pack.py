"""The DOS pack: what the core asks of DOS, answered by DOS's own modules (imported when asked)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, cast

from .. import GamePack, GameResult, Operator, ResultRule

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from ...findings import Finding, Kept
    from ...model import Parsed
    from ...moves.protocol import PackMoves
    from ...pipeline import Judge, Reading
    from ...report import Report
    from ...spec import Ruleset, SpecError
    from .referee import Referee


class DosPack(GamePack):
    name = "dos"
    title = "DOS"
    versions = (1,)
    folder = "dos"
    default_rank = 0  # the game dosverify was made for: meant when a request names none
    capabilities = frozenset(
        {"simulate", "mutate", "profile", "views", "witness", "replay", "result", "moves", "recognize", "page"}
    )
    #: spec/dos: the round's winner scores the cards left in the other hands (score.round); the
    #: first round that leaves a total at or above the target ends the game (game.end, V8: 200
    #: or `target N`); that player, the highest total, wins it (game.winner; READINGS R72 for a
    #: log without a `winner` line).
    result_rule = ResultRule(
        points_better="higher",
        summary="the highest total at the target wins",
        ends="the first round that leaves a total at or above the target (200, or `target N`) ends the game",
        sources=("score.round", "game.end", "game.winner"),
    )

    def read(self, source: str | bytes | dict[str, Any], *, as_json: bool, whole: bool, sink: Kept) -> Reading | None:
        from .check import read

        return read(source, as_json=as_json, whole=whole, sink=sink)

    def referee(self, log: Any, ruleset: Ruleset, *, sink: Kept, read: list[Finding], streamed: bool) -> Judge:
        from .check import referee

        return referee(log, ruleset, sink=sink, streamed=streamed)

    def ruleset_finding(self, log: Any, ruleset: str, error: SpecError, text: str | None) -> Finding:
        from .check import ruleset_finding

        return ruleset_finding(log, ruleset, error, text)

    def judged(self, report: Report, judge: Judge) -> None:
        from .check import judged

        judged(report, cast("Referee", judge))

    def parse(self, source: str | bytes | dict[str, Any], form: str | None = None) -> Parsed:
        from .check import parse

        return parse(source, form)

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]:
        from .sniff import recognize

        return recognize(lines)

    def write(self, log: Any) -> str:
        from .notation.writer import write

        return write(log)

    def dump_json(self, log: Any) -> str:
        from .jsonform import dump_json

        return dump_json(log)

    def json_schema(self) -> dict[str, Any]:
        from .jsonform import schema

        return schema()

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
        from .simulate import simulate_text

        return simulate_text(
            players, seed, ruleset, rounds=None if whole_game else 1, game=whole_game, options=options, style=style
        )

    def styles(self) -> list[str]:
        from .render import STYLES

        return list(STYLES)

    def player_counts(self) -> tuple[int, ...]:
        return (2, 3, 4)

    def witness(
        self,
        source: str | bytes | dict[str, Any],
        *,
        name: str = "<input>",
        ruleset: str | None = None,
        form: str | None = None,
    ) -> tuple[str | None, Report]:
        """The log with every `?` replaced by a card, when it is legal (notation.md, "Witness")."""
        from .check import witness

        return witness(source, name=name, ruleset=ruleset, form=form)

    def commands(self) -> dict[str, Callable[[list[str]], int]]:
        from .corpus import main_corpus
        from .fmt import main_fmt
        from .profile import main_profile
        from .replay_cli import main_replay
        from .simulate import main_simulate

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

    def hide(self, log: Any, view: str = "table") -> Any:
        from .hide import hide

        return hide(log, view)

    def result(self, source: str | bytes | dict[str, Any], report: Report) -> GameResult | None:
        """DOS's outcome: each round's `score` credits its player with a round won and its points;
        the game ends with the first round that leaves a total at or above the target (later
        rounds are not scored, notation.md); the winner is the `winner` line, else the highest
        total at the end (none on a tie at the top, which the rules do not settle)."""
        ref = report.referee  # check(whole=True) keeps the log it judged
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
            if rnd.score is None or rnd.score.player not in won:
                continue
            won[rnd.score.player] += 1
            points[rnd.score.player] += rnd.score.points
            finished = max(points.values()) >= target
        winner = log.winner.player if log.winner and log.winner.player in won else None
        if winner is None and finished:
            top = max(points.values())
            leaders = [p for p in players if points[p] == top]
            winner = leaders[0] if len(leaders) == 1 else None
        return GameResult(players, winner, won, points, finished or winner is not None)

    def moves(self) -> PackMoves:
        """DOS's move generator (issue 33): legal next lines at any position, a table to play on."""
        from .moves import DosMoves

        return DosMoves()

    def operators(self) -> dict[str, Operator]:
        from .mutate import OPERATORS

        return dict(OPERATORS)

    def log_model(self) -> Any:
        from .jsonform import log_adapter

        return log_adapter()

    def replay_model(self) -> Any:
        from .replay import ReplayResult

        return ReplayResult

    def page_script(self) -> Traversable:
        """static/replay.js of this package: the game's table in the page's replay."""
        from importlib.resources import files

        return files(__package__).joinpath("static", "replay.js")

    def replay(
        self, source: bytes, form: str | None, name: str, ruleset: str | None, options: dict[str, str]
    ) -> dict[str, Any]:
        from .replay import replay

        return replay(source, name=name, ruleset=ruleset, form=form, options=options)


PACK = DosPack()
