"""The HTTP service: the referee behind a URL (FastAPI, served by uvicorn).

Every endpoint calls :func:`dosverify.api.check` / :func:`dosverify.api.convert`, the one data
path the CLI uses, so a report from ``POST /v1/check`` is exactly what
``dosverify check --format json`` prints for the same log (the ``file`` field is the ``name``
query parameter, ``-`` by default).

Endpoints (all answers are JSON unless said otherwise; every response carries the header
``X-DOS-Spec-Version``):

- ``POST /v1/check``: one log, ``text/plain`` (the notation) or ``application/json`` (the JSON
  form); ``?ruleset=`` overrides the log's ruleset, ``?name=`` names the log in the report.
  200 with the report whatever the verdict.
- ``POST /v1/check/batch``: a JSON array (each item a text log as a string or a JSON log as an
  object) or ``multipart/form-data`` (every part is one log); one report per log, in order.
- ``POST /v1/convert``: text to JSON (``text/plain`` body) or JSON to text (``application/json``).
- ``POST /v1/replay``: one log's report and the table after every turn (:mod:`dosverify.webui`).
- ``GET /v1/rules``, ``GET /v1/rules/{id}``, ``GET /v1/rulesets``: the specification.
- ``GET /healthz``; ``/openapi.json``, ``/docs`` and ``/redoc`` (assets from the package).
- ``GET /``: the organiser's web page (:mod:`dosverify.webui`).

A log that cannot be read, in either form, is a verdict (200, ``malformed``); errors are only
for requests that are not a log request at all, and share one body, :class:`ErrorBody`: RFC 9457
problem details (``application/problem+json``: type, title, status, detail, instance) with a
stable ``error`` code and the ``problems``, each with its ``location`` (``in``
body/query/path/header, and a JSON pointer, line and column or byte offset where known).
``Accept: text/plain`` asks /v1/check for the compiler-style text report and /v1/convert for
the bare log; a trailing slash is ignored and HEAD works wherever GET does
(:class:`HttpConventions`). Body limits are enforced while the body is read by
Starlette's ``RequestBodyLimitMiddleware``, through FastAPI's per-route ``max_body_size``
(FastAPI >= 0.164 / Starlette >= 1.6): a large ``Content-Length`` is refused before any byte is
read and a chunked body as soon as it passes the limit, both as 413.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import gc
import html
import json
import time
from typing import Any, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, create_model
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import __version__
from .findings import Finding
from .games.dos.events import Log
from .games.dos.jsonform import json_type_name
from .pool import CheckBusy, CheckPool, CheckTimeout, InFlightLimit, WorkerDied
from .report import Report
from .settings import SPECS, Settings
from .spec import SpecError, load_spec

DEFAULT_MAX_LOG_BYTES = 1024 * 1024  # 1 MiB per log
DEFAULT_MAX_BATCH_ITEMS = 100
ENV_MAX_LOG_BYTES = "DOSVERIFY_MAX_LOG_BYTES"
ENV_MAX_BATCH_ITEMS = "DOSVERIFY_MAX_BATCH_ITEMS"
SPEC_HEADER = "X-DOS-Spec-Version"
RETRY_AFTER = 1  # seconds, in the Retry-After of every 503
BATCH_OVERHEAD = 64 * 1024  # room for the JSON array / multipart framing around the logs
_BODY_LIMIT_SCOPE_KEY = "starlette.max_body_size"  # starlette.middleware.body_limit.MAX_BODY_SIZE_SCOPE_KEY

# ---- the kinds of problem (RFC 9457 `type`s): code -> (title, what it means) ---------------

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPES: dict[str, tuple[str, str]] = {
    "bad-request": ("Bad request", "The request cannot be read (for example a multipart body without a boundary)."),
    "unsupported-media-type": (
        "Unsupported media type",
        "The body's Content-Type is not one the endpoint takes: "
        "text/plain (UTF-8) or application/json for one log, application/json or "
        "multipart/form-data for a batch.",
    ),
    "content-too-large": (
        "Content too large",
        "The body, or one log of a batch, is over the size limit (`GET /healthz` names it).",
    ),
    "too-many-items": ("Too many logs", "A batch holds more logs than the limit (`GET /healthz` names it)."),
    "invalid-batch": ("Not a batch of logs", "The body of a batch is not a JSON array of logs."),
    "invalid-log": (
        "Log cannot be converted",
        "The log sent to /v1/convert cannot be read; /v1/check answers such a log with a `malformed` report instead.",
    ),
    "unknown-ruleset": (
        "Unknown ruleset",
        "The `ruleset` parameter names no ruleset of the specification (`GET /v1/rulesets` lists them).",
    ),
    "unknown-option": (
        "Unknown option",
        "An `option` parameter names no option of the specification, or a "
        "value the option does not take (`GET /v1/rulesets` lists them).",
    ),
    "invalid-parameter": ("Invalid parameter", "A query or path parameter is not valid."),
    "not-found": ("Not found", "No endpoint or rule has this path."),
    "method-not-allowed": ("Method not allowed", "The endpoint does not take this HTTP method."),
    "internal-error": ("Internal error", "A bug in dosverify: please report it with the request."),
}


# ---- response models ---------------------------------------------------------------------


class Location(BaseModel):
    """Where a problem is in the request."""

    model_config = ConfigDict(extra="forbid")
    in_: Literal["body", "query", "path", "header"] = Field(alias="in", serialization_alias="in")
    name: str | None = Field(default=None, description="the query or path parameter, or the header")
    pointer: str | None = Field(default=None, description="JSON pointer into the body (or the item, in a batch)")
    item: int | None = Field(default=None, description="the item's index in a batch, from 0")
    line: int | None = None
    column: int | None = None
    offset: int | None = Field(default=None, description="byte offset in the body (or the item)")


class Problem(BaseModel):
    model_config = ConfigDict(extra="forbid")
    location: Location
    message: str
    rule: str | None = Field(default=None, description="the rule id in spec/, when a rule says so")


class ErrorBody(BaseModel):
    """The body of every answer that is not 2xx: RFC 9457 problem details
    (``application/problem+json``), with the service's own members beside the standard ones."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(
        description="a URI reference naming the kind of problem: `/problems/CODE`, a page that explains it"
    )
    title: str = Field(description="a short summary of the kind of problem, the same for every occurrence")
    status: int = Field(description="the HTTP status code")
    detail: str = Field(description="what went wrong with this request")
    instance: str | None = Field(default=None, description="the path of the request that failed")
    error: str = Field(description="the stable code at the end of `type`: " + ", ".join(PROBLEM_TYPES))
    problems: list[Problem] = Field(default_factory=list, description="each problem with its location")
    spec_version: str


