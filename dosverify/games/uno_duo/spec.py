"""UNO Duo's specification (spec/uno-duo/) and a reporter bound to it, for every module of the
pack: one place that names the folder, so no module reaches back into the pack object."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ...findings import Reporter
from ...resources import game_data
from ...spec import Spec, load_spec

FOLDER = "uno-duo"


def data_path(kind: str) -> Path:
    """UNO Duo's data of `kind` (spec, grammars, conformance): its package's own (resources.py)."""
    return game_data(__package__ or "", kind, FOLDER)


def spec() -> Spec:
    return load_spec(FOLDER)


@cache
def reporter() -> Reporter:
    return Reporter(spec())
