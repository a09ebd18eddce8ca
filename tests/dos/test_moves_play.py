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


def _mutants(text: str) -> list[tuple[str, str]]:
    """The log, and two illegal versions: a match's card changed, a player's name misspelt; each with
    the log the referee recovers to (the misspelt name read as the player it plainly means)."""
    lines = text.splitlines()
    m = next(i for i, raw in enumerate(lines) if raw.strip().startswith("match "))
    t = next(i for i, raw in enumerate(lines) if raw.strip().startswith("turn ") and i > m)
    card = lines[m].split()[1]
    wrong = [*lines[:m], lines[m].replace(card, "R1" if card != "R1" else "B1", 1), *lines[m + 1 :]]
    misnamed = [*lines[:t], lines[t].replace("turn ", "turn X", 1), *lines[t + 1 :]]
    wrong_text, misnamed_text = "\n".join(wrong) + "\n", "\n".join(misnamed) + "\n"
    return [(text, text), (wrong_text, wrong_text), (misnamed_text, text)]


def _read_twice(*args, **kwargs):
    raise AssertionError("the prefix was read a second time")


@pytest.mark.parametrize("style", ["canonical", "commented"])
def test_a_position_read_with_the_referee_equals_one_read_apart(style, monkeypatch):
    """moves --after reads a text prefix once (DosMoves.from_judged: the referee's reading seeds the
    position); the table it builds equals the one from two readings (the pack's own replay, then
    check): the same position and listing, the same prefix verdict and findings. A misspelt name is
    played on as the player the referee reads it as (two readings stumbled on it: KeyError)."""
    from dosverify.games.dos.moves import DosMoves
    from dosverify.moves.table import Table

    for log, recovered in _mutants(simulate_text(3, 5, "official", rounds=2)):
        if style == "commented":  # comments and blank lines: physical lines counted, events not moved
            log, recovered = (
                "".join(f"{raw}\n" + ("# a note\n\n" if i % 7 == 3 else "") for i, raw in enumerate(t.splitlines()))
                for t in (log, recovered)
            )
        found = [k for a, b in positions(log) for k in range(a, b + 1)]
        for k in found[:: max(1, len(found) // 12)]:
            with monkeypatch.context() as m:
                if any(raw.startswith("round") for raw in log.splitlines()[:k]):  # read once: no second reading
                    m.setattr(DosMoves, "from_log", _read_twice)
                one = Table.from_log(log, k)
            with monkeypatch.context() as m:
                m.delattr(DosMoves, "from_judged")
                two = Table.from_log(recovered, k)
            assert one == two, k
            assert [m.line for m in one.legal_moves()] == [m.line for m in two.legal_moves()], k
            got = {(f.kind, f.rule, f.line) for f in one.prefix.findings}
            want = {(f.kind, f.rule, f.line) for f in two.prefix.findings}
            misspelt = next((i + 1 for i, raw in enumerate(log.splitlines()[:k]) if "turn X" in raw), None)
            assert got - want == (set() if misspelt is None else {("syntax", "notation.player", misspelt)}), k
            assert want <= got and one.prefix.verdict == ("illegal" if got - want else two.prefix.verdict), k
