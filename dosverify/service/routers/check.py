"""The checks: ``POST /v1/check``, ``/v1/check/batch``, ``/v1/convert`` and ``/v1/profile``.
Every one calls the data path the CLI uses, in the worker pool."""

from __future__ import annotations

import json
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from ...games import find_game
from ...model import json_type_name
from ...report import Report
from ...spec import load_spec
from ..dependencies import Jobs, JobsDep, Limits, LimitsDep, check_ruleset, parse_options
from ..errors import ERROR_RESPONSES, Problem, ServiceError, loc, too_many_items
from ..middleware import read_body
from ..models import BatchResult, ConvertResult
from ..multipart import read_multipart
from ..negotiation import TEXT_REPORT_RESPONSE, form_of, prefers_text
from ..params import LOG_REF, Params, log_body

_NAMED_KEYS = {"name", "log"}


def batch_item(item: Any, i: int) -> tuple[str, Any]:
    """(name, log) of a batch item: `{"name": ..., "log": ...}` names its log; any other item is
    the log itself, named `[i]`. (A JSON log always has `players`, so it is never read as a
    named item.)"""
    if isinstance(item, dict) and "log" in item and set(item) <= _NAMED_KEYS:
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise ServiceError(
                422,
                "invalid-batch",
                f"item {i}'s name is not a string",
                [
                    Problem(
                        location=loc("body", pointer=f"/{i}/name", item=i),
                        message=f"expected a string, found {json_type_name(name)}",
                    )
                ],
            )
        if name and not _is_unicode(name):
            raise ServiceError(
                422,
                "invalid-batch",
                f"item {i}'s name is not valid Unicode",
                [
                    Problem(
                        location=loc("body", pointer=f"/{i}/name", item=i), message="a lone surrogate (\\ud800-\\udfff)"
                    )
                ],
            )
        return (name if name else f"[{i}]"), item["log"]
    return f"[{i}]", item


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_json(exc: Exception) -> ServiceError:
    offset = getattr(exc, "pos", None) if isinstance(exc, json.JSONDecodeError) else getattr(exc, "start", None)
    where = loc("body", line=getattr(exc, "lineno", None), column=getattr(exc, "colno", None), offset=offset)
    return ServiceError(
        422, "invalid-batch", "the body is not a JSON array of logs", [Problem(location=where, message=str(exc))]
    )


def _not_array(found: str) -> ServiceError:
    return ServiceError(
        422,
        "invalid-batch",
        "the body is not a JSON array of logs",
        [Problem(location=loc("body", pointer=""), message=f"expected {found}")],
    )


def _unparsable(message: str) -> ServiceError:
    return ServiceError(
        422, "invalid-batch", "the body is not a JSON array of logs", [Problem(location=loc("body"), message=message)]
    )


