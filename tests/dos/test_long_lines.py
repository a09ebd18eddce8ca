"""Very long lines cost work linear in their length, and give findings of bounded size (issue 10),
proved by counting work, not by timing.

The work counted is the lines of Python that dosverify and Lark execute for a check and both renderings
(a trace, as a profiler counts): a loop over a line's characters, words or cards, or over the findings,
shows in it; a search or a copy of a turn's lines for every line of it, or a guess of what was meant
tried card by card, shows as its square. A line 10 times longer may cost at most about 10 times the
work, plus a constant. Whatever the line, a finding quotes at most ``findings.MAX_TEXT`` characters
of it (cut with a visible ellipsis), so the reports stay small."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import lark
import pytest
from tiers import FULL, tier

import dosverify
from dosverify.api import check
from dosverify.findings import MAX_TEXT
from dosverify.games.dos.notation import fast_path_on, parse
from dosverify.report import render_text

TRACED = (str(Path(dosverify.__file__).parent), str(Path(lark.__file__).parent))
# with Lark alone (the CI's second pass), each token of a line is lexed in traced Python: a tenth of the sizes;
# the quick tier stops a size short (one tenfold step: the full tier's million-card lines cost a minute)
SIZES = (10**4, 10**5, 10**6) if fast_path_on() else (10**3, 10**4, 10**5)
SIZES = SIZES if tier() == FULL else SIZES[:2]
HEADER = b"dos 1\nplayers ann bob cyd\n"
SETUP = (
    b"round 1\ndealer ann\nhand ann R3 B5 G10 Y1 W2 R# B7\nhand bob B3 B7 G3 Y4 G9 R1 R8\n"
    b"hand cyd R10 R9 B8 G10 Y9 Y7 G8\ncenter R3 B10\n"
)


def _junk(n: int, alphabet: bytes) -> bytes:
    rng = random.Random(n)
    return bytes(rng.choice(alphabet) for _ in range(n))


def _cards(n: int, sep: bytes = b" ") -> bytes:
    rng = random.Random(n)
    codes = [b"B3", b"R5", b"G#", b"Y10", b"W2", b"G7", b"R1"]
    return sep.join(rng.choice(codes) for _ in range(n // (len(sep) + 2)))


LINES = {  # one line of about n characters (the turn and set-up lines around it are short)
    "junk without spaces": lambda n: _junk(n, b"abcdefghRGBYW0123456789#+=:"),
    "junk words": lambda n: _junk(n, b"abcdefgh RGBY 0123456789 #+="),
    "a comment": lambda n: b"# " + b"x" * n,
    "a tag with a huge value": lambda n: b"event " + b"v" * n,
    "a quoted tag value": lambda n: b'event "' + b"v " * (n // 2) + b'"',
    "players with a huge name": lambda n: b"players ann " + b"b" * n,
    "players by the thousand": lambda n: b"players " + b" ".join(b"p%d" % i for i in range(n // 7)),
    "card codes alone": lambda n: _cards(n),
    "a hand of n cards": lambda n: b"hand ann " + _cards(n),
    "a draw of n cards": lambda n: b"turn bob\n  draw cyd " + _cards(n),
    "a match with a huge list of cards": lambda n: b"turn bob\n  match B10 with " + _cards(n, b" + "),
    "a very long name on turn": lambda n: b"turn bob\n  " + b"n" * n + b": draw B1",
    "a very long keyword": lambda n: b"turn bob\n  " + b"k" * n + b" B1",
}
BEFORE = {"alone": b"", "after a header": HEADER, "in a round": HEADER + SETUP}


def work(source: bytes) -> tuple[int, str, str]:
    """The Python lines dosverify and Lark execute to check `source` and render its report both ways."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        count += 1
        return local

    def call(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(TRACED) else None

    sys.settrace(call)
    try:
        report = check(source, name="long.log")
        text = render_text(report, report.text)
        line = report.to_json_line()
        parse(source)  # the parser alone, as the `text` fuzz target drives it
    finally:
        sys.settrace(None)
    return count, text, line


@pytest.fixture(scope="module", autouse=True)
def _warm():
    check(HEADER + SETUP)  # the spec and the parser are built once, before anything is counted


@pytest.mark.parametrize("before", list(BEFORE))
@pytest.mark.parametrize("what", list(LINES))
def test_a_long_line_costs_linear_work_and_a_bounded_report(what, before):
    counts = []
    for n in SIZES:
        count, text, line = work(BEFORE[before] + LINES[what](n) + b"\nround 2\n")
        counts.append(count)
        doc = json.loads(line)
        for f in doc["findings"]:
            assert all(f[k] is None or len(f[k]) <= MAX_TEXT for k in ("message", "expected", "found")), f
        assert len(text) <= 20_000 and len(line) <= 20_000, (n, len(text), len(line))
        assert doc["verdict"] in ("illegal", "malformed")
    for small, big in zip(counts, counts[1:], strict=False):
        assert big <= 10.5 * small + 20_000, counts


def test_a_long_quote_is_cut_with_an_ellipsis():
    report = check(HEADER + SETUP + b"turn bob\n  draw cyd " + b"B3 " * 5000 + b"\n")
    found = [f.found for f in report.findings if f.found and len(f.found) == MAX_TEXT]
    assert found and all(f.endswith("…") for f in found)


def test_whether_a_huge_hand_could_match_costs_the_deck_not_the_hand(monkeypatch):
    """decline-match=forbidden asks, at a draw after no match, whether the hand could have matched:
    pairs of kinds of card, not pairs of cards (a long log can give a player thousands of cards, and
    the square of them at every draw). The answer is the pairwise one."""
    from dosverify.games.dos.cards import parse_card
    from dosverify.games.dos.referee import matching

    codes = ["R1", "G3", "B4", "Y5", "R6", "G7", "B8", "Y9", "R10", "G#", "W2"]
    calls = []
    real = matching.judge
    monkeypatch.setattr(matching, "judge", lambda t, cs: (calls.append(1), real(t, cs))[1])
    counts = []
    for n in (100, 2_000):
        calls.clear()
        hand = [("G3", "B8", "R10")[i % 3] for i in range(n)]  # 3, 8, 10, 6, 11, 13, 16, 18, 20: never 4
        assert not matching.any_match(["Y4"], hand, parse_card)  # so every kind and pair of kinds is tried
        counts.append(len(calls))
    assert counts[0] == counts[1] == 3 + 3 + 3  # 3 kinds, 3 pairs of one kind, 3 pairs of two

    def pairwise(center, hand):
        cards = [parse_card(h) for h in hand]
        return any(
            real(parse_card(t), [a]).ok or any(real(parse_card(t), [a, b]).ok for b in cards[i + 1 :])
            for t in center
            for i, a in enumerate(cards)
        )

    rng = random.Random(7)
    for _ in range(2000):
        center = [rng.choice(codes) for _ in range(rng.randint(1, 3))]
        hand = [rng.choice(codes) for _ in range(rng.randint(0, 7))]
        assert matching.any_match(center, hand, parse_card) == pairwise(center, hand), (center, hand)
