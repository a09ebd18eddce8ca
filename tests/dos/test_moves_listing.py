"""DOS's move generator against the referee, over generated games (issue 33): every next line of a
legal log is listed; every listed line, appended, is judged legal by `check`; a one-defect mutant's
defect line is not listed where it stands; lines a player may not write are refused by both."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dosmoves import MOVES, positions, walk
from tiers import count

from dosverify.api import check
from dosverify.games.dos.hide import hide
from dosverify.games.dos.moves import FaceDownView
from dosverify.games.dos.mutate import OPERATORS, mutate
from dosverify.games.dos.notation import parse, write
from dosverify.games.dos.simulate import simulate_text
from dosverify.moves import Table
from dosverify.moves.model import NotAPosition

RULESETS = ("official", "bosnian", "italian", "strict")
GAMES = count("DOSVERIFY_MOVES_GAMES", 24, 4)
SAMPLES = count("DOSVERIFY_MOVES_SAMPLES", 12, 3)
MUTANTS = count("DOSVERIFY_MOVES_MUTANTS", 6, 2)
#: readings where the referee reports a defect only once a later line shows it: a mutant's line is then
#: one the generator may list at its position (file: tests/dos/moves_lookahead.txt, each with its reason)
LOOKAHEAD = Path(__file__).with_name("moves_lookahead.txt")


def _games():
    for i in range(GAMES):
        yield RULESETS[i % 4], 2 + i % 3, i, ("canonical", "no-deck", "single", "bare", "undeclared")[i % 5]


def _text(ruleset: str, players: int, seed: int, style: str) -> str:
    return simulate_text(players, seed, ruleset, rounds=2, style=style)


@pytest.mark.parametrize("ruleset,players,seed,style", list(_games()))
def test_every_next_line_is_listed(ruleset, players, seed, style):
    text = _text(ruleset, players, seed, style)
    seen = 0
    for _pos, n, part, canon, listed in walk(text):
        assert canon in listed, f"line {n} `{part}` ({canon}) not listed: {listed}"
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("ruleset,players,seed,style", list(_games())[: max(2, GAMES // 2)])
def test_every_listed_line_is_judged_legal(ruleset, players, seed, style):
    text = _text(ruleset, players, seed, style)
    rng = random.Random(seed)
    lines = text.splitlines()
    spots = [n for a, b in positions(text) for n in range(a, b + 1)]
    for n in rng.sample(spots, min(SAMPLES, len(spots))):
        pos, at = MOVES.from_log(text, None, n, None, {})
        prefix = lines[:at]
        for m in pos.legal_moves():
            probe = pos.copy()
            probe.push(m)  # a `round N` is the chance move `deal`: it writes the round's whole set-up
            assert m.kind != "deal" or (
                m.chance and m.line.startswith("round ") and len(probe.lines()) > len(pos.lines()) + 1
            )
            appended = probe.lines()[len(pos.lines()) :]
            log = "\n".join(prefix + appended) + "\n"
            end = at + len(appended)  # findings past it are steps owed at the log's end, not this line's
            bad = [f for f in check(log).findings if f.line is not None and at < f.line <= end]
            assert not bad, f"after line {at}: `{m.line}` gives {[(f.rule, f.message) for f in bad]}"


def _lookahead_rules() -> set[str]:
    return {ln.split()[0] for ln in LOOKAHEAD.read_text().splitlines() if ln.strip() and not ln.startswith("#")}


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_mutant_defect_line_is_not_listed(op):
    """The defect line, tried at its position, is not a listed move (unless a reading looks ahead)."""
    exempt = _lookahead_rules()
    tried = 0
    for seed in range(MUTANTS * 4):
        if tried >= MUTANTS:
            break
        text = _text(RULESETS[seed % 4], 2 + seed % 3, seed, "canonical")
        mut = mutate(text, op, random.Random(seed))
        if mut is None or mut.rule in exempt or op in exempt:
            continue
        lines = mut.text.splitlines()
        before = mut.line - 1
        while before > 0 and not lines[before - 1].strip():
            before -= 1
        try:
            pos, at = MOVES.from_log(mut.text, None, before, None, {})
            listed = {m.line for m in pos.legal_moves()}
        except ValueError:  # a defect in the header or a set-up: not a position
            continue
        tried += 1
        line = lines[mut.line - 1]
        canon = pos.canonical(line)
        assert canon not in listed, f"{op} (seed {seed}): defect line {mut.line} `{line}` is listed"


@pytest.mark.parametrize("op", ["swap_refill_bonus", "swap_bonus_penalty", "swap_penalty_dcm", "drop_turn_line"])
def test_a_lookahead_defect_line_is_refused_with_the_rule_check_gives_it(op):
    """A defect the referee reports only once a later line arrives (R9: a step before the one it
    jumped): tried at its position, the line is refused, and its findings (deferred ones when
    `check` of the cut log sees nothing yet) hold the rule `check` gives that line in the mutant."""
    tried = deferred = 0
    for seed in range(40):
        if tried >= max(2, MUTANTS):
            break
        text = _text(RULESETS[seed % 4], 2 + seed % 3, seed, "canonical")
        mut = mutate(text, op, random.Random(seed))
        if mut is None:
            continue
        lines = mut.text.splitlines()
        try:
            table = Table.from_log(mut.text, after=mut.line - 1)
        except NotAPosition:
            continue
        at_line = {f.rule for f in check(mut.text).findings if f.line == mut.line and f.severity == "error"}
        verdict = table.explain(lines[mut.line - 1])
        assert not verdict.legal, f"{op} seed {seed}: `{lines[mut.line - 1]}` judged legal"
        assert at_line & {f.rule for f in verdict.findings}, (op, seed, at_line, verdict.to_dict())
        tried += 1
        deferred += verdict.deferred
    assert tried
    if op != "drop_turn_line":  # R9's: the cut log shows nothing at the line, the later one does
        assert deferred == tried


def test_a_reshuffle_for_a_round_ending_match_lists_the_draws_it_serves():
    """Found by the probe's test at full counts (seed 36): after `match B#=4 with Y4` and a reshuffle
    of the pile with the matched cards (official, 2 players), the generator listed nothing (a cut right
    after a reshuffle did not know its draw is a step's, so the matched cards stayed on the table), and
    the prefix was judged illegal (reshuffle.when: the draw it serves is owed, not missing)."""
    text = _text("official", 2, 36, "canonical")
    lines = text.splitlines()
    at = next(i for i, raw in enumerate(lines) if raw.strip().startswith("reshuffle R6 R# B#")) + 1
    table = Table.from_log(text, after=at)
    assert [m.line for m in table.legal_moves()] == ["draw bob R6"]
    assert table.explain(lines[at]).legal
    assert table.prefix.verdict == "legal", table.prefix.to_dict()
    bare = "\n".join([*lines[: at - 1], "  reshuffle", *lines[at:]]) + "\n"  # the order not written
    table = Table.from_log(bare, after=at)
    assert table.prefix.verdict == "legal", table.prefix.to_dict()
    assert {m.line for m in table.legal_moves()} >= {"draw bob R6", "draw bob Y4"}
    assert table.explain(lines[at]).legal


def test_every_position_right_after_a_reshuffle_lists_the_line_that_follows():
    """Each reshuffle of generated games (every ruleset, 2 to 4 players): cut right after it, the
    position lists the draw or refill the log writes next, and the prefix owes it, not misses it."""
    seen = 0
    for seed in range(GAMES * 3):
        text = _text(RULESETS[seed % 4], 2 + seed % 3, seed, "canonical")
        lines = text.splitlines()
        for at, raw in enumerate(lines, 1):
            if not raw.strip().startswith("reshuffle") or at >= len(lines):
                continue
            table = Table.from_log(text, after=at)
            assert table.prefix.verdict == "legal", (seed, at, table.prefix.to_dict())
            assert table.explain(lines[at]).legal, (seed, at, lines[at])
            seen += 1
    assert seen


def test_sampled_unlisted_lines_are_refused():
    """A card not held, a wrong sum, a line out of turn: not listed, and `check` finds an error there."""
    text = _text("official", 3, 5, "canonical")
    lines = text.splitlines()
    rng = random.Random(5)
    spots = [n for a, b in positions(text) for n in range(a, b + 1)]
    refused = 0
    for n in rng.sample(spots, min(40, len(spots))):
        pos, at = MOVES.from_log(text, None, n, None, {})
        t = pos.tb.t
        if t is None or t.step or t.matches or t.drew or t.immediate or t.drawing:
            continue
        listed = {m.line for m in pos.legal_moves()}
        p = t.player
        other = next(q for q in pos.g.players if q != p)
        held = set(pos.tb.hands[p])
        row = pos.tb.cr
        tries = [f"place {c}" for c in ("R7", "G9", "B4") if c not in held]  # no draw yet, a card maybe not held
        tries += [f"match {row[0]} with {c}" for c in ("R1", "G10", "Y5") if c not in held][:1]
        tries.append(f"catch {other} by {p}" if len(pos.tb.hands[other]) != 2 else f"dos {other}")
        for line in tries:
            canon = pos.canonical(line)
            if canon in listed:
                continue
            log = "\n".join([*lines[:at], line]) + "\n"
            errs = [f for f in check(log).findings if f.line == at + 1 and f.severity in ("error", "warning")]
            assert errs, f"after line {at}: `{line}` is not listed, yet check finds nothing there"
            refused += 1
    assert refused > 5


@pytest.mark.parametrize("seed", range(max(2, GAMES // 4)))
def test_seat_view_lists_its_own_turns(seed):
    """A seat view lists the lines of its own seat's turns; a table view refuses to list."""
    text = _text(RULESETS[seed % 4], 2 + seed % 3, seed, "canonical")
    log = parse(text).log
    seat = log.players[0]
    view = write(hide(log, f"seat:{seat}"))
    own = 0
    for pos, n, part, canon, _ in _seat_walk(view):
        t = pos.tb.t
        if t is not None and t.player == seat:
            assert canon in [m.line for m in pos.legal_moves()], f"line {n} `{part}`"
            own += 1
    assert own > 5
    table = write(hide(log, "table"))
    pos, _ = MOVES.from_log(table, None, None, None, {})
    with pytest.raises(FaceDownView):
        pos.legal_moves()


def _seat_walk(text: str):
    from dosmoves import NOT_LISTED, _keyword, parts

    from dosverify.moves.model import Move

    lines = text.splitlines()
    for a, b in positions(text):
        pos, _ = MOVES.from_log(text, None, a, None, {})
        for n in range(a + 1, b + 1):
            kw = _keyword(lines[n - 1])
            if kw is None:
                continue
            for part in parts(lines[n - 1]):
                if kw not in NOT_LISTED:
                    yield pos, n, part, pos.canonical(part), None
                pos.push(Move(part, "", kw))
