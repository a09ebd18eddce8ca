"""The page's replay of a UNO Duo log (``POST /v1/replay``): the report beside the table after
every turn, as the organiser's page steps through it: the top card and its colour, both hands, the
draw and discard piles' counts, what is pending (a volley's total, a Wild Draw 4, a run owed), each
player's UNO state and running total, and the indexes of the turn's findings in the report.

The report is exactly the pack's check; the states come from a second run of the referee, a turn
at a time as Referee.run goes (replay.py reads the same state for `dosverify replay`), so watching
never changes a verdict. After a round's last turn comes one more state, of the same round and
turn, with ``score``: the round's score and the running totals as the log writes them and as the
referee counts them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...replayview import RoundScore, score_field, score_lines
from ...report import Report


class UnoSeat(BaseModel):
    """One player after the turn."""

    hand: list[str] = Field(description="the cards held, sorted (base codes: `W`, `W+4`, `R5`, ...)")
    cards: int = Field(description="how many cards are held")
    uno: Literal["called", "owed", "caught"] | None = Field(
        description="with exactly 1 card: `called` (UNO was said), `owed` (not said: the opponent may catch), "
        "`caught`; otherwise null"
    )
    total: int = Field(
        description="the running total before this round's score (after it, on the score's state; the lower wins)"
    )


class Pending(BaseModel):
    """What the player to move faces."""

    kind: Literal["total", "wd4", "run"] = Field(
        description="`total`: a Draw 2 volley's total; `wd4`: a Wild Draw 4 (draw 4 or challenge); `run`: a start run owed"
    )
    player: str = Field(description="who faces it")
    total: int = Field(description="the cards owed (a volley's total; 4 for a WD4; 0 for a run)")
    colour: str | None = Field(default=None, description="a run's colour")


class UnoTurnState(BaseModel):
    """The table after one turn."""

    index: int = Field(description="the state's position in `states`, from 0")
    round: int
    turn: int = Field(description="the turn's number within its round, from 1")
    player: str
    line: int | None = Field(description="the `turn` line (text form)")
    end_line: int | None = Field(description="the turn's last line (text form)")
    pointer: str | None = Field(default=None, description="the turn's JSON pointer (JSON form)")
    seats: dict[str, UnoSeat]
    top: str | None = Field(description="the discard pile's top card (a wild as `W`, its colour in `colour`)")
    colour: str | None = Field(description="the colour in play: R, G, B or Y (null: any)")
    draw_pile: int
    discard_pile: int
    pending: Pending | None
    round_over: bool
    findings: list[int] = Field(description="indexes into the report's findings: those of this turn")
    score: RoundScore | None = score_field()


class UnoReplayResult(BaseModel):
    """The report, the players, and the table after every turn."""

    game: Literal["uno-duo"] = "uno-duo"
    report: Report
    players: list[str]
    states: list[UnoTurnState]
    totals: dict[str, int] = Field(description="the running totals at the end of the log")


def _uno(st, player: str, held: int) -> str | None:
    if held != 1:
        return None
    calls = st.calls.get(player)
    if calls is None:
        return "owed"
    return "caught" if calls.caught else "called" if calls.called else "owed"


def _table(ref, totals: dict[str, int]) -> dict:
    """The referee's table now, in the page's shape."""
    st = ref.st
    seats = {}
    for p in ref.players:
        hand = sorted(c for c, n in st.hands.get(p, {}).items() for _ in range(n))
        seats[p] = {"hand": hand, "cards": len(hand), "uno": _uno(st, p, len(hand)), "total": totals.get(p, 0)}
    facing = st.facing
    pending = None
    if facing is not None and not st.over:
        owed = {"total": facing.total, "wd4": 4}.get(facing.kind, 0)
        pending = {"kind": facing.kind, "player": facing.player, "total": owed, "colour": facing.colour}
    return {
        "seats": seats,
        "top": st.discards[-1] if st.discards else None,
        "colour": st.top_colour,
        "draw_pile": len(st.pile),
        "discard_pile": len(st.discards),
        "pending": pending,
        "round_over": st.over,
        "score": None,
    }


def _round_score(ref, rnd) -> dict:
    """The round's end: the log's score and totals lines, the referee's count of the hand charged
    (the player left holding cards; the one who went out scores 0) and its totals after the round."""
    from .cards import value
    from .referee.state import UNSEEN

    st, j = ref.st, ref.judge
    written = (rnd.score.player, rnd.score.points) if rnd.score is not None else None
    log_totals = {e.player: e.points for e in rnd.totals.entries} if rnd.totals is not None else None
    points = None
    if st.over and st.out in ref.players:
        held = j.other(st.out)
        if not j.in_doubt(held):
            worth = sum(value(c) * n for c, n in j.hand(held).items() if n > 0 and c != UNSEEN)
            points = {p: worth if p == held else 0 for p in ref.players}
    return {
        "lines": score_lines(written, log_totals),
        "log_score": None if written is None else {p: written[1] if p == written[0] else 0 for p in ref.players},
        "log_totals": log_totals,
        "points": points,
        "totals": dict(ref.totals),
    }


def _round_end(ref, rnd, states: list[dict], found: list[int]) -> dict:
    """The state after round `rnd`'s last turn and its score and totals lines."""
    lines = [x for x in (rnd.score, rnd.totals) if x is not None]
    at = [x._line for x in lines if x._line is not None]
    last = states[-1] if states and states[-1]["round"] == ref.st.number else None
    return {
        "index": len(states),
        "round": ref.st.number,
        "turn": last["turn"] if last else 0,
        "player": last["player"] if last else ref.players[0],
        "line": min(at) if at else None,
        "end_line": max(at) if at else None,
        "pointer": lines[0]._pointer if lines else None,
        **_table(ref, dict(ref.totals)),
        "findings": found,
        "score": _round_score(ref, rnd),
    }


