"""The move API's contract (issue 33, docs/moves.md), over every registered pack with capability
``moves``: on generated games, every next line of a legal log is listed and explained legal; every
listed line, appended, is judged legal by ``check``; ``log()`` round-trips through ``check``;
``pop`` restores equality; a seeded ``new()`` game replays identically; bad input never crashes.
A game's move generator inherits these by declaring the capability."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import count

from dosverify.api import check
from dosverify.games import GamePack, usable_packs
from dosverify.moves import IllegalMove, MalformedLog, Move, NotAPosition, Verdict
from dosverify.moves.table import DEAL, SNAPSHOT, Table

PACKS = [p for p in usable_packs() if "moves" in p.capabilities]
GAMES = count("DOSVERIFY_MOVES_GAMES", 8, 2)
POSITIONS = count("DOSVERIFY_MOVES_POSITIONS", 40, 8)  # positions sampled per generated game
BAD = ("error", "warning")

if not PACKS:  # pragma: no cover - Tiny (tests/packs/tinygame) has it in every test environment
    pytest.skip("no installed pack has capability `moves`", allow_module_level=True)


@pytest.fixture(params=[p.name for p in PACKS])
def pack(request) -> GamePack:
    return next(p for p in PACKS if p.name == request.param)


def _ruleset(pack: GamePack, seed: int) -> str:
    """Each seed a ruleset of the game's in turn, so that every ruleset's listing is held to check."""
    names = sorted(pack.spec().rulesets)
    return names[seed % len(names)]


def _log(pack: GamePack, seed: int, whole: bool = False) -> str:
    players = pack.player_counts()[seed % len(pack.player_counts())]
    return pack.simulate(seed=seed, players=players, whole_game=whole, ruleset=_ruleset(pack, seed))


def positions(log: str) -> list[int]:
    """The positions of a log, from the valid range a refused one names (else every line tried)."""
    n = len(log.splitlines())
    try:
        Table.from_log(log, 0)
    except NotAPosition as exc:
        if exc.valid:
            return [k for lo, hi in exc.valid for k in range(lo, hi + 1)]
    except MalformedLog:  # the pack names no range: every line is tried
        pass
    out = []
    for k in range(n + 1):
        try:
            Table.from_log(log, k)
        except (NotAPosition, MalformedLog):
            continue
        out.append(k)
    return out


def sample(log: str, seed: int) -> list[int]:
    found = positions(log)
    assert found, "a generated log has positions"
    rng = random.Random(seed)
    return sorted(rng.sample(found, min(POSITIONS, len(found))))


def next_line(log: str, after: int) -> str | None:
    for raw in log.splitlines()[after:]:
        if raw.split("#", 1)[0].strip():
            return raw
    return None


def appended_is_legal(pack: GamePack, table: Table, move: Move) -> list:
    """check's error and warning findings at the lines the move appends (none: legal): its line, or
    for the chance move `deal` (a round's set-up, listed as its `round N` line) the set-up it deals,
    which every game judges as a whole (a bare `round N` names no dealer in DOS)."""
    written = table.written(move)
    if move.kind != DEAL:
        assert [w.strip() for w in written] == [move.line], (move, written)
    else:
        assert written[0].strip() == move.line and move.chance and move.actor == "chance", (move, written)
    lines = [*table.judged_lines(), *written]
    at = len(lines) - len(written) + 1
    report = check("\n".join(lines) + "\n", game=pack.name, ruleset=table.ruleset, options=table.options or None)
    return [f for f in report.findings if f.line is not None and at <= f.line < at + len(written) and f.severity in BAD]


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_next_line_of_a_legal_log_is_listed_and_explained_legal(pack, seed):
    log = _log(pack, seed, whole=seed == 0)
    for after in sample(log, seed):
        table = Table.from_log(log, after)
        assert table.prefix.verdict == "legal" and table.prefix.findings == [], (after, table.prefix)
        line = next_line(log, after)
        if line is None:
            continue
        verdict = table.explain(line)
        listed = [m.line for m in table.legal_moves()]
        assert verdict.legal, (after, line, verdict, listed)
        assert verdict.canonical in listed


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_listed_line_appended_is_judged_legal_by_check(pack, seed):
    log = _log(pack, seed)
    for after in sample(log, seed + 1000):
        table = Table.from_log(log, after)
        moves = table.legal_moves()
        assert moves == sorted(moves, key=lambda m: m.line) or len({m.line for m in moves}) == len(moves)
        for move in moves:
            assert appended_is_legal(pack, table, move) == [], (after, move)
            assert table.explain(move.line).legal, (after, move)
            if move.chance and move.probability is not None:
                assert 0 < move.probability <= 1
        chance = [m.probability for m in moves if m.chance and m.probability is not None]
        if chance and table.to_move == "chance":
            assert abs(sum(chance) - 1) < 1e-9 or sum(chance) <= 1 + 1e-9


@pytest.mark.parametrize("seed", range(GAMES))
def test_the_log_round_trips_through_check(pack, seed):
    log = _log(pack, seed)
    table = Table.from_log(log)
    written = table.log()
    report = check(written, game=pack.name)
    assert report.verdict == "legal" and not [f for f in report.findings if f.severity in BAD], report.findings
    assert Table.from_log(written) == table


@pytest.mark.parametrize("seed", range(GAMES))
def test_pop_restores_the_position_and_copy_is_independent(pack, seed):
    log = _log(pack, seed)
    rng = random.Random(seed)
    for after in sample(log, seed + 2000)[:4]:
        table = Table.from_log(log, after)
        before = table.copy()
        assert before == table
        listing = table.legal_moves()
        for move in rng.sample(listing, min(5, len(listing))):
            table.play(move)
            assert before.legal_moves() == listing  # the copy did not move
            table.pop()
            assert table == before and table.legal_moves() == listing
            assert table.log() == before.log()
        with pytest.raises(IndexError):
            table.pop()


@pytest.mark.parametrize("seed", range(GAMES))
def test_pop_takes_back_a_long_run_of_moves(pack, seed):
    """pop past the copies the history keeps (one every few moves): each position comes back, chance
    moves and deals included, and the game plays on from it as before."""
    table = _self_play(pack, seed, steps=0)
    rng = random.Random(seed)
    seen: list[tuple[Table, str]] = []
    for _ in range(3 * SNAPSHOT + 5):
        moves = table.legal_moves()
        if not moves:
            break
        seen.append((table.copy(), table.log()))
        table.play_chance() if table.to_move == "chance" else table.play(rng.choice(moves))
    for before, log in reversed(seen):
        table.pop()
        assert table == before and table.log() == log and table.legal_moves() == before.legal_moves()
    with pytest.raises(IndexError):
        table.pop()


def _self_play(pack: GamePack, seed: int, steps: int = 50_000) -> Table:
    players = ["ann", "bob", "cy", "dee"][: pack.player_counts()[seed % len(pack.player_counts())]]
    table = Table.new(pack.name, players, seed=seed, ruleset=_ruleset(pack, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        moves = table.legal_moves()
        if not moves:
            break
        if table.to_move == "chance":
            table.play_chance()
        else:
            table.play(rng.choice(moves))
    return table


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_seeded_new_game_replays_identically_and_is_legal(pack, seed):
    a, b = _self_play(pack, seed), _self_play(pack, seed)
    assert a.log() == b.log() and a == b
    report = check(a.log(), game=pack.name)
    assert report.verdict == "legal" and not [f for f in report.findings if f.severity in BAD], report.findings
    assert a.game_over


def test_play_of_an_unreadable_line_raises_with_a_syntax_finding(pack):
    log = _log(pack, 0)
    table = Table.from_log(log, sample(log, 0)[-1])
    with pytest.raises(IllegalMove) as err:
        table.play("%%% no such sentence")
    verdict = err.value.verdict
    assert not verdict.legal and verdict.canonical is None
    assert [f.kind for f in verdict.findings] == ["syntax"]
    assert verdict.findings[0].line == len(table.judged_lines()) + 1


def test_a_listed_move_played_as_a_line_or_as_a_move_leaves_the_same_table(pack):
    log = _log(pack, 1)
    for after in sample(log, 1)[:3]:
        table = Table.from_log(log, after)
        for move in table.legal_moves()[:3]:
            by_move, by_line = table.copy(), table.copy()
            by_move.play(move)
            assert by_line.play(move.line) == move
            assert by_move == by_line


@settings(max_examples=count("DOSVERIFY_MOVES_FUZZ", 200, 40), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(line=st.text(max_size=40), after=st.integers(-5, 60))
def test_bad_input_never_crashes(pack, line, after):
    log = _log(pack, 2)
    try:
        table = Table.from_log(log, after)
    except (NotAPosition, MalformedLog):
        return
    verdict = table.explain(line)
    assert isinstance(verdict, Verdict)
    assert verdict.legal == (verdict.canonical in [m.line for m in table.legal_moves()]) or not verdict.legal
    if not verdict.legal:
        with pytest.raises(IllegalMove):
            table.play(line)


def test_move_values_say_what_they_are():
    move = Move("ann play R5", "ann", "play")
    assert move.to_dict() == {
        "line": "ann play R5",
        "actor": "ann",
        "kind": "play",
        "chance": False,
        "probability": None,
    }


def test_a_prefix_the_generator_cannot_replay_is_no_position_not_a_crash():
    """A JSON log whose set-up names a player the game has not (schemathesis found it: a 500 over
    HTTP) is judged by the referee; the table it cannot stand on is NotAPosition (exit 2, 422)."""
    body = (
        b'{"players": ["A", "A0"], "dos": 1, "options": {}, "rounds": [{"number": 1, "score": {"player": "A", '
        b'"points": 0}, "setup": [{"player": "B", "type": "dealer"}, {"cards": ["B10"], "type": "deck"}], '
        b'"shows": [], "totals": null}, {"number": 1, "turns": [{"player": "A"}]}]}'
    )
    with pytest.raises((NotAPosition, MalformedLog)):
        Table.from_log(body, None, form="json")
