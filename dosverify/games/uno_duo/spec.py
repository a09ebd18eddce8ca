"""UNO Duo's specification (spec/uno-duo/) and a reporter bound to it, for every module of the
pack: one place that names the folder, so no module reaches back into the pack object."""

from __future__ import annotations

from functools import cache

from ...findings import Reporter
from ...spec import Spec, load_spec

FOLDER = "uno-duo"


def spec() -> Spec:
    return load_spec(FOLDER)


@cache
def reporter() -> Reporter:
    return Reporter(spec())
