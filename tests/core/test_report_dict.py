"""A report's dict (what the JSON Lines, the service and the replay print) is built field by field
for speed; it must be what ``dataclasses.asdict`` gives, key for key and in the same order, on every
fixture and on a report with every optional part filled in."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.findings import Position
from dosverify.games.dos.findings import finding
from dosverify.report import Report

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted(
    p
    for p in (ROOT / "fixtures" / "dos").rglob("*")
    if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json")
)


def _asdict(r: Report) -> dict:
    d = dataclasses.asdict(dataclasses.replace(r, referee=None, cut=None))
    for f in dataclasses.fields(Report):  # the text, the referee and the counts a cap left: not JSON
        if f.metadata.get("internal"):
            del d[f.name]
    if not r.face_down and not r.unverified:
        del d["face_down"], d["unverified"]
    if r.auto is None:
        del d["auto"]
    return d


def _same(r: Report) -> None:
    assert json.dumps(r.to_dict()) == json.dumps(_asdict(r))  # the same keys, values and order
    for f in r.findings:
        assert json.dumps(f.to_dict()) == json.dumps(dataclasses.asdict(f))


@pytest.mark.parametrize("path", LOGS[::7], ids=lambda p: p.name)
def test_fixture_reports(path):
    _same(check(path.read_bytes(), name=path.name))


def test_every_optional_part():
    f = finding(
        "match.single",
        "B3 does not match R5",
        line=3,
        column=4,
        round=1,
        turn=2,
        player="ann",
        expected="a card numbered 5",
        found="B3",
        related=[Position(line=1, column=1), Position(pointer="/x")],
    )
    r = Report(
        file="x",
        verdict="illegal",
        ruleset="official",
        options={"dos-call": "on"},
        target=200,
        spec_version="1",
        findings=[f],
        face_down=2,
        unverified=["match.single"],
        auto={"ruleset": "official", "options": {"a": ["b"]}},
        game="dos",
    )
    _same(r)
    d = r.to_dict()
    d["auto"]["options"]["a"].append("c")
    d["options"]["x"] = "y"
    d["findings"][0]["related"].clear()
    assert r.auto["options"]["a"] == ["b"] and "x" not in r.options and f.related  # a copy, as asdict's


def test_the_internal_fields_stay_out_of_the_json():
    """What the command line reads off a report (the text, the referee, a cap's cut, the count
    --select left out, why no witness was written) is declared on it, and never printed."""
    r = Report(file="x", verdict="legal", ruleset="official", spec_version="1", text="dos 1\n", hidden=3, game="dos")
    r.witness_refused = "the choice of face-down cards found breaks match.decline at line 9 (...)"
    internal = {f.name for f in dataclasses.fields(Report) if f.metadata.get("internal")}
    assert {"text", "referee", "cut", "hidden", "witness_refused"} <= internal
    assert not internal & set(r.to_dict()) and "witness" not in r.to_json_line()