def _turn_lines(turn) -> tuple[int | None, int | None]:
    lines = [ln for ln in [turn._line, *(ev._line for ev in turn.events)] if ln is not None]
    return (turn._line, max(lines)) if lines else (None, None)


def replay(
    source: str | bytes | dict,
    *,
    name: str = "-",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
) -> dict:
    """The report of `source` and, when it can be refereed, the table after every turn."""
    from .check import check, parse
    from .referee import Referee
    from .spec import spec

    report = check(source, name=name, ruleset=ruleset, form=form, options=options, whole=True)
    done = report.referee
    out: dict = {"game": "uno-duo", "report": report.to_dict(), "players": [], "states": [], "totals": {}}
    if report.verdict == "malformed" or done is None:
        return out
    ref = Referee(done.log, done.rs, spec())
    # the reader's findings' lines are reported already, as check() tells its referee
    ref.mark_reported(parse(source, form).findings)
    index: dict[tuple, list[int]] = {}
    for i, f in enumerate(report.findings):
        index.setdefault((f.line, f.pointer, f.rule, f.message), []).append(i)
    states: list[dict] = []
    for rnd in ref.log.rounds:
        ref.round_line(rnd)
        for i, turn in enumerate(rnd.turns, 1):
            ref.judge.game.next_turn = rnd.turns[i] if i < len(rnd.turns) else None
            before = len(ref.findings)
            totals = dict(ref.totals)
            ref.turn_line(turn)
            for ev in turn.events:
                ref.event(ev)
            if ref.st is None:
                continue
            found = [
                index[key].pop(0)
                for f in ref.findings[before:]
                if index.get(key := (f.line, f.pointer, f.rule, f.message))
            ]
            line, end_line = _turn_lines(turn)
            states.append(
                {
                    "index": len(states),
                    "round": ref.st.number,
                    "turn": i,
                    "player": turn.player,
                    "line": line,
                    "end_line": end_line,
                    "pointer": getattr(turn, "_pointer", None),
                    **_table(ref, totals),
                    "findings": found,
                }
            )
        before = len(ref.findings)
        ref.round_close(rnd)
        if ref.st is not None and (ref.st.over or rnd.score is not None or rnd.totals is not None):
            found = [
                index[key].pop(0)
                for f in ref.findings[before:]
                if index.get(key := (f.line, f.pointer, f.rule, f.message))
            ]
            states.append(_round_end(ref, rnd, states, found))
    out.update(players=list(ref.players), states=states, totals=dict(done.totals))
    return out
