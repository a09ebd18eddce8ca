"""A text log is read and judged a round at a time: the referee holds the round it judges and
the next, never the whole log, so memory follows the game state, not the length of the log.
Proved by counting the event objects alive while the last round is judged (not by timing or
by the process's resident size), against the whole-log reading, which holds every round."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.games.dos import events
from dosverify.games.dos.notation import write
from dosverify.games.dos.referee import Referee
from dosverify.games.dos.simulate import Sim

ROOT = Path(__file__).resolve().parents[2]


def _long_game(rounds: int, seed: int = 3) -> str:
    return write(Sim(players=3, seed=seed, rounds=rounds, target=1_000_000).play().to_log())


def _alive_while_judging(monkeypatch, text: str, **kw) -> tuple[list[int], object]:
    """The Round and Turn objects alive as each tenth round is judged, beyond those alive before the
    check (what earlier tests in the same worker keep, such as the fuzz targets' cached games)."""
    seen: list[tuple[int, int]] = []
    real = Referee.play_round

    def alive() -> tuple[int, int]:
        objs = gc.get_objects()
        return sum(1 for o in objs if type(o) is events.Round), sum(1 for o in objs if type(o) is events.Turn)

    gc.collect()
    rounds0, turns0 = alive()

    def counted(self, rnd, next_round=None):
        if rnd.number % 10 == 0:
            rounds, turns = alive()
            seen.append((rounds - rounds0, turns - turns0))
        return real(self, rnd, next_round)

    monkeypatch.setattr(Referee, "play_round", counted)
    return seen, check(text, **kw)


@pytest.mark.slow  # long logs read round by round, under a memory bound; the quick tier keeps the mutants' case
def test_the_referee_holds_a_round_at_a_time(monkeypatch):
    text = _long_game(60)
    longest = max(part.count("\nturn ") for part in text.split("\nround "))
    streamed, report = _alive_while_judging(monkeypatch, text)
    assert report.verdict == "legal" and report.rounds == 60
    assert len(streamed) == 6
    # the round before (its score is checked when the next starts), the round judged, the next
    # (its line places a step missing from the last turn), and the one being read
    assert max(r for r, _ in streamed) <= 4
    assert max(t for _, t in streamed) <= 4 * longest
    whole, report2 = _alive_while_judging(monkeypatch, text, whole=True)
    assert report2.to_json_line() == report.to_json_line()
    assert min(r for r, _ in whole) >= 60  # the whole reading holds every round: what the stream avoids


def _logs():
    return sorted(p for p in (ROOT / "fixtures" / "dos").rglob("*") if p.suffix in (".log", ".dos", ".txt"))


@pytest.mark.parametrize("path", _logs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_reading_a_round_at_a_time_finds_what_the_whole_reading_finds(path):
    data = path.read_bytes()
    streamed, whole = check(data, name="x"), check(data, name="x", whole=True)
    assert streamed.to_json_line() == whole.to_json_line()


def test_mutated_games_read_a_round_at_a_time_as_whole():
    """Every mutation operator over games of several rounds: the same report either way (a
    mistake's consequences cross into later rounds, and a round's missing step is placed at
    the next round's line)."""
    import random

    from dosverify.games.dos.mutate import OPERATORS

    for seed in range(3):
        text = _long_game(4, seed=seed)
        for name in sorted(OPERATORS):
            m = OPERATORS[name](text, random.Random(seed))
            if m is None:
                continue
            assert check(m.text).to_json_line() == check(m.text, whole=True).to_json_line(), name
