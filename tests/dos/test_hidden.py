"""The provenance of face-down cards (referee/hidden.py) against a brute-force search.

Small random games over a tiny deck: `?` dealt and drawn, written cards out of the pile,
reveals, discards and reshuffles (only when the pile is empty, as in a game). For every
game, the first step at which the method finds no fitting choice must be the first step
at which no assignment of cards to the `?` fits, found by trying them all."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from dosverify.games.dos.referee.hidden import Provenance

COMP = Counter({"A": 2, "B": 2, "C": 1})
PLAYERS = ("p", "q")


def random_game(rng: random.Random, steps: int = 14, comp=COMP, players=PLAYERS) -> list[tuple]:
    """A game played with real cards, then written with `?` for every card drawn face
    down; one line in five names a card at random instead (often an impossible one)."""
    ops: list[tuple] = []
    pile = Counter(comp)  # the real pile
    hidden = {p: [] for p in players}  # the real cards behind each player's `?`
    written: list[str] = []  # written cards out of the pile, not yet discarded
    discard = Counter()
    tokens = 0
    while len(ops) < steps and tokens < 7:
        size = sum(pile.values())
        choices = []
        if size > 0:
            choices += ["tok", "tok", "out"]
        if any(hidden.values()):
            choices += ["reveal", "reveal"]
        if written:
            choices.append("discard")
        if size == 0 and discard:
            choices.append("reshuffle")
        if not choices:
            break
        c = rng.choice(choices)
        wild = rng.random() < 0.2
        if c == "tok":
            p = rng.choice(players)
            x = rng.choice(sorted(pile.elements()))
            pile[x] -= 1
            hidden[p].append(x)
            ops.append(("tok", p))
            tokens += 1
        elif c == "out":
            x = rng.choice(sorted(comp)) if wild else rng.choice(sorted(pile.elements()))
            if pile[x] > 0:
                pile[x] -= 1
            else:  # an impossible card: some real card leaves the pile in its place
                pile[rng.choice(sorted(pile.elements()))] -= 1
            ops.append(("out", x))
            written.append(x)
        elif c == "reveal":
            p = rng.choice([p for p in players if hidden[p]])
            x = rng.choice(sorted(comp)) if wild else rng.choice(hidden[p])
            hidden[p].remove(x if x in hidden[p] else rng.choice(hidden[p]))
            ops.append(("reveal", p, x))
            discard[x] += 1
        elif c == "discard":
            discard[written.pop(rng.randrange(len(written)))] += 1
        else:
            ops.append(("back", Counter(discard)))
            pile = Counter(discard)
            discard = Counter()
    return ops


def method_first_failure(ops, comp=COMP) -> int | None:
    prov = Provenance(comp)
    for i, op in enumerate(ops):
        ok = True
        if op[0] == "tok":
            prov.token(op[1])
        elif op[0] == "out":
            ok = prov.out(op[1])
        elif op[0] == "back":
            prov.reshuffle(op[1])
        else:
            ok = prov.reveal(op[1], op[2])
        if not ok:
            return i
    return None


def _fits(ops, labels, upto: int, comp, players) -> bool:
    pile = Counter(comp)
    held = {p: Counter() for p in players}
    k = 0
    for op in ops[: upto + 1]:
        if op[0] == "tok":
            x = labels[k]
            k += 1
            pile[x] -= 1
            held[op[1]][x] += 1
            if pile[x] < 0:
                return False
        elif op[0] == "out":
            pile[op[1]] -= 1
            if pile[op[1]] < 0:
                return False
        elif op[0] == "back":
            pile.update(op[1])
        else:
            if held[op[1]][op[2]] <= 0:
                return False
            held[op[1]][op[2]] -= 1
    return True


def brute_first_failure(ops, comp=COMP, players=PLAYERS) -> int | None:
    n = sum(1 for op in ops if op[0] == "tok")
    choices = list(itertools.product(sorted(comp), repeat=n))
    for i in range(len(ops)):
        # only the `?` drawn up to step i matter for the lines up to i
        m = sum(1 for op in ops[: i + 1] if op[0] == "tok")
        if not any(_fits(ops, labels, i, comp, players) for labels in {c[:m] + ("A",) * (n - m) for c in choices}):
            return i
    return None


@pytest.mark.parametrize("seed", range(300))
def test_method_agrees_with_brute_force(seed):
    ops = random_game(random.Random(seed))
    assert method_first_failure(ops) == brute_first_failure(ops), ops


COMP3 = Counter({"A": 2, "B": 1, "C": 1, "D": 2})


@pytest.mark.parametrize("seed", range(100))
def test_method_agrees_with_brute_force_three_players(seed):
    ops = random_game(random.Random(seed), steps=18, comp=COMP3, players=("p", "q", "r"))
    assert method_first_failure(ops, COMP3) == brute_first_failure(ops, COMP3, ("p", "q", "r")), ops


def test_the_small_games_do_reach_failures_and_reshuffles():
    games = [random_game(random.Random(s)) for s in range(300)]
    assert sum(any(op[0] == "back" for op in g) for g in games) > 50
    firsts = [brute_first_failure(g) for g in games]
    assert sum(f is not None for f in firsts) > 50 and sum(f is None for f in firsts) > 50


def test_the_reshuffle_case_of_the_issue():
    # both copies of A lie in the discard pile when p draws a `?`; a reshuffle returns
    # them; p cannot reveal A from that `?`, only from a `?` drawn after the reshuffle
    comp = Counter({"A": 2, "B": 1})
    prov = Provenance(comp)
    assert prov.out("A") and prov.out("A")  # both A out (then discarded)
    prov.token("p")  # p draws B: the only card left
    prov.reshuffle(Counter({"A": 2}))  # the pile was empty: reshuffle
    assert not prov.reveal("p", "A")
    prov2 = Provenance(comp)
    prov2.out("A"), prov2.out("A")
    prov2.token("p")
    prov2.reshuffle(Counter({"A": 2}))
    prov2.token("p")  # drawn after the reshuffle: may be A
    assert prov2.reveal("p", "A") and prov2.reveal("p", "B")
