"""Playing DOS through the move generator (issue 33): a seeded new game played by random listed moves to
its end is legal and replays identically; a log's prefix names a position only where the issue says;
a position read from a log equals the one reached by pushing its lines."""

from __future__ import annotations

import random

import pytest
from dosmoves import MOVES, parts, positions
from tiers import count

from dosverify.api import check
from dosverify.games.dos.jsonform import dump_json
from dosverify.games.dos.moves.fromlog import _keyword
from dosverify.games.dos.notation import parse
from dosverify.games.dos.simulate import simulate_text
from dosverify.moves.model import NotAPosition

RULESETS = ("official", "bosnian", "italian", "strict")
SEEDS = count("DOSVERIFY_MOVES_SELFPLAY", 24, 6)
NAMES = ["ann", "bob", "cyd", "dan"]


def _play(players: int, ruleset: str, seed: int, options: dict | None = None) -> tuple[str, int]:
    pos = MOVES.new(NAMES[:players], ruleset, options or {}, seed)
    rng = random.Random(seed)
    steps = 0
    while (ms := pos.legal_moves()) and steps < 50_000:
        pos.push(rng.choice(ms))
        steps += 1
    return "\n".join(pos.lines()) + "\n", steps


@pytest.mark.parametrize("seed", range(SEEDS))
def test_seeded_game_is_legal_and_replays(seed):
    players, ruleset = 2 + seed % 3, RULESETS[seed % 4]
    text, steps = _play(players, ruleset, seed)
    report = check(text)
    assert report.findings == [], [(f.line, f.rule, f.message) for f in report.findings][:3]
    assert "winner" in text.splitlines()[-1]
    assert _play(players, ruleset, seed) == (text, steps)


@pytest.mark.parametrize(
    "options",
    [
        {"dcm-draws": "at-once"},
        {"own-penalty": "at-once"},
        {"round-end": "at-once"},
        {"discard-matched": "at-once", "dcm-order": "first-seat"},
        {"deal-from": "first-seat", "next-dealer": "left"},
    ],
)
def test_engine_options_are_played_legally(options):
    for seed in range(max(2, SEEDS // 6)):
        text, _ = _play(2 + seed % 3, "official", seed, options)
        report = check(text)
        assert report.findings == [], (options, seed, [(f.line, f.rule, f.message) for f in report.findings][:3])


def test_a_position_read_equals_the_lines_pushed():
    """from_log at line N gives the state the generator reaches by pushing the lines up to N."""
    text = simulate_text(3, 11, "official", rounds=2)
    lines = text.splitlines()
    _, (a, b), *_ = positions(text)  # round 1's turns
    pos, _ = MOVES.from_log(text, None, a, None, {})
    for n in range(a + 1, min(b, a + 120) + 1):
        if _keyword(lines[n - 1]) is None:
            continue
        for part in parts(lines[n - 1]):
            move = next(m for m in pos.legal_moves() if m.line == pos.canonical(part))
            pos.push(move)
        read, at = MOVES.from_log(text, None, n, None, {})
        assert at == n
        assert read.key() == pos.key(), f"line {n}"


def test_positions_are_refused_in_the_header_and_set_up():
    text = simulate_text(2, 3, "official", rounds=2)
    lines = text.splitlines()
    first_round = next(i + 1 for i, ln in enumerate(lines) if _keyword(ln) == "round")
    first_turn = next(i + 1 for i, ln in enumerate(lines) if _keyword(ln) == "turn")
    for n in (1, first_round, first_turn - 1, len(lines) + 1):
        with pytest.raises(NotAPosition) as exc:
            MOVES.from_log(text, None, n, None, {})
        assert exc.value.valid and "positions:" in str(exc.value)
    pos, at = MOVES.from_log(text, None, first_round - 1, None, {})
    assert [m.line for m in pos.legal_moves()] == ["round 1"]
    pos, at = MOVES.from_log(text, None, first_turn, None, {})
    assert at == first_turn and pos.to_move() == lines[first_turn - 1].split()[1]
    commented = text.replace(lines[first_turn], lines[first_turn] + "\n# a note\n", 1)
    pos2, at2 = MOVES.from_log(commented, None, first_turn + 3, None, {})
    assert at2 == first_turn + 1 and pos2.key() == MOVES.from_log(text, None, first_turn + 1, None, {})[0].key()


def test_json_positions_count_event_objects():
    text = simulate_text(2, 4, "official", rounds=1)
    doc = dump_json(parse(text).log)
    whole, n = MOVES.from_log(doc, "json", None, None, {})
    assert whole.key() == MOVES.from_log(text, None, None, None, {})[0].key()
    with pytest.raises(NotAPosition):
        MOVES.from_log(doc, "json", 1, None, {})  # the `round 1` object: inside the set-up


def test_chance_moves_carry_their_share():
    text = simulate_text(2, 6, "official", rounds=1, style="no-deck")
    pos, _ = MOVES.from_log(text, None, None, None, {})
    for a, b in positions(text):
        for n in range(a, b + 1):
            pos, _ = MOVES.from_log(text, None, n, None, {})
            chance = [m for m in pos.legal_moves() if m.chance and m.kind in ("draw", "refill")]
            if len(chance) > 1:
                assert abs(sum(m.probability or 0 for m in chance) - 1) < 1e-9
                assert len({m.line for m in chance}) == len(chance)
                return
    pytest.fail("no draw from a pile of unknown order")
