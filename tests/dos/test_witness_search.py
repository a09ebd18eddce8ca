"""The witness's search over which `?` held each revealed card (issue 20 item 4, referee/hidden_placing.py):
it yields only placements that leave every declined draw's hand without a match, the greedy's first,
twin `?` in one order only; sent the moment a hand still matched, its next way changes a `?` drawn by
then; and it goes back past `?` that a failure does not rest on (a long round's dealt card)."""

from __future__ import annotations

import random

from dosverify.api import check, witness
from dosverify.games.dos.hide import _adds_match, hide
from dosverify.games.dos.notation import write
from dosverify.games.dos.referee.hidden_ledger import Token
from dosverify.games.dos.referee.hidden_placing import placements
from dosverify.games.dos.simulate import simulate


def _round():
    """ann is dealt two `?` (moments 1, 2), declines a draw at 3 over a G9 (her hand written empty) and
    draws one `?` at 5; she shows Y5 at 6, B1 at 7, R4 at 10. R4 + Y5 make 9: they are not both held at 3."""
    toks = [Token("ann", 1, 0, "Y5", 6), Token("ann", 2, 0, "B1", 7), Token("ann", 5, 0, "R4", 10)]
    return toks, [("ann", 3, ("G9",), ())]


def _held_at_3(way: dict) -> list[str]:
    return sorted(card[0] for tok, card in way.items() if tok.drawn <= 3 and card[1] > 3)


def test_only_ways_without_a_match_at_a_declined_draw():
    toks, points = _round()
    first = {t: (t.label, t.reveal_at) for t in toks}
    ways = list(placements(toks, points, _adds_match, first))
    assert sorted(_held_at_3(w) for w in ways) == [["B1", "R4"], ["B1", "Y5"]]  # twins: one order each


def test_the_greedy_way_comes_first():
    toks, points = _round()
    cards = {"Y5": 6, "B1": 7, "R4": 10}
    for late in ("R4", "Y5"):  # the card on the `?` drawn at 5, in the greedy's way
        early = [c for c in cards if c != late]
        first = {
            toks[0]: (early[0], cards[early[0]]),
            toks[1]: (early[1], cards[early[1]]),
            toks[2]: (late, cards[late]),
        }
        way = next(placements(toks, points, _adds_match, first))
        assert way[toks[2]] == (late, cards[late])


def test_a_moment_sent_changes_a_card_held_by_then():
    toks, points = _round()
    first = {toks[0]: ("Y5", 6), toks[1]: ("B1", 7), toks[2]: ("R4", 10)}
    search = placements(toks, points, _adds_match, first)
    assert _held_at_3(next(search)) == ["B1", "Y5"]
    assert _held_at_3(search.send(3)) == ["B1", "R4"]
    assert next(search, None) is None


def test_a_long_round_s_witness_needs_the_search_to_go_back():
    """Generated game 206 (a long round): bob's dealt B4 is what his hand at line 150 would match with
    (B4 + R4 = 8); a walk that went back one `?` at a time spent its budget between the two."""
    seed = 206
    r = random.Random(seed)
    log = simulate(r.randint(2, 4), seed, r.choice(["italian", "strict"]), deck=r.random() < 0.5, long_round=True)
    proof, report = witness(write(hide(log, "table")))
    assert report.verdict == "legal" and proof is not None, report.witness_refused
    assert not [f for f in check(proof).findings if f.severity == "error"]
