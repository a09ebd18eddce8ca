"""The checks: ``POST /v1/check``, ``/v1/check/batch``, ``/v1/convert`` and ``/v1/profile``.
Every one calls the data path the CLI uses, in the worker pool."""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from ...overrides import for_game
from ...report import Report
from ...spec import SpecError
from ..batch import batch_logs, batch_payload, json_items, profile_pairs
from ..dependencies import (
    Jobs,
    JobsDep,
    Limits,
    LimitsDep,
    check_items,
    check_ruleset,
    log_pack,
    override_problem,
    parse_options,
    reader_pack,
)
from ..errors import ERROR_RESPONSES, Problem, ServiceError, loc
from ..games import mark_games
from ..middleware import read_body
from ..models import BatchResult, ConvertResult
from ..negotiation import TEXT_REPORT_RESPONSE, form_of, prefers_text
from ..params import LOG_REF, Params, log_body


def profile_job(body: bytes, max_items: int, fixed: dict[str, str]) -> tuple[str, dict]:
    """`POST /v1/profile` in a pool worker: the body read, then the inference of the first log's
    game (over that game's logs, as `dosverify profile` does); (that game, the profile)."""
    pairs = profile_pairs(json_items(body, max_items, empty_ok=False))
    pack = reader_pack(pairs[0][1])
    if "profile" not in pack.capabilities:
        raise _not_supported(pack.name, pack.title)
    try:
        return pack.name, pack.profile(pairs, for_game(fixed, pack.name))
    except SpecError as exc:  # an option the logs' game does not have: its problem, with its game
        raise override_problem(exc, game=pack.name) from exc


def _not_supported(game: str, title: str) -> ServiceError:
    message = f"{title} has no option inference (its pack does not declare the `profile` capability)"
    return ServiceError(422, "not-supported", message, [Problem(location=loc("body"), message=message)], game=game)


def auto_job(pairs: list[tuple[str, str | bytes | dict]], options: dict[str, str]) -> dict:
    """What `batch?ruleset=auto` judges under (in a pool worker): the first log's game's inference."""
    pack = reader_pack(pairs[0][1])
    if "profile" not in pack.capabilities:
        raise _not_supported(pack.name, pack.title)
    return pack.auto_choice(pack.profile(pairs, for_game(options, pack.name)))


async def check_all(
    jobs: Jobs,
    limits: Limits,
    items: list[tuple[bytes, str | None, str]],
    ruleset: str | None,
    render: str = "json",
    options: dict | None = None,
    auto: dict | None = None,
) -> list:
    """(verdict, truncated, rendered bytes) for each (body, form, name), checked in the pool
    (under `?option=` overrides, if any)."""
    args = (ruleset, limits.max_findings, render, options or None, auto)
    return await jobs.run([("check", (raw, f, nm, *args), len(raw)) for raw, f, nm in items])


def _batch_body(max_items: int) -> dict:
    any_log = {"description": "anything else is refereed as a JSON log: its report says why it is malformed"}
    items = [{"type": "string", "description": "a text log"}, LOG_REF, {"$ref": "#/components/schemas/NamedLog"}]
    files = {
        "type": "array",
        "maxItems": max_items,
        "items": {"type": "string", "format": "binary"},
        "description": "one log per part, text or JSON (parts of any other name are logs too, in the order sent)",
    }
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "array", "maxItems": max_items, "items": {"anyOf": [*items, any_log]}}
                },
                "multipart/form-data": {
                    "schema": {"type": "object", "additionalProperties": False, "properties": {"files": files}}
                },
            },
        }
    }


def _profile_body(max_items: int) -> dict:
    schema = {
        "type": "array",
        "minItems": 1,
        "maxItems": max_items,
        "items": {"anyOf": [{"type": "string"}, {"type": "object"}]},
        "description": 'logs of one program: text (strings), JSON logs (objects) or `{"name": ..., "log": ...}`',
    }
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


def _unreadable(form: str, findings: list) -> ServiceError:
    errs = [f for f in findings if f.severity == "error"] or findings
    problems = [
        Problem(location=loc("body", pointer=f.pointer, line=f.line, column=f.column), message=f.message, rule=f.rule)
        for f in errs
    ] or [Problem(location=loc("body"), message="the log cannot be read")]
    return ServiceError(422, "invalid-log", f"the body is not a readable {form} log", problems)


#: the query parameters of the routes (their enums from the default game's specification)
Q = Params.build()


async def check_one(
    request: Request,
    jobs: JobsDep,
    limits: LimitsDep,
    ruleset: str | None = Q.ruleset,
    name: str = Q.name,
    option: list[str] = Q.option,
) -> Response:
    """Referee one log. The answer is the report `dosverify check --format json` prints for
    the same log: status 200 whatever the verdict, `malformed` for a log that cannot be read
    in either form. With `Accept: text/plain`, the compiler-style text report instead."""
    body = await read_body(request)
    form = form_of(request, ("text", "json"))
    pack = log_pack(body)  # the ruleset and options are the log's game's
    mark_games(reader_pack(body).name)  # the game whose reader judges it (DOS's for a log naming none)
    check_ruleset(ruleset, pack)
    options = parse_options(option, pack)
    as_text = prefers_text(request)
    [(_, _, payload)] = await check_all(
        jobs, limits, [(body, form, name)], ruleset, "text" if as_text else "json", options
    )
    return Response(payload, media_type="text/plain; charset=utf-8" if as_text else "application/json")


