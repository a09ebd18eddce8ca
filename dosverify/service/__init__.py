"""The HTTP service: the referee behind a URL (FastAPI, served by uvicorn).

Every endpoint calls :func:`dosverify.api.check` / :func:`dosverify.api.convert`, the one data
path the CLI uses, so a report from ``POST /v1/check`` is exactly what
``dosverify check --format json`` prints for the same log (the ``file`` field is the ``name``
query parameter, ``-`` by default).

Endpoints (all answers are JSON unless said otherwise; every response carries the header
``X-Spec-Version``, each game the answer is about with its spec version, and the deprecated
``X-DOS-Spec-Version``, DOS's, until 0.2.0), one router per resource in
:mod:`dosverify.service.routers`:

- ``check``: ``POST /v1/check`` (one log, ``text/plain`` or ``application/json``; ``?ruleset=``,
  ``?name=``, ``?option=``), ``/v1/check/batch`` (a JSON array of logs or ``multipart/form-data``),
  ``/v1/convert`` (text to JSON and back), ``/v1/profile`` (the options that explain many logs);
- ``spec``: ``GET /v1/rules``, ``/v1/rules/{id}``, ``/v1/rulesets`` (``?game=``), ``/problems/{code}``;
- ``health``: ``GET /healthz``;
- ``web``: ``GET /`` (the organiser's page), ``/docs``, ``/redoc``, ``/static/...``, ``POST /v1/replay``.

A log that cannot be read, in either form, is a verdict (200, ``malformed``); errors are only
for requests that are not a log request at all, and share one body
(:class:`~dosverify.service.errors.ErrorBody`, RFC 9457 problem details). Body limits are
enforced while the body is read (FastAPI's per-route ``max_body_size``); the connection-level
limits (header size and time, body rate, connections) are the server's
(:mod:`dosverify.service.server`, ``docs/service-limits.md``).
"""

from __future__ import annotations

import functools
from typing import Any

from .app import create_app as _create_app
from .dependencies import BATCH_OVERHEAD, Limits
from .dependencies import in_pool as _in_pool
from .errors import PROBLEM_MEDIA_TYPE, PROBLEM_TYPES, ErrorBody, Problem, ServiceError, problem_body
from .games import GAMES_HEADER
from .middleware import SERVER_TIMING, SPEC_HEADER, ServerTiming
from .server import serve

DEFAULT_MAX_LOG_BYTES = 1024 * 1024  # 1 MiB per log
DEFAULT_MAX_BATCH_ITEMS = 100
ENV_MAX_LOG_BYTES = "DOSVERIFY_MAX_LOG_BYTES"
ENV_MAX_BATCH_ITEMS = "DOSVERIFY_MAX_BATCH_ITEMS"

__all__ = [
    "BATCH_OVERHEAD",
    "GAMES_HEADER",
    "PROBLEM_MEDIA_TYPE",
    "PROBLEM_TYPES",
    "SERVER_TIMING",
    "SPEC_HEADER",
    "ErrorBody",
    "Limits",
    "Problem",
    "ServerTiming",
    "ServiceError",
    "create_app",
    "problem_body",
    "serve",
]


@functools.wraps(_create_app)
def create_app(*args: Any, **kwargs: Any):
    # the app runs its pool jobs with this module's `_in_pool`, looked up when the app is built:
    # the one seam a test replaces to fail between an endpoint and the pool
    kwargs.setdefault("run_jobs", _in_pool)
    return _create_app(*args, **kwargs)


def __getattr__(name: str) -> Any:
    """``dosverify.service:app`` (for ``uvicorn --workers N``), built when first asked for."""
    if name == "app":
        app = globals()["app"] = create_app()
        return app
    raise AttributeError(name)
