"""The DOS pack: what the core asks of DOS, answered by DOS's own modules (imported when asked)."""

from __future__ import annotations

from typing import Any

from .. import GamePack, GameResult, Operator


class DosPack(GamePack):
    name = "dos"
    title = "DOS"
    versions = (1,)
    folder = "dos"

    def check(self, source, *, name="<input>", ruleset=None, form=None, options=None, whole=False):
        from .check import check

        return check(source, name=name, ruleset=ruleset, form=form, options=options, whole=whole)

    def parse(self, source, form=None):
        from .check import parse

        return parse(source, form)

    def write(self, log: Any) -> str:
        from .notation import write

        return write(log)

    def dump_json(self, log: Any) -> str:
        from .jsonform import dump_json

        return dump_json(log)

    def json_schema(self) -> dict:
        from .jsonform import json_schema

        return json_schema()

    def simulate(self, *, seed, players=2, ruleset="official", options=None, whole_game=False) -> str:
        from .simulate import simulate_text

        return simulate_text(players, seed, ruleset, rounds=None if whole_game else 1, game=whole_game, options=options)

    def witness(self, source, *, name="<input>", ruleset=None, form=None):
        """The log with every `?` replaced by a card, when it is legal (notation.md, "Witness")."""
        from .check import witness

        return witness(source, name=name, ruleset=ruleset, form=form)

    def result(self, source, report) -> GameResult | None:
        """DOS's outcome: each round's `score` credits its player with a round won and its points;
        the game ends with the first round that leaves a total at or above the target (later
        rounds are not scored, notation.md); the winner is the `winner` line, else the highest
        total at the end (none on a tie at the top, which the rules do not settle)."""
        ref = getattr(report, "_referee", None)  # check(whole=True) keeps the log it judged
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

    def operators(self) -> dict[str, Operator]:
        from .mutate import OPERATORS

        return dict(OPERATORS)


PACK = DosPack()
