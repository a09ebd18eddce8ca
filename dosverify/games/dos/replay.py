"""A replay: the table after every turn of a log, as the referee saw it, beside the log's report.

The organiser's page steps through it (``POST /v1/replay``). The report is exactly
:func:`dosverify.api.check`'s; the states come from a second run of the referee with a
``visitor`` (as :mod:`dosverify.games.dos.golden` captures them), so watching never changes a verdict.
After a round's last turn comes one more state, of the same round and turn, with ``score``: the
round's score and the running totals as the log writes them and as the referee counts them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ...replayview import RoundScore, score_field, score_lines
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
    total: int = Field(description="the running total before this round's score (after it, on the score's state)")


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
    score: RoundScore | None = score_field()


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


class _States:
    """The states of one watched run of the referee: the table after each turn, and after a round's
    last turn its end (its score and the totals)."""

    def __init__(self) -> None:
        self.states: list[dict] = []
        self.unsettled: list[dict] = []  # a round's end, until the referee has applied its score

    def table(self, ref) -> dict:
        snap = ref.snapshot()
        seats = {}
        for p in ref.players:
            hand = snap["hands"].get(p, [])
            dos = None
            if len(hand) == 2:
                dos = "caught" if ref.caught.get(p) else "called" if ref.called.get(p) else "owed"
            seats[p] = {"hand": hand, "cards": len(hand), "dos": dos, "total": snap["totals"].get(p, 0)}
        return {
            "index": len(self.states),
            "round": snap["round"],
            "turn": snap["turn"],
            "player": snap["player"],
            "line": None,
            "end_line": None,
            "pointer": None,
            "seats": seats,
            "center": snap["center"],
            "draw_pile": snap["draw_pile"],
            "discard_pile": snap["discard_pile"],
            "round_over": snap["round_over"],
            "findings": [],
            "score": None,
        }

    def settle(self, ref) -> None:
        """The totals after a round's score, once applied (at its score line, or where the next round
        starts or the log ends for a round without one)."""
        while self.unsettled:
            st = self.unsettled.pop()
            st["score"]["totals"] = dict(ref.totals)
            for p, seat in st["seats"].items():
                seat["total"] = ref.totals.get(p, 0)

    def visit(self, ref) -> None:
        """After a turn (the referee's visitor)."""
        self.settle(ref)
        turn = ref.current_turn
        st = self.table(ref)
        st["line"], st["end_line"] = _turn_lines(turn) if turn is not None else (None, None)
        st["pointer"] = getattr(turn, "_pointer", None)
        self.states.append(st)

    def round_end(self, ref, rnd) -> None:
        """After the lines that end round `rnd` (its `show`, `score` and `totals`)."""
        st = self.table(ref)
        lines = [x for x in (*rnd.shows, rnd.score, rnd.totals) if x is not None]
        at = [x._line for x in lines if x._line is not None]
        st["line"], st["end_line"] = (min(at), max(at)) if at else (None, None)
        st["pointer"] = lines[0]._pointer if lines else None
        winner, pts = ref.s.round_winner, ref.parts.scoring.round_points()
        written = (rnd.score.player, rnd.score.points) if rnd.score is not None else None
        log_totals = {e.player: e.points for e in rnd.totals.entries} if rnd.totals is not None else None
        st["score"] = {
            "lines": score_lines(written, log_totals),
            "log_score": None if written is None else {p: written[1] if p == written[0] else 0 for p in ref.players},
            "log_totals": log_totals,
            "points": None
            if winner is None or pts is None or ref.s.doubt
            else {p: pts if p == winner else 0 for p in ref.players},
            "totals": dict(ref.totals),
        }
        self.states.append(st)
        self.unsettled.append(st)

    def place(self, findings) -> None:
        """Each finding on its turn's state; one of the lines after a round's last turn on its end."""
        by_turn = {(s["round"], s["turn"]): s for s in self.states if s["score"] is None}
        ends = {s["round"]: s for s in self.states if s["score"] is not None}
        for i, f in enumerate(findings):
            s = by_turn.get((f.round, f.turn))
            end = ends.get(f.round)
            if end is not None and f.turn == end["turn"] and _after(f, s):
                s = end
            if s is not None:
                s["findings"].append(i)


def _watched(log, rs, seen: _States):
    """The referee of `log`, its states told to `seen`."""
    from .referee import Referee

    class Watched(Referee):
        """The referee, remembering which `turn` it is in for the visitor, and showing each round's end."""

        current_turn = None

        def play_turn(self, turn, rnd):
            self.close_turn(turn)  # the previous turn ends (and is seen) before this one starts
            self.current_turn = turn
            super().play_turn(turn, rnd)

        def _end_round(self, rnd, next_round):
            super()._end_round(rnd, next_round)
            if self.s.watch is not None and (self.s.round_over or rnd.score is not None or rnd.totals is not None):
                seen.round_end(self, rnd)  # not in a fork's silent play (R98): it has no watcher

    return Watched(log, rs, visitor=seen.visit)


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
    out: dict[str, Any] = {"game": "dos", "report": report.to_dict(), "players": [], "states": [], "totals": {}}
    if report.verdict == "malformed" or report.ruleset is None:
        return out
    log = parse(source, form).log
    if log is None:  # pragma: no cover - check() refereed it: it reads
        return out
    spec = load_spec("dos")
    rs = spec.ruleset(report.ruleset, {**log.options, **(options or {})}, log.target)  # as check() chose it
    seen = _States()
    ref = _watched(log, rs, seen)
    ref.run()
    seen.settle(ref)
    seen.place(report.findings)
    out.update(players=list(log.players), states=seen.states, totals=dict(ref.totals))
    return out


def _after(f, s: dict | None) -> bool:
    """Whether finding `f` lies after the lines of the turn state `s` (its round's last turn)."""
    if s is None:
        return True
    if f.line is not None:
        return s["end_line"] is not None and f.line > s["end_line"]
    return f.pointer is not None and s["pointer"] is not None and not f.pointer.startswith(s["pointer"] + "/")
