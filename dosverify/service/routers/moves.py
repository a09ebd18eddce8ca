"""``POST /v1/moves``: the legal next lines at a position of a log, and the referee's verdict on a
tried line there (docs/moves.md), the answer `dosverify moves --format json` prints. In the check
lane, under its time budget; a position that is not one, a log that cannot be read up to it, or a
game without a move generator is a problem (422), never a 500."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ...findings import Finding
from ...moves.answer import DEFAULT_MAX_MOVES
from ...overrides import OverrideError, for_game
from ..dependencies import JobsDep, Limits, check_ruleset, override_problem, parse_options, reader_pack
from ..errors import ERROR_RESPONSES, Problem, ServiceError, loc
from ..games import mark_games
from ..middleware import read_body
from ..negotiation import form_of
from ..params import Params, log_body


class MoveOut(BaseModel):
    line: str = Field(description="the line, in canonical form (docs/moves.md)")
    actor: str = Field(description="the player who chooses it, or `chance` (a card off a pile), or `table`")
    kind: str = Field(description="the line's keyword: `play`, `draw`, `score`, `turn`, ...")
    chance: bool
    probability: float | None = Field(description="a chance move's share of the outcomes (null for the others)")


@dataclass(kw_only=True)
class FindingOut(Finding):
    """A finding of a tried line; `deferred`: the referee says so only once a later line arrives."""

    deferred: bool = False


class PrefixOut(BaseModel):
    verdict: str = Field(description="`legal` or `illegal`: check's verdict on the lines up to the position")
    findings: list[Finding] = Field(description="check's findings for them, less the steps a turn still owes")


class TryOut(BaseModel):
    line: str = Field(description="the tried line, as sent")
    canonical: str | None = Field(description="the move it is, in canonical form (null: it reads as none)")
    legal: bool = Field(description="true exactly when `canonical` is listed and check finds no error or warning")
    findings: list[FindingOut] = Field(description="check's findings at the tried line (or the deferred one)")


class MovesResult(BaseModel):
    """The position, its legal next lines, and the verdicts (docs/moves.md)."""

    game: str
    after: int = Field(description="the position: the physical line (text) or event object (JSON) it ends at")
    round: int = Field(description="the rounds the referee saw up to the position")
    turn: int = Field(description="the turns it saw")
    to_move: str | None = Field(description="the player on turn, or `chance`, or `table` (null: no listing)")
    round_over: bool
    game_over: bool
    scores: dict[str, int] = Field(description="each player's total so far")
    moves: list[MoveOut] = Field(description="the legal next lines, sorted, at most `max_moves` of them")
    moves_total: int = Field(description="how many there are")
    moves_left_out: int = Field(description="how many `max_moves` left out")
    moves_refused: str | None = Field(None, description="why this view cannot list (a table's face-down view)")
    prefix: PrefixOut
    try_: TryOut | None = Field(None, alias="try", description="the verdict on `try`, when one was sent")


def moves_job(
    body: bytes, form: str, name: str, after: int | None, tried: str | None, ruleset: str | None,
    options: dict[str, str], max_moves: int,
) -> dict[str, Any]:  # fmt: skip
    """In a pool worker: the table at the position, and its answer."""
    from ...moves.answer import answer
    from ...moves.model import MalformedLog, NoMoves, NotAPosition
    from ...moves.table import Table

    try:
        table = Table.from_log(body, after, ruleset=ruleset, options=options, form=form, name=name)
    except NotAPosition as exc:
        raise ServiceError(
            422, "not-a-position", str(exc), [Problem(location=loc("query", name="after"), message=str(exc))]
        ) from None
    except MalformedLog as exc:
        errs = [f for f in exc.report.findings if f.severity == "error"] or exc.report.findings
        problems = [
            Problem(
                location=loc("body", pointer=f.pointer, line=f.line, column=f.column), message=f.message, rule=f.rule
            )
            for f in errs[:50]
        ] or [Problem(location=loc("body"), message=str(exc))]
        raise ServiceError(422, "unreadable-prefix", str(exc), problems) from None
    except NoMoves as exc:
        raise ServiceError(422, "not-supported", str(exc), [Problem(location=loc("body"), message=str(exc))]) from None
    except OverrideError as exc:
        raise override_problem(exc) from None
    return answer(table, tried, max_moves or None)


Q = Params.build()


async def moves(
    request: Request,
    jobs: JobsDep,
    after: int | None = Query(
        None,
        ge=0,
        description="the position: after the first N physical lines of a text log (comments and blank lines "
        "count), after the first N event objects of a JSON log; default: the whole log",
    ),
    tried: str | None = Query(
        None, alias="try", max_length=1000, description="a line to judge at the position (text notation)"
    ),
    ruleset: str | None = Q.ruleset,
    name: str = Q.name,
    option: list[str] = Q.option,
    max_moves: int = Query(
        DEFAULT_MAX_MOVES,
        ge=0,
        description=f"list at most this many legal lines (default {DEFAULT_MAX_MOVES}; 0: all); "
        "`moves_left_out` says how many more there are",
    ),
) -> JSONResponse:
    """The position after `after` lines of the log: who is on turn, the legal next lines (each with
    its actor, kind and, for a chance move, its probability), check's verdict on the lines so far
    and, with `try`, the referee's verdict on that line there, with the findings `check` gives at
    it. `ruleset=auto` is refused: the move API judges under one ruleset."""
    body = await read_body(request)
    form = form_of(request, ("text", "json"))
    pack = reader_pack(body)
    mark_games(pack.name)
    if ruleset == "auto":
        raise override_problem(
            OverrideError("`auto` is not a ruleset here: the move API judges under one ruleset", "ruleset")
        )
    check_ruleset(ruleset, pack)
    options = for_game(parse_options(option, pack), pack.name)
    if "moves" not in pack.capabilities:
        message = f"{pack.title} (`{pack.name}`) has no move generator: its pack does not declare `moves`"
        raise ServiceError(
            422, "not-supported", message, [Problem(location=loc("body"), message=message)], game=pack.name
        )
    out = await jobs.call(moves_job, body, form, name, after, tried, ruleset, options, max_moves)
    return JSONResponse(out)


def router(limits: Limits) -> APIRouter:
    r = APIRouter()
    r.add_api_route(
        "/v1/moves",
        moves,
        methods=["POST"],
        response_model=MovesResult,
        responses=ERROR_RESPONSES,
        max_body_size=limits.max_log,
        openapi_extra=log_body(),
        summary="The legal next lines at a position, and why a line is illegal there",
        operation_id="movesAt",
        tags=["check"],
    )
    return r
