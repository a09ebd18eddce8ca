"""What the endpoints share, reached through FastAPI's ``Depends``: the settings and the worker
pool (both on ``request.app.state``, set by :func:`dosverify.service.app.create_app`), the
runner of pool jobs, and the checks of the ruleset and option parameters."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from ..games import GamePack, UnknownGame, find_game, usable_pack_of_log, usable_packs
from ..overrides import OverrideError, for_game, refuse_unknown, unknown_anywhere, unknown_ruleset_anywhere
from ..pool import CheckBusy, CheckPool, CheckTimeout, WorkerDied
from ..settings import Settings
from ..spec import SpecError
from .errors import RETRY_AFTER, Problem, ServiceError, loc
from .middleware import SERVER_TIMING

BATCH_OVERHEAD = 64 * 1024  # room for the JSON array / multipart framing around the logs

#: runs (name, args, size[, lane]) jobs in a pool: what create_app puts on app.state.run_jobs
JobRunner = Callable[[CheckPool, list[tuple]], Awaitable[list]]


@dataclass(frozen=True)
class Limits:
    """The settings as the endpoints use them (the batch's byte limit is the one in force)."""

    settings: Settings
    max_log: int
    max_items: int
    batch_bytes: int
    max_findings: int

    @classmethod
    def of(cls, cfg: Settings) -> Limits:
        batch = min(cfg.max_batch_bytes, cfg.max_log_bytes * cfg.max_batch_items + BATCH_OVERHEAD)
        return cls(cfg, cfg.max_log_bytes, cfg.max_batch_items, batch, cfg.max_findings)


def get_limits(request: Request) -> Limits:
    return request.app.state.limits


def get_pool(request: Request) -> CheckPool:
    return request.app.state.pool()


def _retry() -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER)}


async def in_pool(pool: CheckPool, jobs: list[tuple]) -> list:
    """Run jobs in the worker pool (:mod:`dosverify.pool`). A check past its time budget, a log
    that waited past it for a worker, or a worker lost is a 503 with Retry-After: the log was
    not judged, so no verdict is given."""
    try:
        return await pool.run(jobs, SERVER_TIMING.get())
    except SpecError as exc:  # the override was checked first; kept for safety
        raise override_problem(exc) from exc
    except CheckTimeout as exc:
        where = loc("body", item=exc.item if len(jobs) > 1 else None)
        raise ServiceError(
            503,
            "check-timeout",
            f"{exc}; the log may be too costly to referee within the budget",
            [Problem(location=where, message=f"the check took more than {exc.budget:g} s")],
            headers=_retry(),
        ) from exc
    except CheckBusy as exc:
        where = loc("body", item=exc.item if len(jobs) > 1 else None)
        raise ServiceError(
            503,
            "too-many-requests",
            f"the service is saturated: {exc}",
            [Problem(location=where, message=f"no worker was free within {exc.waited:g} s")],
            headers=_retry(),
        ) from exc
    except WorkerDied as exc:
        raise ServiceError(
            503, "worker-lost", str(exc), [Problem(location=loc("body"), message=str(exc))], headers=_retry()
        ) from exc


class Jobs:
    """The pool of this app and the runner of its jobs, for one request (``Depends(Jobs)``)."""

    def __init__(self, request: Request) -> None:
        self.request = request

    async def run(self, jobs: list[tuple]) -> list:
        state = self.request.app.state
        return await state.run_jobs(state.pool(), jobs)

    async def call(
        self, fn: Callable, *args: Any, size: int | None = None, lane: str | None = None, weight: int = 1
    ) -> Any:
        """``fn(*args)`` in the pool (``fn`` a module-level function); ``size`` and ``lane`` say
        where its cost belongs (by default the size of its first argument, if bytes), ``weight``
        how many check budgets it has (work over many logs has one per log)."""
        if size is None:
            size = len(args[0]) if args and isinstance(args[0], (bytes, bytearray)) else 0
        [out] = await self.run([("call", (fn, args), size, lane, weight)])
        return out


