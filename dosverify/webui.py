"""The organiser's web page at ``/``, its assets, the offline ``/docs`` and ``/redoc``, and the
replay endpoint the page steps through.

Every asset is a file of the package (``dosverify/static/``): the page works at a venue with
no network, and the page's Content-Security-Policy lets it load nothing from anywhere else.
The page itself uses only the public API (``/v1/replay``, ``/v1/rules/{id}``, ``/v1/rulesets``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

from .games.dos.replay import ReplayResult, replay

STATIC_DIR = Path(__file__).resolve().parent / "static"
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


def install(
    app: FastAPI, *, run: Callable, max_log: int, errors: dict, ruleset_q: Any, name_q: Any, log_body: dict
) -> None:
    """Add the page, its assets, the docs pages and ``POST /v1/replay`` to the service.
    `run(fn, *args)` runs CPU-bound work off the event loop, as the check endpoints do."""
    from .service import _check_ruleset, _form_of
    from .spec import load_spec

    spec = load_spec()
    pairs = [f"{k}={v}" for k, opt in spec.options.items() for v in opt["values"]]
    option_q = Query(
        [],
        description="`KEY=VALUE`: an option over the log's own `option` lines (repeatable; "
        "`GET /v1/rulesets` lists the options and their values)",
        json_schema_extra={"items": {"type": "string", "enum": pairs}},
    )

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    page = (STATIC_DIR / "index.html").read_bytes()

    @app.get("/", include_in_schema=False)
    def index() -> Response:
        """The organiser's page (API users: see /docs)."""
        return Response(
            page,
            media_type="text/html; charset=utf-8",
            headers={"Content-Security-Policy": PAGE_CSP, "X-Content-Type-Options": "nosniff"},
        )

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return _csp(
            get_swagger_ui_html(
                openapi_url="/openapi.json",
                title=f"{app.title}: API",
                swagger_js_url="/static/vendor/swagger-ui/swagger-ui-bundle.js",
                swagger_css_url="/static/vendor/swagger-ui/swagger-ui.css",
                swagger_favicon_url="/static/favicon.svg",
                swagger_ui_parameters={"validatorUrl": None},
            )
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _csp(
            get_redoc_html(
                openapi_url="/openapi.json",
                title=f"{app.title}: API",
                redoc_js_url="/static/vendor/redoc/redoc.standalone.js",
                redoc_favicon_url="/static/favicon.svg",
                with_google_fonts=False,
            )
        )

    @app.post(
        "/v1/replay",
        response_model=ReplayResult,
        responses=errors,
        max_body_size=max_log,
        openapi_extra=log_body,
        tags=["check"],
        summary="Replay one log, turn by turn",
        operation_id="replayLog",
    )
    async def replay_log(
        request: Request, ruleset: str | None = ruleset_q, name: str = name_q, option: list[str] = option_q
    ) -> JSONResponse:
        """The log's report (as `POST /v1/check` answers it) and the table after every turn: each
        player's hand, card count, DOS state and running total, the Center Row, the pile sizes,
        and the indexes of the turn's findings. A log that cannot be read has no states."""
        body = await request.body()
        form = _form_of(request, ("text", "json"))
        _check_ruleset(ruleset)
        options = parse_options(option)
        result = await run(_replay, body, form, name, ruleset, options)
        return JSONResponse(result)


def _csp(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = DOCS_CSP
    return page


def _replay(body: bytes, form: str, name: str, ruleset: str | None, options: dict) -> dict:
    return replay(body, name=name, ruleset=ruleset, form=form, options=options)


def parse_options(values: list[str]) -> dict[str, str]:
    """`KEY=VALUE` query values as a dict, each option and value known to the specification
    (else a 422 naming the value at fault)."""
    from .service import Problem, ServiceError, _loc
    from .spec import SpecError, load_spec

    out: dict[str, str] = {}
    for v in values:
        key, sep, val = v.partition("=")
        try:
            if not sep:
                raise SpecError(f"`{v}` is not KEY=VALUE")
            load_spec().ruleset("official", {key.strip(): val.strip()})
        except SpecError as exc:
            raise ServiceError(
                422,
                "unknown-option",
                str(exc),
                [Problem(location=_loc("query", name="option"), message=str(exc), rule="notation.ruleset")],
            ) from None
        out[key.strip()] = val.strip()
    return out
