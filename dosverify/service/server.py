"""Running the service: uvicorn (uvloop and httptools, ``uvicorn[standard]``) in one process
that reads requests, beside the pool of worker processes that check."""

from __future__ import annotations

from typing import Any


def serve(
    host: str = "127.0.0.1", port: int = 8000, log_level: str = "info", access_log: bool = True, **given: Any
) -> None:
    """Run the service. Settings given here win over the environment; a setting that cannot be
    used raises :class:`dosverify.settings.SettingError` before anything starts. The access log
    is uvicorn's, one line a request on standard output (``access_log=False`` turns it off)."""
    import uvicorn

    from .app import create_app

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
