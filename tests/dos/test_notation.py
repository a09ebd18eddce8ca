"""The text notation v1: parser, writer and their contract with notation.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark

from dosverify.games.dos import notation
from dosverify.games.dos.events import Catch, Dos, Draw, Hand, Match, Pass, Place, Refill, Reshuffle, Totals
from dosverify.games.dos.jsonform import log_adapter
from dosverify.games.dos.notation import VALID_CARDS, fastpath, items, larkpath, parse, reader, write
from dosverify.model import Parsed

# ---- the examples of notation.md (kept verbatim) -------------------------------------------

EXAMPLE = (Path(__file__).resolve().parents[2] / "fixtures" / "dos" / "notation" / "example.log").read_text(
    encoding="utf-8"
)

FRAGMENTS = """\
turn ann
  ...
  match Y9 with Y7 + W2=Y            # ann now holds exactly 2 cards
  catch ann by bob                   # bob calls DOS first: ann is caught
  refill G4
  place R1                           # the bonus card
  draw ann B4 Y6                     # the penalty, at the turn's penalty step
  draw bob G5                        # then the Double Color Match draws
  draw cyd Y3
...
turn bob
  match G9 with G9                   # bob's last card
  refill R7
score bob 57                         # bob went out and claims 57 points
totals ann 0 bob 57 cyd 0
"""

HEAD = "dos 1\nplayers ann bob cyd\nround 1\ndealer ann\n"


def ok(text) -> Parsed:
    p = parse(text)
    assert not p.malformed, p.findings
    assert p.findings == [], [f.message for f in p.findings]
    return p


def rules(p: Parsed) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in p.findings]


def test_example_means_what_it_says():
    p = ok(EXAMPLE)
    log = p.log
    assert log.players == ["ann", "bob", "cyd"]
    assert log.ruleset == "official" and log.target == 200
    assert log.tags == {"event": "Club night, table 2", "date": "2026-11-28"}
    assert list(log.tags) == ["event", "date"]
    assert log._header_at["players"] == (4, 1) and log._header_at["tag:event"] == (2, 1)
    assert log._end_line == 27
    (rnd,) = log.rounds
    assert rnd.number == 1 and rnd._line == 8
    assert [ev.type for ev in rnd.setup] == ["dealer", "hand", "hand", "hand", "center"]
    assert rnd.setup[0].player == "ann"
    hand = rnd.setup[1]
    assert isinstance(hand, Hand) and hand.cards == ["R3", "B5", "G10", "Y1", "W2", "R#", "B7"]
    assert hand._cols["cards"][5] == 26
    assert rnd.setup[4].cards == ["R3", "B10"]
    bob, cyd = rnd.turns
    assert bob.player == "bob" and bob._line == 15
    assert len(bob.events) == 7
    m = bob.events[0]
    assert isinstance(m, Match) and m.target == "B10" and m.cards == ["B3", "B7"]
    assert (m._line, m._column, m._cols) == (16, 3, {"target": 9, "cards": [18, 23]})
    assert bob.events[1].cards == ["G3"]
    assert [type(e) for e in bob.events] == [Match, Match, Refill, Refill, Place, Draw, Draw]
    assert bob.events[4].card == "Y4"
    assert bob.events[5].player == "cyd" and bob.events[5].cards == ["G1"]
    assert bob.events[5]._cols == {"player": 8, "cards": [12]}
    assert cyd.player == "cyd" and [type(e) for e in cyd.events] == [Draw, Place]
    assert cyd.events[0].player is None and cyd.events[0].cards == ["B1"]
    assert rnd.score is None and log.winner is None


def test_fragments_parse():
    body = "\n".join(line for line in FRAGMENTS.splitlines() if line.strip() != "...")
    p = ok(HEAD + body)
    (rnd,) = p.log.rounds
    ann, bob = rnd.turns
    m = ann.events[0]
    assert m.target == "Y9" and m.cards == ["Y7", "W2=Y"]
    c = ann.events[1]
    assert isinstance(c, Catch) and (c.player, c.by) == ("ann", "bob")
    assert ann.events[4].player == "ann" and ann.events[4].cards == ["B4", "Y6"]
    assert len(ann.events) == 7
    assert bob.events[0].cards == ["G9"]
    assert rnd.score.player == "bob" and rnd.score.points == 57
    assert rnd.score._cols == {"player": 7, "points": 11}
    assert isinstance(rnd.totals, Totals)
    assert [(e.player, e.points) for e in rnd.totals.entries] == [("ann", 0), ("bob", 57), ("cyd", 0)]


def test_table_sentences():
    p = ok(
        HEAD + "turn bob\n match R3 with B4 + G5 + Y6\n draw\n draw cyd\n refill\n pass\n dos\n dos cyd\n"
        " reshuffle\n reshuffle R3 G#=7\n place W2=R\nwinner bob\n"
    )
    evs = p.log.rounds[0].turns[0].events
    assert evs[0].cards == ["B4", "G5", "Y6"]  # three cards parse; the referee judges
    assert evs[1].player is None and evs[1].cards == []
    assert evs[2].player == "cyd" and evs[2].cards == []
    assert isinstance(evs[3], Refill) and evs[3].cards == []
    assert isinstance(evs[4], Pass)
    assert isinstance(evs[5], Dos) and evs[5].player is None and evs[6].player == "cyd"
    assert isinstance(evs[7], Reshuffle) and evs[8].cards == ["R3", "G#=7"]
    assert evs[9].card == "W2=R"
    assert p.log.winner.player == "bob"


def test_header_lines_and_option_and_deck():
    p = ok(
        'dos 1\nplayers a b\noption next-dealer left\nsite "x # y"\nround-name final\nround 1\ndealer a\n'
        "deck R1 R3\ndeck G1\n"
    )
    assert p.log.options == {"next-dealer": "left"}
    assert p.log.tags == {"site": "x # y", "round-name": "final"}
    assert [e.cards for e in p.log.rounds[0].setup[1:]] == [["R1", "R3"], ["G1"]]
    assert p.log._header_at["option:next-dealer"] == (3, 1)


# ---- lexical rules ---------------------------------------------------------------------------


def test_comments():
    p = ok(HEAD + "turn bob\n  draw R3  # note\n  draw R# G#=7\n# a whole line\n   # indented comment\n")
    evs = p.log.rounds[0].turns[0].events
    assert evs[0].cards == ["R3"] and evs[1].cards == ["R#", "G#=7"]
    p = parse(HEAD + "turn bob\n  draw R3#note\n")
    assert rules(p) == [("notation.card", 6)]
    p = parse(HEAD + "turn bob#x\n")
    assert rules(p) == [("notation.line", 5)]


def test_crlf_bom_and_bytes():
    crlf = EXAMPLE.replace("\n", "\r\n")
    a = ok(crlf).log
    b = ok(("\ufeff" + EXAMPLE).encode("utf-8")).log
    c = ok(EXAMPLE.rstrip("\n")).log  # no final line end
    assert a.to_dict() == b.to_dict() == c.to_dict() == ok(EXAMPLE).log.to_dict()
    assert a.rounds[0].turns[0].events[0]._line == 16


@pytest.mark.parametrize(
    "line, rule",
    [
        ("turnbob", "notation.line"),
        ("turn bob extra", "notation.line"),
        ("drawY5", "notation.line"),
        ("draw R3B4", "notation.card"),
        ("match B10 with B3+B7", "notation.card"),
        ("match B10 with B3 +B7", "notation.line"),
        ("match B10 withB3", "notation.line"),
        ("catch ann bybob", "notation.line"),
        ("Turn bob", "notation.line"),
        ("frobnicate", "notation.line"),
        ("draw R2", "notation.card"),
        ("draw W3", "notation.card"),
        ("draw R11", "notation.card"),
        ("draw G#=11", "notation.card"),
        ("draw R5=3", "notation.card"),
        ("draw W2=X", "notation.card"),
        ("turn R2", "notation.card"),
        ("turn R3", "notation.line"),
        ("turn turn", "notation.line"),
        ("turn " + "a" * 33, "notation.line"),
        ("draw ann\tR3\x0b", "notation.card"),
        ("place", "notation.line"),
        ("score bob -3", "notation.line"),
    ],
)
def test_bad_lines_are_reported_and_skipped(line, rule):
    p = parse(HEAD + "turn bob\n  " + line + "\n  draw R3\n")
    assert not p.malformed
    assert rules(p) == [(rule, 6)], [(f.rule, f.line, f.message) for f in p.findings]
    f = p.findings[0]
    assert f.column >= 3 and f.message and f.found
    # the next line is still read
    assert p.log.rounds[0].turns[-1].events[-1].cards == ["R3"]


def test_card_messages():
    assert "W2 is the 2" in notation.card_problem("R2")
    assert "W2" in notation.card_problem("W3")
    assert "1 to 10" in notation.card_problem("G#=11")
    assert "only wilds" in notation.card_problem("R5=3")
    assert "colour" in notation.card_problem("W2=X")
    assert "white space" in notation.card_problem("B3+B7")
    assert all(notation.card_problem(c) is None for c in VALID_CARDS)
    assert len(VALID_CARDS) == 85


def test_expected_is_readable():
    p = parse(HEAD + "turn bob\n  match B10 with B3 B7\n")
    f = p.findings[0]
    assert f.expected == "`+`, or end of line" and f.found == "B7" and f.column == 21
    p = parse(HEAD + "turn bob\n  match B10 with\n")
    assert p.findings[0].expected == "a card code" and p.findings[0].found == "end of line"


def test_every_bad_line_reported_in_one_run():
    lines = [HEAD.rstrip("\n"), "turn bob"] + ["  draw R3", "  drawR3", "  draw R2"] * 50
    p = parse("\n".join(lines) + "\n")
    assert [f.line for f in p.findings] == [n for n in range(6, 6 + 150) if (n - 6) % 3]
    # `drawR3` is reported and read as `draw R3` (READINGS R52); `draw R2` is skipped
    assert len(p.log.rounds[0].turns[0].events) == 100
    assert [ev._line for ev in p.log.rounds[0].turns[0].events] == [n for n in range(6, 6 + 150) if (n - 6) % 3 != 2]
    assert {f.rule for f in p.findings} == {"notation.line", "notation.card"}


# ---- malformed logs and odd inputs ---------------------------------------------------------


def test_not_utf8():
    data = b"dos 1\nplayers ann bob\nround 1\ndealer \xffann\n"
    p = parse(data)
    assert p.malformed and p.log is None
    (f,) = p.findings
    assert f.rule == "notation.encoding" and f.line == 4 and f.column == 8
    assert "byte offset 37" in f.message


@pytest.mark.parametrize(
    "src, rule, line",
    [
        ("", "notation.version", 1),
        ("\n\n# only a comment\n", "notation.version", 1),
        ("dos 2\nplayers a b\n", "notation.version", 1),
        ("players a b\ndos 1\n", "notation.version", 1),
        ("  \n dos1\nplayers a b\n", "notation.version", 2),
        (b"\x00\x01\x02binary\x00", "notation.version", 1),
        ("dos 1\nround 1\n", "notation.players", 2),
        ("dos 1\nplayers a\n", "notation.players", 2),
        ("dos 1\nplayers a b c d e\n", "notation.players", 2),
        ("dos 1\nplayers ann Ann\n", "notation.players", 2),
    ],
)
def test_malformed(src, rule, line):
    p = parse(src)
    assert p.malformed and p.log is None
    assert (rule, line) in rules(p), rules(p)


def test_placement_and_repeated():
    src = (
        "dos 1\nplayers a b\ntarget 10\nevent x\nevent y\ntarget 20\nturn a\nround 1\nturn a\nhand a R3\n"
        "dealer a\nscore a 3\ndraw R3\nturn b\ntotals a 3 b 0\nscore a 3\nruleset official\nround 2\ndraw\n"
        "turn a\nwinner a\nturn b\n"
    )
    p = parse(src)
    assert not p.malformed
    assert rules(p) == [
        ("notation.repeated", 5),
        ("notation.repeated", 6),
        ("notation.placement", 7),
        ("notation.placement", 10),
        ("notation.placement", 11),
        ("notation.placement", 13),
        ("notation.placement", 14),
        ("notation.placement", 16),
        ("notation.placement", 17),
        ("notation.placement", 19),
        ("notation.placement", 22),
    ]
    assert p.log.target == 10 and p.log.tags == {"event": "x"}
    assert [len(r.turns) for r in p.log.rounds] == [1, 1]


def test_very_long_line_and_cut_log():
    long_line = "x" * 1_000_000
    p = parse(HEAD + "turn bob\n" + long_line + "\n  draw R3\n")
    assert rules(p) == [("notation.line", 6)] and len(p.findings[0].found) < 100
    p = ok(HEAD + "turn bob\n  draw" + " R3" * 300_000 + "\n")
    assert len(p.log.rounds[0].turns[0].events[0].cards) == 300_000
    p = parse(EXAMPLE[: EXAMPLE.index("match R3") + 8])  # cut mid-line
    assert rules(p) == [("notation.line", 17)]
    assert len(p.log.rounds[0].turns[0].events) == 1


def test_unknown_keyword_after_error_recovery():
    p = parse(HEAD + "turn bob\n  frob R3\n  draw R3\n  bogus\n  draw G3\n")
    # `frob R3` reads as a free tag, which stands out of place after the first round
    assert rules(p) == [("notation.placement", 6), ("notation.line", 8)]
    assert "not a keyword" in p.findings[0].message
    assert [e._line for e in p.log.rounds[0].turns[0].events] == [7, 9]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(),
        st.binary(),
        st.text(alphabet=' \t\r\n#"+=RGBYW0123456789abdnorstuwy-', max_size=80).map(
            lambda s: "dos 1\nplayers ann bob\nround 1\n" + s
        ),
    )
)
def test_parse_never_raises(src):
    p = parse(src)
    assert isinstance(p, Parsed)
    assert p.malformed == (p.log is None)
    assert all(f.line is not None and f.line >= 1 for f in p.findings)


# ---- glued words: the grammar never accepts them ---------------------------------------------

_KW = sorted(notation.KEYWORDS)


def _explicit():
    ex = {k.upper(): st.just(k) for k in _KW if k not in ("with", "by")}
    ex.update({"_WITH": st.just("with"), "_BY": st.just("by"), "_PLUS": st.just("+")})
    ex.update(
        {
            "CARD": st.sampled_from(sorted(VALID_CARDS) + ["R2", "W3", "B3+B7"]),
            "NAME": st.sampled_from(["ann", "bob", "Cyd", "x-1"]),
            "TAG": st.sampled_from(["event", "site", "round-name"]),
            "INT": st.sampled_from(["0", "1", "57", "200"]),
            "WORD": st.sampled_from(["official", "2026-11-28", "left"]),
            "STRING": st.sampled_from(['"a b"', '"x # y"']),
            "_NL": st.just("\n"),
            "WS": st.sampled_from([" ", "\t", "  "]),
        }
    )
    return ex


_PLAIN = None


def _plain() -> Lark:
    global _PLAIN
    if _PLAIN is None:
        _PLAIN = Lark(notation.grammar_text(), parser="lalr", start=["start", "line_only"], keep_all_tokens=True)
    return _PLAIN


@pytest.fixture(scope="module")
def sentences():
    from hypothesis.extra.lark import from_lark

    return from_lark(_plain(), start="line_only", explicit=_explicit())


def test_glued_words_never_accepted(sentences):
    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(sentences)
    def check(s):
        try:
            tree = _plain().parse(s, start="line_only")
        except Exception:
            return  # rejected: fine
        tokens = [t for t in tree.scan_values(lambda v: hasattr(v, "type")) if t.type != "_NL"]
        # every accepted token is a whole word: white space (or the line's ends) on both sides
        for t in tokens:
            assert t.start_pos == 0 or s[t.start_pos - 1] in " \t\n", (s, t)
            assert t.end_pos == len(s) or s[t.end_pos] in " \t\r\n", (s, t)
        assert sum(len(t.value.split()) for t in tokens) == len(s.split("#")[0].split()) or "#" in s, s
        # and the real parser agrees
        p = parse(HEAD + "turn bob\n" + s)
        assert isinstance(p, Parsed)

    check()


# ---- write -------------------------------------------------------------------------------------


def test_write_round_trip_example():
    log = ok(EXAMPLE).log
    text = write(log)
    assert "  match B10 with B3 + B7\n" in text and 'event "Club night, table 2"\n' in text
    assert "date 2026-11-28\n" in text
    again = ok(text).log
    assert again.to_dict() == log.to_dict()
    assert write(again) == text


def test_fast_models_equal_the_constructor():
    m = Match(type="match", target="B3", cards=["B4"]).at(3, 4, {"cards": [9]})
    f = items._mk(Match, {"type": "match", "target": "B3", "cards": ["B4"]}, 3, 4, {"cards": [9]})
    assert m == f and m.to_dict() == f.to_dict()
    assert (m._line, m._column, m._cols, m._pointer) == (f._line, f._column, f._cols, f._pointer)


cards = st.sampled_from(sorted(VALID_CARDS))
names = st.sampled_from(["ann", "bob", "cyd"])
events = st.one_of(
    st.builds(lambda t, c: {"type": "match", "target": t, "cards": c}, cards, st.lists(cards, min_size=1, max_size=3)),
    st.builds(lambda p, c: {"type": "draw", "player": p, "cards": c}, st.none() | names, st.lists(cards, max_size=3)),
    st.builds(lambda c: {"type": "refill", "cards": c}, st.lists(cards, max_size=2)),
    st.builds(lambda c: {"type": "reshuffle", "cards": c}, st.lists(cards, max_size=4)),
    st.builds(lambda c: {"type": "place", "card": c}, cards),
    st.just({"type": "pass"}),
    st.builds(lambda p: {"type": "dos", "player": p}, st.none() | names),
    st.builds(lambda p, q: {"type": "catch", "player": p, "by": q}, names, names),
)
setup = st.one_of(
    st.builds(lambda p: {"type": "dealer", "player": p}, names),
    st.builds(lambda c: {"type": "deck", "cards": c}, st.lists(cards, min_size=1, max_size=4)),
    st.builds(lambda p, c: {"type": "hand", "player": p, "cards": c}, names, st.lists(cards, max_size=7)),
    st.builds(lambda c: {"type": "center", "cards": c}, st.lists(cards, max_size=2)),
)
values = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
logs = st.builds(
    lambda rounds, tags, opts, target, ruleset, winner: {
        "dos": 1,
        "players": ["ann", "bob", "cyd"],
        "tags": tags,
        "options": opts,
        "target": target,
        "ruleset": ruleset,
        "rounds": rounds,
        "winner": winner,
    },
    st.lists(
        st.builds(
            lambda n, s, t, score, totals: {"number": n, "setup": s, "turns": t, "score": score, "totals": totals},
            st.integers(1, 9),
            st.lists(setup, max_size=3),
            st.lists(
                st.builds(lambda p, e: {"player": p, "events": e}, names, st.lists(events, max_size=4)), max_size=3
            ),
            st.none() | st.builds(lambda p, n: {"player": p, "points": n}, names, st.integers(0, 500)),
            st.none()
            | st.builds(
                lambda e: {"entries": e},
                st.lists(
                    st.builds(lambda p, n: {"player": p, "points": n}, names, st.integers(0, 500)),
                    min_size=1,
                    max_size=3,
                ),
            ),
        ),
        max_size=3,
    ),
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True).filter(lambda k: k not in notation.KEYWORDS),
        values,
        max_size=3,
    ),
    st.dictionaries(st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True), values, max_size=2),
    st.none() | st.integers(1, 10**6),
    st.none() | values,
    st.none() | st.builds(lambda p: {"player": p}, names),
)


@settings(max_examples=120, deadline=None)
@given(logs)
def test_text_log_text_log_identity(data):
    log = log_adapter().validate_python(data)
    text = write(log)
    p = parse(text)
    assert p.findings == [] and not p.malformed, (text, [f.message for f in p.findings])
    assert p.log.to_dict() == log.to_dict()
    assert write(p.log) == text


def test_error_recovery_is_linear(monkeypatch):
    # not a timed test (speed is the benchmark's): count what the grammar is given to read.
    # With a bad line every 50, every line is still handed to Lark about once.
    body = EXAMPLE.split("turn bob")[1]
    text = EXAMPLE + ("turn bob" + body) * 500
    bad = "\n".join(
        ln.replace("  refill ", "  refill x ") if i % 50 == 7 else ln for i, ln in enumerate(text.split("\n"))
    )
    n_bad = sum(1 for ln in bad.split("\n") if ln.startswith("  refill x "))
    assert n_bad > 5
    lark, _ = larkpath._parser()
    fed: list[int] = []
    real = lark.parse
    monkeypatch.setattr(lark, "parse", lambda src, start=None: (fed.append(len(src)), real(src, start=start))[1])
    for src, errors in ((text, 0), (bad, n_bad)):
        fed.clear()
        p = parse(src)
        assert p.log is not None
        lines = src.count("\n") + 1
        # one pass up to the first error, then at most one bounded chunk per error or per 64 lines;
        # the fast path first hands Lark the lines it leaves (one line each), up to the first error
        left = fed
        if notation.fast_path_on():
            k = next((i for i, n in enumerate(fed) if n >= 200), len(fed))
            header = sum(1 for ln in src.split("\n") if ln.split()[:1] and ln.split()[0] not in fastpath._FAST_SHAPES)
            assert k <= header + 1, fed[:20]
            left = fed[k:]
        assert len(left) <= 1 + errors + lines // reader._CHUNK + 1, (len(fed), errors, lines)
        assert all(n <= reader._CHUNK * 200 for n in left[1:])
    assert len([f for f in parse(bad).findings if f.rule == "notation.line"]) == n_bad


def test_the_bundled_notation_is_the_contract():
    # spec/notation.md travels with the package; it must not drift from the design document
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "design" / "notation.md"
    bundled = Path(__file__).resolve().parents[2] / "spec" / "dos" / "notation.md"
    if not shared.exists():
        import pytest

        pytest.skip("the design folder (../shared) is not beside this checkout")
    assert bundled.read_text(encoding="utf-8") == shared.read_text(encoding="utf-8")


def test_the_complete_example_of_the_notation_is_the_fixture():
    import re

    doc = (Path(__file__).resolve().parents[2] / "spec" / "dos" / "notation.md").read_text(encoding="utf-8")
    example = re.search(r"## Example\n.*?```\n(.*?)```", doc, re.S).group(1)
    assert example == EXAMPLE
