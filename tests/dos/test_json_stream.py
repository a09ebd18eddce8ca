"""A JSON log is read and judged a round at a time (dosverify/jsonstream.py), as a text log is:
the referee holds a few rounds, never the whole log. Proved by counting the objects alive while
the last rounds are judged (not by resident size), against the whole reading, which holds every
round; and whatever the document, the report is the whole reading's, byte for byte."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dosverify.api import check, convert
from dosverify.games.dos import events
from dosverify.games.dos.jsonform import dump_json
from dosverify.games.dos.jsonstream import JsonStream
from dosverify.games.dos.referee import Referee
from dosverify.games.dos.simulate import Sim

ROOT = Path(__file__).resolve().parents[2]
EVENT_TYPES = (
    events.Match,
    events.Draw,
    events.Refill,
    events.Place,
    events.Pass,
    events.Dos,
    events.Catch,
    events.Reshuffle,
    events.Dealer,
    events.Deck,
    events.Hand,
    events.Center,
    events.Show,
)


def _game(rounds: int, seed: int = 3, players: int = 3) -> str:
    return dump_json(Sim(players=players, seed=seed, rounds=rounds, target=1_000_000).play().to_log())


def same(data: bytes | str) -> str:
    """The report read a round at a time, checked equal to the whole reading's."""
    streamed = check(data, name="x").to_json_line()
    assert streamed == check(data, name="x", whole=True).to_json_line()
    return streamed


def streams(data: bytes | str) -> bool:
    """Whether the stream reads the log to its end without giving way to the whole reading."""
    s = JsonStream(data)
    if s.header() is None:
        return False
    s.close()
    return not s.failed


def _alive(monkeypatch, data: bytes, **kw):
    """(Round, Turn, event) objects alive as each tenth round is judged."""
    seen: list[tuple[int, int, int]] = []
    real = Referee.play_round

    def counted(self, rnd, next_round=None):
        if rnd.number % 10 == 0:
            objs = gc.get_objects()
            seen.append(
                (
                    sum(1 for o in objs if type(o) is events.Round),
                    sum(1 for o in objs if type(o) is events.Turn),
                    sum(1 for o in objs if type(o) in EVENT_TYPES),
                )
            )
        return real(self, rnd, next_round)

    monkeypatch.setattr(Referee, "play_round", counted)
    return seen, check(data, **kw)


@pytest.mark.slow  # a long JSON game held a round at a time: ten seconds
def test_the_referee_holds_a_json_round_at_a_time(monkeypatch):
    data = _game(60).encode()
    doc = json.loads(data)
    longest_turns = max(len(r["turns"]) for r in doc["rounds"])
    longest_events = max(
        len(r["setup"]) + len(r.get("shows", [])) + sum(len(t["events"]) for t in r["turns"]) for r in doc["rounds"]
    )
    total_events = sum(
        len(r["setup"]) + len(r.get("shows", [])) + sum(len(t["events"]) for t in r["turns"]) for r in doc["rounds"]
    )
    del doc
    streamed, report = _alive(monkeypatch, data)
    assert report.verdict == "legal" and report.rounds == 60 and len(streamed) == 6
    # the round before (its score is checked when the next starts), the round judged and the next
    assert max(r for r, _, _ in streamed) <= 3
    assert max(t for _, t, _ in streamed) <= 3 * longest_turns
    assert max(e for _, _, e in streamed) <= 3 * longest_events
    whole, report2 = _alive(monkeypatch, data, whole=True)
    assert report2.to_json_line() == report.to_json_line()
    assert min(r for r, _, _ in whole) >= 60  # the whole reading holds every round: what the stream avoids
    assert min(e for _, _, e in whole) >= total_events


