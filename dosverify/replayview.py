"""The generic replay (``POST /v1/replay``, the page) of a game with no view of its own: the report,
the players, and after every turn its lines, its findings and a key/value state the game's pack
gives as JSON (what the table holds, in the pack's own words). The page shows it as it is; a pack
with its own view (DOS, UNO Duo) answers its own model instead."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from .report import Report


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


class GenericReplayResult(BaseModel):
    """The report, the players, and the table after every turn, for a game without a view of its own."""

    game: str = Field(description="the game's name (its header word)")
    view: Literal["generic"] = "generic"
    report: Report
    players: list[str]
    states: list[GenericTurnState]
    totals: dict[str, int] = Field(description="the running totals at the end of the log")