async def check_batch(
    request: Request,
    jobs: JobsDep,
    limits: LimitsDep,
    ruleset: str | None = Q.ruleset_batch,
    option: list[str] = Q.option,
) -> Response:
    """Referee several logs: a JSON array whose items are text logs (strings) or JSON logs
    (objects) or named logs (`{"name": ..., "log": ...}`, the log a string or an object), or a
    multipart upload with one log per part (a part's Content-Type, else its first character,
    tells text from JSON). One report per log, in order; a log that cannot be read gets a
    malformed report and never spoils the others. Reports are named by the item's `name`,
    else `[i]` (JSON array), or by the part's file name."""
    form = form_of(request, ("json", "multipart"))
    check_ruleset(ruleset)
    options = parse_options(option)
    items = await batch_logs(request, jobs, form, limits)
    games = [reader_pack(raw).name for raw, _, _ in items]  # each report's game
    mark_games(*games)
    check_items(items, ruleset, options)  # each item's game has the ruleset and options asked
    ruleset, options, auto = await judged_under(jobs, items, ruleset, options)
    done = await check_all(jobs, limits, items, ruleset, options=options, auto=auto)
    return Response(batch_payload(done, auto, games), media_type="application/json")


async def judged_under(
    jobs: Jobs, items: list[tuple[bytes, str | None, str]], ruleset: str | None, options: dict[str, str]
) -> tuple[str | None, dict[str, str], dict | None]:
    """(ruleset, options, inference) a batch is judged under: for `auto`, one inference over the
    whole batch (none for an empty one), then every log judged under it; else as asked."""
    if ruleset != "auto":
        return ruleset, options, None
    if not items:
        return None, options, None
    pairs = [(nm, raw) for raw, _, nm in items]
    size = sum(len(raw) for raw, _, _ in items)
    auto = await jobs.call(auto_job, pairs, options, size=size, lane="large", weight=len(items))
    return auto["ruleset"], auto["options"], auto


async def profile_logs(
    request: Request,
    jobs: JobsDep,
    limits: LimitsDep,
    option: list[str] = Q.option,
) -> JSONResponse:
    """The options (rulebook and engine, spec/options.toml) that explain logs of one program, as
    `dosverify profile --format json`: per option the consistent values (or no evidence), the
    lines that decide it and an example; the verdicts under the inferred options; the command.
    `option=KEY=VALUE` fixes an option instead of inferring it."""
    form_of(request, ("json",))
    fixed = parse_options(option)
    body = await read_body(request)
    # its logs are counted only in the worker: one check budget per 2 KiB of body (about
    # the smallest log of a round), at most one per log a batch may hold
    weight = min(limits.max_items, 1 + len(body) // 2048)
    game, result = await jobs.call(profile_job, body, limits.max_items, fixed, lane="large", weight=weight)
    mark_games(game)
    return JSONResponse(result)


async def convert_log(
    request: Request,
    jobs: JobsDep,
    limits: LimitsDep,
    to: Literal["json", "text"] | None = Query(
        None,
        description="the target form; by default the other one than the body's; the body's own form normalises it",
    ),
) -> Response:
    """`text/plain` in, the JSON form out (`log` is an object); `application/json` in, the
    text notation out (`log` is a string). `to` the body's own form normalises it (through
    the other form). Comments and spacing are not kept (they are not part of the JSON form).
    With `Accept: text/plain` the answer is the converted log itself (the notation, or the
    JSON form's text). A log that cannot be read is a 422 with the findings as problems."""
    body = await read_body(request)
    form = form_of(request, ("text", "json"))
    mark_games(reader_pack(body).name)
    target = to or ("json" if form == "text" else "text")
    [(out, findings)] = await jobs.run([("convert", (body, form, target), len(body))])
    if out is None:
        raise _unreadable(form, findings)
    if prefers_text(request):
        return Response(out if out.endswith("\n") else out + "\n", media_type="text/plain; charset=utf-8")
    log: Any = json.loads(out) if target == "json" else out
    return JSONResponse({"to": target, "log": log, "findings": [f.to_dict() for f in findings]})


_CONVERT_RESPONSES = {
    **ERROR_RESPONSES,
    200: {
        "description": "The converted log and the warnings met; with `Accept: text/plain`, the converted log itself",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
}


def router(limits: Limits) -> APIRouter:
    """The check routes under these settings: a route's body limit (`max_body_size`) and the
    bodies it documents (`maxItems`) are fixed as it is added, so each app adds its own."""
    r = APIRouter()
    r.add_api_route(
        "/v1/check",
        check_one,
        methods=["POST"],
        responses={**ERROR_RESPONSES, 200: TEXT_REPORT_RESPONSE},
        max_body_size=limits.max_log,
        openapi_extra=log_body(),
        summary="Check one log",
        operation_id="checkLog",
        tags=["check"],
        response_model=Report,
    )
    r.add_api_route(
        "/v1/check/batch",
        check_batch,
        methods=["POST"],
        response_model=BatchResult,
        responses=ERROR_RESPONSES,
        max_body_size=limits.batch_bytes,
        openapi_extra=_batch_body(limits.max_items),
        summary="Check several logs",
        operation_id="checkBatch",
        tags=["check"],
    )
    r.add_api_route(
        "/v1/profile",
        profile_logs,
        methods=["POST"],
        responses=ERROR_RESPONSES,
        max_body_size=limits.batch_bytes,
        openapi_extra=_profile_body(limits.max_items),
        summary="Infer the options that explain several logs",
        operation_id="profileLogs",
        tags=["check"],
    )
    r.add_api_route(
        "/v1/convert",
        convert_log,
        methods=["POST"],
        response_model=ConvertResult,
        max_body_size=limits.max_log,
        responses=_CONVERT_RESPONSES,
        openapi_extra=log_body(),
        tags=["convert"],
        summary="Convert text to JSON and back",
        operation_id="convertLog",
    )
    return r
