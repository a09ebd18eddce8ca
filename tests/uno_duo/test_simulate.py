"""The UNO Duo simulator (the test side's second implementation of the rules): deterministic, every
option value played, the moments that find bugs reached, every rendering written, its logs consistent
under the test side's own replayer, and (once the referee is there) legal under the referee."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from tiers import count

from dosverify.games.uno_duo.simulate import simulate, simulate_json
from dosverify.games.uno_duo.simulate.cards import OPTIONS, composition, full_deck
from dosverify.games.uno_duo.simulate.emit import STYLES
from dosverify.games.uno_duo.simulate.replay import errors, replay

from .simside import GAMES, error_findings, referee

N_MOMENTS = 80  # whole games over which every moment must occur


def test_deterministic_by_seed():
    for seed in range(5):
        for style in ("canonical", "everything"):
            a = simulate(seed=seed, whole_game=True, style=style)
            assert a == simulate(seed=seed, whole_game=True, style=style)
    assert len({simulate(seed=s) for s in range(10)}) == 10


def test_deck_table_is_the_contracts():
    """U1: 112 cards (108 under `deck 108`); the simulator's own table agrees card by card with
    spec/uno-duo/deck.toml as the referee reads it (per colour, then the wilds of each deck)."""
    deck = composition("112")
    assert deck.total() == 112 and composition("108").total() == 108
    assert deck["R0"] == 1 and deck["R5"] == 2 and deck["GS"] == 2 and deck["W"] == 8 and deck["W+4"] == 4
    from dosverify.games.uno_duo import cards as referee_cards

    for size in ("112", "108"):
        assert dict(composition(size)) == dict(referee_cards.composition(size)), size
        assert sorted(full_deck(size)) == sorted(referee_cards.full_deck(size)), size


@pytest.mark.parametrize("key,value", [(k, v) for k, vs in OPTIONS.items() for v in vs])
def test_every_option_value_plays(key, value):
    """Each option value gives finished games the test side's replayer finds nothing wrong with."""
    finished = 0
    for seed in range(6):
        text = simulate(seed=seed, options={key: value}, whole_game=seed % 2 == 0, target=120)
        rp = replay(text)
        assert not errors(rp), (seed, errors(rp)[:3])
        assert f"option {key} {value}" in text
        finished += len(rp.score_lines)
    assert finished >= 4


def test_all_options_together():
    for seed in range(count("DOSVERIFY_UNO_ALL_OPTIONS", 30, 8)):
        rng = random.Random(seed)
        opts = {k: rng.choice(v) for k, v in OPTIONS.items()}
        for style in ("canonical", "hands-everything", "mixed-draws"):
            rp = replay(simulate(seed=seed, options=opts, style=style, whole_game=True, target=80))
            assert not errors(rp), (seed, opts, style, errors(rp)[:3])


def _moments(n: int) -> Counter:
    total: Counter = Counter()
    for seed in range(n):
        opts = {"start-volley": "yes"} if seed % 4 == 3 else {}
        total += replay(simulate(seed=seed, whole_game=True, options=opts)).moments
    return total


MOMENTS = {
    "volley3": "a Draw 2 volley of three or more",
    "run-out": "a Reverse run that empties the hand",
    "start-S": "a turned-up Skip",
    "start-R": "a turned-up Reverse",
    "start-+2": "a turned-up Draw 2",
    "start-W+4": "a turned-up Wild Draw 4",
    "start-run": "a start run",
    "challenge-won": "a WD4 challenge won",
    "challenge-lost": "a WD4 challenge lost",
    "catch": "an UNO catch",
    "late-call": "a late UNO call",
    "reshuffle-volley": "a reshuffle in the middle of a volley's draw",
    "end-action": "a round ending on an action card",
    "stack": "a stacked Draw 2",
}


@pytest.mark.slow  # 80 whole games; the quick tier keeps test_last_draw_moment and the renderings
def test_moments_occur():
    """Counted from the emitted text by the test side's replayer."""
    got = _moments(N_MOMENTS)
    missing = [desc for key, desc in MOMENTS.items() if got[key] == 0]
    assert not missing, (missing, got)


def test_last_draw_moment():
    got = Counter()
    for seed in range(30):
        got += replay(simulate(seed=seed, whole_game=True, options={"last-draw": "yes"})).moments
    assert got["last-draw"] > 0


def test_every_rendering_is_written():
    texts = {name: "".join(simulate(seed=s, whole_game=True, style=name) for s in range(12)) for name in STYLES}
    assert "\ndeck " in texts["canonical"] and "\ndraft " in texts["canonical"]
    assert "\ndeck " not in texts["no-deck"] and "\ndraft " in texts["no-deck"]
    assert "\nhand " in texts["hands"] and "\ndraft " not in texts["hands"]
    assert texts["decorated"].startswith("\ufeff") and "\r\n" in texts["decorated"] and "# " in texts["decorated"]
    assert "\t" in texts["everything"] and '\nevent "' in texts["everything"].replace("\r", "")
    for name in ("bare", "everything", "mixed-draws"):
        lines = [ln.strip() for ln in texts[name].replace("\r", "").split("\n")]
        assert any(
            ln == "draw" or (ln.startswith("draw ") and len(ln.split()) == 2 and ln.split()[1].islower())
            for ln in lines
        ), name
    single = [ln.strip() for ln in texts["single"].split("\n") if ln.strip().startswith("draw")]
    assert all(len(ln.split()) <= 3 for ln in single)
    grouped = [ln.strip() for ln in texts["canonical"].split("\n") if ln.strip().startswith("draw")]
    assert any(len(ln.split()) >= 3 for ln in grouped)
    assert any(ln.strip() == "reshuffle" for ln in texts["mixed-draws"].split("\n"))
    assert any(ln.strip().startswith("reshuffle ") for ln in texts["canonical"].split("\n"))
    assert sum(text.count("\ndeck ") for text in [texts["decorated"]]) > sum(1 for _ in range(12))
    assert "\ntotals " not in texts["no-totals"] and "\nwinner " not in texts["no-totals"]


