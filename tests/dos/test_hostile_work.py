"""Hostile text and JSON logs (issue 22): work linear in their size, and memory for the game and
the findings kept for output, not for the findings made. Proved by counting, not by timing:

- the lines handed through the reader's iterators (a chain of chains, one more level after every
  bad line, made each later line go down one level per earlier bad line: quadratic, and a crash at
  a million bad lines), and the text Lark is fed;
- the lines of Python dosverify executes (a trace, as tests/dos/test_long_lines.py counts): 10
  times the input may cost at most about 10 times the work, plus a constant;
- the peak of memory allocated (tracemalloc) with the findings capped (`Keep.limit`, the CLI's
  --max-errors): bounded by the text, not by the findings counted.

Sizes 10^3 to 10^5 lines; DOSVERIFY_HUGE=1 adds 10^6 (and counts calls, not traced lines, at 10^4 to 10^6)."""

from __future__ import annotations

import json
import os
import sys
import tracemalloc
from pathlib import Path

import pytest

import dosverify
from dosverify.api import check
from dosverify.findings import Keep
from dosverify.formats import Tally
from dosverify.games.dos.notation import larkpath, reader

HUGE = os.environ.get("DOSVERIFY_HUGE") == "1"
HEADER = b"dos 1\nplayers ann bob\n"
ROUND = b"round 1\ndealer ann\nhand ann R1 B2 G3\nhand bob Y4 R5 B6\ncenter G7 Y8\n"