def _fixtures():
    return sorted(
        p
        for p in (ROOT / "fixtures" / "dos").rglob("*")
        if p.suffix in (".log", ".dos", ".txt", ".json") and not p.name.endswith(".expected.json")
    )


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fixture_in_json_reads_a_round_at_a_time_as_whole(path):
    """Every fixture and conformance entry, in the JSON form (a text log converted, where it can
    be: what is illegal in it stays in it), read either way: the same report."""
    data = path.read_bytes()
    if path.suffix != ".json":
        js, _ = convert(data, "json")
        if js is None:  # no JSON form without loss (unreadable or repeated lines): never a legal log
            assert check(data).verdict != "legal"
            return
        data = js.encode()
        assert streams(data)
    same(data)
    same(data.decode("utf-8", "replace"))


def test_generated_games_and_mutants_in_json_read_a_round_at_a_time_as_whole():
    from dosverify.games.dos.mutate import OPERATORS
    from dosverify.games.dos.notation import write

    for seed in range(3):
        log = Sim(players=2 + seed, seed=seed, rounds=4, target=1_000_000).play().to_log()
        data = dump_json(log)
        assert streams(data)
        assert json.loads(same(data))["verdict"] == "legal"
        text = write(log)
        for name in sorted(OPERATORS):
            m = OPERATORS[name](text, random.Random(seed))
            if m is None:
                continue
            js, _ = convert(m.text, "json")
            if js is not None:
                assert streams(js), name
                same(js)


def test_names_resolved_in_a_later_round_come_first_as_in_the_whole_reading():
    """A JSON finding has no line to be sorted by: the order is the referee's. Read whole, every
    misspelt name is resolved before play; a round at a time, the same order comes out."""
    doc = json.loads(_game(3))
    first = doc["rounds"][0]["turns"][0]
    first["player"] = next(p for p in doc["players"] if p != first["player"])  # turn.order, round 1
    doc["rounds"][2]["turns"][0]["player"] = doc["rounds"][2]["turns"][0]["player"].upper()  # a name, round 3
    data = json.dumps(doc)
    assert streams(data)
    rules = [f["rule"] for f in json.loads(same(data))["findings"]]
    assert rules[0] == "notation.player" and "turn.order" in rules


def test_keys_in_any_order_read_a_round_at_a_time():
    doc = json.loads(_game(3))
    back = json.dumps({k: doc[k] for k in reversed(list(doc))})  # rounds (and winner) before players
    assert back.index('"rounds"') < back.index('"players"')
    assert streams(back)
    assert same(back) == same(json.dumps(doc))


_SMALL = _game(2, seed=5, players=2)
_HEAD = '{"dos": 1, "players": ["ann", "bob"]'


def _deep(n: int) -> str:
    return "[" * n + "]" * n


