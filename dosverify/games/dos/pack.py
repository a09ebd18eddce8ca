"""The DOS pack: what the core asks of DOS, answered by DOS's own modules (imported when asked)."""

from __future__ import annotations

from typing import Any

from .. import GamePack, Operator


class DosPack(GamePack):
    name = "dos"
    title = "DOS"
    versions = (1,)
    folder = "dos"

    def check(self, source, *, name="<input>", ruleset=None, form=None, options=None, whole=False):
        from .check import check

        return check(source, name=name, ruleset=ruleset, form=form, options=options, whole=whole)

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
        from .jsonform import schema

        return schema()

    def simulate(
        self, *, seed, players=2, ruleset="official", options=None, whole_game=False, style="canonical"
    ) -> str:
        from .simulate import simulate_text

        return simulate_text(
            players, seed, ruleset, rounds=None if whole_game else 1, game=whole_game, options=options, style=style
        )

    def styles(self) -> list[str]:
        from .render import STYLES

        return list(STYLES)

    def player_counts(self) -> tuple[int, ...]:
        return (2, 3, 4)

    def witness(self, source, *, name="<input>", ruleset=None, form=None):
        """The log with every `?` replaced by a card, when it is legal (notation.md, "Witness")."""
        from .check import witness

        return witness(source, name=name, ruleset=ruleset, form=form)

    def commands(self):
        from .corpus import main_corpus
        from .fmt import main_fmt
        from .profile import main_profile
        from .replay_cli import main_replay
        from .simulate import main_simulate

        return {
            "simulate": main_simulate,
            "replay": main_replay,
            "profile": main_profile,
            "fmt": main_fmt,
            "corpus": main_corpus,
        }

    def profile(self, logs, fixed=None) -> dict:
        from .profile import profile

        return profile(logs, fixed)

    def auto_choice(self, profile: dict) -> dict:
        from .profile import auto_choice

        return auto_choice(profile)

    def hide(self, log: Any, view: str = "table") -> Any:
        from .hide import hide

        return hide(log, view)

    def operators(self) -> dict[str, Operator]:
        from .mutate import OPERATORS

        # debt: mutate.py still has its own Mutation (the same fields as games.Mutation, another
        # class); this goes once mutate.py, edited elsewhere now, returns the core's Mutation
        return dict(OPERATORS)  # type: ignore[arg-type]


PACK = DosPack()
