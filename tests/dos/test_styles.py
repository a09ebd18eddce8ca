"""Every style of a generated game: what real logs contain must never be rejected, and a defect
must give the same findings (kind, rule, the corresponding line) however the log is written.

`DOSVERIFY_GAMES` scales the number of games (default 1000 one-round games, each written in every
style of `dosverify.games.dos.render.STYLES`); `DOSVERIFY_MUTANTS` the number of mutants (default 60).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from tiers import count

from dosverify.api import check
from dosverify.games.dos.mutate import OPERATORS
from dosverify.games.dos.notation import parse, write
from dosverify.games.dos.render import STYLES, Groups, decorate_text, render, undeclared
from dosverify.games.dos.simulate import Sim

RULESETS = ("official", "italian", "bosnian", "strict")
GAMES = count("DOSVERIFY_GAMES", 1000, 80)
MUTANTS = count("DOSVERIFY_MUTANTS", 60, 12)
# findings only a known deck can give: a log without `deck` lines cannot have them
DECK_ONLY = frozenset({"draw.top", "setup.deal", "cards.deck"})
OPTION_VALUES = {
    "no-match-after-draw": ("place", "pass"),
    "decline-match": ("allowed", "forbidden"),
    "after-draw-match": ("any", "drawn-only"),
    "next-dealer": ("winner", "left"),
}


def _games(n: int):
    """n one-round games over players, rulesets, an option set by an `option` line now and then,
    and the simulator's long rounds (about 1 in 8)."""
    combos = itertools.cycle(itertools.product((2, 3, 4), RULESETS))
    for seed, (p, rs) in zip(range(n), combos, strict=False):
        r = random.Random(seed)
        options = None
        if seed % 5 == 4:
            key = r.choice(sorted(OPTION_VALUES))
            options = {key: r.choice(OPTION_VALUES[key])}
        yield dict(players=p, seed=seed, ruleset=rs, deck=seed % 7 != 3, options=options)


# ---- the renderer itself -------------------------------------------------------------------


def test_canonical_style_is_the_writer_and_src_is_identity():
    for seed in range(12):
        log = (
            Sim(2 + seed % 3, seed, RULESETS[seed % 4], game=seed % 3 == 0, target=60, deck=seed % 2 == 0)
            .play()
            .to_log()
        )
        r = render(log, "canonical", seed)
        assert r.text == write(log)
        assert r.src == [(i,) for i in range(1, r.canonical_lines + 1)]


def test_styles_are_what_they_say():
    log = Sim(3, 5, "official", deck=True, game=True, target=100).play().to_log()
    canon = write(log)
    texts = {name: render(log, name, 1).text for name in STYLES}
    assert texts["decorated"].startswith("\ufeff") and "\r\n" in texts["decorated"] and "# " in texts["decorated"]
    assert "\r" not in texts["canonical"] and not texts["canonical"].startswith("\ufeff")
    assert not any(ln.startswith("deck ") for ln in texts["no-deck"].splitlines())
    rounds = len(log.rounds)
    assert sum(ln.startswith("hand ") for ln in texts["no-deck"].splitlines()) == 3 * rounds
    assert sum(ln.startswith("hand ") for ln in texts["setup-lines"].splitlines()) == 3 * rounds
    assert any(ln.strip() in ("draw", "refill") for ln in texts["bare"].splitlines())
    for name, text in texts.items():
        assert name == "canonical" or text != canon, f"style {name} changed nothing"
        body = text.lstrip("\ufeff").replace("\r\n", "\n")
        assert parse(body).findings == [], name


def test_each_style_does_its_part_over_games():
    """Over a few games, every transformation of every style happens (no style is a no-op)."""
    did: dict = {name: Counter() for name in STYLES}
    for kw in _games(40):
        log = Sim(**kw).play().to_log()
        for name in STYLES:
            did[name].update(render(log, name, kw["seed"]).did)
    want = {
        "no-deck": {"deck written as hand/center lines", "bare reshuffle"},
        "setup-lines": {"hand/center lines beside the deck"},
        "undeclared": {"declarations left out", "declarations left out, no colour match"},
        "single": {"lines split", "player on turn named"},
        "grouped": {"lines grouped"},
        "bare": {"bare draw", "bare refill"},
        "everything": {"hand/center lines beside the deck", "declarations left out", "lines grouped", "bare draw"},
        "no-deck-everything": {"deck written as hand/center lines", "declarations left out", "lines split"},
    }
    for name, keys in want.items():
        assert keys <= {k for k, v in did[name].items() if v}, (name, did[name])