MALFORMED = [
    "",
    " ",
    "{",
    "}",
    "[]",
    "[1, 2]",
    '"a log"',
    "3",
    "null",
    "true",
    "{}",
    "{} x",
    '{"a": 1} {"b": 2}',
    _HEAD + "}",
    _HEAD + ', "rounds": 5}',
    _HEAD + ', "rounds": {}}',
    _HEAD + ', "rounds": [1]}',
    _HEAD + ', "rounds": [{}]}',
    _HEAD + ', "rounds": [,]}',
    _HEAD + ', "rounds": [{"number": 1},]}',
    _HEAD + ', "rounds": [{"number": 1}}',
    _HEAD + ', "rounds": [{"number": 1} {"number": 2}]}',
    _HEAD + ', "rounds": []',
    _HEAD + ', "rounds": [], }',
    _HEAD + ' "rounds": []}',
    _HEAD + ', "rounds" []}',
    _HEAD + ", rounds: []}",
    _HEAD + ", 'rounds': []}",
    _HEAD + ', "players": ["cy", "di"]}',
    _HEAD + ', "rounds": [], "rounds": [{"number": 1}]}',
    _HEAD + ', "options": {"a": 1, "a": "b"}}',
    _HEAD + ', "tags": {"t": "x", "t": 3}}',
    _HEAD + ', "tags": {"t": "\\ud800"}}',
    _HEAD + ', "tags": {"t": "\\ud83d\\ude00"}}',
    _HEAD + ', "target": 500.0}',
    _HEAD + ', "target": 500.5}',
    _HEAD + ', "target": NaN}',
    _HEAD + ', "target": Infinity}',
    _HEAD + ', "target": 1e400}',
    _HEAD + ', "target": ' + "9" * 5000 + "}",
    _HEAD + ', "target": "500"}',
    _HEAD + ', "target": true}',
    _HEAD + ', "extra": 1}',
    _HEAD + ', "rounds": [], "extra": 1}',
    '{"rounds": [], "extra": 1, "players": 3}',
    '{"dos": 2, "players": ["ann", "bob"]}',
    '{"dos": 1.0, "players": ["ann", "bob"]}',
    '{"dos": 1, "players": ["ann"]}',
    '{"dos": 1, "players": ["turn", "bob"]}',
    '{"dos": 1, "players": ["ann", "ANN"]}',
    '{"dos": 1, "players": ["R3", "bob"], "rounds": [{"number": 0}]}',
    '{"dos": 1, "players": ["R3", "bob"], "rounds": [{"number": 1}]}',
    _HEAD + ', "tags": {"Bad Tag": "x"}}',
    _HEAD + ', "ruleset": "nope", "rounds": [{"number": 1}]}',
    _HEAD + ', "ruleset": "nope", "rounds": [{"number": -1}]}',
    _HEAD + ', "options": {"nope": "x"}, "rounds": [{"number": 1}]}',
    _HEAD + ', "rounds": [' + _deep(100_000) + "]}",
    _HEAD + ', "rounds": [' + _deep(900) + "]}",
    _HEAD + ', "rounds": [' + _deep(990) + "]}",
    _HEAD + ', "tags": ' + _deep(995) + "}",
    _deep(100_000),
    '{"a":' * 100_000,
    "[" * 100_000,
    _HEAD + ', "rounds": [{"number": 1, "turns": [{"player": "ann", "events": [{"type": "jump"}]}]}]}',
    _HEAD + ', "rounds": [{"number": 1.0}, {"number": 2, "score": {"player": "ann", "points": 5.0}}]}',
    _HEAD + ', "rounds": [{"number": 1, "number": 2}]}',
    _HEAD + ', "winner": {"player": 3}}',
    _HEAD + ', "rounds": [], "winner": {"player": "ann"}}',
    _HEAD + ', "winner": {"player": "cy"}, "rounds": []}',
    _HEAD + ', "rounds": [{"number": 1, "setup": [{"type": "center", "cards": ["?"]}]}]}',
    _HEAD + ', "rounds": [{"number": 1, "turns": [{"player": "ann", "events": [{"type": "place", "card": "?"}]}]}, '
    '{"number": "2"}]}',
    _HEAD + ', "rounds": [{"number": 1, "turns": [{"player": "ann", "events": '
    '[{"type": "pass", "player": "\u0000"}]}]}]}',
    _HEAD.replace("ann", "a\u00efn") + "}",
    _HEAD + ', "rounds": [{"number": 1}]}\n\n',
    "\n\t " + _HEAD + "}\r\n",
    _HEAD + ', "rounds": ["\\x"]}',
    _HEAD + ', "rounds": ["abc',
    _HEAD + ', "rounds": ["a\tb"]}',
    _SMALL[:-1],
    _SMALL[: len(_SMALL) // 2],
    _SMALL.replace("[", "[[", 1),
    _SMALL.replace('"score"', '"score2"', 1),
    _SMALL.replace('"turns"', '"turns"', 1),
    _HEAD + ', "tags": {"t": "\ud800"}}',
    _HEAD + ', "rounds": [{"number": 1, "turns": [{"player": "a\udfff"}]}]}',
]


@pytest.mark.parametrize("doc", range(len(MALFORMED)))
def test_hand_made_json_documents_read_as_whole(doc):
    text = MALFORMED[doc]
    same(text)
    for data in (
        text.encode("utf-8", "surrogatepass"),
        b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass"),
        ("\ufeff" + text).encode("utf-8", "surrogatepass"),
        "\ufeff" + text,
    ):
        same(data)


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe{\x00}\x00",
        b"\xfe\xff\x00{\x00}",
        b'{"players": ["a\xff", "b"]}',
        b'{"dos": 1, "players": ["ann", "bob"], "tags": {"t": "\xc3"}}',
    ],
)
def test_bytes_that_are_not_utf8_read_as_whole(data):
    same(data)


