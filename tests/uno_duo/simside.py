"""Shared by the test side's UNO Duo tests: the referee when there is one, and how many games to play."""

from __future__ import annotations

import pytest
from tiers import count

from dosverify.games import GamePack, UnknownGame, find_game

GAMES = count("DOSVERIFY_GAMES", 200, 6)


def referee() -> GamePack:
    """The UNO Duo pack, or a skip when no referee is there yet (this branch has the test side only)."""
    try:
        pack = find_game("uno-duo")
    except (UnknownGame, ImportError, AttributeError) as exc:
        pytest.skip(f"no UNO Duo referee yet: {exc}")
    if type(pack).check is GamePack.check:
        pytest.skip("no UNO Duo referee yet: the pack has no check()")
    return pack


def error_findings(report) -> list:
    return [f for f in report.findings if f.severity == "error"]