class _HealthBase(BaseModel):
    status: Literal["ok"] = "ok"
    version: str = Field(description="the dosverify package version")
    spec_version: str


# /healthz: the service's identity and every setting, its fields built from Settings (so the two
# cannot drift); max_batch_bytes is the limit in force (at most max_log_bytes x max_batch_items)
Health = create_model(
    "Health",
    __base__=_HealthBase,
    **{f.name: (SPECS[f.name][1], Field(description=SPECS[f.name][4])) for f in dataclasses.fields(Settings)},
)


class BatchResult(BaseModel):
    """One report per log, in the order the logs were sent."""

    model_config = ConfigDict(extra="forbid")
    spec_version: str
    count: int
    legal: int
    illegal: int
    malformed: int
    auto: dict | None = Field(
        None,
        description="with `ruleset=auto`: the ruleset and options inferred from the "
        "batch, as each report's `auto` (left out otherwise)",
    )
    reports: list[Report]


class ConvertResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Literal["json", "text"]
    log: Log | str = Field(description="the JSON form (an object) or the text notation (a string)")
    findings: list[Finding] = Field(default_factory=list, description="warnings met while reading the input")


class SourceRef(BaseModel):
    ref: str = Field(description="a key of `sources` (S0..S4, N1, D)")
    file: str
    part: str


class RuleInfo(BaseModel):
    id: str
    title: str
    kind: str
    severity: str
    section: str
    text: str
    why: str
    variant: str | None
    sources: list[SourceRef]
    example: str
    fix: str


class SourceInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    file: str
    title: str


class RulesResult(BaseModel):
    spec_version: str
    sources: dict[str, SourceInfo]
    kinds: dict[str, str] = Field(description="the finding kinds and what each covers")
    rules: list[RuleInfo]


class RulesetInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    title: str
    target: int
    options: dict[str, str]


class OptionInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    variant: str | None = None
    text: str = ""
    values: dict[str, str]
    default: str | None = None


class RulesetsResult(BaseModel):
    spec_version: str
    sources: dict[str, SourceInfo]
    rulesets: list[RulesetInfo]
    options: dict[str, OptionInfo]


# ---- errors ------------------------------------------------------------------------------