_EDITS = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"',
    " ",
    "3.0",
    "-1",
    "\\ud800",
    "\udc00",
    "NaN",
    "null",
    '"x"',
    '"rounds": [],',
    '"players": ["cy", "di"],',
    '{"number": 1}',
    '"?"',
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(st.integers(0, len(_SMALL)), st.integers(0, 3), st.sampled_from(_EDITS)), min_size=1, max_size=3)
)
def test_edited_json_logs_read_as_whole(edits):
    """A valid log with a few characters cut or put in: syntax errors, schema errors, repeated
    keys, numbers like 3.0, lone surrogates; the report is the whole reading's whatever it is."""
    text = _SMALL
    for at, cut, put in edits:
        at = min(at, len(text))
        text = text[:at] + put + text[at + cut :]
    same(text)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(json.loads(_SMALL))), st.sampled_from([None, "players", "rounds", "winner", "dos"]))
def test_keys_in_any_order_or_repeated_read_as_whole(order, twice):
    doc = json.loads(_SMALL)
    parts = [f"{json.dumps(k)}: {json.dumps(doc[k])}" for k in order]
    if twice in doc:
        parts.insert(0, f"{json.dumps(twice)}: {json.dumps(doc[twice])}")
    text = "{" + ", ".join(parts) + "}"
    same(text)
    assert streams(text) == (twice not in doc)


def _eager_doc(text):
    try:
        return json.loads(text) if text and text.lstrip().startswith("{") else None
    except ValueError:
        return None


def _rendered_both_ways(monkeypatch, data) -> tuple[str, str]:
    from dosverify import report as report_mod

    rep = check(data, name="x")
    lazy = report_mod.render_text(rep, rep.text)
    with monkeypatch.context() as m:
        m.setattr(report_mod, "_json_doc", _eager_doc)
        eager = report_mod.render_text(rep, rep.text)
    return lazy, eager


def test_a_finding_shows_its_json_value_without_decoding_the_whole_log(monkeypatch):
    """The text report shows the JSON value a finding points at; only the round it points into is
    decoded, and what is shown is what the whole document, decoded, shows."""
    from dosverify.games.dos.mutate import OPERATORS
    from dosverify.games.dos.notation import write

    shown = 0
    texts = [write(Sim(players=3, seed=seed, rounds=3, target=1_000_000).play().to_log()) for seed in range(2)]
    for text in texts:
        for name in sorted(OPERATORS):
            m = OPERATORS[name](text, random.Random(1))
            js = m and convert(m.text, "json")[0]
            if js:
                lazy, eager = _rendered_both_ways(monkeypatch, js)
                assert lazy == eager, name
                shown += lazy.count("\n  | {")
    assert shown > 20
    for doc in MALFORMED + [_HEAD + ', "rounds": []}', _HEAD + "}"]:
        lazy, eager = _rendered_both_ways(monkeypatch, doc)
        assert lazy == eager


def test_showing_a_finding_decodes_one_round(monkeypatch):
    from dosverify import report as report_mod

    doc = json.loads(_game(20))
    doc["rounds"][-1]["turns"][0]["player"] = doc["rounds"][-1]["turns"][0]["player"].upper()
    rep = check(json.dumps(doc), name="x")
    assert rep.findings and all(f.pointer.startswith("/rounds/19/") for f in rep.findings)
    decoded: list[int] = []
    real = json.loads
    monkeypatch.setattr(report_mod.json, "loads", lambda s, **kw: (decoded.append(len(s)), real(s, **kw))[1])
    out = report_mod.render_text(rep, rep.text)
    assert '| "BOB"' in out  # the value pointed at, shown
    assert sum(decoded) < len(rep.text) / 5  # the header's values and the last round, not the log


