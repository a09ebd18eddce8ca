"""Pathological text logs cost work linear in their size, proved by counting work (not by
timing): a text that is not a log of notation 1 is read in one pass, and only the first
syntax errors of a log pay for the exact list of what was expected (Lark's ``accepts``, which
replays the parser for every terminal)."""

from __future__ import annotations

import random

from lark.exceptions import UnexpectedToken

from dosverify.api import check
from dosverify.games.dos.notation import larkpath, reader


def junk(n_bytes: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.choice(b"abcdefgh RGBYW0123456789#+=\n") for _ in range(n_bytes))


def count_parses(monkeypatch) -> list[int]:
    lark, _ = larkpath._parser()
    fed: list[int] = []
    real = lark.parse
    monkeypatch.setattr(lark, "parse", lambda src, start=None: (fed.append(len(src)), real(src, start=start))[1])
    return fed


def count_accepts(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = UnexpectedToken.accepts

    def counted(self):
        calls.append(1)
        return real.fget(self)

    monkeypatch.setattr(UnexpectedToken, "accepts", property(counted))
    return calls


def test_junk_without_the_first_line_is_read_once(monkeypatch):
    fed = count_parses(monkeypatch)
    report = check(junk(200_000))
    assert report.verdict == "malformed"
    assert report.findings[0].rule == "notation.version"
    assert len(fed) == 1  # no recovery pass: nothing after the first line would be reported


def test_only_the_first_syntax_errors_replay_the_parser(monkeypatch):
    body = b"dos 1\nplayers ann bob\n" + b"this is not a line of the notation\n" * 3 * reader._DETAILED_ERRORS
    calls = count_accepts(monkeypatch)
    fed = count_parses(monkeypatch)
    report = check(body)
    errors = [f for f in report.findings if f.rule == "notation.line"]
    assert len(errors) == 3 * reader._DETAILED_ERRORS  # every bad line is still reported
    assert len(calls) <= reader._DETAILED_ERRORS + 1
    lines = body.count(b"\n")
    assert len(fed) <= 1 + len(errors) + lines // reader._CHUNK + 1


def test_work_grows_linearly_with_junk_after_a_header(monkeypatch):
    """Doubling the junk doubles what Lark is fed, and the count of costly replays stays put."""
    calls = count_accepts(monkeypatch)
    fed = count_parses(monkeypatch)
    sizes = []
    for n in (50_000, 100_000):
        calls.clear()
        fed.clear()
        check(b"dos 1\nplayers ann bob\n" + junk(n))
        sizes.append((sum(fed), len(calls)))
    (fed1, acc1), (fed2, acc2) = sizes
    assert fed2 <= 2.2 * fed1
    assert acc1 <= reader._DETAILED_ERRORS + 1 and acc2 <= reader._DETAILED_ERRORS + 1


def test_junk_past_the_detailed_errors_is_told_what_lark_tells(monkeypatch):
    """Past the detailed errors, a line that cannot start a sentence is judged by a regular
    expression, not a parse: the same findings, word for word, with either parser."""
    rng = random.Random(5)
    alphabets = (b"abcdefgh RGBYW0123456789#+=\n", b'ab RGBYWrgby0123456789#+=?"%TtDdPp_-.:\t\r\n')
    for seed in range(4):
        body = bytes(rng.choice(alphabets[seed % 2]) for _ in range(30_000)).decode()
        text = "dos 1\nplayers ann bob\n" + body
        for parser in ("", "lark"):
            monkeypatch.setenv("DOSVERIFY_PARSER", parser)
            monkeypatch.setattr(reader, "_CHEAP_JUNK", True)
            cheap = reader._read_lines(text)
            monkeypatch.setattr(reader, "_CHEAP_JUNK", False)
            exact = reader._read_lines(text)
            assert len([i for i in exact if i[0] == "bad"]) > reader._DETAILED_ERRORS
            assert cheap == exact


def test_junk_after_a_header_costs_no_parse_a_line(monkeypatch):
    """Lines that cannot start a sentence, past the detailed errors: Lark is not called for
    them at all, whether there are a thousand or ten thousand (each is still a finding)."""
    fed = count_parses(monkeypatch)
    counts = []
    for n in (1_000, 10_000):
        fed.clear()
        report = check(b"dos 1\nplayers ann bob\n" + b"".join(b"X%d = not a line\n" % i for i in range(n)))
        assert len([f for f in report.findings if f.rule == "notation.line"]) == n
        counts.append(len(fed))
    assert counts[1] == counts[0] <= reader._DETAILED_ERRORS + 3


def test_blank_lines_are_looked_at_once_each(monkeypatch):
    """A million blank lines: each line is looked at once by the fast path and never by Lark
    (with Lark alone, a chunk of lines a call)."""
    monkeypatch.delenv("DOSVERIFY_PARSER", raising=False)  # the CI pass with Lark alone runs this file too
    looked: list[int] = []
    real = reader._fast_line
    monkeypatch.setattr(reader, "_fast_line", lambda b, raw, line: (looked.append(1), real(b, raw, line))[1])
    fed = count_parses(monkeypatch)
    for n in (100_000, 1_000_000):
        looked.clear()
        fed.clear()
        report = check(b"dos 1\nplayers ann bob\n" + b"\n" * n + b"round 1\n")
        assert report.lines == n + 3
        assert len(looked) == n + 4 and fed == []  # the lines, and the empty one after the last line end
    monkeypatch.setenv("DOSVERIFY_PARSER", "lark")
    check(b"dos 1\nplayers ann bob\n" + b"\n" * 100_000)
    assert len(fed) <= 100_003 // reader._CHUNK + 2
