"""The organiser's web page at ``/``, its assets, the offline ``/docs`` and ``/redoc``, and the
replay endpoint the page steps through.

Every asset is a file of the package (``dosverify/static/``): the page works at a venue with
no network, and the page's Content-Security-Policy lets it load nothing from anywhere else.
The page itself uses only the public API (``/v1/replay``, ``/v1/rules/{id}``, ``/v1/rulesets``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

from ...games import log_game, usable_packs
from ...overrides import for_game
from ..dependencies import JobsDep, Limits, check_ruleset, parse_options, reader_pack
from ..errors import ERROR_RESPONSES, Problem, ServiceError, loc
from ..games import mark_games
from ..models import GameOfResult
from ..negotiation import form_of
from ..params import Params, log_body

STATIC_DIR = Path(__file__).resolve().parents[2] / "static"
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# Swagger UI and ReDoc start from an inline script and style themselves inline; ReDoc runs a worker from a blob
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
PAGE_HEADERS = {"Content-Security-Policy": PAGE_CSP, "X-Content-Type-Options": "nosniff"}


def _csp(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = DOCS_CSP
    return page


class PageFiles(StaticFiles):
    """The package's assets, each with ``nosniff``, and an HTML file with the page's own CSP
    (``frame-ancestors 'none'``): ``/static/index.html`` is the page too, and must not be framed."""

    def file_response(self, full_path, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(full_path, *args, **kwargs)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if str(full_path).endswith(".html"):
            response.headers["Content-Security-Policy"] = PAGE_CSP
        return response


def page_script_url(game: str) -> str:
    """Where the service serves a pack's page script (capability ``page``)."""
    return f"/games/{game}/replay.js"


def _page_script(game: str) -> Response:
    """The script a game's pack ships to draw its table in the page's replay, read from the pack's
    own package (GamePack.page_script); 404 for a game without one (the page shows the generic view)."""
    pack = next((p for p in usable_packs() if p.name == game), None)
    if pack is None or "page" not in pack.capabilities:
        raise ServiceError(
            404,
            "not-found",
            f"no page script for the game `{game}`",
            [Problem(location=loc("path", name="game"), message="GET /v1/games names each game's page_script")],
        )
    body = pack.page_script().read_bytes()
    return Response(body, media_type="text/javascript; charset=utf-8", headers={"X-Content-Type-Options": "nosniff"})


def mount_static(app: FastAPI) -> None:
    app.mount("/static", PageFiles(directory=STATIC_DIR), name="static")


def replay_models() -> Any:
    """The answer of ``POST /v1/replay``: one of each game's replay (its own view's model, or the
    generic one), in the OpenAPI document."""
    models = list(dict.fromkeys(pack.replay_model() for pack in usable_packs()))
    return models[0] if len(models) == 1 else Union[tuple(models)]  # noqa: UP007 - a Union built at run time


def _game_route(r: APIRouter, limits: Limits) -> None:
    """``POST /v1/game``: the game a log is of, told as ``/v1/check`` tells it."""

    @r.post(
        "/v1/game",
        response_model=GameOfResult,
        responses=ERROR_RESPONSES,
        max_body_size=limits.max_log,
        openapi_extra=LOG_HEAD_BODY,
        tags=["check"],
        summary="The game a log is of",
        operation_id="gameOfLog",
    )
    async def game_of_log(request: Request) -> dict:
        """The game whose rules judge a log (its first word, or its JSON game key; the default
        game's for a log naming none), told as `/v1/check` tells it: the page asks this before
        it shows a game's rulesets and options (its first 4 KiB are enough)."""
        form_of(request, ("text", "json"))  # a body of a log's own media type, as /v1/check takes it (else 415)
        body = await request.body()
        named = log_game(body)
        game = reader_pack(body).name
        mark_games(game)
        return {"game": game, "named": named is not None}


#: `POST /v1/game`'s body: a log's head, text or JSON, whole or cut (its first 4 KiB tell the game),
#: so no schema of a whole log binds it: the answer for anything is the game it names, or the default's.
LOG_HEAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "text/plain": {"schema": {"type": "string"}},
            "application/json": {"schema": {"description": "a JSON log, or its first 4 KiB"}},
        },
    }
}


def router(limits: Limits, p: Params, title: str) -> APIRouter:
    """The page, the docs pages, ``POST /v1/replay`` and ``POST /v1/game``."""
    r = APIRouter()
    page = (STATIC_DIR / "index.html").read_bytes()

    @r.get("/", include_in_schema=False)
    def index() -> Response:
        """The organiser's page (API users: see /docs)."""
        return Response(page, media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)

    @r.get("/games/{game}/replay.js", include_in_schema=False)
    def page_script(game: str) -> Response:
        """A game's own replay view, from its pack's package (capability `page`)."""
        return _page_script(game)

    @r.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return _csp(
            get_swagger_ui_html(
                openapi_url="/openapi.json",
                title=f"{title}: API",
                swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                swagger_favicon_url="/static/favicon.svg",
                swagger_ui_parameters={"validatorUrl": None},
            )
        )

    @r.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _csp(
            get_redoc_html(
                openapi_url="/openapi.json",
                title=f"{title}: API",
                redoc_js_url="/static/vendor/redoc/redoc.standalone.js",
                redoc_favicon_url="/static/favicon.svg",
                with_google_fonts=False,
            )
        )

    @r.post(
        "/v1/replay",
        response_model=replay_models(),
        responses=ERROR_RESPONSES,
        max_body_size=limits.max_log,
        openapi_extra=log_body(),
        tags=["check"],
        summary="Replay one log, turn by turn",
        operation_id="replayLog",
    )
    async def replay_log(
        request: Request,
        jobs: JobsDep,
        ruleset: str | None = p.ruleset,
        name: str = p.name,
        option: list[str] = p.option,
    ) -> JSONResponse:
        """The log's report (as `POST /v1/check` answers it) and the table after every turn: each
        player's hand, card count, DOS state and running total, the Center Row, the pile sizes,
        and the indexes of the turn's findings. A UNO Duo log (its game picked from the body, as
        `/v1/check` does) has `"game": "uno-duo"`, the top card and colour, the pending volley
        total or Wild Draw 4, and each player's UNO state instead; a game without a view of its
        own has `"view": "generic"` and each turn's state as keys and values. A log that cannot
        be read has no states."""
        body = await request.body()
        form = form_of(request, ("text", "json"))
        game = reader_pack(body)  # the game the log's header (or JSON key) names, as /v1/check picks it
        mark_games(game.name)
        check_ruleset(ruleset, game)
        options = parse_options(option, game)
        options = for_game(options, game.name)  # `GAME:KEY=VALUE` set for another game's logs is not this one's
        return JSONResponse(await jobs.call(game.replay, body, form, name, ruleset, options))

    _game_route(r, limits)

    return r
