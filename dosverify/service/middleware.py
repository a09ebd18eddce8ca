"""The service's pure ASGI middlewares (none buffers a request body): the spec-version headers
(and JSON for Starlette's plain-text 413), Server-Timing, and the HTTP conventions clients
expect before routing (trailing slash, HEAD)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time

from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..games import REGISTRY
from ..spec import load_spec
from .errors import BODY_LIMIT_SCOPE_KEY, PROBLEM_MEDIA_TYPE, Problem, loc, problem_body
from .games import GAMES_HEADER, GAMES_SCOPE_KEY, REQUEST_GAMES, spec_versions_header

#: DOS's spec version on every response, whatever the log's game: deprecated for
#: :data:`GAMES_HEADER` (``X-Spec-Version``), it goes in 0.2.0 (docs/service.md)
SPEC_HEADER = "X-DOS-Spec-Version"


class SpecVersionHeader:
    """Adds ``X-Spec-Version`` to every response (each game the answer is about, with its spec
    version: ``uno-duo 1.1.0``; every registered game for an answer about none, or more than one:
    ``dos 1.3.0, uno-duo 1.1.0``) and the deprecated ``X-DOS-Spec-Version`` (DOS's version), and
    turns the plain-text 413 that Starlette's body limiter sends for a too-large
    ``Content-Length`` (it replaces whatever the route answers) into the service's JSON error
    body. An endpoint names the games of its answer with :func:`dosverify.service.games.mark_games`
    (the list in :data:`REQUEST_GAMES`: a pure ASGI middleware, the endpoint runs in its context)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.value = load_spec("dos").version.encode("latin-1")  # the deprecated header is DOS's
        self.every: bytes | None = None

    def _every(self) -> bytes:
        """Every game's spec version, for an answer about none: made on first need (building the
        app imports no game pack), then kept."""
        if self.every is None:
            self.every = spec_versions_header(list(REGISTRY)).encode("latin-1")
        return self.every

    def _problem_413(self, scope: Scope) -> bytes:
        limit = scope.get(BODY_LIMIT_SCOPE_KEY)
        msg = f"the body is over the limit of {limit} bytes" if limit is not None else "the body is too large"
        body = problem_body(
            413,
            "content-too-large",
            msg,
            [Problem(location=loc("body"), message=msg)],
            scope.get("path"),
            self.value.decode(),
        )
        return body.model_dump_json(by_alias=True).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        name = SPEC_HEADER.lower().encode()
        games_name = GAMES_HEADER.lower().encode()
        rewriting = False
        games: list[str] = []
        token = REQUEST_GAMES.set(games)
        scope = {**scope, GAMES_SCOPE_KEY: games}

        async def send_with_header(message: Message) -> None:
            nonlocal rewriting
            if message["type"] == "http.response.start":
                value = spec_versions_header(games).encode("latin-1") if games else self._every()
                headers = [h for h in message.get("headers", []) if h[0].lower() not in (name, games_name)]
                headers.append((games_name, value))
                ctype = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                if message["status"] == 413 and ctype.startswith(b"text/plain"):
                    rewriting = True
                    body = self._problem_413(scope)
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

        try:
            await self.app(scope, receive, send_with_header)
        finally:
            REQUEST_GAMES.reset(token)


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


class CloseAfterRefusal:
    """Adds ``Connection: close`` to a 413: the client may still be sending the body the
    service refused, and the server closes the connection after the answer instead of reading
    the rest of it (uvicorn honours the app's ``Connection: close``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 413:
                headers = [h for h in message.get("headers", []) if h[0].lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, send_closing)


class ClientGone:
    """A client that goes away before its body is read (an aborted upload, or a connection the
    server closed for a limit) is one line in the log, not a traceback: there is no one left to
    answer."""

    log = logging.getLogger("uvicorn.error")  # uvicorn's own log, in its format

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_seen(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        client = scope.get("client") or ("-", 0)
        try:
            await self.app(scope, receive, send_seen)
        except asyncio.CancelledError:
            # the server's graceful-shutdown deadline passed with this request still in
            # flight (a slow client): one line, and a 503 if nothing was sent yet
            self.log.warning("%s:%s - %s %s: cancelled at shutdown", *client, scope["method"], scope["path"])
            if not started:
                with contextlib.suppress(Exception):
                    await send(_SHUTTING_DOWN_START)
                    await send({"type": "http.response.body", "body": _SHUTTING_DOWN_BODY})
        except ClientDisconnect:
            self.log.info(
                "%s:%s - %s %s: the client went away before its body was read", *client, scope["method"], scope["path"]
            )


_SHUTTING_DOWN_BODY = json.dumps(
    {
        "type": "/problems/shutting-down",
        "title": "Service Unavailable",
        "status": 503,
        "detail": "the service is shutting down",
        "error": "shutting-down",
    }
).encode()
_SHUTTING_DOWN_START = {
    "type": "http.response.start",
    "status": 503,
    "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(_SHUTTING_DOWN_BODY)).encode()),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
    ],
}
