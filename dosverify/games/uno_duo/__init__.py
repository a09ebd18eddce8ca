"""UNO Duo (Mark & Cristina Ball), the second game on the dosverify core: its pack.

The contract is design/uno-duo.md (`uno-duo 1`); the specification is spec/uno-duo/.
"""

from __future__ import annotations

from typing import Any

from .. import GamePack


class UnoDuoPack(GamePack):
    """Reads, judges and writes UNO Duo logs."""

    name = "uno-duo"
    title = "UNO Duo"
    versions = (1,)
    folder = "uno-duo"

    def check(self, source, *, name="<input>", ruleset=None, form=None, options=None, whole=False, keep=None):
        from .check import check

        return check(source, name=name, ruleset=ruleset, form=form, options=options, whole=whole, keep=keep)

    def parse(self, source, form=None):
        from .check import parse

        return parse(source, form)

    def write(self, log: Any) -> str:
        from .notation import write

        return write(log)

    def dump_json(self, log: Any) -> str:
        from .jsonform import dump_json

        return dump_json(log)

    def json_schema(self) -> dict:
        from .jsonform import json_schema

        return json_schema()

    def simulate(self, *, seed, players=2, ruleset="official", options=None, whole_game=False, style="canonical"):
        from .simulate import simulate

        return simulate(seed=seed, ruleset=ruleset, options=options, whole_game=whole_game, style=style)

    def styles(self) -> list[str]:
        from .simemit import STYLES

        return ["canonical", *(s for s in STYLES if s != "canonical")]

    def operators(self):
        from .mutate import OPERATORS

        return dict(OPERATORS)


PACK = UnoDuoPack()
