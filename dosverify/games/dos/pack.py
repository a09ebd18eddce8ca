"""The DOS pack: what the core asks of DOS, answered by DOS's own modules (imported when asked)."""

from __future__ import annotations

from typing import Any

from .. import GamePack, Operator


class DosPack(GamePack):
    name = "dos"
    title = "DOS"
    versions = (1,)
    folder = "dos"

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

    def simulate(self, *, seed, players=2, ruleset="official", options=None, whole_game=False) -> str:
        from .simulate import simulate_text

        return simulate_text(players, seed, ruleset, rounds=None if whole_game else 1, game=whole_game, options=options)

    def witness(self, source, *, name="<input>", ruleset=None, form=None):
        """The log with every `?` replaced by a card, when it is legal (notation.md, "Witness")."""
        from .check import witness

        return witness(source, name=name, ruleset=ruleset, form=form)

    def operators(self) -> dict[str, Operator]:
        from .mutate import OPERATORS

        return dict(OPERATORS)


PACK = DosPack()
