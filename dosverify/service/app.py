"""The app: settings resolved, the pool's lifespan, the middlewares, the routers."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from typing import Any

from fastapi import FastAPI

from .. import __version__
from ..pool import CheckPool, InFlightLimit
from ..settings import Settings
from .dependencies import JobRunner, Limits, in_pool
from .errors import busy, install_handlers
from .games import GAMES_HEADER
from .middleware import SPEC_HEADER, ClientGone, CloseAfterRefusal, HttpConventions, ServerTiming, SpecVersionHeader
from .openapi import install_openapi
from .params import Params
from .routers import check, health, moves, spec, web

LIMITED_PATHS = ("/v1/check", "/v1/convert", "/v1/replay", "/v1/profile", "/v1/moves")


def _description(limits: Limits) -> str:
    cfg = limits.settings
    return (
        "POST a game log (the text notation or its JSON form) and get the referee's report: "
        "`legal`, `illegal` or `malformed`, with every finding at its line and column or JSON pointer. "
        f"Limits: {limits.max_log} bytes per log, {limits.max_items} logs and {limits.batch_bytes} bytes per batch, "
        f"{limits.max_findings} findings per report (the rest counted in `truncated`), {cfg.check_timeout:g} s "
        f"per check and {cfg.max_in_flight} requests in flight (past either: 503 with Retry-After). "
        f"Every response carries the `{GAMES_HEADER}` header: each game the answer is about with its rules "
        "specification's version (`uno-duo 1.1.0`; every game's for an answer about none), and, until 0.2.0, "
        f"the deprecated `{SPEC_HEADER}` (DOS's). "
        "Errors are RFC 9457 problem details (`application/problem+json`). The organiser's web page is at `/`."
    )


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI):
    """With ``warm``, the pool starts as the app does, in the background, and what the app holds
    for good (spec, models, routes) leaves the collector's view (a full collection of it paused
    the event loop 0.2 s and more under load); the pool closes with the app."""
    task = None
    if app.state.warm:
        task = asyncio.create_task(_warm_up(app))
        gc.collect()
        gc.freeze()
    try:
        yield
    finally:
        if task is not None:
            task.cancel()
        if "pool" in app.state.pool_box:
            app.state.pool_box.pop("pool").close()


async def _warm_up(app: FastAPI) -> None:
    with contextlib.suppress(Exception):  # a worker that does not start is retried by its first job
        await app.state.pool().start()


def create_app(
    max_log_bytes: int | None = None,
    max_batch_items: int | None = None,
    *,
    warm: bool = False,
    run_jobs: JobRunner | None = None,
    **settings: Any,
) -> FastAPI:
    """Build the service. Every setting (:mod:`dosverify.settings`) given here wins over its
    environment variable, which wins over its default. The endpoints read bodies on the event
    loop (the body limit applies as they stream in) and send every check to a pool of worker
    processes (:mod:`dosverify.pool`), started with the first check or, with ``warm``, as the
    app starts; ``run_jobs`` runs the pool's jobs (default :func:`dependencies.in_pool`)."""
    cfg = Settings.resolve(max_log_bytes=max_log_bytes, max_batch_items=max_batch_items, **settings)
    limits = Limits.of(cfg)
    app = FastAPI(
        title="dosverify",
        version=__version__,
        summary="A referee for card game logs (DOS, UNO Duo, and every game a pack adds)",
        description=_description(limits),
        docs_url=None,
        redoc_url=None,  # served from the package's own assets by the web router
        lifespan=lifespan,
    )
    pool_box: dict[str, CheckPool] = {}

    def get_pool() -> CheckPool:
        if "pool" not in pool_box:
            pool_box["pool"] = CheckPool(cfg.workers, cfg.check_timeout)
        return pool_box["pool"]

    app.state.settings, app.state.limits, app.state.warm = cfg, limits, warm
    app.state.pool, app.state.pool_box, app.state.run_jobs = get_pool, pool_box, run_jobs or in_pool
    app.state.max_log_bytes, app.state.max_batch_items = limits.max_log, limits.max_items
    app.add_middleware(
        InFlightLimit,
        limit=cfg.max_in_flight,
        paths=LIMITED_PATHS,
        reject=busy,
        per_client=cfg.max_in_flight_per_client,
    )
    app.add_middleware(SpecVersionHeader)
    app.add_middleware(CloseAfterRefusal)
    app.add_middleware(ServerTiming)
    app.add_middleware(HttpConventions)
    app.add_middleware(ClientGone)  # added last: the outermost, it sees the request first
    app.router.redirect_slashes = False
    install_handlers(app)
    params = Params.build()
    app.include_router(check.router(limits))
    app.include_router(moves.router(limits))
    web.mount_static(app)
    app.include_router(web.router(limits, params, app.title))
    app.include_router(spec.router)
    app.include_router(health.router)
    from ..store.routes import install as install_store  # /v1/events, /v1/audits: the event store

    install_store(app)
    install_openapi(app)
    return app