SHAPES = {  # n lines of each
    "bad lines": lambda n: HEADER + b"x\n" * n,  # a tag's word: Lark reads each
    "junk lines": lambda n: HEADER + b"".join(b"X%d = not a line\n" % i for i in range(n)),  # a regex each
    "empty turns": lambda n: HEADER + b"round 1\ndealer ann\n" + b"turn\n" * n,  # `turn` without a player
    "turns without events": lambda n: HEADER + ROUND + b"turn ann\nturn bob\n" * (n // 2),
    "empty rounds": lambda n: HEADER + b"".join(b"round %d\n" % i for i in range(1, n + 1)),
}
FAST = ("junk lines",)  # cheap enough at 10^5 in CI; every shape with DOSVERIFY_HUGE=1


def _json_rounds(n: int) -> bytes:
    rounds = [{"number": i, "setup": [], "turns": [], "shows": []} for i in range(1, n + 1)]
    return json.dumps({"dos": 1, "players": ["ann", "bob"], "rounds": rounds}, separators=(",", ":")).encode()


def _hops(monkeypatch) -> list[int]:
    """Count every line handed through the reader's `chain`s, one count a level it goes through."""
    hops = [0]

    def chain(*iterables):
        for it in iterables:
            for x in it:
                hops[0] += 1
                yield x

    monkeypatch.setattr(reader, "chain", chain)
    return hops


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_line_goes_through_one_iterator_level(monkeypatch, shape):
    """After every bad line the reader resumes on one chain, never a chain of the last one."""
    hops = _hops(monkeypatch)
    sizes = (10**3, 10**4) + ((10**5,) if shape in FAST or HUGE else ()) + ((10**6,) if HUGE else ())
    for n in sizes:
        hops[0] = 0
        report = check(SHAPES[shape](n), keep=Keep(limit=50))
        assert report.verdict == "illegal"
        assert hops[0] <= n + 100, (shape, n, hops[0])  # today: about n * n / 2 for bad lines


def _traced(source: bytes, **kw) -> int:
    """The lines of dosverify's own Python executed to check `source`."""
    count = 0
    root = str(Path(dosverify.__file__).parent)

    def local(frame, event, arg):
        nonlocal count
        count += 1
        return local

    def call(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(root) else None

    check(HEADER)  # warm: the grammar, the spec
    sys.settrace(call)
    try:
        check(source, **kw)
    finally:
        sys.settrace(None)
    return count


def _fed(monkeypatch) -> list[int]:
    lark, _ = larkpath._parser()
    fed: list[int] = []
    real = lark.parse
    monkeypatch.setattr(lark, "parse", lambda src, start=None: (fed.append(len(src)), real(src, start=start))[1])
    return fed


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_ten_times_the_lines_cost_ten_times_the_work(monkeypatch, shape):
    fed = _fed(monkeypatch)
    work, lark = [], []
    for n in (10**3, 10**4):
        fed.clear()
        work.append(_traced(SHAPES[shape](n), keep=Keep(limit=50)))
        lark.append(sum(fed))
    assert work[1] <= 11 * work[0] + 20_000, (shape, work)
    assert lark[1] <= 11 * lark[0] + 1_000, (shape, lark)


def _calls(source: bytes, **kw) -> int:
    """The Python and C calls made to check `source` (cProfile's count): a line trace at 10^5 and
    10^6 lines would take hours; a call count is as deterministic and costs twice the check."""
    import cProfile
    import pstats

    check(HEADER)  # warm: the grammar, the spec
    prof = cProfile.Profile()
    prof.runcall(check, source, **kw)
    return pstats.Stats(prof).total_calls


@pytest.mark.skipif(not HUGE, reason="10^5 and 10^6 lines: DOSVERIFY_HUGE=1")
@pytest.mark.parametrize("shape", sorted(SHAPES) + ["JSON empty rounds"])
def test_ten_times_the_lines_cost_ten_times_the_calls_up_to_a_million(shape):
    """The work test's claim at the sizes a trace cannot reach: 10^4, 10^5 and 10^6 lines (or JSON
    rounds), each tenfold step at most about ten times the calls."""
    make = _json_rounds if shape.startswith("JSON") else SHAPES[shape]
    calls = [_calls(make(n), keep=Keep(limit=50)) for n in (10**4, 10**5, 10**6)]
    for small, large in zip(calls, calls[1:], strict=False):
        assert large <= 11 * small + 20_000, (shape, calls)


def test_ten_times_the_findings_cost_ten_times_the_work():
    """Uncapped too: a finding costs the same whether it is the tenth or the ten-thousandth."""
    small, large = (_traced(SHAPES["empty rounds"](n)) for n in (500, 5_000))
    assert large <= 11 * small + 20_000, (small, large)


def test_a_json_log_of_empty_rounds_costs_work_linear_in_its_rounds():
    small, large = (_traced(_json_rounds(n), keep=Keep(limit=50)) for n in (10**3, 10**4))
    assert large <= 11 * small + 20_000, (small, large)


def _peak(source: bytes, **kw) -> int:
    check(source[:200])  # warm
    tracemalloc.start()
    try:
        report = check(source, **kw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.verdict == "illegal"
    return peak


@pytest.mark.slow  # tracemalloc over large hostile logs: half a minute
@pytest.mark.parametrize("shape", ["empty rounds", "junk lines", "empty turns", "JSON empty rounds"])
def test_memory_follows_the_findings_kept_not_the_findings_made(shape):
    """An empty round makes five findings (about 1 KB each), a junk line one: with 50 kept, the
    peak is the text's few copies and the game, whatever the count; without a cap it is every
    finding (which the test first shows, so that it can fail)."""
    make = _json_rounds if shape.startswith("JSON") else SHAPES[shape]

    def bound(body: bytes) -> int:
        return 1_000_000 + 12 * len(body)

    body = make(10**4)
    assert _peak(body) > bound(body)  # every finding held: what the cap avoids (the test can fail)
    for n in (10**3, 10**4) + ((10**5, 10**6) if HUGE else ()):
        body = make(n)
        peak = _peak(body, keep=Keep(limit=50))
        assert peak <= bound(body), (n, len(body), peak)


def test_a_capped_report_counts_what_it_left_out():
    """The verdict, the counts, the summary and the statistics of a capped report are those of the
    whole report; only the findings held are fewer, in the same order, and `truncated` says how many."""
    body = SHAPES["empty rounds"](300) + b"turn ann\nhand bob R1\n" + b"x\n" * 30
    whole = check(body)
    for limit in (1, 7, 50, len(whole.findings) - 1):
        capped = check(body, keep=Keep(limit=limit))
        assert capped.findings == whole.findings[:limit]
        assert capped.truncated == len(whole.findings) - limit
        assert (capped.verdict, capped.errors, capped.warnings) == (whole.verdict, whole.errors, whole.warnings)
        t1, t2 = Tally(), Tally()
        t1.add(whole)
        t2.add(capped)
        assert (t1.by_rule, t1.by_kind) == (t2.by_rule, t2.by_kind)
    assert check(body, keep=Keep(limit=len(whole.findings))).to_json_line() == whole.to_json_line()


def test_select_and_ignore_are_applied_before_the_cap():
    body = SHAPES["empty rounds"](200)
    whole = check(body)
    rules = sorted({f.rule for f in whole.findings})
    keep = Keep(limit=3, ignore=(rules[0],))
    capped = check(body, keep=keep)
    rest = [f for f in whole.findings if f.rule != rules[0]]
    assert capped.findings == rest[:3] and capped.truncated == len(rest) - 3
    assert capped.hidden == len(whole.findings) - len(rest)
    only = check(body, keep=Keep(limit=2, select=(rules[-1],)))
    assert all(f.rule == rules[-1] for f in only.findings)
    assert only.errors == sum(1 for f in whole.findings if f.rule == rules[-1])
