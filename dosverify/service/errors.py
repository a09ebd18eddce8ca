"""One body for every error: RFC 9457 problem details (``application/problem+json``) with a
stable ``error`` code and each problem's location, and the handlers that give every failure,
ours or the framework's, that body."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..spec import load_spec
from .games import request_game, spec_version

BODY_LIMIT_SCOPE_KEY = "starlette.max_body_size"  # starlette.middleware.body_limit.MAX_BODY_SIZE_SCOPE_KEY
RETRY_AFTER = 1  # seconds, in the Retry-After of every 503

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
    "not-a-position": (
        "Not a position",
        "`after` names no position of the log sent to /v1/moves (before its header is complete, inside a "
        "round's set-up, or past its end); the detail names the valid range.",
    ),
    "unreadable-prefix": (
        "Log cannot be read",
        "The lines of the log sent to /v1/moves, up to `after`, cannot be read; the problems are their findings.",
    ),
    "not-supported": (
        "Not supported by the game",
        "The log's game does not offer what was asked (its pack does not declare the capability, "
        "for example option inference: `GET /v1/games` and `dosverify --version` list the games).",
    ),
    "not-found": ("Not found", "No endpoint or rule has this path."),
    "method-not-allowed": ("Method not allowed", "The endpoint does not take this HTTP method."),
    "internal-error": ("Internal error", "A bug in dosverify: please report it with the request."),
}


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
    spec_version: str = Field(
        description="the spec version of the log's game (`game`) when the problem is about a log whose game is "
        "known, else DOS's (as before there were other games)"
    )
    game: str | None = Field(
        default=None, description="the game of the log the problem is about, when known (`GET /v1/games`)"
    )


class ServiceError(Exception):
    def __init__(
        self,
        status: int,
        error: str,
        message: str,
        problems: list[Problem] | None = None,
        headers: dict | None = None,
        game: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.error, self.message = status, error, message
        self.problems, self.headers, self.game = problems or [], headers, game

    def __reduce__(self):  # raised in a pool worker, it comes back whole
        return (type(self), (self.status, self.error, self.message, self.problems, self.headers, self.game))


def loc(in_: str, **kw: Any) -> Location:
    return Location.model_validate({"in": in_, **kw})


def problem_body(
    status: int,
    error: str,
    detail: str,
    problems: list[Problem] | None = None,
    instance: str | None = None,
    version: str | None = None,
    game: str | None = None,
) -> ErrorBody:
    """The problem's body; its spec version is `game`'s (a registered game the problem's log is
    of), else `version`, else DOS's."""
    title = PROBLEM_TYPES.get(error, (error.replace("-", " ").capitalize(), ""))[0]
    return ErrorBody(
        type=f"/problems/{error}",
        title=title,
        status=status,
        detail=detail,
        instance=instance,
        error=error,
        problems=problems or [],
        spec_version=spec_version(game) if game is not None else (version or load_spec("dos").version),
        game=game,
    )


