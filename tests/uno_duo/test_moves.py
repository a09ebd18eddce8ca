"""UNO Duo's move generator (issue 33) held to the referee, over generated games in several
renderings: at every sampled position of a legal log its next line is listed; every listed line,
appended, is judged legal by ``check``; a mutant's defect line is not listed at its place; lines
not listed are refused; a seeded ``new()`` game played by random listed moves is legal and
replays identically."""

from __future__ import annotations

import random
import tomllib
from functools import cache
from pathlib import Path

import pytest
from tiers import count

from dosverify.api import check
from dosverify.games.uno_duo import PACK
from dosverify.games.uno_duo.moves import UnoPosition
from dosverify.games.uno_duo.moves.fromlog import text_lines, valid_ranges
from dosverify.games.uno_duo.mutate import OPERATORS
from dosverify.games.uno_duo.simulate import simulate
from dosverify.moves.model import NotAPosition

GAMES = count("DOSVERIFY_MOVES_GAMES", 40, 4)
POSITIONS = count("DOSVERIFY_MOVES_POSITIONS", 40, 8)  # sampled positions a log
MUTANTS = count("DOSVERIFY_MOVES_MUTANTS", 30, 2)  # logs mutated by every operator
STYLES = ("canonical", "no-deck", "hands", "mixed-draws", "decorated", "single", "bare")
BAD = ("error", "warning")
LOOKAHEAD = tomllib.loads((Path(__file__).parent / "moves_lookahead.toml").read_text())["operator"]


@cache
def _log(seed: int, style: str) -> str:
    return simulate(seed=seed, style=style, whole_game=True, target=80)


def _position(text: str, after: int) -> UnoPosition:
    pos, end = PACK.moves().from_log(text, "text", after, None, {})
    assert end == after
    return pos


def _positions(text: str, rng: random.Random) -> list[int]:
    """Sampled positions of a log: valid ones, the header's end and the last always."""
    spots = [n for a, b in valid_ranges(text_lines(text)) for n in range(a, b + 1)]
    pick = rng.sample(spots, min(POSITIONS, len(spots)))
    return sorted({spots[0], spots[-1], *pick})


def _next_event(lines: list[str], after: int) -> str | None:
    from dosverify.games.uno_duo.notation import code_part

    return next((raw for raw in lines[after:] if code_part(raw).strip()), None)


def _bad_at(lines: list[str], line: str) -> list:
    """check's findings (errors and warnings) at `line` appended to `lines`."""
    report = check("\n".join([*lines, line]) + "\n")
    return [f for f in report.findings if f.line == len(lines) + 1 and f.severity in BAD]


CASES = [(seed, STYLES[seed % len(STYLES)]) for seed in range(GAMES)]


@pytest.mark.parametrize(("seed", "style"), CASES)
def test_next_line_is_listed(seed: int, style: str) -> None:
    text = _log(seed, style)
    lines = text_lines(text)
    for after in _positions(text, random.Random(seed)):
        nxt = _next_event(lines, after)
        if nxt is None:
            continue
        pos = _position(text, after)
        listed = {m.line for m in pos.legal_moves()}
        assert pos.canonical(nxt) in listed, f"line {after + 1} `{nxt.strip()}` ({pos.canonical(nxt)}) not in {listed}"