def json_items(body: bytes, max_items: int, *, empty_ok: bool = True) -> list:
    """The items of a JSON array body (422 when it is not one, or cannot be read: nested past
    the parser's depth, a number past Python's 4,300 digits; 413 past the item limit). Runs in a
    pool worker: parsing megabytes would hold up the event loop."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _not_json(exc) from exc
    except RecursionError:
        raise _unparsable("the JSON is nested too deeply to read") from None
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        raise _unparsable(f"the JSON cannot be read: {exc}") from None
    if not isinstance(data, list):
        raise _not_array(f"{'a non-empty array' if not empty_ok else 'an array'}, found {json_type_name(data)}")
    if not data and not empty_ok:
        raise _not_array("a non-empty array, found an empty array")
    if len(data) > max_items:
        raise too_many_items(max_items, len(data))
    return data


def _encoded(item: Any, i: int, max_log: int) -> tuple[bytes, str]:
    """The bytes of a batch item's log (a lone surrogate kept as its bytes: the referee reports
    the encoding, as it does for /v1/check)."""
    try:
        if isinstance(item, str):
            raw, form = item.encode("utf-8", "surrogatepass"), "text"
        else:  # an object is a JSON log; anything else fails the log schema in its report
            raw, form = json.dumps(item, ensure_ascii=False).encode("utf-8", "surrogatepass"), "json"
    except RecursionError:
        raise ServiceError(
            422,
            "invalid-batch",
            f"item {i} is nested too deeply to read",
            [Problem(location=loc("body", pointer=f"/{i}", item=i), message="the JSON is nested too deeply")],
        ) from None
    if len(raw) > max_log:
        raise ServiceError(
            413,
            "content-too-large",
            f"item {i} is over the limit of {max_log} bytes per log",
            [Problem(location=loc("body", pointer=f"/{i}", item=i), message=f"a log may have at most {max_log} bytes")],
        )
    return raw, form


async def batch_logs(request: Request, jobs: Jobs, form: str, limits: Limits) -> list[tuple[bytes, str | None, str]]:
    """(bytes, form, name) of every log of a batch body, multipart or a JSON array."""
    if form == "multipart":
        parts = await read_multipart(request, limits.max_log, limits.max_items)
        return [(bytes(p.data), p.form(), p.filename or p.name or f"[{i}]") for i, p in enumerate(parts)]
    body = await read_body(request)
    return await jobs.call(read_batch_job, body, limits.max_items, limits.max_log, lane="batch")


def read_batch_job(body: bytes, max_items: int, max_log: int) -> list[tuple[bytes, str, str]]:
    """(bytes, form, name) of every log of a JSON array batch (in a pool worker)."""
    items = []
    for i, item in enumerate(json_items(body, max_items)):
        item_name, log = batch_item(item, i)
        raw, f = _encoded(log, i, max_log)
        items.append((raw, f, item_name))
    return items


def profile_job(body: bytes, max_items: int, fixed: dict[str, str]) -> dict:
    """`POST /v1/profile` in a pool worker: the body read, then the game's inference."""
    return find_game().profile(profile_pairs(json_items(body, max_items, empty_ok=False)), fixed)


def auto_job(pairs: list[tuple[str, str | bytes | dict]], options: dict[str, str]) -> dict:
    """What `batch?ruleset=auto` judges under (in a pool worker)."""
    pack = find_game()
    return pack.auto_choice(pack.profile(pairs, options))


def profile_pairs(data: list) -> list[tuple[str, Any]]:
    pairs = []
    for i, item in enumerate(data):
        item_name, log = batch_item(item, i)
        if not isinstance(log, (str, dict)):
            raise ServiceError(
                422,
                "invalid-batch",
                f"item {i} is not a log",
                [
                    Problem(
                        location=loc("body", pointer=f"/{i}", item=i),
                        message=f"expected a string or an object, found {json_type_name(log)}",
                    )
                ],
            )
        pairs.append((item_name, log))
    return pairs


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


def batch_payload(done: list, auto: dict | None) -> bytes:
    counts = {v: sum(1 for verdict, _, _ in done if verdict == v) for v in ("legal", "illegal", "malformed")}
    head = json.dumps(
        {"spec_version": load_spec().version, "count": len(done), **counts, **({"auto": auto} if auto else {})},
        separators=(",", ":"),
    )
    return head[:-1].encode() + b',"reports":[' + b",".join(p for _, _, p in done) + b"]}"


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
    check_ruleset(ruleset)
    options = parse_options(option)
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
    if ruleset != "auto":
        check_ruleset(ruleset)
    options = parse_options(option)
    items = await batch_logs(request, jobs, form, limits)
    ruleset, options, auto = await judged_under(jobs, items, ruleset, options)
    done = await check_all(jobs, limits, items, ruleset, options=options, auto=auto)
    return Response(batch_payload(done, auto), media_type="application/json")


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
    return JSONResponse(await jobs.call(profile_job, body, limits.max_items, fixed, lane="large", weight=weight))


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