def error_response(
    status: int,
    error: str,
    message: str,
    problems: list[Problem] | None = None,
    headers: dict | None = None,
    instance: str | None = None,
    game: str | None = None,
) -> JSONResponse:
    """The problem's response; its game `game`, else the one game the request's answer is about
    (:func:`dosverify.service.games.request_game`), if any."""
    body = problem_body(status, error, message, problems, instance, game=game or request_game())
    return JSONResponse(
        body.model_dump(mode="json", by_alias=True, exclude_none=False),
        status_code=status,
        headers=headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


def busy(limit: int, per_client: bool = False) -> JSONResponse:
    """The 503 for a request over the in-flight limit, or over one client's share (an ASGI app)."""
    whose = " from this client address, the most one client may have" if per_client else ", the most this service takes"
    return error_response(
        503,
        "too-many-requests",
        f"{limit} requests are in flight{whose}",
        [Problem(location=loc("header", name="retry-after"), message=f"retry after {RETRY_AFTER} s")],
        headers={"Retry-After": str(RETRY_AFTER)},
    )


def too_many_items(max_items: int, count: int | None = None) -> ServiceError:
    this = f", this one {count}" if count is not None else ""
    return ServiceError(
        413,
        "too-many-items",
        f"a batch holds at most {max_items} logs{this}",
        [
            Problem(
                location=loc("body", pointer=f"/{max_items}", item=max_items),
                message=f"items from {max_items} on are beyond the limit",
            )
        ],
    )


HTTP_CODES = {
    400: "bad-request",
    404: "not-found",
    405: "method-not-allowed",
    413: "content-too-large",
    415: "unsupported-media-type",
    422: "invalid-parameter",
}

#: the error responses every log endpoint documents
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "A body (or one log) over the size limit, or too many logs"},
    415: {"model": ErrorBody, "description": "An unsupported Content-Type"},
    422: {
        "model": ErrorBody,
        "description": "An unknown ruleset, an invalid parameter, or a batch body that is not an array of logs",
    },
    400: {"model": ErrorBody, "description": "A body that cannot be read (a broken multipart body)"},
}


def pointer(path: list | tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


async def _service_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return error_response(
        exc.status, exc.error, exc.message, exc.problems, headers=exc.headers, instance=request.url.path, game=exc.game
    )


def _allowed_methods(request: Request) -> str:
    """The methods of every route whose path matches the request's (Starlette names only the first
    route's, and a path served by two routes, GET and POST, would send half of them)."""
    from starlette.routing import Match

    methods: set[str] = set()
    routes = list(request.app.router.routes)
    while routes:
        route = routes.pop()
        inner = getattr(route, "original_router", None)  # an included router (FastAPI keeps it whole)
        if inner is not None:
            routes.extend(inner.routes)
        elif route.matches(request.scope)[0] != Match.NONE:  # PARTIAL: the path matches, the method not
            methods.update(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    code = HTTP_CODES.get(status, "bad-request" if status < 500 else "internal-error")
    if status == 413:
        limit = request.scope.get(BODY_LIMIT_SCOPE_KEY)
        msg = f"the body is over the limit of {limit} bytes" if limit is not None else "the body is too large"
        problems = [Problem(location=loc("body"), message=msg)]
    elif status == 404:
        msg = f"no such endpoint: {request.method} {request.url.path}"
        problems = [Problem(location=loc("path", name=request.url.path), message=str(exc.detail))]
    elif status == 405:
        msg = f"{request.method} is not allowed on {request.url.path}"
        problems = [Problem(location=loc("path", name=request.url.path), message=str(exc.detail))]
        if allowed := _allowed_methods(request):  # every route at the path, not only the first that matched
            return error_response(status, code, msg, problems, headers={"Allow": allowed}, instance=request.url.path)
    else:
        msg = str(exc.detail)
        problems = [Problem(location=loc("body"), message=str(exc.detail))]
    return error_response(status, code, msg, problems, headers=getattr(exc, "headers", None), instance=request.url.path)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = []
    for err in exc.errors():
        where_path = list(err.get("loc", ()))
        known = bool(where_path) and where_path[0] in ("body", "query", "path", "header")
        where = where_path[0] if known else "body"
        rest = where_path[1:] if known else where_path
        if where == "body":
            location = loc("body", pointer=pointer(rest))
        else:
            location = loc(where, name=str(rest[0]) if rest else None)
        problems.append(Problem(location=location, message=str(err.get("msg", "invalid"))))
    return error_response(
        422, "invalid-parameter", "the request's parameters are not valid", problems, instance=request.url.path
    )


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:  # a bug of ours
    return error_response(
        500,
        "internal-error",
        "the service failed on this request (a bug in dosverify)",
        [Problem(location=loc("body"), message="this is a bug in dosverify; please report it")],
        instance=request.url.path,
    )


def install_handlers(app: FastAPI) -> None:
    """One JSON shape for every error."""
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _internal_error)
