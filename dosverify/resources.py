"""Where the data the package reads at run time lives: the rules specification, the grammar and
the conformance corpus.

A built install carries them inside the package (``dosverify/_data/``, mapped from the
repository's top-level ``spec/``, ``grammars/`` and ``fixtures/dos/conformance/`` by the build), read
through :mod:`importlib.resources`, so that plain, ``--user`` and ``--target`` installs all find
them. A source checkout (and an editable install of it) reads the top-level folders themselves.
"""

from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
_IN_CHECKOUT = {
    "spec": ("spec",),
    "grammars": ("grammars",),
    "conformance": ("fixtures", "dos", "conformance"),
    "conformance_uno_duo": ("fixtures", "uno-duo", "conformance"),
}


def data_dir(name: str) -> Path:
    """The folder of bundled data `name` (``spec``, ``grammars``, ``conformance`` or ``conformance_uno_duo``)."""
    if name == "spec" and os.environ.get("DOSVERIFY_SPEC"):
        return Path(os.environ["DOSVERIFY_SPEC"])
    from importlib.resources import files

    packaged = files(__package__).joinpath("_data", name)
    if packaged.is_dir():
        return Path(str(packaged))  # an installed wheel is unpacked on disk
    src = _CHECKOUT.joinpath(*_IN_CHECKOUT[name])
    if src.is_dir():
        return src
    raise FileNotFoundError(f"dosverify's {name} data was not found in the package (a broken install?)")


def checkout() -> Path | None:
    """The source checkout this package runs from (an editable install), or None for an install:
    the commands that write the corpus or the golden files, or read the rule fixtures, need one."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "fixtures" / "dos" / "rules").is_dir():
        return _CHECKOUT
    return None


def needs_checkout(what: str) -> str:
    """The one line a command that needs a source checkout prints from an install."""
    return (
        f"dosverify: {what} needs a source checkout of dosverify (git clone, then `pip install -e .`); "
        f"this is an installed copy at {_CHECKOUT / 'dosverify'}"
    )
