"""``GET /healthz``: the service's identity and every setting in force."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter

from ... import __version__
from ...spec import load_spec
from ..dependencies import LimitsDep
from ..models import Health

router = APIRouter(tags=["service"])


@router.get("/healthz", response_model=Health, summary="Liveness", operation_id="getHealth")
def healthz(limits: LimitsDep) -> dict:
    return {
        "status": "ok",
        "version": __version__,
        "spec_version": load_spec().version,
        **dataclasses.asdict(limits.settings),
        "max_batch_bytes": limits.batch_bytes,
    }
