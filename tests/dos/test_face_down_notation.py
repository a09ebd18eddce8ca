"""Face-down cards (`?`) and `show` lines in the notation: where they may stand, and the JSON form."""

from __future__ import annotations

import json

import pytest

from dosverify.games.dos.events import FACE_DOWN, FaceDown
from dosverify.games.dos.jsonform import dump_json, load_json, schema
from dosverify.games.dos.notation import KEYWORDS, parse, write

HEAD = "dos 1\nplayers ann bob\nround 1\ndealer ann\n"
TABLE = (
    HEAD
    + """\
hand ann ? ? ? ? ? R3 ?
hand bob ? ? ? ? ? ? ?
center R4 B7
turn bob
  match R4 with R4
  refill G5
  draw ann ? R5
show ann R3 R5 G6 G7 Y1 Y3 Y4 Y5 B1
score bob 53
"""
)


def findings(text):
    p = parse(text)
    return [(f.rule, f.line, f.column, f.kind) for f in p.findings], p


def test_question_marks_in_hand_and_draw_lines_parse_mixed_with_cards():
    fs, p = findings(TABLE)
    assert fs == []
    rnd = p.log.rounds[0]
    # a face-down card is its own value in the event model, not the string "?" (issue 20 item 1)
    assert rnd.setup[1].cards == [FACE_DOWN] * 5 + ["R3", FACE_DOWN]
    assert rnd.turns[0].events[2].cards == [FACE_DOWN, "R5"]
    assert all(type(c) is FaceDown for c in rnd.setup[2].cards)
    assert [(s.player, s.cards[:2]) for s in rnd.shows] == [("ann", ["R3", "R5"])]
    assert rnd.score.player == "bob"


def test_text_json_text_round_trip_keeps_question_marks_and_shows():
    p = parse(TABLE)
    text = write(p.log)
    assert "draw ann ? R5" in text and "show ann R3 R5" in text
    j = dump_json(p.log)
    assert '"?"' in j and '"shows"' in j
    back = load_json(j)
    assert back.findings == [] and write(back.log) == text


@pytest.mark.parametrize(
    "line, col, words",
    [
        ("center R4 ?", 11, "Center Row"),  # the Center Row is face up
        ("center ?=R B7", 8, "alone"),  # `?` with a declaration
    ],
)
def test_question_mark_in_setup_lines(line, col, words):
    text = HEAD + "hand ann ? ? ? ? ? ? ?\nhand bob ? ? ? ? ? ? ?\n" + line + "\n"
    p = parse(text)
    f = [f for f in p.findings]
    assert [(x.rule, x.line, x.column, x.kind) for x in f] == [("notation.card", 7, col, "syntax")]
    assert words in f[0].message


@pytest.mark.parametrize(
    "line, col",
    [
        ("  match R4 with ?", 17),
        ("  match ? with R4", 9),
        ("  match R4 with R1 + ?", 22),
        ("  place ?", 9),
        ("  refill ?", 10),
        ("  refill G5 ?", 13),
        ("  reshuffle ? ?", 13),
        ("  draw ?5", 8),
        ("  draw bob ?=R", 12),
        ("  draw ??", 8),
    ],
)
def test_question_mark_forbidden_in_turn_lines(line, col):
    text = HEAD + "hand ann ? ? ? ? ? ? ?\nhand bob ? ? ? ? ? ? ?\ncenter R4 B7\nturn bob\n" + line + "\n"
    fs, p = findings(text)
    assert fs == [("notation.card", 9, col, "syntax")]
    assert p.log.rounds[0].turns[0].events == []  # the line is skipped


def test_question_mark_in_a_round_with_a_deck_line():
    text = HEAD + "deck R3 R4\nhand ann ? R4\nturn bob\n  draw ?\n  draw G5\n"
    fs, p = findings(text)
    assert fs == [("notation.card", 6, 10, "syntax"), ("notation.card", 8, 8, "syntax")]
    assert [ev.cards for ev in p.log.rounds[0].turns[0].events] == [["G5"]]


def test_question_mark_in_a_show_line_or_an_empty_show():
    fs, _ = findings(HEAD + "hand ann ? ? ? ? ? ? ?\nturn bob\n  draw ?\nshow ann R3 ?\nshow bob\n")
    assert fs == [("notation.card", 8, 13, "syntax"), ("notation.line", 9, 1, "syntax")]


@pytest.mark.parametrize(
    "lines, where, rule",
    [
        (["show ann R3"], 5, "notation.placement"),  # before the first turn
        (["turn bob", "  draw ?", "show ann R3", "turn ann"], 8, "notation.placement"),  # a turn after a show
        (["turn bob", "  draw ?", "show ann R3", "  draw ann ?"], 8, "notation.placement"),
        (["turn bob", "  draw ?", "score bob 3", "show ann R3"], 8, "notation.placement"),  # after the score
        (["turn bob", "  draw ?", "show ann R3", "show ann R3"], 8, "notation.repeated"),
        (["turn bob", "  draw ?", "show ann R3", "show bob R5", "show ann R4"], 9, "notation.repeated"),
    ],
)
def test_misplaced_or_repeated_show(lines, where, rule):
    fs, _ = findings(HEAD + "\n".join(lines) + "\n")
    col = len(lines[where - 5]) - len(lines[where - 5].lstrip()) + 1
    assert fs == [(rule, where, col, "syntax")]


def test_show_before_the_first_round_is_misplaced():
    fs, _ = findings("dos 1\nplayers ann bob\nshow ann R3\n")
    assert fs == [("notation.placement", 3, 1, "syntax")]


def test_show_is_a_keyword_now():
    assert "show" in KEYWORDS
    fs, p = findings("dos 1\nplayers ann show\n")
    assert p.malformed and fs[0][0] == "notation.players"
    fs, p = findings("dos 1\nplayers ann bob\nshow x\n")
    assert fs and fs[0][3] == "syntax"
    fs, p = findings(HEAD + "turn show\n")
    assert fs and fs[0][:2] == ("notation.line", 5)


def test_json_question_marks_fit_the_schema_and_are_judged_as_in_text():
    card = schema()["$defs"]["Draw"]["properties"]["cards"]["items"]
    assert "\\?" in card["pattern"]
    d = json.loads(dump_json(parse(TABLE).log))
    d["rounds"][0]["turns"][0]["events"][0]["cards"] = ["?"]  # match with ?
    d["rounds"][0]["turns"][0]["events"][1]["cards"] = ["?"]  # refill ?
    d["rounds"][0]["setup"][3]["cards"] = ["R4", "?"]  # center R4 ?
    d["rounds"][0]["shows"].append({"player": "ann", "cards": ["R3"]})  # a second show
    p = load_json(d)
    assert not p.malformed
    got = sorted((f.pointer, f.rule) for f in p.findings)
    assert got == [
        ("/rounds/0/setup/3/cards/1", "notation.card"),
        ("/rounds/0/shows/1", "notation.repeated"),
        ("/rounds/0/turns/0/events/0/cards/0", "notation.card"),
        ("/rounds/0/turns/0/events/1/cards/0", "notation.card"),
    ]
    assert all(f.kind == "syntax" for f in p.findings)
    assert [e.type for e in p.log.rounds[0].turns[0].events] == ["draw"]
    # `?5` is not a card even in JSON
    d["rounds"][0]["setup"][1]["cards"][0] = "?5"
    assert load_json(d).malformed
