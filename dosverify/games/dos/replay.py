"""A replay: the table after every turn of a log, as the referee saw it, beside the log's report.

The organiser's page steps through it (``POST /v1/replay``). The report is exactly
:func:`dosverify.api.check`'s; the states come from a second run of the referee with a
``visitor`` (as :mod:`dosverify.games.dos.golden` captures them), so watching never changes a verdict.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...report import Report
from ...spec import load_spec
from .check import check, parse


class SeatState(BaseModel):
    """One player after the turn."""

    hand: list[str] = Field(description="the cards held, sorted; `?` for a card the log did not name")
    cards: int = Field(description="how many cards are held")
    dos: Literal["called", "owed", "caught"] | None = Field(
        description="with exactly 2 cards: `called` (DOS was called), `owed` (not called: anyone may catch), "
        "`caught`; otherwise null"
    )
    total: int = Field(description="the running total before this round's score")


class TurnState(BaseModel):
    """The table after one turn."""

    index: int = Field(description="the state's position in `states`, from 0")
    round: int | None
    turn: int = Field(description="the turn's number within its round, from 1")
    player: str | None = Field(description="who played the turn")
    line: int | None = Field(description="the `turn` line (text form)")
    end_line: int | None = Field(description="the turn's last line (text form)")
    pointer: str | None = Field(default=None, description="the turn's JSON pointer (JSON form)")
    seats: dict[str, SeatState]
    center: list[str] = Field(description="the Center Row, left to right")
    draw_pile: int
    discard_pile: int
    round_over: bool
    findings: list[int] = Field(description="indexes into the report's findings: those of this turn")


class ReplayResult(BaseModel):
    """The report, the players, and the table after every turn."""

    game: Literal["dos"] = "dos"
    report: Report
    players: list[str]
    states: list[TurnState]
    totals: dict[str, int] = Field(description="the running totals at the end of the log")


def _turn_lines(turn) -> tuple[int | None, int | None]:
    lines = [ln for ln in [turn._line, *(ev._line for ev in turn.events)] if ln is not None]
    return (turn._line, max(lines)) if lines else (None, None)


def replay(
    source: str | bytes,
    *,
    name: str = "-",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
) -> dict:
    """The report of `source` and, when it can be refereed, the table after every turn."""
    report = check(source, name=name, ruleset=ruleset, form=form, options=options)
    out = {"game": "dos", "report": report.to_dict(), "players": [], "states": [], "totals": {}}
    if report.verdict == "malformed" or report.ruleset is None:
        return out
    log = parse(source, form).log
    if log is None:  # pragma: no cover - check() refereed it: it reads
        return out
    spec = load_spec()
    rs = spec.ruleset(report.ruleset, {**log.options, **(options or {})}, log.target)  # as check() chose it
    from .referee import Referee

    states: list[dict] = []

    class Watched(Referee):
        """The referee, remembering which `turn` it is in for the visitor."""

        current_turn = None

        def play_turn(self, turn, rnd):
            self.close_turn(turn)  # the previous turn ends (and is seen) before this one starts
            self.current_turn = turn
            super().play_turn(turn, rnd)

    def visit(ref: Watched) -> None:
        snap = ref.snapshot()
        turn = ref.current_turn
        line, end_line = _turn_lines(turn) if turn is not None else (None, None)
        seats = {}
        for p in ref.players:
            hand = snap["hands"].get(p, [])
            dos = None
            if len(hand) == 2:
                dos = "caught" if ref.caught.get(p) else "called" if ref.called.get(p) else "owed"
            seats[p] = {"hand": hand, "cards": len(hand), "dos": dos, "total": snap["totals"].get(p, 0)}
        states.append(
            {
                "index": len(states),
                "round": snap["round"],
                "turn": snap["turn"],
                "player": snap["player"],
                "line": line,
                "end_line": end_line,
                "pointer": getattr(turn, "_pointer", None),
                "seats": seats,
                "center": snap["center"],
                "draw_pile": snap["draw_pile"],
                "discard_pile": snap["discard_pile"],
                "round_over": snap["round_over"],
                "findings": [],
            }
        )

    ref = Watched(log, rs, visitor=visit)
    ref.run()
    by_turn = {(s["round"], s["turn"]): s for s in states}
    for i, f in enumerate(report.findings):
        s = by_turn.get((f.round, f.turn))
        if s is not None:
            s["findings"].append(i)
    out.update(players=list(log.players), states=states, totals=dict(ref.totals))
    return out