def _refused_by_the_stream(data) -> bool:
    """Whether the stream itself tells the log malformed (not giving way to the whole reading)."""
    s = JsonStream(data)
    s.header()
    s.close()
    return not s.failed and s.refused is not None


def _malformed_long_logs():
    text = _game(30)
    doc = json.loads(text)
    r20 = text.index('{"number":20,')
    yield "truncated", text[: len(text) * 9 // 10]
    yield "truncated after a round", text[: text.index(',{"number":25,')]
    yield "a bad character in round 20", text[: r20 + 40] + "@" + text[r20 + 40 :]
    yield "no comma between rounds", text.replace('},{"number":20,', '} {"number":20,')
    yield "extra data", text + " x"
    late = json.loads(text)
    late["rounds"][24]["number"] = "25"
    late["rounds"][27]["turns"][0]["events"].append({"type": "jump"})
    yield "schema errors in rounds 25 and 28", json.dumps(late)
    head = dict(doc, players=doc["players"][:1], target=0, zz=1, winner={"player": 3})
    head["rounds"] = late["rounds"]
    yield "schema errors in the header, rounds, the winner, an unknown key", json.dumps(head)
    bad_name = dict(late, players=["turn"] + doc["players"][1:])
    yield "a keyword for a player and a round the schema refuses", json.dumps(bad_name)
    yield "a keyword for a player", json.dumps(dict(doc, players=["turn"] + doc["players"][1:]))
    yield "an unknown ruleset and a round the schema refuses", json.dumps(dict(late, ruleset="nope"))


@pytest.mark.parametrize("case", list(_malformed_long_logs()), ids=lambda c: c[0])
def test_a_malformed_json_log_is_told_a_round_at_a_time_as_whole(case):
    _, text = case
    assert _refused_by_the_stream(text)
    assert json.loads(same(text))["verdict"] == "malformed"


def test_a_round_the_schema_refuses_stops_the_referee(monkeypatch):
    """Rounds after a refused one are validated (their findings count) but not judged."""
    doc = json.loads(_game(20))
    doc["rounds"][4]["number"] = "5"
    played: list[int] = []
    real = Referee.play_round
    monkeypatch.setattr(
        Referee, "play_round", lambda self, rnd, nxt=None: (played.append(rnd.number), real(self, rnd, nxt))[1]
    )
    report = check(json.dumps(doc))
    assert report.verdict == "malformed" and [f.pointer for f in report.findings] == ["/rounds/4/number"]
    assert played == [1, 2, 3, 4]  # round 4 is judged as the last (no next round comes), then no more


_VALUES = [None, True, 3, 3.0, 2.5, -1, "x", "R3", "?", "ann", [], {}, [1], {"a": 1}, 0, 10**30]


def _nodes(o, path=()):
    yield path, o
    if isinstance(o, dict):
        for k, v in o.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from _nodes(v, path + (i,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_json_logs_with_wrong_values_read_as_whole(rng):
    """A valid log of three rounds with a few values changed, removed or added anywhere (the
    header, a round, the winner), its keys perhaps shuffled: the schema's findings, in the
    whole reading's order, or the referee's, the same either way."""
    doc = json.loads(_SMALL3)
    for _ in range(rng.randint(1, 4)):
        path = rng.choice([p for p, _ in _nodes(doc) if p])
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        r = rng.random()
        if r < 0.6:
            parent[path[-1]] = rng.choice(_VALUES)
        elif r < 0.8:
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[rng.choice(["zz", "type", "player", "number", "cards"])] = rng.choice(_VALUES)
    if rng.random() < 0.3:
        keys = list(doc)
        rng.shuffle(keys)
        doc = {k: doc[k] for k in keys}
    same(json.dumps(doc, indent=rng.choice([None, 1])))


_SMALL3 = _game(3, seed=11)
