"""Operators: card codes the deck does not hold, and lines that are not sentences."""

from __future__ import annotations

import random
from collections import Counter

from ... import Mutation
from ..cards import composition
from .analysis import analyse
from .sites import _choose, replace_line


def op_excess_copies(text: str, rng: random.Random) -> Mutation | None:
    """A hand holding more copies of a card than the deck has (logs without `deck`)."""
    a = analyse(text)
    comp = composition()
    cands = []
    for ln in a.lines:
        if ln.kind != "hand":
            continue
        cards = ln.words[2:]
        cnt = Counter(cards)
        for c in sorted(cnt):
            need = comp[c] + 1 - cnt[c]
            if need <= 2:
                cands.append((ln, c, need))
        break  # the round's first hand line: no earlier copies
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, c, need = pick
    cards = list(ln.words[2:])
    others = [i for i, x in enumerate(cards) if x != c]
    for i in rng.sample(others, need):
        cards[i] = c
    new = f"hand {ln.words[1]} " + " ".join(cards)
    return Mutation("excess_copies", replace_line(text, ln.no, new), "card-accounting", "cards.composition", ln.no, new)


def op_glued_words(text: str, rng: random.Random) -> Mutation | None:
    """Two words of an event line written without a space (`drawY5`): reported once, and the line
    read with the space put back (READINGS R52)."""
    a = analyse(text)
    # never glue a 3-word line into 2 words: `drawann B4` has the shape of a free tag line (`TAG VALUE`)
    ln = _choose(
        rng,
        [
            x
            for x in a.lines
            if x.kind in ("draw", "refill", "place", "match") and len(x.words) >= 2 and len(x.words) != 3
        ],
    )
    if not ln:
        return None
    new = ln.words[0] + ln.words[1] + (" " + " ".join(ln.words[2:]) if len(ln.words) > 2 else "")
    return Mutation("glued_words", replace_line(text, ln.no, new), "syntax", "notation.line", ln.no, new)


def op_invalid_card(text: str, rng: random.Random) -> Mutation | None:
    """An invalid card word (R2, W3, G11, B#=11, Y5=3) on a `place` or `refill` line, which the
    referee takes as made with an unknown card (READINGS R54): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind in ("place", "refill")])
    if not ln:
        return None
    w = list(ln.words)
    w[1] = rng.choice(["R2", "W3", "G11", "B#=11", "Y5=3", "G0"])
    new = " ".join(w)
    return Mutation("invalid_card", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)


def op_invalid_match_card(text: str, rng: random.Random) -> Mutation | None:
    """An invalid card word (R11, W3, G0, B#=11) for a hand card of a `match` line, which the referee
    takes as a match of the player's cards, that one unknown (READINGS R93): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "match" and len(x.words) >= 4 and x.words[2] == "with"])
    if not ln:
        return None
    w = list(ln.words)
    i = rng.choice([i for i in range(3, len(w)) if w[i] != "+"])
    w[i] = rng.choice(["R11", "W3", "G0", "B#=11"])
    new = " ".join(w)
    return Mutation("invalid_match_card", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)
