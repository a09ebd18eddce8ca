"""Where the data a game reads at run time lives: its rules specification, grammar and
conformance corpus.

Each game's data are resources of the game's own package: a built install carries them inside it
(``<package>/_data/<kind>/``; the built-in games' are mapped there from the repository's top-level
``spec/<game>/``, ``grammars/<game>/`` and ``fixtures/<game>/conformance/`` by the build, see
pyproject.toml), read through :mod:`importlib.resources` so that plain, ``--user`` and ``--target``
installs all find them. A source checkout (and an editable install of it) reads the top-level
folders themselves. The core names no game here: a pack asks for its own.
"""

from __future__ import annotations

import os
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent

#: a kind of game data -> where a source checkout keeps a game's (``{folder}``: the game's folder)
KINDS = {
    "spec": ("spec", "{folder}"),
    "grammars": ("grammars", "{folder}"),
    "conformance": ("fixtures", "{folder}", "conformance"),
}


def game_data(package: str, kind: str, folder: str) -> Path:
    """The folder of a game's data of `kind` (one of KINDS): the copy inside the game's `package`
    (an install), else the source checkout's top-level one. ``$DOSVERIFY_SPEC``, a folder of game
    folders, replaces every game's spec (a test or an author trying a changed spec)."""
    if kind == "spec" and os.environ.get("DOSVERIFY_SPEC"):
        return Path(os.environ["DOSVERIFY_SPEC"]) / folder
    from importlib.resources import files

    packaged = files(package).joinpath("_data", kind)
    if packaged.is_dir():
        return Path(str(packaged))  # an installed wheel is unpacked on disk
    src = _CHECKOUT.joinpath(*(part.format(folder=folder) for part in KINDS[kind]))
    if src.is_dir():
        return src
    raise FileNotFoundError(f"the {kind} data of {package} were not found (a broken install?)")


def checkout() -> Path | None:
    """The source checkout this package runs from (an editable install), or None for an install:
    the commands that write the corpus or the golden files, or read the rule fixtures, need one."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "fixtures").is_dir():
        return _CHECKOUT
    return None


def needs_checkout(what: str) -> str:
    """The one line a command that needs a source checkout prints from an install."""
    return (
        f"dosverify: {what} needs a source checkout of dosverify (git clone, then `pip install -e .`); "
        f"this is an installed copy at {_CHECKOUT / 'dosverify'}"
    )
