"""Operators: score, totals, winner, the dealer and passes."""

from __future__ import annotations

import random

from ....spec import load_spec
from ... import Mutation
from .analysis import analyse
from .sites import _choose, replace_line


def op_wrong_score(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "score"])
    if not ln:
        return None
    n = int(ln.words[2])
    m = n + rng.randint(1, 20) if n < 5 or rng.random() < 0.5 else n - rng.randint(1, min(n, 20))
    new = f"score {ln.words[1]} {m}"
    return Mutation("wrong_score", replace_line(text, ln.no, new), "mis-scored", "score.round", ln.no, new)


def op_wrong_totals(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "totals"])
    if not ln:
        return None
    w = list(ln.words)
    i = 2 * rng.randrange((len(w) - 1) // 2) + 2
    w[i] = str(int(w[i]) + rng.randint(1, 30))
    new = " ".join(w)
    return Mutation("wrong_totals", replace_line(text, ln.no, new), "mis-scored", "score.totals", ln.no, new)


def op_wrong_winner(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "winner"])
    if not ln:
        return None
    new = f"winner {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_winner", replace_line(text, ln.no, new), "mis-scored", "game.winner", ln.no, new)


def op_wrong_dealer(text: str, rng: random.Random) -> Mutation | None:
    """Another player named on a later round's `dealer` line. The rest of the round follows the
    real dealer, so the referee takes the name as the slip (READINGS R48): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "dealer" and x.round >= 2])
    if not ln:
        return None
    new = f"dealer {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_dealer", replace_line(text, ln.no, new), "turn-order", "setup.dealer", ln.no, new)


def op_wrong_first_dealer(text: str, rng: random.Random) -> Mutation | None:
    """Another player named on round 1's `dealer` line, in a round dealt from a `deck` without `hand`
    lines: the deck and the first turn show the real dealer, so the referee takes the name as the slip
    (READINGS R97): one `turn.order` at the first `turn` line."""
    a = analyse(text)
    first = [x for x in a.lines if x.round == 1]
    kinds = {x.kind for x in first}
    ln = next((x for x in first if x.kind == "dealer"), None)
    turn = next((x for x in first if x.kind == "turn"), None)
    if ln is None or turn is None or "deck" not in kinds or "hand" in kinds or "deal-from" in text:
        return None
    new = f"dealer {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_first_dealer", replace_line(text, ln.no, new), "turn-order", "turn.order", turn.no, new)


def op_bad_pass(text: str, rng: random.Random) -> Mutation | None:
    """`pass` instead of the no-match place, where the ruleset does not allow it. The later lines
    still match the card that was placed, so the referee takes the pass as a place of an unnamed
    card (READINGS R50): one finding."""
    a = analyse(text)

    if load_spec("dos").ruleset(a.ruleset).options["no-match-after-draw"] == "pass":
        return None
    ln = _choose(rng, [x for x in a.lines if x.role == "nomatch-place"])
    if not ln:
        return None
    return Mutation("bad_pass", replace_line(text, ln.no, "pass"), "turn-order", "turn.pass", ln.no, "pass")
