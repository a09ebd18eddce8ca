"""The caller's ruleset and options (`--ruleset`, `--option`, `?ruleset=`, `?option=`), judged
against the game of each log, never against a default game.

A folder (or a batch) may hold logs of several games, whose options differ. An option given as
``KEY=VALUE`` applies to every log and must be one of that log's game; ``GAME:KEY=VALUE`` (for
example ``uno-duo:volley=must``) applies to that game's logs only, so one command can set each
game's options. A ruleset or option the log's game does not have is a misuse (exit 2, HTTP 422
``unknown-option`` or ``unknown-ruleset``) whose message names the game and what it has.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from .spec import SpecError

if TYPE_CHECKING:
    from .games import GamePack

QUALIFIER = ":"  # `uno-duo:volley=must`: an option for one game's logs


class OverrideError(SpecError):
    """A ruleset or option the log's game does not have (or a value it does not allow).

    ``param`` says which: "ruleset" or "option"; ``game`` the log's game, once known."""

    def __init__(self, message: str, param: str = "option", game: str | None = None) -> None:
        super().__init__(message)
        self.param = param
        self.game = game


def split_key(key: str) -> tuple[str | None, str]:
    """(game, key) of an option key: ``uno-duo:volley`` -> ("uno-duo", "volley"); ``volley`` ->
    (None, "volley")."""
    game, sep, rest = key.partition(QUALIFIER)
    if not sep:
        return None, key.strip()
    return game.strip().lower(), rest.strip()


def for_game(options: Mapping[str, str] | Iterable[tuple[str, str]] | None, game: str) -> dict[str, str]:
    """The options that apply to a log of `game`: the unqualified ones and those qualified with its
    name (the qualifier dropped); those of other games left out. A key given both ways keeps the
    qualified value (the more specific says more)."""
    if not options:
        return {}
    pairs = options.items() if isinstance(options, Mapping) else options
    plain: dict[str, str] = {}
    mine: dict[str, str] = {}
    for key, value in pairs:
        owner, name = split_key(key)
        if owner is None:
            plain[name] = value
        elif owner == game:
            mine[name] = value
    return {**plain, **mine}


def refuse_unknown(pack: GamePack, ruleset: str | None, options: Mapping[str, str] | None) -> None:
    """Raise OverrideError when `ruleset` or one of `options` (already :func:`for_game` of this
    pack) is not the pack's game's, naming the game and what it has."""
    spec = pack.spec()
    if ruleset is not None and ruleset != "auto" and ruleset not in spec.rulesets:
        known = ", ".join(sorted(spec.rulesets))
        raise OverrideError(
            f"ruleset `{ruleset}` is not one of {pack.title}'s{_near(ruleset, spec.rulesets)} (its rulesets: {known}; "
            f"`dosverify rulesets --game {pack.name}` describes them)",
            "ruleset",
        )
    for key, value in (options or {}).items():
        if key not in spec.options:
            known = ", ".join(sorted(spec.options))
            raise OverrideError(
                f"option `{key}` is not one of {pack.title}'s{_near(key, spec.options)} (its options: {known}; "
                f"`dosverify rulesets --game {pack.name}` describes them; `GAME{QUALIFIER}KEY=VALUE` sets an "
                "option for one game's logs only)"
            )
        allowed = spec.options[key]["values"]
        if value not in allowed:
            raise OverrideError(
                f"{pack.title} option `{key}` cannot be `{value}`{_near(value, allowed)} (allowed: {', '.join(allowed)})"
            )


def unknown_ruleset_anywhere(ruleset: str | None, packs: Iterable[GamePack], more: str = "") -> str | None:
    """Before any log is read: `ruleset` (not `auto`) that no game has, said with each game's
    rulesets (and `more`, inside the parenthesis); None when some game has it (each log is then
    judged against its own game's)."""
    packs = list(packs)
    if ruleset is None or ruleset == "auto" or any(ruleset in p.spec().rulesets for p in packs):
        return None
    each = "; ".join(f"{p.title}: {', '.join(sorted(p.spec().rulesets))}" for p in packs)
    near = _near(ruleset, [r for p in packs for r in p.spec().rulesets])
    return f"unknown ruleset `{ruleset}`{near} (known: {each}{more})"


def unknown_anywhere(options: Mapping[str, str], packs: Iterable[GamePack]) -> str | None:
    """Before any log is read (the command line, a batch of mixed games): the first option that no
    game has (unqualified) or that the game it names does not have, said with what each game has;
    None when every option is some game's."""
    packs = list(packs)
    by_name = {p.name: p for p in packs}
    for key, value in options.items():
        owner, name = split_key(key)
        if owner is not None:
            if owner not in by_name:
                return f"`{key}`: no game `{owner}` (known: {', '.join(by_name)})"
            try:
                refuse_unknown(by_name[owner], None, {name: value})
            except OverrideError as exc:
                return str(exc)
            continue
        having = [p for p in packs if name in p.spec().options]
        if not having:
            each = "; ".join(f"{p.title}: {', '.join(sorted(p.spec().options))}" for p in packs)
            near = _near(name, [k for p in packs for k in p.spec().options])
            return f"unknown option `{name}`{near} (known: {each})"
        if not any(value in p.spec().options[name]["values"] for p in having):
            allowed = having[0].spec().options[name]["values"]
            return (
                f"{having[0].title} option `{name}` cannot be `{value}`{_near(value, allowed)} "
                f"(allowed: {', '.join(allowed)})"
            )
    return None


def _near(word: str, names: Iterable[str]) -> str:
    """`; did you mean `official`?` for a mistyped ruleset, option or value, or nothing."""
    from .hints import closest

    near = closest(word, sorted(set(names)))
    return f"; did you mean `{near}`?" if near and near != word else ""


def from_command_line(items: list[str], game: str) -> dict[str, str]:
    """`--option KEY=VALUE` items (plain or `GAME:KEY=VALUE`) for a log of `game`, judged against its
    spec as `check` judges them; ValueError (an OverrideError) naming what is wrong."""
    from .games import find_game
    from .spec import parse_option_args

    options = for_game(parse_option_args(items), game)
    refuse_unknown(find_game(game), None, options)
    return options
