"""The page's replay of a UNO Duo log (``POST /v1/replay``): the report beside the table after
every turn, as the organiser's page steps through it: the top card and its colour, both hands, the
draw and discard piles' counts, what is pending (a volley's total, a Wild Draw 4, a run owed), each
player's UNO state and running total, and the indexes of the turn's findings in the report.

The report is exactly the pack's check; the states come from a second run of the referee, a turn
at a time as Referee.run goes (replay.py reads the same state for `dosverify replay`), so watching
never changes a verdict."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...report import Report


class UnoSeat(BaseModel):
    """One player after the turn."""

    hand: list[str] = Field(description="the cards held, sorted (base codes: `W`, `W+4`, `R5`, ...)")
    cards: int = Field(description="how many cards are held")
    uno: Literal["called", "owed", "caught"] | None = Field(
        description="with exactly 1 card: `called` (UNO was said), `owed` (not said: the opponent may catch), "
        "`caught`; otherwise null"
    )
    total: int = Field(description="the running total before this round's score (the lower wins)")


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
        ref.round_close(rnd)
    out.update(players=list(ref.players), states=states, totals=dict(done.totals))
    return out
