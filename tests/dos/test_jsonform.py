"""The JSON form: load, dump, schema, and its agreement with the text form."""

from __future__ import annotations

import json

from hypothesis import given, settings
from test_notation import EXAMPLE, logs

from dosverify.games.dos.jsonform import dump_json, load_json, log_adapter, schema, schema_path, write_schema
from dosverify.games.dos.notation import parse, write


def example_log():
    return parse(EXAMPLE).log


def test_text_json_text_round_trip():
    log = example_log()
    j = dump_json(log)
    assert " " not in j.split('"rounds"')[1][:20]  # compact
    p = load_json(j)
    assert not p.malformed and p.findings == []
    assert p.log.to_dict() == log.to_dict()
    assert write(p.log) == write(log)
    # pointers are attached
    ev = p.log.rounds[0].turns[0].events[1]
    assert ev._pointer == "/rounds/0/turns/0/events/1"
    assert p.log.rounds[0].setup[2]._pointer == "/rounds/0/setup/2"
    # one event object per event line, cards as text codes
    d = json.loads(j)
    assert d["rounds"][0]["turns"][0]["events"][0] == {"type": "match", "target": "B10", "cards": ["B3", "B7"]}
    assert d["rounds"][0]["turns"][1]["events"][0] == {"type": "draw", "cards": ["B1"]}


def test_bytes_and_dict_inputs():
    j = dump_json(example_log())
    assert load_json(j.encode()).log.to_dict() == load_json(json.loads(j)).log.to_dict()
    assert load_json(b"\xef\xbb\xbf" + j.encode()).findings == []


@settings(max_examples=80, deadline=None)
@given(logs)
def test_json_round_trip(data):
    log = log_adapter().validate_python(data)
    p = load_json(dump_json(log))
    assert not p.malformed, [f.message for f in p.findings]
    assert p.log.to_dict() == log.to_dict()
    # and through the text form
    assert parse(write(p.log)).log.to_dict() == log.to_dict()


def test_schema_errors_have_pointers():
    d = json.loads(dump_json(example_log()))
    d["rounds"][0]["turns"][0]["events"][1]["cards"][0] = "R2"
    d["rounds"][0]["turns"][1]["events"][0]["type"] = "shuffle"
    del d["rounds"][0]["setup"][0]["player"]
    d["rounds"][0]["extra"] = 1
    p = load_json(d)
    assert p.malformed and p.log is None
    by_ptr = {f.pointer: f for f in p.findings}
    assert set(by_ptr) == {
        "/rounds/0/turns/0/events/1/cards/0",
        "/rounds/0/turns/1/events/0",
        "/rounds/0/setup/0/player",
        "/rounds/0/extra",
    }
    assert all(f.rule == "notation.schema" for f in p.findings)
    assert "W2 is the 2" in by_ptr["/rounds/0/turns/0/events/1/cards/0"].message
    assert "shuffle" in by_ptr["/rounds/0/turns/1/events/0"].message


def test_invalid_json_text():
    p = load_json('{"dos": 1,\n "players": [}')
    assert p.malformed
    (f,) = p.findings
    assert f.rule == "notation.schema" and f.line == 2 and f.column == 14
    assert load_json("[1, 2]").malformed
    assert load_json(b"\xff\xfe").malformed
    assert load_json("[" * 100000 + "]" * 100000).malformed


def test_header_checks_beyond_schema():
    base = {"dos": 1, "players": ["ann", "bob"]}
    assert not load_json(base).malformed
    for players, ptr in (
        (["ann", "Ann"], "/players/1"),
        (["ann", "turn"], "/players/1"),
        (["R3", "bob"], "/players/0"),
    ):
        p = load_json({**base, "players": players})
        assert p.malformed and p.findings[0].rule == "notation.players" and p.findings[0].pointer == ptr
    p = load_json({**base, "tags": {"Bad Tag": "x", "turn": "y", "ok": "z"}})
    assert not p.malformed and [f.pointer for f in p.findings] == ["/tags/Bad Tag", "/tags/turn"]
    assert p.log.tags == {"ok": "z"}
    assert load_json({**base, "players": ["ann"]}).malformed
    assert load_json({**base, "dos": 2}).malformed


def test_schema_file_is_current():
    assert json.loads(schema_path().read_text()) == schema()
    assert schema()["title"] == "DOS game log, notation v1"


def test_write_schema(tmp_path):
    p = write_schema(tmp_path / "s.json")
    assert json.loads(p.read_text()) == schema()


def test_strict_types():
    base = {"dos": 1, "players": ["ann", "bob"], "rounds": [{"number": 1, "score": {"player": "ann", "points": 3}}]}
    assert not load_json(base).malformed
    d = json.loads(json.dumps(base))
    d["rounds"][0]["score"]["points"] = 3.0  # an integer, to JSON Schema
    assert load_json(d).log.rounds[0].score.points == 3
    for bad in (False, "3", 3.5, float("inf")):
        d = json.loads(json.dumps(base))
        d["rounds"][0]["score"]["points"] = bad
        p = load_json(d)
        assert p.malformed and p.findings[0].pointer == "/rounds/0/score/points", bad
