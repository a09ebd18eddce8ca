"""api.check's own part before any game reads the log: the header that names no game."""

from __future__ import annotations

import pytest

from dosverify.api import check, game_of
from dosverify.findings import Keep
from dosverify.games import REGISTRY


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("chess 1\nplayers a b\n", 1, 1),
        ("# a comment first\n\n  chess 1  # and one after\nround 1\n", 3, 3),
        ("\ufeffchess 2\n", 1, 2),
    ],
)
def test_a_header_naming_no_game_is_one_finding_that_lists_the_games(text, line, column):
    report = check(text, name="x.log")
    assert report.verdict == "malformed" and report.ruleset is None
    [f] = report.findings
    assert (f.rule, f.line, f.column, f.found) == ("notation.version", line, column, "chess")
    assert all(f"`{g} 1`" in f.expected for g in REGISTRY)
    assert report.lines == text.count("\n") and report.text == text


def test_a_first_line_that_is_no_header_is_left_to_the_default_reader():
    report = check("hello there world\n")
    assert report.verdict == "malformed"
    assert not any("unknown game" in f.message for f in report.findings)


def test_the_unknown_game_finding_obeys_what_the_caller_keeps():
    assert check("chess 1\n", keep=Keep(0, (), ("notation",), False)).findings == []


def test_a_game_named_by_the_log_or_forced_picks_its_pack():
    assert game_of("uno-duo 1\n").name == "uno-duo"
    assert game_of("chess 1\n").name == "dos"  # the default, whose reader says what is wrong
    assert game_of("dos 1\n", game="uno-duo").name == "uno-duo"
