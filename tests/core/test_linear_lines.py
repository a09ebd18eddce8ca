"""Every kind of line, good or bad, costs work linear in how many there are, in both games (issue
31, item 1): for each shape of bench/linear_shapes.py (a set-up, then n lines of one kind), twice
the lines may cost at most 2.2 times the work. Counted, not timed (bench/linear.py times the same
shapes from 10^4 to 1.6 * 10^5 lines): the work is the Python calls and lines dosverify executes
(a trace). A call count alone would miss a loop in a generator expression, which runs inside one
call: R49's search of the round's turns for the turn out of order (issue 31) made 1,000 `turn bob`
lines cost 0.9M traced events and 2,000 cost 2.9M, while the calls went 131k to 261k.

The quick form, in CI: 1,000 and 2,000 lines of each shape. DOSVERIFY_HUGE=1 adds 4,000 and
8,000. And every keyword of each game's notation (its grammar and its reader) has a shape, so a
keyword added without one fails here."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

import dosverify
from dosverify.api import check
from dosverify.findings import Keep

BENCH = Path(__file__).resolve().parents[2] / "bench"
HUGE = os.environ.get("DOSVERIFY_HUGE") == "1"
SIZES = (1_000, 2_000) + ((4_000, 8_000) if HUGE else ())


def _shapes():
    spec = importlib.util.spec_from_file_location("linear_shapes", BENCH / "linear_shapes.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("linear_shapes", mod)
    spec.loader.exec_module(mod)
    return mod


shapes = _shapes()
ROOT = str(Path(dosverify.__file__).parent)


def work(source: bytes) -> int:
    """The calls and lines of dosverify's own Python executed to check `source` (findings capped
    at 50, as the CLI's --max-errors: the findings made are still made and counted)."""
    count = 0

    def local(frame, event, arg):
        nonlocal count
        count += 1
        return local

    def call(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename.startswith(ROOT):
            count += 1
            return local
        return None

    check(source[:300])  # warm: the game's grammar, its spec
    sys.settrace(call)
    try:
        check(source, keep=Keep(limit=50))
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("game", ["dos", "uno-duo"])
def test_every_keyword_of_the_notation_has_a_shape(game):
    kws = shapes.keywords(game)
    assert len(kws) >= 20 and "turn" in kws  # the grammar and the reader were read
    assert shapes.uncovered(game) == set(), f"keywords of {game} with no shape in bench/linear_shapes.py"


def test_a_keyword_without_a_shape_is_found(monkeypatch):
    """The check above can fail: a keyword added to the notation, with no shape, is uncovered."""
    real = shapes.keywords
    monkeypatch.setattr(shapes, "keywords", lambda game: real(game) | {"frobnicate"})
    assert shapes.uncovered("dos") == {"frobnicate"}


# shapes whose work is not linear yet, each with why (strict: the test says when one becomes linear)
NOT_YET: dict[str, str] = {}  # none since R99 bounded the Center Row of "dos: turns drawing and placing"


def _param(i: int, name: str):
    """A shape's case: every third in the quick tier (the others marked slow), all of them in CI."""
    marks = [pytest.mark.xfail(reason=NOT_YET[name], strict=True)] if name in NOT_YET else []
    return pytest.param(name, marks=marks if i % 3 == 0 else [*marks, pytest.mark.slow])


@pytest.mark.parametrize("name", [_param(i, n) for i, n in enumerate(sorted(shapes.SHAPES))])
def test_twice_the_lines_cost_at_most_2_2_times_the_work(name):
    shape = shapes.SHAPES[name]
    counts = [work(shape.make(n)) for n in SIZES]
    for small, large in zip(counts, counts[1:], strict=False):
        assert large <= 2.2 * small, (name, SIZES, counts)
