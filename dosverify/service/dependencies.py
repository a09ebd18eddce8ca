"""What the endpoints share, reached through FastAPI's ``Depends``: the settings and the worker
pool (both on ``request.app.state``, set by :func:`dosverify.service.app.create_app`), the
runner of pool jobs, and the checks of the ruleset and option parameters."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from ..games import GamePack, UnknownGame, find_game
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
        raise _unknown_ruleset(exc) from exc
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


def _unknown_ruleset(exc: Exception) -> ServiceError:
    return ServiceError(
        422,
        "unknown-ruleset",
        str(exc),
        [Problem(location=loc("query", name="ruleset"), message=str(exc), rule="notation.ruleset")],
    )


def game_pack(game: str | None = None) -> GamePack:
    """The pack `?game=` names (default: DOS); an unknown game is a 422 naming those there are."""
    try:
        return find_game(game)
    except UnknownGame as exc:
        raise ServiceError(
            422, "invalid-parameter", str(exc), [Problem(location=loc("query", name="game"), message=str(exc))]
        ) from None


def check_ruleset(ruleset: str | None, pack: GamePack | None = None) -> None:
    if ruleset is None:
        return
    try:
        (pack or find_game()).spec().ruleset(ruleset)
    except SpecError as exc:
        raise _unknown_ruleset(exc) from exc


def parse_options(values: list[str], pack: GamePack | None = None) -> dict[str, str]:
    """`KEY=VALUE` query values as a dict, each option and value known to the specification
    (else a 422 naming the value at fault)."""
    spec = (pack or find_game()).spec()
    out: dict[str, str] = {}
    for v in values:
        key, sep, val = v.partition("=")
        try:
            if not sep:
                raise SpecError(f"`{v}` is not KEY=VALUE")
            spec.ruleset("official", {key.strip(): val.strip()})
        except SpecError as exc:
            raise ServiceError(
                422,
                "unknown-option",
                str(exc),
                [Problem(location=loc("query", name="option"), message=str(exc), rule="notation.ruleset")],
            ) from None
        out[key.strip()] = val.strip()
    return out


#: the parameters an endpoint declares to have them (FastAPI's Annotated dependencies)
JobsDep = Annotated[Jobs, Depends(Jobs)]
LimitsDep = Annotated[Limits, Depends(get_limits)]
