"""The JSON form's cost is linear in its events, proved by counting work (not by timing): the
text is validated once (a round at a time), and the referee handles each event once; a deeply
nested document is a clean malformed verdict."""

from __future__ import annotations

import json

import pytest

from dosverify.api import check
from dosverify.games.dos import jsonform
from dosverify.games.dos.jsonform import dump_json
from dosverify.games.dos.referee import Referee
from dosverify.games.dos.simulate import Sim


def _json_log(copies: int) -> tuple[bytes, int]:
    """A game's rounds written `copies` times over (renumbered): a long JSON log, and its events."""
    doc = json.loads(dump_json(Sim(players=3, seed=4, rounds=3, target=1_000_000).play().to_log()))
    rounds = doc["rounds"]
    doc["rounds"] = [dict(r, number=i + 1) for i, r in enumerate(rounds * copies)]
    events = sum(len(t["events"]) for r in doc["rounds"] for t in r["turns"])
    return json.dumps(doc).encode(), events


def test_a_json_log_costs_work_linear_in_its_events(monkeypatch):
    handled: list[int] = []
    validated: list[int] = []
    adapter = jsonform.log_adapter()
    real_event, real_validate = Referee.event, type(adapter).validate_json
    monkeypatch.setattr(Referee, "event", lambda self, ev: (handled.append(1), real_event(self, ev))[1])
    monkeypatch.setattr(
        type(adapter),
        "validate_json",  # every adapter's: the header's and each round's
        lambda self, src, **kw: (validated.append(len(src)), real_validate(self, src, **kw))[1],
    )
    work = []
    for copies in (10, 100):
        data, events = _json_log(copies)
        handled.clear()
        validated.clear()
        report = check(data)
        assert report.verdict != "malformed" and report.rounds == 3 * copies
        # the client's text validated once, a round at a time (the header, then each round's
        # slice): no second copy of it, no part validated twice
        assert len(validated) == 1 + 3 * copies and sum(validated) < len(data)
        work.append((len(handled), events))
    (h1, e1), (h2, e2) = work
    assert e2 == 10 * e1
    assert h2 == 10 * h1 <= e2


@pytest.mark.parametrize(
    "doc",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "[" * 100_000 + "]" * 100_000,
        '{"dos":1,"players":["a","b"],"rounds":' + "[" * 5000 + "]" * 5000 + "}",
    ],
)
def test_deeply_nested_json_is_malformed_not_an_error(doc):
    report = check(doc.encode())
    assert report.verdict == "malformed"
    assert report.findings and report.findings[0].rule == "notation.schema"
