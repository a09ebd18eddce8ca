"""Running the service: uvicorn (uvloop and httptools, ``uvicorn[standard]``) in one process
that reads requests, beside the pool of worker processes that check, with the connection
limits on (uvicorn's keep-alive and graceful-shutdown timeouts, and
:mod:`dosverify.service.protocol` for what uvicorn lacks; docs/service-limits.md)."""

from __future__ import annotations

from typing import Any

from ..clientaddr import parse_networks
from ..settings import Settings
from .app import LIMITED_PATHS
from .protocol import ClientShares, ConnectionLimits, LimitedHttpToolsProtocol


def serve(
    host: str = "127.0.0.1", port: int = 8000, log_level: str = "info", access_log: bool = True, **given: Any
) -> None:
    """Run the service. Settings given here win over the environment; a setting that cannot be
    used raises :class:`dosverify.settings.SettingError` before anything starts. The access log
    is uvicorn's, one line a request on standard output (``access_log=False`` turns it off)."""
    import uvicorn

    from .app import create_app

    app = create_app(warm=True, **given)
    cfg = app.state.settings
    app.state.connections = shares = ClientShares()  # GET /healthz shows its counts
    uvicorn.run(
        app,
        host=host,
        port=port,
        loop="uvloop",
        http=LimitedHttpToolsProtocol.configured(connection_limits(cfg), shares),
        log_level=log_level,
        proxy_headers=False,
        server_header=False,
        access_log=access_log,
        timeout_keep_alive=cfg.keepalive_timeout,
        timeout_graceful_shutdown=cfg.shutdown_timeout,
        backlog=min(2048, cfg.max_connections),
    )


def connection_limits(cfg: Settings) -> ConnectionLimits:
    return ConnectionLimits(
        max_url_bytes=cfg.max_url_bytes,
        max_header_bytes=cfg.max_header_bytes,
        max_headers=cfg.max_headers,
        header_timeout=cfg.header_timeout,
        body_timeout=cfg.body_timeout,
        min_body_rate=cfg.min_body_rate,
        max_connections=cfg.max_connections,
        per_client=cfg.max_in_flight_per_client if cfg.max_in_flight_per_client < cfg.max_in_flight else 0,
        limited_paths=LIMITED_PATHS,
        share_wait=cfg.check_timeout,
        per_address_connections=cfg.max_connections_per_client,
        trusted_proxies=parse_networks(cfg.trusted_proxies),
        client_header=cfg.client_address_header,
    )
