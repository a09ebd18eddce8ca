"""The fast path (one regular expression per line keyword) reads exactly what Lark alone reads:
the same line items, events, findings and positions, on every fixture, the conformance corpus,
generated games in every rendering, mutated lines and sentences generated from the grammar."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from dosverify.games.dos import notation
from dosverify.games.dos.notation import fastpath, larkpath, reader
from dosverify.games.dos.render import STYLES, render
from dosverify.games.dos.simulate import Sim

ROOT = Path(__file__).resolve().parents[2]
LOGS = sorted(p for p in (ROOT / "fixtures" / "dos").rglob("*") if p.suffix in (".log", ".txt"))


def _norm(x):
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_norm(y) for y in x]]
    if isinstance(x, dict):
        return {k: _norm(v) for k, v in x.items()}
    if hasattr(x, "__dict__"):
        return [type(x).__name__, _norm(vars(x))]
    if hasattr(x, "__dataclass_fields__"):
        return [type(x).__name__, _norm({k: getattr(x, k) for k in x.__dataclass_fields__})]
    return x


def _both(text: str, monkeypatch) -> tuple:
    monkeypatch.setenv("DOSVERIFY_PARSER", "lark")
    slow_items, slow = _norm(reader._read_lines(text)), notation.parse(text)
    monkeypatch.delenv("DOSVERIFY_PARSER")
    fast_items, fast = _norm(reader._read_lines(text)), notation.parse(text)
    return slow_items, fast_items, (_norm(slow.log), _norm(slow.findings)), (_norm(fast.log), _norm(fast.findings))


def _same(text: str, monkeypatch) -> None:
    slow_items, fast_items, slow, fast = _both(text, monkeypatch)
    assert fast_items == slow_items
    assert fast == slow


def test_the_switch_runs_lark_alone(monkeypatch) -> None:
    monkeypatch.setenv("DOSVERIFY_PARSER", "lark")
    assert not notation.fast_path_on()
    monkeypatch.setattr(reader, "_read_fast", lambda text: pytest.fail("fast path used"))
    reader._read_lines("dos 1\nplayers a b\n")
    monkeypatch.delenv("DOSVERIFY_PARSER")
    assert notation.fast_path_on()


def test_the_fast_path_reads_well_formed_lines_without_lark(monkeypatch) -> None:
    monkeypatch.delenv("DOSVERIFY_PARSER", raising=False)  # the CI pass with Lark alone runs this file too
    lark, _ = larkpath._parser()
    calls = []
    monkeypatch.setattr(lark, "parse", lambda *a, **k: calls.append(a))
    text = (
        "dos 1\nplayers ann bob\nround 1\ndealer ann\n  hand ann R1 ?  # c\ncenter G3 B#\nturn bob\n"
        "match G3 with R1 + W2=G\r\ndraw bob ? ?\nplace Y5\npass\ndos\ndos bob\ncatch ann by bob\n"
        "refill R3\nreshuffle\nshow ann R1\nscore ann 3\ntotals ann 3 bob 0\nwinner ann\n"
    )
    items = reader._read_lines(text)
    assert not calls and len(items) == 20


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_fixture(path, monkeypatch) -> None:
    _same(path.read_bytes().decode("utf-8", "replace"), monkeypatch)


def test_generated_games_in_every_rendering(monkeypatch) -> None:
    for seed in range(12):
        log = Sim(players=2 + seed % 3, seed=seed, deck=seed % 2 == 0).play().to_log()
        for name in STYLES:
            _same(render(log, name, seed=seed).text, monkeypatch)


def test_mutated_lines(monkeypatch) -> None:
    """Every line of a game, broken in small ways (a character dropped, doubled, a space or `#`
    put in): each text reads the same both ways, errors included."""
    rng = random.Random(5)
    log = Sim(players=3, seed=7).play().to_log()
    lines = notation.write(log).split("\n")
    for _ in range(400):
        i = rng.randrange(len(lines))
        ln = lines[i]
        j = rng.randrange(len(ln) + 1)
        op = rng.choice(["drop", "dup", "space", "hash", "cr", "tab", "lower", "q"])
        ch = {"space": " ", "hash": "#", "cr": "\r", "tab": "\t", "q": "?"}.get(op, "")
        new = (
            ln[:j] + ln[j + 1 :]
            if op == "drop"
            else ln[:j] + ln[j : j + 1] * 2 + ln[j + 1 :]
            if op == "dup"
            else ln.lower()
            if op == "lower"
            else ln[:j] + ch + ln[j:]
        )
        _same("\n".join(lines[:i] + [new] + lines[i + 1 :]), monkeypatch)


_GRAMMAR = Lark(notation.grammar_text(), parser="lalr", start=["start", "line_only"], keep_all_tokens=True)


def _explicit():
    """Terminal strategies (the grammar's lookaheads defeat hypothesis' own), valid and not."""
    ex = {k.upper(): st.just(k) for k in notation.KEYWORDS if k not in ("with", "by")}
    ex.update({"_WITH": st.just("with"), "_BY": st.just("by"), "_PLUS": st.just("+")})
    ex.update(
        {
            "CARD": st.sampled_from(["R1", "G#", "W2=R", "B10", "Y3", "R#=7", "R2", "W3", "B3+B7", "G5#x"]),
            "HIDDEN": st.sampled_from(["?", "?", "?=R", "?5"]),
            "NAME": st.sampled_from(["ann", "bob", "Cyd", "x-1", "turn", "with", "a" * 33]),
            "TAG": st.sampled_from(["event", "site", "round-name"]),
            "INT": st.sampled_from(["0", "1", "57", "200"]),
            "WORD": st.sampled_from(["official", "2026-11-28", "left"]),
            "STRING": st.sampled_from(['"a b"', '"x # y"']),
            "_NL": st.sampled_from(["\n", " # note\n", "\r\n", "\n\n  "]),
            "WS": st.sampled_from([" ", "\t", "  "]),
        }
    )
    return ex


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(from_lark(_GRAMMAR, start="line_only", explicit=_explicit()), min_size=1, max_size=6))
def test_sentences_generated_from_the_grammar(monkeypatch, lines) -> None:
    _same("dos 1\n" + "".join(lines), monkeypatch)


_TRICKY = [
    # header lines: values that look like keywords, cards or names; quoted strings, escapes, bad JSON
    "ruleset official",
    "ruleset turn",
    "ruleset R3",
    'ruleset "house rules"',
    'ruleset "a\\"b"',
    'ruleset "\\q"',
    'ruleset "x',
    "ruleset a#b",
    'ruleset a"b',
    "ruleset",
    "ruleset a b",
    "option dcm-draws at-once",
    "option target 7",
    'option "k" v',
    'option k "v w"',
    "option k",
    "option k#x v",
    "event Friday",
    'event "Club night # 3"',
    'event "a \\" b"',
    'event "a\tb"',
    "site-2 x",
    "event turn",
    "with x",
    "by x",
    "Event x",
    "eventX 1",
    "dos-x 1",
    "turn-x y",
    "event",
    "event a b",
    'event "\\ud800"',
    # names and numbers at their limits, keywords where a name stands, cards at the edge of valid
    "turn " + "a" * 32,
    "turn " + "a" * 33,
    "turn with",
    "turn B",
    "turn B3x",
    "dealer pass",
    "winner by",
    "round 0",
    "round 007",
    "target 0",
    "target 12",
    "dos 2",
    "dos 01",
    "dos ann",
    "dos turn",
    "dos ann bob",
    "players",
    "players ann turn",
    "players ann " + "b" * 33,
    "score ann 0012",
    "totals ann 1 turn 2",
    "match R#=10 with R#=10",
    "match R#=11 with R1",
    "match W2=Y with W2=Y + W2",
    "match B10 with B1 + B9 + B#",
    "match B3 with B3+B4",
    "draw ann",
    "draw",
    "draw ann R1 ?",
    "draw R1 ann",
    "place W2=G",
    "place W3",
    "hand ann",
    "show ann",
    "show ann R1",
    "catch ann by ann",
    "catch ann by turn",
    "center",
    "deck",
    "refill",
    "reshuffle R1 R2",
    "pass now",
    "turn ann\t# c",
    "turn\tann",
    "turn  ann  ",
    "  match R1\twith  R1 # x\r",
    "turn ann\r",
    "turn ann#x",
    "turn ann #x",
    "turn ann\rx",
]


@pytest.mark.parametrize("line", _TRICKY)
def test_tricky_lines(line, monkeypatch) -> None:
    """Lines at the edges of what the first tier takes: each reads as Lark alone reads it."""
    for text in (f"dos 1\n{line}\n", f"dos 1\nplayers ann bob\nround 1\nturn ann\n{line}\nturn bob\n"):
        _same(text, monkeypatch)


def test_valid_lines_skip_the_token_tier(monkeypatch) -> None:
    """Every keyword's valid line, and the header's value lines, are read by the first tier."""
    monkeypatch.delenv("DOSVERIFY_PARSER", raising=False)
    monkeypatch.setattr(fastpath, "_token_line", lambda *a: pytest.fail(f"token tier used: {a[1]!r}"))
    monkeypatch.setattr(larkpath._parser()[0], "parse", lambda *a, **k: pytest.fail(f"Lark used: {a[0]!r}"))
    text = (
        'dos 1\nplayers ann bob\nruleset official\noption dcm-draws "at once"\nevent "a  b"\ntarget 200\nsite club\n'
        "round 1\ndealer ann\ndeck R1 G3\n  hand ann R1 W2  # c\ncenter G3 B#\nturn bob\n"
        "match G3 with R1 + W2=G\r\ndraw bob R1\ndraw\tG3\nplace Y5\npass\ndos\ndos bob\ncatch ann by bob\n"
        "refill R3\nreshuffle R1\nshow ann R1\nscore ann 3\ntotals ann 3 bob 0\nwinner ann\n\n"
    )
    assert len(reader._read_lines(text)) == 27