def override_problem(exc: SpecError, item: int | None = None, game: str | None = None) -> ServiceError:
    """A 422 for a ruleset or option the log's game does not have (`unknown-ruleset`,
    `unknown-option`), at the query parameter, naming the game (and the batch item) at fault;
    the problem is `game`'s (its spec version), when the log's game is known."""
    param = getattr(exc, "param", "ruleset")
    kind = "unknown-option" if param == "option" else "unknown-ruleset"
    message = str(exc) if item is None else f"item {item}: {exc}"
    return ServiceError(
        422,
        kind,
        message,
        [Problem(location=loc("query", name=param), message=message, rule="notation.ruleset")],
        game=game,
    )


def game_pack(game: str | None = None) -> GamePack:
    """The pack `?game=` names (default: DOS); an unknown game is a 422 naming those there are."""
    try:
        return find_game(game)
    except UnknownGame as exc:
        raise ServiceError(
            422, "invalid-parameter", str(exc), [Problem(location=loc("query", name="game"), message=str(exc))]
        ) from None


def log_pack(body: bytes | str | dict) -> GamePack | None:
    """The pack of the game a log names (its first word, or its JSON game key); None when it names
    none the service can use (its report then says so: an unknown game, or a pack that fails to load)."""
    return usable_pack_of_log(body)


def reader_pack(body: bytes | str | dict) -> GamePack:
    """The pack whose reader judges a log: its game's, or the default game's for a log naming none
    the service can use (api.check then makes its malformed report with that game's spec)."""
    return log_pack(body) or find_game()


def check_ruleset(ruleset: str | None, pack: GamePack | None = None) -> None:
    """`?ruleset=` is the game's (`pack`), or, with no game known yet, some game's."""
    if ruleset is None or ruleset == "auto":
        return
    if pack is None:
        if (unknown := unknown_ruleset_anywhere(ruleset, usable_packs())) is not None:
            raise override_problem(OverrideError(unknown, "ruleset"))
        return
    try:
        refuse_unknown(pack, ruleset, None)
    except OverrideError as exc:
        raise override_problem(exc, game=pack.name) from exc


def parse_options(values: list[str], pack: GamePack | None = None) -> dict[str, str]:
    """`KEY=VALUE` (or `GAME:KEY=VALUE`) query values as a dict, each option and value one of the
    game's (`pack`), or, with no game known yet, of some game's (else a 422 naming the value at
    fault and, for a game, what it has)."""
    out: dict[str, str] = {}
    for v in values:
        key, sep, val = v.partition("=")
        if not sep or not key.strip() or not val.strip():
            raise override_problem(OverrideError(f"`{v}` is not KEY=VALUE"))
        out[key.strip()] = val.strip()
    check_options(out, pack)
    return out


def check_options(options: dict[str, str], pack: GamePack | None = None, item: int | None = None) -> None:
    """The options are the pack's game's (those it takes: plain, or qualified by its name), or
    with no pack some game's; else a 422 (at batch item `item`, when one)."""
    unknown = unknown_anywhere(options, usable_packs())
    if unknown is not None:
        raise override_problem(OverrideError(unknown), item)
    if pack is not None:
        try:
            refuse_unknown(pack, None, for_game(options, pack.name))
        except OverrideError as exc:
            raise override_problem(exc, item, pack.name) from exc


def check_items(items: list[tuple[bytes, str | None, str]], ruleset: str | None, options: dict[str, str]) -> None:
    """Every log of a batch takes the ruleset and options asked: each item's game has them, else a
    422 naming the first item (from 0) whose game does not, and what that game has."""
    seen: set[str] = set()
    for i, (raw, _, _) in enumerate(items):
        pack = log_pack(raw)
        if pack is None or pack.name in seen:
            continue
        seen.add(pack.name)
        try:
            refuse_unknown(pack, None if ruleset == "auto" else ruleset, for_game(options, pack.name))
        except OverrideError as exc:
            raise override_problem(exc, i, pack.name) from exc


#: the parameters an endpoint declares to have them (FastAPI's Annotated dependencies)
JobsDep = Annotated[Jobs, Depends(Jobs)]
LimitsDep = Annotated[Limits, Depends(get_limits)]
