"""Tiny's specification, from this package's own spec/ folder, and the one place that names it."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from dosverify.spec import Spec, load_spec


@cache
def spec_path() -> Path:
    return Path(str(files(__package__).joinpath("spec")))


def spec() -> Spec:
    return load_spec(spec_path(), "tiny")
