"""Random legal games, in every rendering, are legal; and say the same as JSON."""

from __future__ import annotations

import pytest

from dosverify.games import find_game

from .random_player import G

PACK = find_game("uno-duo")
RENDERINGS = [("deck", True, True), ("draft", False, False), ("hand", False, True)]


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("mode,bare,listed", RENDERINGS, ids=[r[0] for r in RENDERINGS])
def test_random_games_are_legal(seed: int, mode: str, bare: bool, listed: bool) -> None:
    text = G(seed, mode, bare, listed).game()
    report = PACK.check(text)
    assert report.verdict == "legal", [(f.rule, f.line, f.message) for f in report.findings]
    assert report.findings == [] and report.rounds >= 1
    crlf = PACK.check(("\ufeff" + text.replace("\n", "\r\n")).encode())
    assert crlf.verdict == "legal" and crlf.findings == []
    log = PACK.parse(text).log
    assert PACK.check(PACK.dump_json(log)).findings == []
    assert PACK.parse(PACK.write(log)).log == log