@pytest.mark.parametrize(
    "target,cards,out",
    [
        ("W2=R", ["R1", "G1"], ("W2", ["R1", "G1"])),  # R1 and G1 differ: no colour match whatever W2 is
        ("W2=B", ["R1", "R1"], None),  # played as no colour match, but W2=R would be one: keep the declaration
        ("W2=R", ["R1", "R1"], ("W2", ["R1", "R1"])),
        ("B10", ["B#=3", "B7"], ("B10", ["B#", "B7"])),
        ("B10", ["R#=3", "B7"], ("B10", ["R#", "B7"])),  # R# is red whatever its number: no colour match either way
        ("R5", ["W2=R", "R3"], ("R5", ["W2", "R3"])),
        ("R5", ["W2=G", "R3"], None),  # W2 could be red: the favourable reading is not the one played
        ("G#=7", ["G7"], ("G#", ["G7"])),
        ("B10", ["B#=4", "B7"], None),  # does not add up as written
        ("B10", ["B3", "B7"], None),  # nothing to leave out
    ],
)
def test_undeclared_only_where_the_favourable_reading_is_played(target, cards, out):
    assert undeclared(target, cards) == out


# ---- legal games in every style ------------------------------------------------------------


def test_every_style_of_a_legal_game_is_legal():
    """GAMES one-round games (long rounds, options and every ruleset among them), each written in
    every style: none is rejected."""
    bad = []
    for kw in _games(GAMES):
        sim = Sim(**kw).play()
        log = sim.to_log()
        for name in STYLES:
            r = render(log, name, kw["seed"])
            report = check(r.text, name=f"{name}-{kw['seed']}")
            if report.verdict == "legal":
                continue
            f = report.findings[0]
            line = r.text.lstrip("\ufeff").splitlines()[f.line - 1].strip() if f.line and f.line <= len(r.src) else ""
            bad.append(f"{kw} style {name}: {report.verdict}, line {f.line} `{line}` {f.rule}: {f.message}")
    assert not bad, f"{len(bad)} renderings of legal games rejected:\n" + "\n".join(bad[:12])


# ---- mutants in every style ----------------------------------------------------------------


def _first_difference(a: str, b: str) -> int:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False), 1):
        if x != y:
            return i
    return min(len(la), len(lb)) + 1


def _renderings(text: str, mutant: str, seed: int) -> dict:
    """The mutant in every style it can be written in: as events when it reads as events (and
    writes back as it is), else (a syntax defect) in the styles that only change the lexical layer."""
    p = parse(mutant)
    if p.log is None or p.findings or write(p.log) != mutant:
        return {name: decorate_text(mutant, st, seed) for name, st in STYLES.items() if st.lexical_only}
    start = _first_difference(text, mutant)
    return {name: render(p.log, st, seed, known_until=start) for name, st in STYLES.items()}


def _once_per_split_line(rd, findings):
    """A style that writes one line as several (`single`: `draw bob B3 B7` as two draws) repeats
    whatever is wrong in the words they share, e.g. a misspelt name: the same finding, word for word,
    on each part is the one mistake of the one line it was written as, and counts once."""
    seen = set()
    for f in findings:
        src = rd.src[f.line - 1] if f.line and f.line <= len(rd.src) else None
        key = (f.kind, f.rule, f.message, src)
        if src and key in seen:
            continue
        seen.add(key)
        yield f


