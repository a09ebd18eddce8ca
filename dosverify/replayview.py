"""The generic replay (``POST /v1/replay``, the page) of a game with no view of its own: the report,
the players, and after every turn its lines, its findings and a key/value state the game's pack
gives as JSON (what the table holds, in the pack's own words). The page shows it as it is; a pack
with its own view (DOS, UNO Duo) answers its own model instead."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from .report import Report


class RoundScore(BaseModel):
    """A round's end, on the state after its last turn's (``score`` of a replay's state): its score
    and the running totals, as the log writes them and as the referee counts them."""

    lines: list[str] = Field(description="the log's lines scoring the round (`score`, `totals`), in the notation")
    log_score: dict[str, int] | None = Field(
        description="each player's points for the round by the log's score line (0: a player it names not); "
        "null: the log has no score line for the round"
    )
    log_totals: dict[str, int] | None = Field(description="the running totals by the log's `totals` line (null: none)")
    points: dict[str, int] | None = Field(
        description="each player's points for the round as the referee counts the hands (null: not known, "
        "a face-down card or a hand in doubt after a finding)"
    )
    totals: dict[str, int] = Field(description="the running totals after the round, as the referee keeps them")


def score_field() -> Any:
    """A state's ``score`` (a RoundScore or null), for every game's replay model."""
    return Field(
        default=None,
        description="on the state after a round's last turn (the same round and turn): the round's score and "
        "the running totals, as the log writes them and as the referee counts them; null on a turn's state",
    )


def score_lines(score: tuple[str, int] | None, totals: dict[str, int] | None) -> list[str]:
    """The lines `score P N` and `totals P N ...` as the notation writes them."""
    out = [] if score is None else [f"score {score[0]} {score[1]}"]
    if totals is not None:
        out.append("totals " + " ".join(f"{p} {n}" for p, n in totals.items()))
    return out


class GenericTurnState(BaseModel):
    """The table after one turn, in the pack's words."""

    index: int = Field(description="the state's position in `states`, from 0")
    round: int
    turn: int = Field(description="the turn's number within its round, from 1")
    player: str
    line: int | None = Field(description="the turn's first line (text form)")
    end_line: int | None = Field(description="the turn's last line (text form)")
    pointer: str | None = Field(default=None, description="the turn's JSON pointer (JSON form)")
    round_over: bool
    state: dict[str, Any] = Field(
        description="what the table holds after the turn, key by key, as the game's pack says it (JSON values)"
    )
    findings: list[int] = Field(description="indexes into the report's findings: those of this turn")
    score: RoundScore | None = score_field()


class GenericReplayResult(BaseModel):
    """The report, the players, and the table after every turn, for a game without a view of its own."""

    game: str = Field(description="the game's name (its header word)")
    view: Literal["generic"] = "generic"
    report: Report
    players: list[str]
    states: list[GenericTurnState]
    totals: dict[str, int] = Field(description="the running totals at the end of the log")
