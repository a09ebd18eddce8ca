"""One log judged for the store: the report and the game's result, as plain data (picklable, so
that the service can judge in its worker pool)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import api
from ..games import UnknownGame, find_game
from ..registry import REGISTRY, sniff_game


@dataclass(frozen=True)
class Judged:
    """What the store keeps of one judgement of a log."""

    verdict: str
    spec_version: str
    ruleset: str | None
    options: dict
    report: dict
    result: dict | None  # the pack's GameResult as a dict; None when the log has none
    game: str | None = None  # the game the log names (log_game); None: it names none


def log_game(data: bytes) -> str | None:
    """The game a log names (its header's first word, or a JSON log's game key) when a pack is
    registered for it, else None: bytes that name no game (a malformed log the default reader
    judged) belong to no game, and an event of any game may keep them."""
    named = sniff_game(data)
    return named if named in REGISTRY else None


def judge(
    data: bytes, name: str, form: str | None = None, ruleset: str | None = None, options: dict | None = None
) -> Judged:
    """Judge ``data`` (the bytes as submitted) under the current spec, and read its result with
    the game's own rules. A SpecError (an unknown ruleset or option override) propagates."""
    # whole: the report keeps the log it judged, so that the pack reads the result without
    # reading the log again (as fast as the round-at-a-time reading for logs of a game's size)
    report = api.check(data, name=name, form=form, ruleset=ruleset, options=options, whole=True)
    result = None
    if report.verdict != "malformed":
        pack = api.game_of(data)
        try:
            got = pack.result(data, report)
        except NotImplementedError:  # a pack without results yet: judged, not ranked
            got = None
        if got is not None:
            result = dataclasses.asdict(got)
            result["players"] = list(got.players)
            result["game"] = pack.name
    return Judged(
        report.verdict,
        report.spec_version,
        report.ruleset,
        dict(report.options),
        report.to_dict(),
        result,
        log_game(data),
    )


def rule_texts(game: str | None, rule_ids: set[str]) -> dict[str, dict]:
    """The rules' texts (id -> title, text) of a game's spec, for the hand-out report."""
    try:
        rules = find_game(game).spec().rules
    except UnknownGame:  # a game no pack has now: its findings are shown without the rule's text
        return {}
    return {r: {"title": rules[r].title, "text": rules[r].text} for r in rule_ids if r in rules}
