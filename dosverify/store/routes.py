"""The service's event store: `/v1/events` and `/v1/audits` (an APIRouter).

Plugged into the service with one line in ``create_app``: ``install(app)``. The store is the one
``serve --data DIR`` / ``--database-url URL`` names (the environment: DOSVERIFY_DATA,
DOSVERIFY_DATABASE_URL), opened at the first request that needs it, so that the service starts
and answers ``/v1/check`` while the database is away. Writes need the bearer token of
``serve --token-file FILE`` (DOSVERIFY_TOKEN_FILE); reads are public by id (ids are 128 random
bits). A database that cannot be reached is 503 with Retry-After, never 500. Logs are judged in
the service's worker pool (``app.state.pool``), the database is written from a thread, so the
event loop never waits on either. A service started with neither a data folder nor a database
URL keeps no events: the routes answer 404 saying so (it writes no file where it was started).
"""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, Field, StrictBool

from .db import EventExists, NotFound, OtherGame, Store, StoreUnavailable, database_url
from .judge import judge
from .standings import BadOrder, parse_order

RETRY_AFTER = 5
PROBLEM = "application/problem+json"
TITLES = {
    401: ("unauthorized", "Unauthorized"),
    404: ("not-found", "Not found"),
    409: ("event-exists", "Event exists"),
    413: ("content-too-large", "Content too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("invalid-parameter", "Invalid parameter"),
    503: ("store-unavailable", "Store unavailable"),
}
ERROR_TITLES = {"other-game": "A log of another game than the event's"}  # a status's other problems


class StoreProblem(Exception):
    def __init__(self, status: int, detail: str, *, error: str | None = None, headers: dict | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers
        self.error = error or TITLES[status][0]


# ---- the JSON shapes (the OpenAPI document's schemas) ------------------------------------------
class NewEvent(BaseModel):
    name: str = Field(
        min_length=1, max_length=200, pattern=r"\S", description="the event's name, unique in the store (not blank)"
    )
    mixed: StrictBool = Field(
        False,
        description="true: the event holds logs of several games, one table of standings per game; "
        "false: it holds its first log's game, and a log of another game is refused (422)",
    )


class Event(BaseModel):
    id: str = Field(description="unguessable: the event's address")
    name: str
    created: str = Field(description="ISO 8601, UTC")
    game: str | None = Field(None, description="the game its logs are of (its first log's); null: none yet, or mixed")
    mixed: bool = Field(False, description="holds logs of several games (created so, or kept before events had one)")
    games: int = Field(description="how many audits the event has")
    aliases: dict[str, str] = Field(default_factory=dict, description="a name as some logs write it -> the player")


class GameResult(BaseModel):
    game: str
    players: list[str]
    winner: str | None
    rounds_won: dict[str, int]
    points: dict[str, int]
    finished: bool = Field(description="false: the game did not reach its end (`unfinished`)")


class Audit(BaseModel):
    id: str
    event: str = Field(description="the event's id")
    sha256: str = Field(description="of the bytes as submitted (GET /v1/audits/{id}/log gives them back)")
    name: str
    verdict: str = Field(description="legal, illegal or malformed")
    report: dict[str, Any] = Field(description="the referee's report, as POST /v1/check answers it")
    spec_version: str
    ruleset: str | None
    options: dict[str, str]
    submitted: str
    judged: str
    result: GameResult | None = Field(description="the game's result; null for a malformed log")
    game: str = Field(description="the game the log was judged as: dos, uno-duo")


class Games(BaseModel):
    event: str
    games: list[Audit]


class TableRow(BaseModel):
    player: str
    games: int
    wins: int
    rounds_won: int
    points: int
    illegal: int


class Standing(TableRow):
    game: str | None = Field(description="the game of the table this row is of")


class GameRule(BaseModel):
    """How a game of the event is won (its pack's result rule)."""

    game: str = Field(description="the game's name, as a log's first word writes it")
    title: str = Field(description="for people: DOS, UNO Duo")
    points_better: Literal["higher", "lower"] = Field(description="which total is the better one in this game")
    summary: str = Field(description="the rule in one sentence: `the lowest total wins`")


class StandingsTable(BaseModel):
    """One game's standings: a mixed event has one such table per game, never one sum of both."""

    game: str | None = Field(description="the game's name (null: results of no game)")
    title: str = Field(description="for people: DOS, UNO Duo")
    points_better: Literal["higher", "lower"] = Field(description="which total ranks first in this game")
    summary: str | None = Field(description="the game's rule in one sentence (null: a game no pack has now)")
    standings: list[TableRow] = Field(description="in rank order")


class Standings(BaseModel):
    event: str
    standings: list[Standing] = Field(description="every table's rows, table by table, each in rank order")
    points_better: Literal["higher", "lower"] | None = Field(
        description="the points ranked first when every table says the same (null: a mixed event's games disagree)"
    )
    rules: list[GameRule] = Field(description="each game of the event with a result, and how it is won")
    mixed: bool = Field(description="the event holds logs of several games")
    tables: list[StandingsTable] = Field(description="one per game, by game name, each in its game's rank order")


# ---- the store behind the routes ---------------------------------------------------------------
class StoreBox:
    """The store, opened on first use (and again after a failed open: the database came back)."""

    def __init__(self, url: str | None = None, token_file: str | None = None) -> None:
        self.url = url
        self.token = _read_token(token_file or os.environ.get("DOSVERIFY_TOKEN_FILE"))
        self._store: Store | None = None
        self._lock = threading.Lock()

    def get(self) -> Store:
        if not (self.url or os.environ.get("DOSVERIFY_DATABASE_URL") or os.environ.get("DOSVERIFY_DATA")):
            raise NotFound("this service keeps no events: start it with `serve --data DIR` or `--database-url URL`")
        with self._lock:
            if self._store is None:
                self._store = Store(self.url or database_url())
            return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _read_token(path: str | None) -> str | None:
    if not path:
        return None
    token = Path(path).read_text(encoding="utf-8").strip()
    if not token:
        raise ValueError(f"the token file {path} is empty")
    return token


def install(app: FastAPI, *, url: str | None = None, token_file: str | None = None) -> None:
    """Add the event routes, their error handler and the store to ``app``."""
    box = StoreBox(url, token_file)
    app.state.store = box
    app.include_router(router)

    @app.exception_handler(StoreProblem)
    async def _problem(request: Request, exc: StoreProblem) -> JSONResponse:
        return problem(exc.status, exc.error, exc.detail, request.url.path, exc.headers)


def problem(status: int, error: str, detail: str, instance: str, headers: dict | None = None) -> JSONResponse:
    title = ERROR_TITLES.get(error) or TITLES.get(status, (error, error.replace("-", " ").capitalize()))[1]
    body = {"type": f"/problems/{error}", "title": title, "status": status, "detail": detail, "instance": instance}
    body |= {
        "error": error,
        "problems": [{"location": {"in": "header" if status == 401 else "body"}, "message": detail}],
    }
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM)


def _about(request: Request, *audits: dict) -> None:
    """The answer is about these audits' logs: their games go in the service's `X-Spec-Version`
    header (the list the service's header middleware puts in the scope, when it runs)."""
    games = request.scope.get("dosverify.games")  # dosverify.service.games.GAMES_SCOPE_KEY
    if games is None:
        return
    for audit in audits:
        game = audit.get("report", {}).get("game", "dos")  # a DOS report leaves its game out
        if game not in games:
            games.append(game)


async def _call(request: Request, fn, *args, **kw):
    """``fn(store, ...)`` in a thread; the store's failures as the problems they are."""
    box: StoreBox = request.app.state.store

    def run():
        return fn(box.get(), *args, **kw)

    try:
        return await run_in_threadpool(run)
    except StoreUnavailable as exc:
        raise StoreProblem(503, str(exc), headers={"Retry-After": str(RETRY_AFTER)}) from exc
    except NotFound as exc:
        raise StoreProblem(404, str(exc)) from exc
    except EventExists as exc:
        raise StoreProblem(409, str(exc)) from exc
    except OtherGame as exc:
        raise StoreProblem(422, str(exc), error="other-game") from exc


def _authorise(request: Request) -> None:
    token = request.app.state.store.token
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    headers = {"WWW-Authenticate": 'Bearer realm="dosverify"'}
    if token is None:
        raise StoreProblem(401, "this service takes no writes: it was started without --token-file", headers=headers)
    if scheme.lower() != "bearer" or not value:
        raise StoreProblem(401, "writes need `Authorization: Bearer TOKEN`", headers=headers)
    if not secrets.compare_digest(value.strip().encode(), token.encode()):
        raise StoreProblem(401, "the bearer token is not this service's", headers=headers)


async def _judged(request: Request, body: bytes, name: str, form: str):
    """The log judged in the service's worker pool (in a thread when the app has none)."""
    pool_of = getattr(request.app.state, "pool", None)
    if pool_of is None:
        return await run_in_threadpool(judge, body, name, form)
    from ..pool import CheckBusy, CheckTimeout, WorkerDied

    try:
        [out] = await pool_of().run([("call", (judge, (body, name, form)), len(body))])
    except (CheckBusy, CheckTimeout, WorkerDied) as exc:
        raise StoreProblem(503, str(exc), error="check-unavailable", headers={"Retry-After": str(RETRY_AFTER)}) from exc
    return out


def _form(request: Request) -> str:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media == "text/plain":
        return "text"
    if media == "application/json" or (media.startswith("application/") and media.endswith("+json")):
        return "json"
    raise StoreProblem(
        415, f"{media or 'no Content-Type'} is not accepted here (accepted: text/plain, application/json)"
    )


router = APIRouter(tags=["events"])
# The writes' security requirement in the OpenAPI document (and Swagger UI's Authorize button);
# _authorise does the checking, so that a missing or wrong token is this module's 401 problem.
bearer = Depends(HTTPBearer(auto_error=False, description="the one line of `serve --token-file FILE`"))


def _links(op: str, param: str, *ops: str) -> dict:
    """OpenAPI links: the id in ``op``'s answer is ``param`` of each of ``ops`` (for clients, and
    for the stateful schemathesis run, which follows them)."""
    return {o: {"operationId": o, "parameters": {param: "$response.body#/id"}} for o in ops}


event_links = _links("createEvent", "event_id", "addGame", "getEvent", "listGames", "getStandings")
audit_links = _links("addGame", "audit_id", "getAudit", "getAuditLog")
errors: dict = {s: {"description": TITLES[s][1], "content": {PROBLEM: {}}} for s in (401, 404, 422, 503)}
write_errors: dict = {**errors, **{s: {"description": TITLES[s][1], "content": {PROBLEM: {}}} for s in (413, 415)}}
log_body = {
    "requestBody": {
        "required": True,
        "content": {
            "text/plain": {"schema": {"type": "string"}},
            "application/json": {"schema": {"$ref": "#/components/schemas/Log"}},
        },
    }
}


@router.post(
    "/v1/events",
    status_code=201,
    response_model=Event,
    responses={
        **errors,
        201: {"description": "The event, created", "links": event_links},
        400: {"description": "A body that is not JSON", "content": {PROBLEM: {}}},
        409: {"description": "An event of that name exists", "content": {PROBLEM: {}}},
    },
    dependencies=[bearer],
    summary="Create an event",
    operation_id="createEvent",
)
async def create_event(request: Request, new: NewEvent) -> dict:
    _authorise(request)
    ev = await _call(request, Store.create_event, new.name, mixed=new.mixed)
    return {**ev, "games": 0, "aliases": {}}


@router.post(
    "/v1/events/{event_id}/games",
    response_model=Audit,
    status_code=201,
    responses={
        **write_errors,
        201: {"description": "The new audit", "links": audit_links},
        200: {"model": Audit, "description": "The same bytes were submitted before: that audit", "links": audit_links},
    },
    dependencies=[bearer],
    openapi_extra=log_body,
    summary="Audit a log into an event",
    operation_id="addGame",
)
async def add_game(
    request: Request, event_id: str, name: str | None = Query(None, max_length=1024, description="table, round")
) -> Response:
    """Keep the log as sent and judge it: 201 with the new audit, or 200 with the audit the
    event already has for the same bytes."""
    _authorise(request)
    form = _form(request)
    body = await request.body()
    limit = getattr(request.app.state, "max_log_bytes", None)
    if limit is not None and len(body) > limit:
        raise StoreProblem(413, f"the log is over the limit of {limit} bytes")
    # judged first, then one trip to the database (the write, which finds bytes the event has
    # already): a new log, the common case, pays no lookup before it; the same bytes sent again
    # are judged again for nothing, and answered with the audit kept
    judged = await _judged(request, body, name or "-", form)
    audit, new = await _call(request, Store.submit, event_id, body, name, form=form, judged=judged)
    _about(request, audit)
    return JSONResponse(audit, status_code=201 if new else 200)


async def _event(request: Request, event_id: str) -> dict:
    ev = await _call(request, Store.event, event_id)
    if ev["id"] != event_id:
        raise StoreProblem(404, f"no event `{event_id}`")
    return ev


@router.get(
    "/v1/events/{event_id}", response_model=Event, responses=errors, summary="An event", operation_id="getEvent"
)
async def get_event(request: Request, event_id: str) -> dict:
    return await _event(request, event_id)


@router.get(
    "/v1/events/{event_id}/games",
    response_model=Games,
    responses=errors,
    summary="An event's audits",
    operation_id="listGames",
)
async def list_games(request: Request, event_id: str) -> dict:
    await _event(request, event_id)
    games = await _call(request, Store.games, event_id)
    _about(request, *games)
    return {"event": event_id, "games": games}


@router.get(
    "/v1/events/{event_id}/standings",
    response_model=Standings,
    responses=errors,
    summary="An event's standings",
    operation_id="getStandings",
)
async def get_standings(
    request: Request,
    event_id: str,
    tie_break: str | None = Query(
        None,
        description="the rank order, comma-separated: wins, points, rounds_won, games, illegal (default wins,points,illegal; "
        "points: the better first by the game's rule, more in DOS, fewer in UNO Duo)",
        pattern=r"^(wins|points|rounds_won|games|illegal)(,(wins|points|rounds_won|games|illegal))*$",
    ),
    count_illegal: bool = Query(False, description="count illegal games in games, wins, rounds and points"),
) -> dict:
    try:
        order = parse_order(tie_break)
    except BadOrder as exc:
        raise StoreProblem(422, str(exc)) from exc
    ev = await _event(request, event_id)
    ranked = await _call(request, Store.ranking, event_id, order=order, count_illegal=count_illegal)
    return {"event": event_id, **ranked, "mixed": ev["mixed"]}


@router.get(
    "/v1/audits/{audit_id}", response_model=Audit, responses=errors, summary="An audit", operation_id="getAudit"
)
async def get_audit(request: Request, audit_id: str) -> dict:
    audit = await _call(request, Store.audit, audit_id)
    _about(request, audit)
    return audit


@router.get(
    "/v1/audits/{audit_id}/log",
    responses={
        **errors,
        200: {"content": {"text/plain": {}, "application/json": {}}, "description": "The exact bytes"},
    },
    response_class=Response,
    summary="An audit's log, the bytes as submitted",
    operation_id="getAuditLog",
)
async def get_audit_log(request: Request, audit_id: str) -> Response:
    audit = await _call(request, Store.audit, audit_id)
    _about(request, audit)
    data = await _call(request, Store.log_bytes, audit_id)
    media = "application/json" if data.lstrip()[:1] in (b"{", b"[") else "text/plain; charset=utf-8"
    return Response(data, media_type=media, headers={"ETag": f'"{audit["sha256"]}"'})
