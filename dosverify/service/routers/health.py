"""``GET /healthz``: the service's identity, every setting in force and, under ``serve``, the
connections open and refused per client (:class:`dosverify.service.protocol.ClientShares`)."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter, Request

from ... import __version__
from ...spec import load_spec
from ..dependencies import LimitsDep
from ..games import spec_versions
from ..models import Health

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=Health, summary="Liveness", operation_id="getHealth")
async def healthz(request: Request, limits: LimitsDep) -> dict:
    # async: the counts are read on the event loop that changes them
    shares = getattr(request.app.state, "connections", None)
    return {
        "status": "ok",
        "version": __version__,
        "spec_version": load_spec("dos").version,  # DOS's, as before there were other games
        "games": spec_versions(),
        **dataclasses.asdict(limits.settings),
        "max_batch_bytes": limits.batch_bytes,
        "connections": shares.snapshot() if shares is not None else None,
    }