def _mutant_differences(seed: int, op: str) -> tuple[int, list, list]:
    """(renderings compared, differences, follow-on differences) for one operator on one game."""
    r = random.Random(seed)
    sim = Sim(r.randint(2, 4), seed, r.choice(RULESETS), rounds=2, deck=True, target=60).play()
    text = write(sim.to_log())
    m = OPERATORS[op](text, random.Random(seed))
    if m is None:
        return 0, [], []
    legal_in = {name for name in STYLES if check(render(sim.to_log(), name, seed).text).verdict == "legal"}
    if "canonical" not in legal_in:
        return 0, [], []
    rends = _renderings(text, m.text, seed)
    groups = Groups()
    for rd in rends.values():
        for s in rd.src:
            if len(s) > 1:
                groups.join(s)
    base = check(m.text).findings
    compared, diffs, follow_ons = 0, [], []
    for name, rd in rends.items():
        if name not in legal_in:
            continue  # the legal game is not legal in this style: test_every_style_of_a_legal_game_is_legal says so
        deckless = not STYLES[name].deck
        if deckless and m.rule in DECK_ONLY:
            continue
        want = Counter(
            (f.kind, f.rule, groups.canonical(f.line, rd.canonical_lines))
            for f in base
            if not (deckless and f.rule in DECK_ONLY)
        )
        got = Counter(
            (f.kind, f.rule, rd.unit(f.line, groups)) for f in _once_per_split_line(rd, check(rd.text).findings)
        )
        compared += 1
        if got == want:
            continue
        at = groups.canonical(m.line, rd.canonical_lines)
        defect = (m.kind, m.rule, at)
        differing = list((want - got) + (got - want))
        later = all(isinstance(u, int) and isinstance(at, int) and u > at for _, _, u in differing)
        note = (
            seed,
            op,
            m.note,
            name,
            "missing:",
            sorted(want - got, key=str)[:4],
            "extra:",
            sorted(got - want, key=str)[:4],
        )
        if want[defect] and got[defect] and later:
            follow_ons.append(note)  # the defect is found alike; only findings after it differ
        else:
            if (op, name) in KNOWN_STYLE_DIFFERENCES:  # a known defect: an expected failure, named
                follow_ons.append(("known defect", KNOWN_STYLE_DIFFERENCES[op, name], *note))
            else:
                diffs.append(note)
    return compared, diffs, follow_ons


# Known defects, each a (operator, style) the referee still judges differently (issue 8, open):
# reported as an expected failure, never silently passed.
KNOWN_STYLE_DIFFERENCES: dict[tuple[str, str], str] = {
    # none known: ("swapped_cards", "single") went once a card below the top, drawn alone, is read
    # as a swap when q's next lines draw the cards above it (R27), not as those cards left out
}


def test_a_mutant_gives_the_same_findings_in_every_style():
    """MUTANTS (seed, operator) pairs, every operator in turn: the mutant's findings in every style
    it can be written in are those of the canonical text, line for line. Differences only in the
    findings after the defect (follow-ons, which "one mistake, one finding" of issue 8 removes on
    another branch) are told apart and reported as an expected failure."""
    ops = sorted(OPERATORS)
    compared, diffs, follow_ons = 0, [], []
    for i in range(MUTANTS):
        c, d, f = _mutant_differences(1000 + i, ops[i % len(ops)])
        compared += c
        diffs += d
        follow_ons += f
    assert compared >= MUTANTS, compared
    assert not diffs, f"{len(diffs)} renderings of mutants give other findings:\n" + "\n".join(map(str, diffs[:6]))
    if follow_ons:
        pytest.xfail(
            f"issue 8, one mistake one finding (follow-on findings after the defect differ between styles): "
            f"{len(follow_ons)} rendering(s), e.g. {follow_ons[0]}"
        )


# ---- the command line ----------------------------------------------------------------------


def test_simulate_writes_any_style(tmp_path, capsys):
    from dosverify.games.dos.simulate import main_simulate

    out = tmp_path / "g.dos"
    assert (
        main_simulate(
            [
                "--players",
                "2",
                "--seed",
                "3",
                "--style",
                "decorated",
                "--option",
                "decline-match=forbidden",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    data = out.read_bytes()
    assert data.startswith("\ufeff".encode()) and b"\r\n" in data and b"option decline-match forbidden" in data
    assert check(data, name="g.dos").verdict == "legal"
    assert main_simulate(["--list-styles"]) == 0
    assert set(STYLES) <= set(capsys.readouterr().out.split())
    assert main_simulate(["--style", "bare", "--format", "json"]) == 2
    assert main_simulate(["--option", "decline-match"]) == 2
    assert main_simulate(["--option", "decline-match=sometimes"]) == 2
    assert main_simulate(["--long-round", "thin", "--seed", "2", "-o", str(out)]) == 0