class ServiceError(Exception):
    def __init__(
        self, status: int, error: str, message: str, problems: list[Problem] | None = None, headers: dict | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.error, self.message = status, error, message
        self.problems, self.headers = problems or [], headers


def _loc(in_: str, **kw: Any) -> Location:
    return Location(**{"in": in_}, **kw)


def problem_body(
    status: int,
    error: str,
    detail: str,
    problems: list[Problem] | None = None,
    instance: str | None = None,
    spec_version: str | None = None,
) -> ErrorBody:
    title = PROBLEM_TYPES.get(error, (error.replace("-", " ").capitalize(), ""))[0]
    return ErrorBody(
        type=f"/problems/{error}",
        title=title,
        status=status,
        detail=detail,
        instance=instance,
        error=error,
        problems=problems or [],
        spec_version=spec_version or load_spec().version,
    )


def _error_response(
    status: int,
    error: str,
    message: str,
    problems: list[Problem] | None = None,
    headers: dict | None = None,
    instance: str | None = None,
) -> JSONResponse:
    body = problem_body(status, error, message, problems, instance)
    return JSONResponse(
        body.model_dump(mode="json", by_alias=True, exclude_none=False),
        status_code=status,
        headers=headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


_HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "content-too-large",
    415: "unsupported-media-type",
    422: "invalid-parameter",
}


def _pointer(path: list | tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


# ---- the outermost middleware: the spec-version header, and JSON for Starlette's 413 ------


class SpecVersionHeader:
    """Adds ``X-DOS-Spec-Version`` to every response, and turns the plain-text 413 that
    Starlette's body limiter sends for a too-large ``Content-Length`` (it replaces whatever the
    route answers) into the service's JSON error body. A pure ASGI middleware: it never
    buffers a request body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.value = load_spec().version.encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        name = SPEC_HEADER.lower().encode()
        rewriting = False

        async def send_with_header(message: Message) -> None:
            nonlocal rewriting
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() != name]
                ctype = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                if message["status"] == 413 and ctype.startswith(b"text/plain"):
                    rewriting = True
                    limit = scope.get(_BODY_LIMIT_SCOPE_KEY)
                    msg = (
                        f"the body is over the limit of {limit} bytes" if limit is not None else "the body is too large"
                    )
                    body = (
                        problem_body(
                            413,
                            "content-too-large",
                            msg,
                            [Problem(location=_loc("body"), message=msg)],
                            scope.get("path"),
                            self.value.decode(),
                        )
                        .model_dump_json(by_alias=True)
                        .encode()
                    )
                    headers = [(k, v) for k, v in headers if k.lower() not in (b"content-type", b"content-length")]
                    headers += [
                        (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                        (b"content-length", str(len(body)).encode()),
                        (name, self.value),
                    ]
                    await send({**message, "headers": headers})
                    await send({"type": "http.response.body", "body": body, "more_body": False})
                    return
                headers.append((name, self.value))
                message = {**message, "headers": headers}
            elif rewriting and message["type"] == "http.response.body":
                return  # the plain-text body was replaced
            await send(message)

        await self.app(scope, receive, send_with_header)


SERVER_TIMING: contextvars.ContextVar[dict | None] = contextvars.ContextVar("dosverify_server_timing", default=None)


class ServerTiming:
    """Adds a ``Server-Timing`` header (W3C Server Timing) to every response: where the
    request's time in this process went, in milliseconds, so a slow answer can be told apart
    from a slow client or network. ``read`` reading the body; for the checks, from
    :func:`dosverify.pool.pool_timing`, ``queue`` (waiting for a worker of its lane), ``send``
    (from dispatch until the worker began), ``check`` (in the worker), ``cpu`` (the CPU time of
    that), ``back`` (from the worker's end until the event loop had the result); ``app`` from
    the request's arrival in the app to the response's first byte. What the client measures
    beyond ``app`` was spent in uvicorn, the socket or the client itself. Endpoints fill the
    dict in :data:`SERVER_TIMING` (a pure ASGI middleware: the endpoint runs in its context)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        timing: dict[str, float] = {}
        token = SERVER_TIMING.set(timing)

        async def send_timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                timing["app"] = time.perf_counter() - t0
                value = ", ".join(f"{k};dur={1000 * v:.2f}" for k, v in timing.items()).encode()
                message = {**message, "headers": [*message.get("headers", []), (b"server-timing", value)]}
            await send(message)

        try:
            await self.app(scope, receive, send_timed)
        finally:
            SERVER_TIMING.reset(token)


async def read_body(request: Request) -> bytes:
    """The request's body, its reading timed (``read`` in Server-Timing)."""
    t0 = time.perf_counter()
    body = await request.body()
    timing = SERVER_TIMING.get()
    if timing is not None:
        timing["read"] = time.perf_counter() - t0
    return body


class HttpConventions:
    """What clients expect of any HTTP service, before routing: a trailing slash names the same
    resource (`/v1/rules/` is `/v1/rules`, no 307 redirect), and `HEAD` works wherever `GET`
    does (answered as a GET with the body left out, headers and Content-Length kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "/")
        if len(path) > 1 and path.endswith("/"):
            stripped = path.rstrip("/") or "/"
            scope = {**scope, "path": stripped, "raw_path": stripped.encode("utf-8", "surrogateescape")}
        if scope.get("method") != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


# ---- reading bodies ----------------------------------------------------------------------


def _media_type(request: Request) -> tuple[str, dict[str, str]]:
    raw = request.headers.get("content-type", "")
    parts = [p.strip() for p in raw.split(";")]
    params = {}
    for p in parts[1:]:
        if "=" in p:
            k, v = p.split("=", 1)
            params[k.strip().lower()] = v.strip().strip('"')
    return parts[0].lower(), params


def _form_of(request: Request, allowed: tuple[str, ...]) -> str:
    """The form a body declares: "text" (text/plain), "json" (application/json, */*+json) or
    "multipart"; anything else is a 415 naming what is accepted."""
    mt, params = _media_type(request)
    form = None
    if mt == "text/plain":
        charset = params.get("charset", "utf-8").lower()
        if charset not in ("utf-8", "utf8", "us-ascii", "ascii"):
            raise ServiceError(
                415,
                "unsupported-media-type",
                f"the notation is UTF-8 text; charset `{charset}` is not accepted",
                [
                    Problem(
                        location=_loc("header", name="content-type"),
                        message="send `Content-Type: text/plain; charset=utf-8` (or no charset)",
                    )
                ],
            )
        form = "text"
    elif mt == "application/json" or (mt.startswith("application/") and mt.endswith("+json")):
        form = "json"
    elif mt == "multipart/form-data":
        form = "multipart"
    if form not in allowed:
        accepted = {"text": "text/plain", "json": "application/json", "multipart": "multipart/form-data"}
        names = ", ".join(accepted[a] for a in allowed)
        shown = mt or "no Content-Type"
        raise ServiceError(
            415,
            "unsupported-media-type",
            f"{shown} is not accepted here (accepted: {names})",
            [Problem(location=_loc("header", name="content-type"), message=f"use one of: {names}")],
        )
    return form


def _check_ruleset(ruleset: str | None) -> None:
    if ruleset is None:
        return
    try:
        load_spec().ruleset(ruleset)
    except SpecError as exc:
        raise ServiceError(
            422,
            "unknown-ruleset",
            str(exc),
            [Problem(location=_loc("query", name="ruleset"), message=str(exc), rule="notation.ruleset")],
        ) from exc


async def _in_pool(pool: CheckPool, jobs: list[tuple[str, tuple, int]]) -> list:
    """Run jobs in the worker pool (:mod:`dosverify.pool`). A check past its time budget, a log
    that waited past it for a worker, or a worker lost is a 503 with Retry-After: the log was
    not judged, so no verdict is given."""
    retry = {"Retry-After": str(RETRY_AFTER)}
    try:
        return await pool.run(jobs, SERVER_TIMING.get())
    except SpecError as exc:  # the override was checked first; kept for safety
        raise ServiceError(
            422,
            "unknown-ruleset",
            str(exc),
            [Problem(location=_loc("query", name="ruleset"), message=str(exc), rule="notation.ruleset")],
        ) from exc
    except CheckTimeout as exc:
        raise ServiceError(
            503,
            "check-timeout",
            f"{exc}; the log may be too costly to referee within the budget",
            [
                Problem(
                    location=_loc("body", item=exc.item if len(jobs) > 1 else None),
                    message=f"the check took more than {exc.budget:g} s",
                )
            ],
            headers=retry,
        ) from exc
    except CheckBusy as exc:
        raise ServiceError(
            503,
            "too-many-requests",
            f"the service is saturated: {exc}",
            [
                Problem(
                    location=_loc("body", item=exc.item if len(jobs) > 1 else None),
                    message=f"no worker was free within {exc.waited:g} s",
                )
            ],
            headers=retry,
        ) from exc
    except WorkerDied as exc:
        raise ServiceError(
            503, "worker-lost", str(exc), [Problem(location=_loc("body"), message=str(exc))], headers=retry
        ) from exc


# ---- content negotiation and batch items ----------------------------------------------------


def _accept_q(accept: str, media: str) -> float:
    """The quality the Accept header gives `media` (its most specific matching range), 0 if none."""
    major = media.split("/")[0]
    best, best_rank = 0.0, -1
    for part in accept.split(","):
        fields = [f.strip() for f in part.split(";")]
        rng = fields[0].lower()
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        rank = 2 if rng == media else 1 if rng == f"{major}/*" else 0 if rng == "*/*" else -1
        if rank > best_rank:
            best, best_rank = q, rank
    return best if best_rank >= 0 else 0.0


def prefers_text(request: Request) -> bool:
    """Whether the client asks for `text/plain` over JSON (`Accept: text/plain`, as curl users
    write it); no Accept header, `*/*` or a tie keeps JSON."""
    accept = request.headers.get("accept", "")
    if not accept:
        return False
    return _accept_q(accept, "text/plain") > max(
        _accept_q(accept, "application/json"), _accept_q(accept, PROBLEM_MEDIA_TYPE)
    )


_TEXT_REPORT_RESPONSE = {
    "description": "The report (JSON), or with `Accept: text/plain` the compiler-style text "
    "report `dosverify check` prints",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}


_NAMED_KEYS = {"name", "log"}


def _batch_item(item: Any, i: int) -> tuple[str, Any]:
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
                        location=_loc("body", pointer=f"/{i}/name", item=i),
                        message=f"expected a string, found {json_type_name(name)}",
                    )
                ],
            )
        return (name if name else f"[{i}]"), item["log"]
    return f"[{i}]", item


class _Part:
    __slots__ = ("name", "filename", "content_type", "data")

    def __init__(self) -> None:
        self.name: str | None = None
        self.filename: str | None = None
        self.content_type: str | None = None
        self.data = bytearray()


async def _read_multipart(request: Request, max_log_bytes: int, max_items: int) -> list[_Part]:
    """Read every part of a multipart body as raw bytes (no decoding: a log's bytes reach the
    referee as sent), refusing a part over the per-log limit or a part beyond the item limit as
    soon as it is seen."""
    import python_multipart
    from python_multipart.multipart import parse_options_header

    _, params = parse_options_header(request.headers.get("content-type", ""))
    boundary = params.get(b"boundary")
    if not boundary:
        raise ServiceError(
            400,
            "bad-request",
            "multipart body without a boundary",
            [Problem(location=_loc("header", name="content-type"), message="missing `boundary=`")],
        )
    parts: list[_Part] = []
    state = {"hname": b"", "hval": b"", "headers": {}}
    errors: list[ServiceError] = []

    def too_big(i: int, p: _Part) -> ServiceError:
        return ServiceError(
            413,
            "content-too-large",
            f"part {i} ({p.filename or p.name}) is over the limit of {max_log_bytes} bytes per log",
            [
                Problem(
                    location=_loc("body", item=i, name=p.filename or p.name),
                    message=f"a log may have at most {max_log_bytes} bytes",
                )
            ],
        )

    def on_part_begin() -> None:
        if len(parts) >= max_items:
            raise _Stop(
                ServiceError(
                    413,
                    "too-many-items",
                    f"a batch holds at most {max_items} logs",
                    [
                        Problem(
                            location=_loc("body", item=len(parts)),
                            message=f"part {len(parts)} is beyond the limit of {max_items} logs",
                        )
                    ],
                )
            )
        parts.append(_Part())
        state["headers"] = {}

    def on_header_field(data: bytes, start: int, end: int) -> None:
        state["hname"] += data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        state["hval"] += data[start:end]

    def on_header_end() -> None:
        state["headers"][state["hname"].lower()] = state["hval"]
        state["hname"], state["hval"] = b"", b""

    def on_headers_finished() -> None:
        p = parts[-1]
        _, opts = parse_options_header(state["headers"].get(b"content-disposition", b""))
        p.name = opts[b"name"].decode("utf-8", "replace") if b"name" in opts else None
        p.filename = opts[b"filename"].decode("utf-8", "replace") if b"filename" in opts else None
        ct = state["headers"].get(b"content-type")
        p.content_type = ct.decode("latin-1").split(";")[0].strip().lower() if ct else None

    def on_part_data(data: bytes, start: int, end: int) -> None:
        p = parts[-1]
        p.data += data[start:end]
        if len(p.data) > max_log_bytes:
            raise _Stop(too_big(len(parts) - 1, p))

    callbacks = {
        "on_part_begin": on_part_begin,
        "on_header_field": on_header_field,
        "on_header_value": on_header_value,
        "on_header_end": on_header_end,
        "on_headers_finished": on_headers_finished,
        "on_part_data": on_part_data,
    }
    parser = python_multipart.MultipartParser(boundary, callbacks)
    try:
        async for chunk in request.stream():
            parser.write(chunk)
        parser.finalize()
    except _Stop as stop:
        errors.append(stop.error)
    except python_multipart.exceptions.MultipartParseError as exc:
        raise ServiceError(
            400,
            "bad-request",
            f"the multipart body cannot be read: {exc}",
            [Problem(location=_loc("body", offset=getattr(exc, "offset", None)), message=str(exc))],
        ) from exc
    if errors:
        raise errors[0]
    return parts


class _Stop(Exception):
    def __init__(self, error: ServiceError) -> None:
        self.error = error


# ---- the app -----------------------------------------------------------------------------


_TEXT_EXAMPLE = """dos 1
players ann bob
round 1
dealer ann
hand ann R3 B5 G10 Y1 W2 R# B7
hand bob B3 B7 G3 Y4 G9 R1 R8
center R3 B10
"""


def create_app(
    max_log_bytes: int | None = None, max_batch_items: int | None = None, *, warm: bool = False, **settings: Any
) -> FastAPI:
    """Build the service. Every setting (see :mod:`dosverify.settings`: ``max_log_bytes``,
    ``max_batch_items``, ``max_batch_bytes``, ``workers``, ``check_timeout``, ``max_in_flight``,
    ``max_findings``) given here wins over its environment variable, which wins over its default.

    The endpoints are ``async def``: they read the body on the event loop (so the body limit
    applies while it streams in) and send every check to a pool of worker processes
    (:mod:`dosverify.pool`), started with the first check (with ``warm``, as the app starts, in the
    background, so the first checks under load do not wait for workers to start, and what the app
    holds for good is frozen out of the garbage collector's full scans; `serve` does that):
    checks run in parallel, each within
    its time budget, and small logs never wait behind large ones. The event loop stays free to
    accept connections, answer ``/healthz`` and refuse oversized bodies or excess requests.
    """
    cfg = Settings.resolve(max_log_bytes=max_log_bytes, max_batch_items=max_batch_items, **settings)
    max_log, max_items, max_findings = cfg.max_log_bytes, cfg.max_batch_items, cfg.max_findings
    batch_bytes = min(cfg.max_batch_bytes, max_log * max_items + BATCH_OVERHEAD)
    spec = load_spec()
    ruleset_names = sorted(spec.rulesets)
    pool_box: dict[str, CheckPool] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        async def warm_up() -> None:
            with contextlib.suppress(Exception):  # a worker that does not start is retried by its first job
                await get_pool().start()

        task = None
        if warm:
            task = asyncio.create_task(warm_up())
            # What the service holds for good (spec, models, routes) leaves the collector's
            # view: a full collection scanned it all, a pause of the event loop of 0.2 s and
            # more under load, that every request in flight waited out.
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
            if "pool" in pool_box:
                pool_box.pop("pool").close()

    app = FastAPI(
        title="dosverify",
        version=__version__,
        summary="A referee for DOS card game logs",
        description=(
            "POST a game log (the text notation or its JSON form) and get the referee's report: "
            "`legal`, `illegal` or `malformed`, with every finding at its line and column or JSON pointer. "
            f"Limits: {max_log} bytes per log, {max_items} logs and {batch_bytes} bytes per batch, "
            f"{max_findings} findings per report (the rest counted in `truncated`), {cfg.check_timeout:g} s "
            f"per check and {cfg.max_in_flight} requests in flight (past either: 503 with Retry-After). "
            f"Every response carries the `{SPEC_HEADER}` header (the rules specification's version). "
            "Errors are RFC 9457 problem details (`application/problem+json`). The organiser's web page is at `/`."
        ),
        docs_url=None,
        redoc_url=None,  # served from the package's own assets by dosverify.webui
        lifespan=lifespan,
    )

    def get_pool() -> CheckPool:
        if "pool" not in pool_box:
            pool_box["pool"] = CheckPool(cfg.workers, cfg.check_timeout)
        return pool_box["pool"]

    async def check_all(
        items: list[tuple[bytes, str | None, str]],
        ruleset: str | None,
        render: str = "json",
        options: dict | None = None,
        auto: dict | None = None,
    ) -> list:
        """(verdict, truncated, rendered bytes) for each (body, form, name), checked in the pool
        (under `?option=` overrides, if any)."""
        jobs = [
            ("check", (raw, f, nm, ruleset, max_findings, render, options or None, auto), len(raw))
            for raw, f, nm in items
        ]
        return await _in_pool(get_pool(), jobs)

    async def run_in_pool(fn, *args):
        """``fn(*args)`` in the pool (``fn`` a module-level function), for the web page's work."""
        size = len(args[0]) if args and isinstance(args[0], (bytes, bytearray)) else 0
        [out] = await _in_pool(get_pool(), [("call", (fn, args), size)])
        return out

    def busy(limit: int):
        return _error_response(
            503,
            "too-many-requests",
            f"{limit} requests are in flight, the most this service takes",
            [Problem(location=_loc("header", name="retry-after"), message=f"retry after {RETRY_AFTER} s")],
            headers={"Retry-After": str(RETRY_AFTER)},
        )

    app.state.settings = cfg
    app.state.pool = get_pool
    app.state.max_log_bytes = max_log
    app.state.max_batch_items = max_items
    app.add_middleware(
        InFlightLimit,
        limit=cfg.max_in_flight,
        paths=("/v1/check", "/v1/convert", "/v1/replay", "/v1/profile"),
        reject=busy,
    )
    app.add_middleware(SpecVersionHeader)
    app.add_middleware(ServerTiming)
    app.add_middleware(HttpConventions)  # added last: the outermost, it sees the request first
    app.router.redirect_slashes = False

    # -- error handlers: one JSON shape for every error --
    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return _error_response(
            exc.status, exc.error, exc.message, exc.problems, headers=exc.headers, instance=request.url.path
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code
        code = _HTTP_CODES.get(status, "bad-request" if status < 500 else "internal-error")
        if status == 413:
            limit = request.scope.get(_BODY_LIMIT_SCOPE_KEY)
            msg = f"the body is over the limit of {limit} bytes" if limit is not None else "the body is too large"
            problems = [Problem(location=_loc("body"), message=msg)]
        elif status == 404:
            msg = f"no such endpoint: {request.method} {request.url.path}"
            problems = [Problem(location=_loc("path", name=request.url.path), message=str(exc.detail))]
        elif status == 405:
            msg = f"{request.method} is not allowed on {request.url.path}"
            problems = [Problem(location=_loc("path", name=request.url.path), message=str(exc.detail))]
        else:
            msg = str(exc.detail)
            problems = [Problem(location=_loc("body"), message=str(exc.detail))]
        return _error_response(
            status, code, msg, problems, headers=getattr(exc, "headers", None), instance=request.url.path
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            loc = list(err.get("loc", ()))
            where = loc[0] if loc and loc[0] in ("body", "query", "path", "header") else "body"
            rest = loc[1:] if loc and loc[0] in ("body", "query", "path", "header") else loc
            if where == "body":
                location = _loc("body", pointer=_pointer(rest))
            else:
                location = _loc(where, name=str(rest[0]) if rest else None)
            problems.append(Problem(location=location, message=str(err.get("msg", "invalid"))))
        return _error_response(
            422, "invalid-parameter", "the request's parameters are not valid", problems, instance=request.url.path
        )

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, exc: Exception) -> JSONResponse:  # a bug of ours
        return _error_response(
            500,
            "internal-error",
            "the service failed on this request (a bug in dosverify)",
            [Problem(location=_loc("body"), message="this is a bug in dosverify; please report it")],
            instance=request.url.path,
        )

    errors = {
        413: {"model": ErrorBody, "description": "A body (or one log) over the size limit, or too many logs"},
        415: {"model": ErrorBody, "description": "An unsupported Content-Type"},
        422: {
            "model": ErrorBody,
            "description": "An unknown ruleset, an invalid parameter, or a batch body that is not an array of logs",
        },
        400: {"model": ErrorBody, "description": "A body that cannot be read (a broken multipart body)"},
    }

    ruleset_q = Query(None, description="overrides the log's ruleset", json_schema_extra={"enum": ruleset_names})
    name_q = Query("-", max_length=1024, description="the name of the log in the report (`file`)")
    from .webui import parse_options  # `KEY=VALUE` as POST /v1/replay reads it (422 unknown-option)

    option_pairs = [f"{k}={v}" for k, opt in spec.options.items() for v in opt["values"]]
    option_q = Query(
        [],
        description="`KEY=VALUE`: an option over the log's own `option` lines (repeatable; "
        "`GET /v1/rulesets` lists the options and their values)",
        json_schema_extra={"items": {"type": "string", "enum": option_pairs}},
    )

    log_ref = {"$ref": "#/components/schemas/Log"}
    check_body = {
        "requestBody": {
            "required": True,
            "content": {
                "text/plain": {"schema": {"type": "string"}, "example": _TEXT_EXAMPLE},
                "application/json": {"schema": log_ref},
            },
        }
    }

    @app.post(
        "/v1/check",
        response_model=Report,
        responses={**errors, 200: _TEXT_REPORT_RESPONSE},
        max_body_size=max_log,
        openapi_extra=check_body,
        tags=["check"],
        summary="Check one log",
        operation_id="checkLog",
    )
    async def check_one(
        request: Request, ruleset: str | None = ruleset_q, name: str = name_q, option: list[str] = option_q
    ) -> Response:
        """Referee one log. The answer is the report `dosverify check --format json` prints for
        the same log: status 200 whatever the verdict, `malformed` for a log that cannot be read
        in either form. With `Accept: text/plain`, the compiler-style text report instead."""
        body = await read_body(request)
        form = _form_of(request, ("text", "json"))
        _check_ruleset(ruleset)
        options = parse_options(option)
        as_text = prefers_text(request)
        [(_, _, payload)] = await check_all([(body, form, name)], ruleset, "text" if as_text else "json", options)
        return Response(payload, media_type="text/plain; charset=utf-8" if as_text else "application/json")

    batch_body = {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "array",
                        "maxItems": max_items,
                        "items": {
                            "anyOf": [
                                {"type": "string", "description": "a text log"},
                                log_ref,
                                {"$ref": "#/components/schemas/NamedLog"},
                                {
                                    "description": "anything else is refereed as a JSON log: "
                                    "its report says why it is malformed"
                                },
                            ]
                        },
                    }
                },
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "files": {
                                "type": "array",
                                "maxItems": max_items,
                                "items": {"type": "string", "format": "binary"},
                                "description": "one log per part, text or JSON (parts of any other name are logs "
                                "too, in the order sent)",
                            }
                        },
                    }
                },
            },
        }
    }

    ruleset_batch_q = Query(
        None,
        description="overrides the logs' ruleset; `auto` infers the ruleset and options "
        "from the whole batch (as `POST /v1/profile`; `option`s stay fixed) and "
        "judges every log under them",
        json_schema_extra={"enum": [*ruleset_names, "auto"]},
    )

    @app.post(
        "/v1/check/batch",
        response_model=BatchResult,
        responses=errors,
        max_body_size=batch_bytes,
        openapi_extra=batch_body,
        tags=["check"],
        summary="Check several logs",
        operation_id="checkBatch",
    )
    async def check_batch(
        request: Request, ruleset: str | None = ruleset_batch_q, option: list[str] = option_q
    ) -> JSONResponse:
        """Referee several logs: a JSON array whose items are text logs (strings) or JSON logs
        (objects) or named logs (`{"name": ..., "log": ...}`, the log a string or an object), or a
        multipart upload with one log per part (a part's Content-Type, else its first character,
        tells text from JSON). One report per log, in order; a log that cannot be read gets a
        malformed report and never spoils the others. Reports are named by the item's `name`,
        else `[i]` (JSON array), or by the part's file name."""
        form = _form_of(request, ("json", "multipart"))
        if ruleset != "auto":
            _check_ruleset(ruleset)
        options = parse_options(option)
        items: list[tuple[bytes, str | None, str]] = []  # (bytes, form, name)
        if form == "multipart":
            parts = await _read_multipart(request, max_log, max_items)
            for i, p in enumerate(parts):
                pf = (
                    "json"
                    if p.content_type and (p.content_type == "application/json" or p.content_type.endswith("+json"))
                    else "text"
                    if p.content_type == "text/plain"
                    else None
                )
                items.append((bytes(p.data), pf, p.filename or p.name or f"[{i}]"))
        else:
            body = await read_body(request)
            try:
                data = json.loads(body)
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                loc = _loc(
                    "body",
                    line=getattr(exc, "lineno", None),
                    column=getattr(exc, "colno", None),
                    offset=getattr(exc, "pos", None) if isinstance(exc, json.JSONDecodeError) else exc.start,
                )
                raise ServiceError(
                    422,
                    "invalid-batch",
                    "the body is not a JSON array of logs",
                    [Problem(location=loc, message=str(exc))],
                ) from exc
            if not isinstance(data, list):
                raise ServiceError(
                    422,
                    "invalid-batch",
                    "the body is not a JSON array of logs",
                    [
                        Problem(
                            location=_loc("body", pointer=""),
                            message=f"expected an array, found {json_type_name(data)}",
                        )
                    ],
                )
            if len(data) > max_items:
                raise ServiceError(
                    413,
                    "too-many-items",
                    f"a batch holds at most {max_items} logs, this one {len(data)}",
                    [
                        Problem(
                            location=_loc("body", pointer=f"/{max_items}", item=max_items),
                            message=f"items from {max_items} on are beyond the limit",
                        )
                    ],
                )
            for i, item in enumerate(data):
                item_name, item = _batch_item(item, i)
                if isinstance(item, str):
                    raw, f = item.encode("utf-8", "surrogatepass"), "text"
                else:  # an object is a JSON log; anything else fails the log schema in its report
                    raw, f = json.dumps(item, ensure_ascii=False).encode("utf-8", "surrogatepass"), "json"
                if len(raw) > max_log:
                    raise ServiceError(
                        413,
                        "content-too-large",
                        f"item {i} is over the limit of {max_log} bytes per log",
                        [
                            Problem(
                                location=_loc("body", pointer=f"/{i}", item=i),
                                message=f"a log may have at most {max_log} bytes",
                            )
                        ],
                    )
                items.append((raw, f, item_name))

        auto = None
        if ruleset == "auto" and items:  # one inference over the batch, then every log judged under it
            from .games.dos.profile import auto_choice, profile

            auto = auto_choice(await run_in_pool(profile, [(nm, raw) for raw, _, nm in items], options))
            ruleset, options = auto["ruleset"], auto["options"]
        elif ruleset == "auto":
            ruleset = None
        done = await check_all(items, ruleset, options=options, auto=auto)
        counts = {v: sum(1 for verdict, _, _ in done if verdict == v) for v in ("legal", "illegal", "malformed")}
        head = json.dumps(
            {"spec_version": spec.version, "count": len(done), **counts, **({"auto": auto} if auto else {})},
            separators=(",", ":"),
        )
        payload = head[:-1].encode() + b',"reports":[' + b",".join(p for _, _, p in done) + b"]}"
        return Response(payload, media_type="application/json")

    profile_body = {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": max_items,
                        "items": {"anyOf": [{"type": "string"}, {"type": "object"}]},
                        "description": 'logs of one program: text (strings), JSON logs (objects) or `{"name": ..., "log": ...}`',
                    }
                }
            },
        }
    }

    @app.post(
        "/v1/profile",
        responses=errors,
        max_body_size=batch_bytes,
        openapi_extra=profile_body,
        tags=["check"],
        summary="Infer the options that explain several logs",
        operation_id="profileLogs",
    )
    async def profile_logs(request: Request, option: list[str] = option_q) -> JSONResponse:
        """The options (rulebook and engine, spec/options.toml) that explain logs of one program, as
        `dosverify profile --format json`: per option the consistent values (or no evidence), the
        lines that decide it and an example; the verdicts under the inferred options; the command.
        `option=KEY=VALUE` fixes an option instead of inferring it."""
        _form_of(request, ("json",))
        fixed = parse_options(option)
        body = await read_body(request)
        try:
            data = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ServiceError(
                422,
                "invalid-batch",
                "the body is not a JSON array of logs",
                [
                    Problem(
                        location=_loc("body", line=getattr(exc, "lineno", None), column=getattr(exc, "colno", None)),
                        message=str(exc),
                    )
                ],
            ) from exc
        if not isinstance(data, list) or not data:
            found = json_type_name(data) if not isinstance(data, list) else "an empty array"
            raise ServiceError(
                422,
                "invalid-batch",
                "the body is not a JSON array of logs",
                [Problem(location=_loc("body", pointer=""), message=f"expected a non-empty array, found {found}")],
            )
        if len(data) > max_items:
            raise ServiceError(
                413,
                "too-many-items",
                f"a batch holds at most {max_items} logs, this one {len(data)}",
                [
                    Problem(
                        location=_loc("body", pointer=f"/{max_items}", item=max_items),
                        message=f"items from {max_items} on are beyond the limit",
                    )
                ],
            )
        from .games.dos.profile import profile

        pairs = []
        for i, item in enumerate(data):
            item_name, item = _batch_item(item, i)
            if not isinstance(item, (str, dict)):
                raise ServiceError(
                    422,
                    "invalid-batch",
                    f"item {i} is not a log",
                    [
                        Problem(
                            location=_loc("body", pointer=f"/{i}", item=i),
                            message=f"expected a string or an object, found {json_type_name(item)}",
                        )
                    ],
                )
            pairs.append((item_name, item))
        return JSONResponse(await run_in_pool(profile, pairs, fixed))

    convert_body = {
        "requestBody": {
            "required": True,
            "content": {
                "text/plain": {"schema": {"type": "string"}, "example": _TEXT_EXAMPLE},
                "application/json": {"schema": log_ref},
            },
        }
    }

    @app.post(
        "/v1/convert",
        response_model=ConvertResult,
        max_body_size=max_log,
        responses={
            **errors,
            200: {
                "description": "The converted log and the warnings met; with "
                "`Accept: text/plain`, the converted log itself",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
        },
        openapi_extra=convert_body,
        tags=["convert"],
        summary="Convert text to JSON and back",
        operation_id="convertLog",
    )
    async def convert_log(
        request: Request,
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
        form = _form_of(request, ("text", "json"))
        other = "json" if form == "text" else "text"
        target = to or other

        [(out, findings)] = await _in_pool(get_pool(), [("convert", (body, form, target), len(body))])
        if out is None:
            errs = [f for f in findings if f.severity == "error"] or findings
            problems = [
                Problem(
                    location=_loc("body", pointer=f.pointer, line=f.line, column=f.column),
                    message=f.message,
                    rule=f.rule,
                )
                for f in errs
            ]
            if not problems:
                problems = [Problem(location=_loc("body"), message="the log cannot be read")]
            raise ServiceError(422, "invalid-log", f"the body is not a readable {form} log", problems)
        if prefers_text(request):
            return Response(out if out.endswith("\n") else out + "\n", media_type="text/plain; charset=utf-8")
        log: Any = json.loads(out) if target == "json" else out
        return JSONResponse({"to": target, "log": log, "findings": [f.to_dict() for f in findings]})

    _install_web(app, run_in_pool, max_log, errors, ruleset_q, name_q, check_body)
    __import__("dosverify.store.routes", fromlist=["install"]).install(app)  # /v1/events, /v1/audits (the event store)

    def _sources() -> dict:
        return {k: dict(v) for k, v in spec.sources.items()}

    @app.get(
        "/v1/rules", response_model=RulesResult, tags=["specification"], summary="Every rule", operation_id="listRules"
    )
    def rules() -> dict:
        """Every rule of the specification, with its text, kind, severity and sources."""
        return {
            "spec_version": spec.version,
            "sources": _sources(),
            "kinds": dict(spec.kinds),
            "rules": [r.to_dict() for r in spec.rules.values()],
        }

    @app.get(
        "/v1/rules/{rule_id}",
        response_model=RuleInfo,
        tags=["specification"],
        summary="One rule",
        operation_id="getRule",
        responses={
            404: {"model": ErrorBody, "description": "No rule has this id"},
            422: {"model": ErrorBody, "description": "An invalid parameter"},
        },
    )
    def rule(rule_id: str) -> dict:
        """One rule by id (as in a finding's `rule`, e.g. `notation.encoding`)."""
        if rule_id not in spec.rules:
            raise ServiceError(
                404,
                "not-found",
                f"no rule `{rule_id}`",
                [Problem(location=_loc("path", name="rule_id"), message="see GET /v1/rules for the rule ids")],
            )
        return spec.rules[rule_id].to_dict()

    @app.get(
        "/v1/rulesets",
        response_model=RulesetsResult,
        tags=["specification"],
        summary="Rulesets and options",
        operation_id="listRulesets",
    )
    def rulesets() -> dict:
        """The named rulesets (each a set of option values and a target) and the options a log
        may set with `option KEY VALUE`, each value with its source."""
        out = []
        for name in ruleset_names:
            data = spec.rulesets[name]
            out.append(
                {
                    **{k: v for k, v in data.items() if k not in ("name", "title", "target", "options")},
                    "name": name,
                    "title": data.get("title", name),
                    "target": data.get("target", 200),
                    "options": dict(data.get("options", {})),
                }
            )
        return {
            "spec_version": spec.version,
            "sources": _sources(),
            "rulesets": out,
            "options": {k: dict(v) for k, v in spec.options.items()},
        }

    @app.get("/problems/{code}", include_in_schema=False)
    def problem_type(code: str) -> Response:
        """The page a problem's `type` names: what the kind of problem means."""
        if code not in PROBLEM_TYPES:
            raise ServiceError(
                404,
                "not-found",
                f"no problem type `{code}`",
                [Problem(location=_loc("path", name="code"), message="see the error codes in /docs")],
            )
        title, text = PROBLEM_TYPES[code]
        page = (
            f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p><p>Code: <code>{code}</code>. "
            f'The API is described at <a href="/docs">/docs</a>.</p></html>'
        )
        return Response(page, media_type="text/html; charset=utf-8")

    @app.get("/healthz", response_model=Health, tags=["service"], summary="Liveness", operation_id="getHealth")
    def healthz() -> dict:
        return {
            "status": "ok",
            "version": __version__,
            "spec_version": spec.version,
            **dataclasses.asdict(cfg),
            "max_batch_bytes": batch_bytes,
        }

    def openapi() -> dict:
        """The OpenAPI document, with the log schema (Log and its events) among the components
        and the spec-version header on every response."""
        if app.openapi_schema:
            return app.openapi_schema
        doc = get_openapi(
            title=app.title, version=app.version, summary=app.summary, description=app.description, routes=app.routes
        )
        comps = doc.setdefault("components", {}).setdefault("schemas", {})
        from .games.dos.jsonform import log_adapter

        log_schema = log_adapter().json_schema(ref_template="#/components/schemas/{model}", mode="validation")
        for k, v in log_schema.pop("$defs", {}).items():
            comps.setdefault(k, v)
        log_schema.pop("$id", None)
        comps["Log"] = log_schema

        # A discriminated union's tag must be present to be valid (pydantic requires it, and so
        # does OpenAPI's `discriminator`), although the models give it a default.
        def require_tags(node: Any) -> None:
            if isinstance(node, dict):
                disc = node.get("discriminator")
                if isinstance(disc, dict) and "propertyName" in disc:
                    for alt in node.get("oneOf", []) + node.get("anyOf", []):
                        ref = alt.get("$ref", "").rsplit("/", 1)[-1]
                        target = comps.get(ref)
                        if target is not None and disc["propertyName"] not in target.setdefault("required", []):
                            target["required"].append(disc["propertyName"])
                for v in node.values():
                    require_tags(v)
            elif isinstance(node, list):
                for v in node:
                    require_tags(v)

        require_tags(comps)
        comps["NamedLog"] = {
            "type": "object",
            "title": "NamedLog",
            "additionalProperties": False,
            "required": ["log"],
            "description": "a batch item that names its log: the name comes back as the report's `file`",
            "properties": {
                "name": {"type": "string", "description": "the log's name in its report"},
                "log": {
                    "anyOf": [{"type": "string", "description": "a text log"}, {"$ref": "#/components/schemas/Log"}]
                },
            },
        }
        header = {SPEC_HEADER: {"description": "the version of the rules specification", "schema": {"type": "string"}}}
        for path in doc.get("paths", {}).values():
            for op in path.values():
                for code, resp in op.get("responses", {}).items():
                    resp.setdefault("headers", {}).update(header)
                    content = resp.get("content", {})
                    if code[:1] in "45" and "application/json" in content:  # errors are RFC 9457 problems
                        content[PROBLEM_MEDIA_TYPE] = content.pop("application/json")
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _install_web(app: FastAPI, run, max_log: int, errors: dict, ruleset_q, name_q, log_body: dict) -> None:
    """The organiser's page, the offline /docs and /redoc, and POST /v1/replay (dosverify.webui)."""
    from .webui import install

    install(app, run=run, max_log=max_log, errors=errors, ruleset_q=ruleset_q, name_q=name_q, log_body=log_body)


def serve(
    host: str = "127.0.0.1", port: int = 8000, log_level: str = "info", access_log: bool = True, **given: Any
) -> None:
    """Run the service with uvicorn (uvloop and httptools, ``uvicorn[standard]``): one process
    that reads requests and a pool of ``workers`` processes that check. Settings given here win
    over the environment; a setting that cannot be used raises
    :class:`dosverify.settings.SettingError` before anything starts. The access log is
    uvicorn's, one line a request on standard output (``access_log=False`` turns it off)."""
    import uvicorn

    app = create_app(warm=True, **given)
    uvicorn.run(
        app,
        host=host,
        port=port,
        loop="uvloop",
        http="httptools",
        log_level=log_level,
        proxy_headers=False,
        server_header=False,
        access_log=access_log,
    )


app = create_app()
