"""Which games an answer is about, for its ``X-Spec-Version`` header and its problem's
``spec_version`` and ``game``: an endpoint names them (:func:`mark_games`) as soon as it knows a
log's game; the header middleware and the error handlers read them back."""

from __future__ import annotations

import contextvars
from functools import cache

from ..games import REGISTRY, find_game, usable_packs

#: the header naming each game an answer is about with its spec version: `uno-duo 1.1.0`;
#: `dos 1.3.0, uno-duo 1.1.0` for a batch of both, and every registered game for an answer
#: about none (health, the list of games, a problem about no log)
GAMES_HEADER = "X-Spec-Version"

#: the games named so far by the request being answered (set by the header middleware; a list,
#: so that an endpoint run in a thread, with a copy of the context, adds to the same one)
REQUEST_GAMES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("dosverify_games", default=None)

#: the same list in the request's ASGI scope, for routes below the service's layer (the event
#: store's, dosverify.store.routes) that cannot import this module: they append a game's name to
#: ``request.scope[GAMES_SCOPE_KEY]``
GAMES_SCOPE_KEY = "dosverify.games"


@cache
def spec_version(game: str) -> str:
    """A registered game's spec version."""
    return find_game(game).spec().version


def spec_versions(games: list[str] | None = None) -> dict[str, str]:
    """`{game: spec version}` for the games (every registered game by default), in the registry's
    order."""
    wanted = set(REGISTRY if games is None else games)
    usable = {p.name for p in usable_packs()}  # a pack that fails to load has no spec to name
    return {g: spec_version(g) for g in REGISTRY if g in wanted and g in usable}


def spec_versions_header(games: list[str]) -> str:
    """The ``X-Spec-Version`` value for the games: `dos 1.3.0, uno-duo 1.1.0`."""
    return ", ".join(f"{g} {v}" for g, v in spec_versions(games).items())


def mark_games(*games: str | None) -> None:
    """The answer being made is about these games (each a registered name; None is skipped)."""
    seen = REQUEST_GAMES.get()
    if seen is None:
        return
    for g in games:
        if g is not None and g in REGISTRY and g not in seen:
            seen.append(g)


def request_game() -> str | None:
    """The one game the answer is about, if it is about exactly one."""
    seen = REQUEST_GAMES.get()
    return seen[0] if seen is not None and len(seen) == 1 else None
