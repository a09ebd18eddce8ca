"""`dosverify fmt` on UNO Duo logs: canonical, idempotent, and verdict-preserving, over generated
games in every rendering (legal ones, and mutants with one defect), and on the command line."""

from __future__ import annotations

import io
import random
import sys

import pytest

from dosverify import formatting
from dosverify.cli import main
from dosverify.games import find_game
from dosverify.games.uno_duo.fmt import COMMENT_COLUMN, format_text
from dosverify.games.uno_duo.simulate import simulate
from dosverify.games.uno_duo.simulate.emit import STYLES

from .simside import GAMES

PACK = find_game("uno-duo")


def meaning(text: str):
    return formatting.meaning(PACK, text)


PER_STYLE = max(2, min(GAMES, 200) // 10)


def judged(text: str) -> list[tuple]:
    return [(f.line, f.rule, f.severity) for f in PACK.check(text).findings]


def assert_canonical(text: str) -> None:
    """What canonical means, line by line: checked on the output, not by the formatter's own code."""
    assert not text.startswith("\ufeff") and "\r" not in text and text.endswith("\n") and not text.endswith("\n\n")
    in_turn = False
    for line in text.split("\n")[:-1]:
        body = line.strip()
        word = body.split(" ", 1)[0] if body else ""
        if word == "turn":
            in_turn = True
        elif word in ("score", "round", "totals", "winner", "start", "draft", "deck", "hand", "drafter"):
            in_turn = False
        if not body:
            assert line == ""
            continue
        want = "  " if in_turn and word != "turn" else ""
        assert line.startswith(want) and not line[len(want)].isspace(), repr(line)
        assert line == line.rstrip()
        code, _, comment = line.partition(" #") if not body.startswith("#") else ("", "", body)
        assert "  " not in code.strip() or '"' in code, repr(line)
        if code.strip() and comment and len(code) < COMMENT_COLUMN - 1:
            assert line.index(" #") == COMMENT_COLUMN - 1, repr(line)


@pytest.mark.parametrize("style", sorted(STYLES))
def test_fmt_over_generated_games(style):
    for seed in range(PER_STYLE):
        text = simulate(seed=seed, style=style, whole_game=seed % 4 == 0, target=150)
        new = format_text(text)
        assert_canonical(new)
        assert format_text(new) == new  # idempotent
        assert meaning(new)[0] == meaning(text)[0] is not None  # the same game
        assert judged(new) == judged(text) and not [j for j in judged(new) if j[2] == "error"]
        assert len(new.split("\n")) <= len(text.split("\n")) + 1  # line for line (trailing blanks dropped)


def test_fmt_keeps_a_mutants_one_finding():
    """An illegal log's findings stay where they were: the verdict and the lines do not move."""
    ops = sorted(PACK.operators().items())
    rng = random.Random(3)
    done = 0
    for n, (name, op) in enumerate(ops):
        style = sorted(STYLES)[n % len(STYLES)]
        mutant = next(filter(None, (op(simulate(seed=n * 10 + k, style=style), rng) for k in range(5))), None)
        if mutant is None:
            continue
        new = format_text(mutant.text)
        if meaning(new)[0] is None:  # a syntax mutant: fmt refuses it (tested below), nothing to compare
            continue
        assert judged(new) == judged(mutant.text), name
        assert (mutant.line, mutant.rule) in [(j[0], j[1]) for j in judged(new)], name
        done += 1
    assert done >= 10


def test_fmt_command(tmp_path, capsys, monkeypatch):
    messy = simulate(seed=4, style="everything")
    clean = format_text(messy)
    path = tmp_path / "g.log"
    path.write_bytes(messy.encode("utf-8"))
    assert main(["fmt", "--check", str(path)]) == 1
    assert path.read_bytes().decode("utf-8") == messy  # --check writes nothing
    assert main(["fmt", str(path)]) == 0
    assert path.read_bytes().decode("utf-8") == clean
    assert main(["fmt", "--check", str(path)]) == 0  # canonical now
    assert "reformatted" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(messy.encode())))
    assert main(["fmt", "--game", "uno-duo", "-"]) == 0
    assert capsys.readouterr().out == clean


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"uno-duo": 1, "players": ["a", "b"], "rounds": []}', "JSON form"),
        (b"uno-duo 1\nplayers ann bob\n\xff\n", "not UTF-8"),
        (b"uno-duo 1\nplayers ann bob\nround 1\ndrafter ann\nplay R10\n", "fix the lines above"),
    ],
)
def test_fmt_refuses_what_it_cannot_read(tmp_path, capsys, content, why):
    path = tmp_path / "bad.log"
    path.write_bytes(content)
    assert main(["fmt", "--game", "uno-duo", str(path)]) == 2
    err = capsys.readouterr().err
    assert why in err and "Traceback" not in err
    assert path.read_bytes() == content
