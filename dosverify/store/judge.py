"""One log judged for the store: the report and the game's result, as plain data (picklable, so
that the service can judge in its worker pool)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import api
from ..games import find_game


@dataclass(frozen=True)
class Judged:
    """What the store keeps of one judgement of a log."""

    verdict: str
    spec_version: str
    ruleset: str | None
    options: dict
    report: dict
    result: dict | None  # the pack's GameResult as a dict; None when the log has none


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
    return Judged(report.verdict, report.spec_version, report.ruleset, dict(report.options), report.to_dict(), result)


def rule_texts(game: str | None, rule_ids: set[str]) -> dict[str, dict]:
    """The rules' texts (id -> title, text) of a game's spec, for the hand-out report."""
    pack = find_game(game)
    rules = pack.spec().rules
    return {r: {"title": rules[r].title, "text": rules[r].text} for r in rule_ids if r in rules}
