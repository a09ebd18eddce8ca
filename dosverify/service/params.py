"""The query parameters and request bodies the log endpoints share, as FastAPI declares them
(their enums from every game's specification, their limits from the settings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Query

from ..games import usable_packs
from ..overrides import QUALIFIER

TEXT_EXAMPLE = """dos 1
players ann bob
round 1
dealer ann
hand ann R3 B5 G10 Y1 W2 R# B7
hand bob B3 B7 G3 Y4 G9 R1 R8
center R3 B10
"""

LOG_REF = {"$ref": "#/components/schemas/Log"}


def log_body() -> dict:
    """One log, text or JSON (the body of /v1/check, /v1/replay and /v1/convert)."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "text/plain": {"schema": {"type": "string"}, "example": TEXT_EXAMPLE},
                "application/json": {"schema": LOG_REF},
            },
        }
    }


@dataclass(frozen=True)
class Params:
    ruleset: Any
    ruleset_batch: Any
    name: Any
    option: Any
    ruleset_names: list[str]

    @classmethod
    def build(cls) -> Params:
        """Every registered game's rulesets and options: which apply is the log's game's."""
        packs = usable_packs()
        names = sorted({r for p in packs for r in p.spec().rulesets})
        plain = [f"{k}={v}" for p in packs for k, opt in p.spec().options.items() for v in opt["values"]]
        qualified = [
            f"{p.name}{QUALIFIER}{k}={v}" for p in packs for k, opt in p.spec().options.items() for v in opt["values"]
        ]
        pairs = list(dict.fromkeys(plain + qualified))
        return cls(
            ruleset=Query(None, description="overrides the log's ruleset", json_schema_extra={"enum": names}),
            ruleset_batch=Query(
                None,
                description="overrides the logs' ruleset; `auto` infers the ruleset and options "
                "from the whole batch (as `POST /v1/profile`; `option`s stay fixed) and "
                "judges every log under them",
                json_schema_extra={"enum": [*names, "auto"]},
            ),
            name=Query("-", max_length=1024, description="the name of the log in the report (`file`)"),
            option=Query(
                [],
                description="`KEY=VALUE`: an option over the log's own `option` lines, one of the log's "
                "game (repeatable; `GET /v1/rulesets?game=GAME` lists the options and their values); "
                "`GAME:KEY=VALUE` applies to that game's logs only (a batch of several games)",
                json_schema_extra={"items": {"type": "string", "enum": pairs}},
            ),
            ruleset_names=names,
        )