@pytest.mark.parametrize("style", sorted(STYLES))
def test_logs_are_consistent(style):
    """The test side's own replay: nothing broken, 7 cards each after the set-up, every card of the deck
    accounted for at each score, scores equal the hands' values (score.values would be reported)."""
    for seed in range(25):
        opts = {"deck": "108"} if seed % 5 == 4 else {}
        rp = replay(simulate(seed=seed, whole_game=True, style=style, options=opts, target=150))
        assert not errors(rp), (seed, errors(rp)[:3])
        size = 108 if opts else 112
        assert all(n == size for n in rp.accounts), rp.accounts
        assert all(d == {p: 7 for p in rp.players} for d in rp.dealt)
        assert len(rp.score_lines) >= 1


def test_json_rendering():
    doc = simulate_json(seed=3, whole_game=True, target=100)
    assert json.loads(json.dumps(doc)) == doc
    assert doc["uno-duo"] == 1 and "dos" not in doc and len(doc["players"]) == 2
    rnd = doc["rounds"][0]
    kinds = [s["type"] for s in rnd["setup"]]
    assert kinds[0] == "drafter" and kinds[1] == "deck" and kinds.count("draft") == 14 and kinds[-1] == "start"
    assert Counter(rnd["setup"][1]["cards"]) == Counter(full_deck())
    events = {e["type"] for r in doc["rounds"] for t in r["turns"] for e in t["events"]}
    assert {"play", "draw"} <= events
    assert set(rnd["score"]) == {"player", "points"} and "entries" in rnd["totals"]
    assert doc["winner"]["player"] in doc["players"]


# the contract's Example 1 (design/uno-duo.md, section 3), copied: the replayer that confirms the mutants must
# read it as the contract does (legal; its two illegal variants one finding each)
EXAMPLE_1 = """\
uno-duo 1
event "Kitchen table"
players ann bob
target 50  # over after one round

round 1
drafter ann  # Player 1; bob plays first
draft ann keep G+2 discard R3  # kept G+2, turned R3 up
draft bob discard B7 keep R+2  # threw B7, must keep R+2
draft ann keep GR discard Y9
draft bob keep G4 discard G6
draft ann discard R8 keep G3
draft bob keep B4 discard B2
draft ann keep G8 discard Y0
draft bob keep B9 discard G9
draft ann discard RS keep YS
draft bob keep Y2 discard B5
draft ann keep Y5 discard Y3
draft bob discard G1 keep W
draft ann keep W+4 discard R6
draft bob keep GS discard BR
start R7  # the 14 discards lie under the pile

turn bob
  play R+2
turn ann
  play G+2  # volley: bob owes 4
turn bob
  draw B1 R5 Y7 G0  # no Draw 2: draws 4, turn over
turn ann
  play GR G3 G8  # a Reverse, then all other greens
turn bob
  play GS  # Skip: bob plays again
  play G4
turn ann
  play W+4=Y  # ann holds no other playable card: a challenge will fail
turn bob
  challenge
  draw R9 B6 Y+2 G7 R1 BS  # so the challenger draws 6
turn ann
  play YS
  uno  # one card left
  play Y5  # the Skip's second play: out
score bob 86
totals ann 0 bob 86
winner ann
"""


def test_replayer_reads_the_contracts_example():
    assert errors(replay(EXAMPLE_1)) == []
    lines = EXAMPLE_1.split("\n")
    assert lines[33].strip() == "play G4"
    v1 = "\n".join([*lines[:33], "  play B4", *lines[34:]])
    assert [(f.line, f.rule) for f in errors(replay(v1))] == [(34, "play.match")]
    assert lines[27].strip() == "turn bob"
    v2 = "\n".join([*lines[:28], "  challenge", *lines[28:]])
    assert [(f.line, f.rule) for f in errors(replay(v2))] == [(29, "wd4.challenge")]


# ---- under the referee --------------------------------------------------------------------------------


@pytest.mark.parametrize("style", sorted(STYLES))
def test_generated_games_are_legal(style):
    """DOSVERIFY_GAMES games (default 200) a rendering, with option values drawn per game: no error."""
    pack = referee()
    bad = []
    for seed in range(GAMES):
        rng = random.Random(seed)
        opts = {k: rng.choice(v) for k, v in OPTIONS.items() if rng.random() < 0.3}
        text = simulate(seed=seed, options=opts, style=style, whole_game=seed % 3 == 0, target=150)
        errs = error_findings(pack.check(text, name=f"seed{seed}"))
        if errs:
            bad.append((seed, opts, [(f.line, f.rule) for f in errs[:3]]))
    assert not bad, f"{len(bad)} of {GAMES} illegal, first: {bad[:3]}"


def test_json_games_are_legal():
    pack = referee()
    for seed in range(min(GAMES, 50)):
        report = pack.check(simulate_json(seed=seed, whole_game=seed % 2 == 0, target=150), form="json")
        assert not error_findings(report), seed