@pytest.mark.parametrize(("seed", "style"), CASES)
def test_listed_lines_are_legal(seed: int, style: str) -> None:
    text = _log(seed, style)
    lines = text_lines(text)
    rng = random.Random(seed)
    for after in _positions(text, rng)[:: max(1, POSITIONS // 6)]:
        moves = [m for m in _position(text, after).legal_moves() if m.kind != "deal"]
        for move in rng.sample(moves, min(6, len(moves))):
            assert not _bad_at(lines[:after], move.line), f"after line {after}: listed `{move.line}` is refused"


def _mutants(seed: int):
    text = _log(seed, "canonical")
    for name, op in sorted(OPERATORS.items()):
        m = op(text, random.Random(seed))
        if m is not None:
            yield name, m


@pytest.mark.parametrize("seed", range(MUTANTS))
def test_defect_line_is_not_listed(seed: int) -> None:
    """The defect line of a one-defect mutant, tried at its place, is not listed (operators whose
    finding comes at a later line, the defect being a line left out, are listed with their reason
    in moves_lookahead.toml)."""
    for name, m in _mutants(seed):
        if name in LOOKAHEAD:
            continue
        lines = text_lines(m.text)
        try:
            pos = _position(m.text, m.line - 1)
        except NotAPosition:  # a defect in a round's set-up: the deal is one chance move
            continue
        tried = lines[m.line - 1]
        assert pos.canonical(tried) not in {x.line for x in pos.legal_moves()}, f"{name}: `{tried}` listed"


@pytest.mark.parametrize("seed", range(GAMES))
def test_unlisted_lines_are_refused(seed: int) -> None:
    """Sampled lines not listed (a card not held, a draw out of turn, the wrong player's turn, a
    challenge or pass where none stands) earn an error or a warning at their line."""
    text = _log(seed, "canonical")
    lines = text_lines(text)
    rng = random.Random(seed)
    for after in _positions(text, rng)[:: max(1, POSITIONS // 4)]:
        pos = _position(text, after)
        listed = {m.line for m in pos.legal_moves()}
        if any(m.kind == "deal" for m in pos.legal_moves()):
            continue
        tries = [f"play {rng.choice(_CARDS)}", "challenge", "pass", f"turn {rng.choice(pos.players)}"]
        tries += [f"draw {p} {rng.choice(_CARDS)}" for p in pos.players]
        for line in tries:
            if pos.canonical(line) not in listed:
                assert _bad_at(lines[:after], line), f"after line {after}: unlisted `{line}` is not refused"


_CARDS = [f"{c}{r}" for c in "RGBY" for r in ("0", "5", "9", "S", "R", "+2")] + ["W=G", "W+4=R"]


def _self_play(seed: int, opts: dict[str, str], cap: int = 20000) -> UnoPosition:
    pos = PACK.moves().new(["ann", "bob"], "official", opts, seed)
    rng = random.Random(seed)
    for _ in range(cap):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


OPTIONS = [
    {},
    {"pile-order": "shuffled"},
    {"volley": "must", "start-volley": "yes"},
    {"uno-window": "next-action", "last-draw": "yes"},
    {"start-reverse": "may", "skip-again": "optional", "reverse-alone": "skip", "run-reverse": "none"},
    {"deck": "108", "wd4-legal": "colour"},
]


@pytest.mark.parametrize("seed", range(max(3, GAMES // 4)))
def test_new_game_played_to_its_end_is_legal_and_replays(seed: int) -> None:
    opts = OPTIONS[seed % len(OPTIONS)]
    pos = _self_play(seed, opts)
    text = "\n".join(pos.lines()) + "\n"
    assert pos.game_over(), "the game did not end"
    report = check(text)
    assert report.verdict == "legal", [(f.line, f.rule, f.message) for f in report.findings][:3]
    assert _self_play(seed, opts).lines() == pos.lines()
    again, _ = PACK.moves().from_log(text, "text", None, None, {})
    assert again.key() == pos.key() and again.scores() == pos.scores()


def test_positions_are_refused_with_their_ranges() -> None:
    text = _log(3, "canonical")
    lines = text_lines(text)
    setup = lines.index("round 1") + 2
    for after in (1, setup, len(lines) + 5):
        with pytest.raises(NotAPosition) as err:
            _position(text, after)
        assert err.value.valid and "positions: lines" in str(err.value)
    first_turn = next(i for i, raw in enumerate(lines, 1) if raw.startswith("turn "))
    assert _position(text, first_turn).legal_moves()


def test_json_positions_are_the_text_ones() -> None:
    from dosverify.games.uno_duo.simulate import simulate_json

    doc = simulate_json(seed=5, whole_game=True, target=80)
    full, count_ = PACK.moves().from_log(doc, "json", None, None, {})
    for k in (0, count_ // 3, count_ // 2, count_):
        try:
            pos, end = PACK.moves().from_log(doc, "json", k, None, {})
        except NotAPosition as err:
            assert "events" in str(err)
            continue
        assert end == k
        text = "\n".join(pos.lines()) + "\n"
        again, _ = PACK.moves().from_log(text, "text", None, None, {})
        assert again.key() == pos.key()
    assert full.game_over() or full.legal_moves()


def test_observation_is_a_seat_view() -> None:
    pos = _self_play(2, {}, cap=40)
    seen = pos.observation("ann")
    assert seen["hand"] == pos.hand("ann") and seen["opponent"] == "bob"
    assert seen["opponent_cards"] == len(pos.hand("bob")) and seen["lines"] == pos.lines()
    with pytest.raises(ValueError):
        pos.observation("zed")


@pytest.mark.parametrize("seed", range(max(2, GAMES // 2)))
def test_a_position_read_with_the_referee_equals_one_read_apart(seed: int, monkeypatch) -> None:
    """`moves --after` reads a text prefix once (UnoDuoMoves.from_judged: the referee's reading seeds
    the position); the table equals the one from two readings (the generator's own, then check):
    the same position, listing, prefix verdict and findings, for legal logs and one-defect mutants."""
    from dosverify.games.uno_duo.moves import UnoDuoMoves
    from dosverify.moves.table import Table

    def read_twice(*args, **kwargs):
        raise AssertionError("the prefix was read a second time")

    texts = [_log(seed, STYLES[seed % len(STYLES)])]
    texts += [m.text for _, m in list(_mutants(seed))[: 2 if seed % 2 else 1]]
    tried = 0
    for text in texts:
        spots = [n for a, b in valid_ranges(text_lines(text)) for n in range(a, b + 1)]
        for after in spots[:: max(1, len(spots) // 4)]:
            with monkeypatch.context() as m:
                m.setattr(UnoDuoMoves, "from_log", read_twice)
                try:
                    one = Table.from_log(text, after)
                except ValueError:  # a malformed prefix: from_judged declines, from_log says why
                    continue
            with monkeypatch.context() as m:
                m.delattr(UnoDuoMoves, "from_judged")
                two = Table.from_log(text, after)
            assert one == two, after
            assert [x.line for x in one.legal_moves()] == [x.line for x in two.legal_moves()], after
            assert one.prefix.verdict == two.prefix.verdict, after
            got = sorted((f.kind, f.rule, f.line) for f in one.prefix.findings)
            assert got == sorted((f.kind, f.rule, f.line) for f in two.prefix.findings), after
            tried += 1
    assert tried >= 4
