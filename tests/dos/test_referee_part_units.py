"""Each part of the DOS referee, tested on its own (issue 32): a state built by hand with the few cards the
case needs, the part built alone with a Reporter and only the parts its class `uses` (real parts, built
the same way), and one of its methods called directly with events built by hand. Each test says the
finding the part makes (rule and line), or none, and what it changes on the table or in the turn.

A part in part.ORDER without a test here fails test_every_part_has_a_unit_test_of_its_own."""

from __future__ import annotations

import inspect
import sys
from collections import Counter
from typing import Any

import pytest

from dosverify.games.dos.cards import composition, parse_card
from dosverify.games.dos.events import (
    Catch,
    Center,
    Dealer,
    Deck,
    Dos,
    Draw,
    Hand,
    Match,
    Pass,
    Place,
    Refill,
    Reshuffle,
    Round,
    Score,
    Show,
    Total,
    Totals,
    Turn,
    Winner,
)
from dosverify.games.dos.notation import parse
from dosverify.games.dos.referee import PART_CLASSES
from dosverify.games.dos.referee.matching import judge_codes
from dosverify.games.dos.referee.matchline import MatchLine
from dosverify.games.dos.referee.part import ORDER, Part, Parts, below
from dosverify.games.dos.referee.reporter import Reporter
from dosverify.games.dos.referee.state import RefereeState, new_state
from dosverify.games.dos.referee.table import UNKNOWN, CenterCard
from dosverify.games.dos.referee.turn import TurnState
from dosverify.spec import load_spec

SPEC = load_spec("dos")


# ---- the state, by hand -------------------------------------------------------------------------------


def new(ruleset: str = "official", **options: str) -> RefereeState:
    """ann and bob in round 1 (ann deals, so bob plays first), the whole deck in a draw pile of unknown
    order, no hand, no Center Row: each test puts there the few cards its case needs."""
    log = parse("dos 1\nplayers ann bob\nround 1\ndealer ann\n").log
    assert log is not None
    s = new_state(log, SPEC.ruleset(ruleset, {k.replace("_", "-"): v for k, v in options.items()}), [])
    s.new_round()
    s.round_no, s.dealer = 1, "ann"
    s.table.start_round()
    return s


def _off_pile(s: RefereeState, card: str) -> None:
    tb = s.table
    if tb.pile_order is None:  # the deck's count: the card is no longer unseen
        assert tb.pile[card] > 0, f"no {card} left in the pile"
        tb.pile[card] -= 1
        tb.pile_size -= 1


def give(s: RefereeState, p: str, *cards: str) -> None:
    """Put cards from the pile into p's hand."""
    for c in cards:
        _off_pile(s, c)
        s.table.hands[p][c] += 1


def row(s: RefereeState, *cards: str, refilled: bool = False) -> None:
    """The Center Row, taken from the pile."""
    for c in cards:
        _off_pile(s, c)
        s.table.center.append(CenterCard(c, refilled=refilled))


def known_pile(s: RefereeState, *cards: str) -> None:
    """A draw pile of known order, top LAST, holding only these cards (the rest of the deck is out of play)."""
    tb = s.table
    tb.pile_order, tb.pile, tb.pile_size = list(cards), Counter(cards), len(cards)


def on_turn(s: RefereeState, player: str, *events, line: int = 6, **fields) -> TurnState:
    """`player`'s turn (at `line`), holding these lines, is being played."""
    turn = Turn(player=player, events=list(events)).at(line)
    s.turn_no, s.prev_player = 1, player
    s.t = TurnState(player, turn, **fields)
    return s.t


def found(s: RefereeState) -> list[tuple[str, int | None]]:
    return [(f.rule, f.line) for f in s.findings]


def center(s: RefereeState) -> list[str]:
    return [c.base for c in s.table.center]


def build(name: str, s: RefereeState, r: Reporter | None = None, built: Parts | None = None) -> Any:
    """The part `name` alone: a Reporter on `s`, and a Parts view of only the parts its class `uses`,
    each built here the same way (the Referee builds them all in ORDER, the same way). Typed Any: each
    test calls the part's own methods."""
    r = r or Reporter(s)
    built = built if built is not None else Parts()
    cls = PART_CLASSES[name]
    for used in cls.uses:
        assert ORDER.index(used) < ORDER.index(name), f"{name} uses {used}, not below it"
        if used not in vars(built):
            build(used, s, r, built)
    part = cls(s, r, below(built, cls.uses))
    assert isinstance(part, Part) and set(vars(part.parts)) == set(cls.uses)  # handed only what it uses
    setattr(built, name, part)
    if name == "turns":
        built.turns.bind()  # (the Referee binds it once all parts are built)
    return part


def match_line(s: RefereeState, ev: Match, meant: dict[int, str] | None = None) -> MatchLine:
    """A match line as Matches reads it, for the parts it hands one to."""
    assert s.t is not None
    return MatchLine(
        ev,
        s.t.player,
        parse_card(ev.target),
        [parse_card(c) for c in ev.cards],
        judge_codes(ev.target, tuple(ev.cards)),
        dict(meant or {}),
    )


# ---- calls ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset, held, want",
    [
        ("official", ("R5", "B3"), []),
        ("official", ("R5", "B3", "G7"), [("dos.call", 7)]),  # a call holding 3 cards
        ("bosnian", ("R5", "B3"), [("dos.call", 7)]),  # dos-call=off: no call at all
    ],
)
def test_calls_dos_call_stands_only_with_two_cards(ruleset, held, want):
    s = new(ruleset)
    give(s, "ann", *held)
    on_turn(s, "ann", dos := Dos().at(7))
    build("calls", s).on_dos(dos)
    assert found(s) == want
    assert s.called["ann"] is (not want)


@pytest.mark.parametrize("called, want", [(False, []), (True, [("dos.catch", 8)])])
def test_calls_catch_stands_unless_the_call_was_made(called, want):
    s = new()
    give(s, "ann", "R5", "B3", "G7")
    give(s, "bob", "R1", "B1")
    s.called["bob"] = called
    t = on_turn(s, "ann", catch := Catch(player="bob", by="ann").at(8))
    build("calls", s).on_catch(catch)
    assert found(s) == want
    if want:  # the penalty of a catch that does not stand may be drawn, not owed
        assert (s.caught["bob"], t.immediate, t.penalty_maybe) == (False, None, {"bob": 2})
    else:  # bob owes 2 penalty cards at once
        assert (s.caught["bob"], t.immediate, t.penalty_maybe) == (True, ("bob", 2), {})


# ---- engine (no rule: what it reads ahead) ---------------------------------------------------------


@pytest.mark.parametrize(
    "matches, ann_holds, want",
    [
        (1, (), "bob"),  # ann matched already and lacks G9, which bob holds: bob's turn began
        (1, ("G9",), None),  # ann holds it: still ann's
        (0, (), None),  # ann has not played yet: she may still match
    ],
)
def test_engine_turn_seems_missing(matches, ann_holds, want):
    s = new()
    give(s, "ann", "R5", *ann_holds)
    give(s, "bob", "G9")
    m = Match(target="G9", cards=["G9"]).at(9)
    on_turn(s, "ann", m, matches=matches)
    engine = build("engine", s)
    assert engine.turn_seems_missing(m, m.cards) == want
    assert found(s) == []


@pytest.mark.parametrize("then_match, want", [(True, True), (False, False)])
def test_engine_dcm_draw_mid_turn_looks_ahead_in_the_turn(then_match, want):
    s = new()
    give(s, "ann", "R5")
    d = Draw(player="bob", cards=["R1"]).at(8)
    later = [Match(target="R5", cards=["R5"]).at(9)] if then_match else []
    on_turn(s, "ann", d, *later)
    engine = build("engine", s)
    assert engine.dcm_draw_mid_turn(d) is want
    assert s.places is not None and s.places[1][id(d)] == 0  # the turn's places, counted once


def test_engine_split_draw_keeps_the_line_and_its_columns():
    s = new()
    d = Draw(player="bob", cards=["R1", "B3"]).at(8, 3, {"player": 8, "cards": [12, 15]})
    on_turn(s, "ann", Match(target="R5", cards=["R5"]).at(7), d)
    engine = build("engine", s)
    head, tail = engine.split_draw(d, 1)
    assert (head.player, head.cards, head._line, head._column) == ("bob", ["R1"], 8, 3)
    assert (tail.player, tail.cards, tail._line, tail._column) == ("bob", ["B3"], 8, 15)
    assert s.split_keep == [head, tail]
    assert engine.turn_index(tail) == engine.turn_index(d) == 1


# ---- facedown -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "over, shown, want",
    [
        (True, ["R5", "G7"], []),  # the `?` was G7
        (True, ["R5"], [("cards.held", 20)]),  # bob holds 2 cards, the show lists 1
        (False, ["R5", "G7"], [("notation.placement", 20)]),  # nobody went out
    ],
)
def test_facedown_check_shows(over, shown, want):
    s = new()
    give(s, "bob", "R5")
    s.table.hands["bob"][UNKNOWN] += 1
    s.round_over, s.round_winner = over, "ann" if over else None
    rnd = Round(number=1, shows=[Show(player="bob", cards=shown).at(20)])
    build("facedown", s).check_shows(rnd)
    assert found(s) == want
    assert s.table.hands["bob"] == (Counter(shown) if not want else Counter({"R5": 1, UNKNOWN: 1}))


@pytest.mark.parametrize(
    "points, want",
    [
        (3, [("score.hidden", 15)]),  # bob's `?` may be a 3: not confirmed, a warning
        (2, [("score.round", 15)]),  # no card scores 2: an error
    ],
)
def test_facedown_score_over_choices(points, want):
    s = new()
    s.table.hands["bob"][UNKNOWN] += 1
    s.round_over, s.round_winner = True, "ann"
    facedown = build("facedown", s)
    facedown.score_over_choices(Score(player="ann", points=points).at(15), 0, 1)
    assert found(s) == want
    facedown.unverify("score.round")
    facedown.unverify("score.round")
    assert s.unverified == ["score.round"]


# ---- meant (no rule: the card a line means) ------------------------------------------------------


@pytest.mark.parametrize(
    "held, want",
    [
        (("B5", "R9"), {0: "B5"}),  # G5 not held; B5, held, makes `match B5 with B5`
        (("B5", "R5"), {}),  # two held cards would: neither is the one meant
        (("R9",), {}),  # none would
    ],
)
def test_meant_likely_meant(held, want):
    s = new()
    give(s, "ann", *held)
    m = Match(target="B5", cards=["G5"]).at(9)
    on_turn(s, "ann", m)
    assert build("meant", s).likely_meant(m, "ann") == want
    assert found(s) == []


def test_meant_maybe_covered_puts_the_row_card_its_cards_match_in_doubt():
    s = new()
    row(s, "R5", "B3")
    m = Match(target="G9", cards=["R5"]).at(9)
    on_turn(s, "ann", m)
    build("meant", s).maybe_covered(m)
    assert [(c.base, c.in_doubt) for c in s.table.center] == [("R5", True), ("B3", False)]
    assert found(s) == []


# ---- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "written, meant",
    [("Bob", "bob"), ("bobb", "bob"), ("zed", None)],  # cased, misspelt, nobody's
)
def test_names_resolve_round(written, meant):
    s = new()
    draw = Draw(player=written).at(6)
    rnd = Round(number=1, turns=[Turn(player=written, events=[draw]).at(5)])
    build("names", s).resolve_round(rnd)
    if meant is None:  # no player is like it: left for the part that meets it
        assert found(s) == []
        assert (rnd.turns[0].player, draw.player) == (written, written)
    else:  # one finding at each line, and the line read as the player's
        assert found(s) == [("notation.player", 5), ("notation.player", 6)]
        assert (rnd.turns[0].player, draw.player) == (meant, meant)


# ---- steps ----------------------------------------------------------------------------------------


def _after_a_match(s: RefereeState, *events) -> TurnState:
    """ann matched R5 with R5: the row holds B3 only, the two R5 are this turn's matched cards."""
    give(s, "ann", "G7", "Y4")
    row(s, "B3")
    for c in ("R5", "R5"):
        _off_pile(s, c)
        s.table.pending.append(c)
    return on_turn(s, "ann", *events, matches=1)


def test_steps_a_step_before_the_refill_is_reported_when_the_refill_comes():
    s = new()
    pen, refill = Draw(cards=["G9"]).at(9), Refill(cards=["Y8"]).at(10)
    t = _after_a_match(s, pen, refill)
    t.penalty_owed = 2
    steps = build("steps", s)
    steps.step(pen, 4, "the DOS penalty draw")
    # step 1 ran: the matched cards are discarded, one refill card owed; the penalty draw may be early
    assert (s.table.discard, s.table.pending, t.refill_owed, t.step) == (Counter({"R5": 2}), [], 1, 4)
    assert t.early is not None and t.early[0] is pen
    assert found(s) == []
    steps.arrive(2, refill)
    assert found(s) == [("turn.steps", 9)]
    assert s.findings[0].related[0].line == 10
    assert t.order_reported


def test_steps_the_refill_in_its_place_is_no_finding():
    s = new()
    refill = Refill(cards=["Y8"]).at(10)
    t = _after_a_match(s, refill)
    steps = build("steps", s)
    steps.step(refill, 2, "the refill")
    steps.arrive(2, refill)
    assert found(s) == []
    assert (t.early, t.step, t.discarded, t.flushed) == (None, 2, True, ["R5", "R5"])


# ---- closing --------------------------------------------------------------------------------------


def test_closing_no_match_and_no_draw():
    s = new()
    give(s, "ann", "R5")
    on_turn(s, "ann")
    build("closing", s).close_turn(Turn(player="bob").at(12))
    assert found(s) == [("draw.no-match", 12)]
    assert s.t is None and not s.round_over


def test_closing_a_refill_left_out_is_reported_and_taken_as_made():
    s = new()
    _after_a_match(s)
    build("closing", s).close_turn(Turn(player="bob").at(12))
    assert found(s) == [("center.refill", 12)]
    assert center(s) == ["B3", UNKNOWN]  # the card refilled, from a pile of unknown order
    assert s.table.discard == Counter({"R5": 2}) and s.t is None


def test_closing_the_hand_emptied_ends_the_round():
    s = new()
    give(s, "bob", "R5")
    row(s, "B3", "G7")
    on_turn(s, "ann", matches=1)
    build("closing", s).close_turn(Score(player="ann", points=5).at(12))
    assert found(s) == []
    assert (s.round_over, s.round_winner, s.t) == (True, "ann", None)


def test_closing_unneeded_reshuffle():
    s = new()
    give(s, "ann", "R5")
    t = on_turn(s, "ann", shuffle := Reshuffle().at(9))
    t.reshuffled = shuffle
    build("closing", s).unneeded_reshuffle()
    assert found(s) == [("reshuffle.when", 9)]
    assert t.reshuffled is None


# ---- scoring --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points, want, total",
    [(8, [], 8), (9, [("score.round", 15)], 8)],  # bob holds R5 B3: 8 points; the totals go on as replayed
)
def test_scoring_check_score(points, want, total):
    s = new()
    give(s, "bob", "R5", "B3")
    s.round_over, s.round_winner = True, "ann"
    rnd = Round(number=1, score=Score(player="ann", points=points).at(15))
    build("scoring", s).check_score(rnd)
    assert found(s) == want
    assert (s.scored, s.totals, s.totals_written["ann"]) == (True, {"ann": total, "bob": 0}, points)


def test_scoring_a_score_with_nobody_out():
    s = new()
    give(s, "bob", "R5")
    rnd = Round(number=1, score=Score(player="ann", points=5).at(15))
    build("scoring", s).check_score(rnd)
    assert found(s) == [("score.round", 15)]
    assert not s.scored and s.totals == {"ann": 0, "bob": 0}


@pytest.mark.parametrize("ann, want", [(8, []), (9, [("score.totals", 16)])])
def test_scoring_check_totals(ann, want):
    s = new()
    s.totals = {"ann": 8, "bob": 0}
    s.totals_written, s.totals_replayed = dict(s.totals), dict(s.totals)
    s.scored = True
    rnd = Round(
        number=1, totals=Totals(entries=[Total(player="ann", points=ann), Total(player="bob", points=0)]).at(16)
    )
    build("scoring", s).check_totals(rnd)
    assert found(s) == want
    assert s.totals == {"ann": 8, "bob": 0}  # a wrong total does not change the running one
    assert s.t is None


# ---- rounds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number, over, want",
    [
        (2, False, []),
        (3, False, [("round.sequence", 30)]),  # round 2 is missing
        (2, True, [("game.end", 30)]),  # the game ended with round 1
    ],
)
def test_rounds_start(number, over, want):
    s = new()
    s.game_over, s.game_winner = over, "ann" if over else None
    s.doubt.add("bob")
    prev = build("rounds", s).start(Round(number=number).at(30))
    assert found(s) == want
    assert prev == (1, "ann", None)
    assert (s.round_no, s.rounds_seen, s.turn_no, s.doubt) == (number, 1, 0, set())  # a new round begun


def test_rounds_end_a_round_without_its_score():
    s = new()
    give(s, "bob", "R5")
    s.round_over, s.round_winner = True, "ann"
    s.closing_round = Round(number=1).at(3)
    build("rounds", s).end(Round(number=2).at(20))
    assert found(s) == [("score.round", 20)]
    assert s.findings[0].expected == "score ann 5"
    assert (s.closing_round, s.prev_round_over, s.totals["ann"]) == (None, True, 5)  # scored as replayed


@pytest.mark.parametrize("over, want", [(True, []), (False, [("game.winner", 40)])])
def test_rounds_check_winner(over, want):
    s = new()
    s.totals = {"ann": 205 if over else 150, "bob": 0}
    s.game_over, s.game_winner = over, "ann" if over else None
    s.log.winner = Winner(player="ann").at(40)
    build("rounds", s).check_winner()
    assert found(s) == want
    if want:
        assert s.findings[0].found == "ann 150 bob 0"  # the totals, from the scoring part it asks


# ---- handcards ------------------------------------------------------------------------------------


def test_handcards_take_a_card_held():
    s = new()
    give(s, "ann", "R5", "B3")
    on_turn(s, "ann", m := Match(target="R5", cards=["R5"]).at(9))
    ml = match_line(s, m)
    build("handcards", s).take(ml)
    assert found(s) == []
    assert (s.table.hands["ann"], s.table.pending, ml.reported) == (Counter({"B3": 1}), ["R5"], False)


def test_handcards_take_a_card_not_held():
    s = new()
    give(s, "ann", "B3")
    on_turn(s, "ann", m := Match(target="R5", cards=["R5"]).at(9))
    pile_r5 = s.table.pile["R5"]
    ml = match_line(s, m)
    build("handcards", s).take(ml)
    assert found(s) == [("match.held", 9)]
    # the card goes to the matched cards as written, from the unseen cards: the hand keeps B3
    assert (s.table.hands["ann"], s.table.pending, s.table.pile["R5"]) == (Counter({"B3": 1}), ["R5"], pile_r5 - 1)
    assert ml.reported and ml.unsure


def test_handcards_take_the_card_a_typo_stands_for():
    s = new()
    give(s, "ann", "B5", "R9")
    on_turn(s, "ann", m := Match(target="B5", cards=["G5"]).at(9))
    build("handcards", s).take(match_line(s, m, meant={0: "B5"}))
    assert found(s) == [("match.held", 9)]
    assert s.findings[0].expected == "B5"
    assert (s.table.hands["ann"], s.table.pending) == (Counter({"R9": 1}), ["B5"])


# ---- plays ----------------------------------------------------------------------------------------


def test_plays_place_after_a_draw_that_brought_no_match():
    s = new()
    give(s, "ann", "R5", "B3")
    t = on_turn(s, "ann", place := Place(card="R5").at(10), drew=True, drawn_card="B3")
    build("plays", s).on_place(place)
    assert found(s) == []
    assert (center(s), s.table.center[0].placed_by, s.table.hands["ann"]) == (["R5"], "ann", Counter({"B3": 1}))
    assert t.action_done


def test_plays_place_without_a_match_or_a_draw():
    s = new()
    give(s, "ann", "R5", "B3")
    t = on_turn(s, "ann", place := Place(card="R5").at(10))
    build("plays", s).on_place(place)
    assert found(s) == [("draw.no-match", 10)]
    # R95: the draw was made, its line left out (a card of a pile of unknown order); then the place
    assert (center(s), s.table.hands["ann"]) == (["R5"], Counter({"B3": 1, UNKNOWN: 1}))
    assert t.drew and t.action_done


def test_plays_place_of_a_bonus_never_earned_is_taken_back():
    s = new()
    give(s, "ann", "R5", "B3")
    row(s, "G7", "Y4")
    on_turn(s, "ann", place := Place(card="R5").at(10), matches=1)
    build("plays", s).on_place(place)
    assert found(s) == [("bonus.card", 10)]
    assert (center(s), s.table.hands["ann"]) == (["G7", "Y4"], Counter({"R5": 1, "B3": 1}))  # R47


@pytest.mark.parametrize(
    "ruleset, want, row_after",
    [
        ("italian", [], []),  # no-match-after-draw=pass
        ("official", [("turn.pass", 10)], [UNKNOWN]),  # R50: the card owed was placed all the same
    ],
)
def test_plays_pass_after_a_draw(ruleset, want, row_after):
    s = new(ruleset)
    give(s, "ann", "R5")
    t = on_turn(s, "ann", p := Pass().at(10), drew=True, drawn_card="R5")
    build("plays", s).on_pass(p)
    assert found(s) == want
    assert t.action_done and center(s) == row_after
    assert ("ann" in s.doubt) is bool(want)


def test_plays_start_implied_turn():
    s = new()
    give(s, "ann", "R5")
    give(s, "bob", "G9")
    row(s, "B3", "G7")
    m = Match(target="G7", cards=["G9"]).at(9)
    on_turn(s, "ann", m, matches=1)
    build("plays", s).start_implied_turn("bob", m)
    assert found(s) == [("turn.order", 9)]
    assert s.t is not None and (s.t.player, s.turn_no, s.prev_player) == ("bob", 2, "bob")


# ---- matches --------------------------------------------------------------------------------------


def test_matches_a_single_colour_match():
    s = new()
    give(s, "ann", "R5", "G7")
    row(s, "R5", "B3")
    t = on_turn(s, "ann", m := Match(target="R5", cards=["R5"]).at(9))
    build("matches", s).on_match(m)
    assert found(s) == []
    assert (center(s), s.table.pending, s.table.hands["ann"]) == (["B3"], ["R5", "R5"], Counter({"G7": 1}))
    assert (t.matches, t.bonus_earned, t.matched_targets) == (1, 1, {"R5": 1})


@pytest.mark.parametrize(
    "row_cards, refilled, held, target, cards, rule, row_after, ann_after",
    [
        # the numbers do not match: the row card is covered all the same, the bonus only maybe
        (("R5", "B3"), False, ("R6",), "R5", ["R6"], "match.single", ["B3"], {}),
        (("R5", "B3"), False, ("R1", "R3"), "R5", ["R1", "R3"], "match.double", ["B3"], {}),
        (("R5", "B3"), False, ("R1", "R3", "R4"), "R5", ["R1", "R3", "R4"], "match.two-cards", ["B3"], {}),
        # no G7 in the row: the cards still leave the hand
        (("R5", "B3"), False, ("G7", "Y4"), "G7", ["G7"], "match.center", ["R5", "B3"], {"Y4": 1}),
        # R5 was refilled this turn: the match is taken back (R47)
        (("R5", "B3"), True, ("R5",), "R5", ["R5"], "match.refilled", ["R5", "B3"], {"R5": 1}),
    ],
)
def test_matches_a_match_the_rules_forbid(row_cards, refilled, held, target, cards, rule, row_after, ann_after):
    s = new()
    give(s, "ann", *held)
    row(s, *row_cards, refilled=refilled)
    on_turn(s, "ann", m := Match(target=target, cards=cards).at(9))
    build("matches", s).on_match(m)
    assert found(s) == [(rule, 9)]
    assert (center(s), s.table.hands["ann"]) == (row_after, Counter(ann_after))


# ---- pile -----------------------------------------------------------------------------------------


def test_pile_draw_the_top_card():
    s = new()
    known_pile(s, "B3", "R5")
    on_turn(s, "ann", d := Draw(cards=["R5"]).at(8))
    assert build("pile", s).draw_from_pile("R5", d, 0, "draw", "ann") == "R5"
    assert found(s) == []
    assert (s.table.pile_order, s.table.pile_size, s.table.swaps) == (["B3"], 1, [])


def test_pile_draw_a_card_below_the_top():
    s = new()
    known_pile(s, "B3", "R5")
    on_turn(s, "ann", d := Draw(cards=["B3"]).at(8))
    assert build("pile", s).draw_from_pile("B3", d, 0, "draw", "ann") == "B3"
    assert found(s) == [("draw.top", 8)]
    assert s.findings[0].expected == "R5"
    # R2: the two are swapped in the pile, so that later draws line up again
    assert (s.table.pile_order, s.table.swaps) == (["R5"], [("ann", "B3", "R5", 0)])


def test_pile_a_bare_draw_from_a_pile_of_unknown_order():
    s = new()
    on_turn(s, "ann", d := Draw().at(8))
    assert build("pile", s).draw_from_pile(None, d, 0, "draw", "ann") == UNKNOWN
    assert found(s) == [("cards.known", 8)]
    assert s.table.pile_size == 107


def test_pile_draw_a_card_no_copy_of_which_is_unseen():
    s = new()
    give(s, "bob", "R1", "R1", "R1")
    on_turn(s, "ann", d := Draw(cards=["R1"]).at(8))
    build("pile", s).draw_from_pile("R1", d, 0, "draw", "ann")
    assert found(s) == [("cards.unseen", 8)]
    # R78, R81: bob's copies and ann's card may be the slip
    assert "bob" in s.doubt and s.table.phantoms["bob"]["R1"] == 1 and s.table.phantoms["ann"]["R1"] == 1


def test_pile_an_empty_pile_is_turned_over_first():
    s = new()
    known_pile(s)
    s.table.discard = Counter({"G9": 1})
    on_turn(s, "ann", d := Draw(cards=["G9"]).at(8))
    assert build("pile", s).draw_from_pile("G9", d, 0, "draw", "ann") == "G9"
    assert found(s) == [("reshuffle.when", 8)]
    assert (s.table.discard, s.table.pile_size) == (Counter(), 0)


# ---- refills --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, want, row_after",
    [
        (["Y8"], [], ["B3", "Y8"]),
        (["Y8", "G9"], [("draw.reason", 10)], ["B3", "Y8", "G9"]),  # one card more than the row needs
    ],
)
def test_refills_on_refill(cards, want, row_after):
    s = new()
    refill = Refill(cards=cards).at(10)
    t = _after_a_match(s, refill)
    known_pile(s, "Y4", "G9", "Y8")
    build("refills", s).on_refill(refill)
    assert found(s) == want
    assert center(s) == row_after and all(c.refilled for c in s.table.center[1:])
    assert (t.refilled, t.step, s.table.discard, s.table.pile_order) == (
        len(cards),
        2,
        Counter({"R5": 2}),
        ["Y4", "G9", "Y8"][: 3 - len(cards)],
    )


def test_refills_reshuffle_of_a_pile_not_empty():
    s = new()
    s.table.discard = Counter({"R5": 1})
    t = on_turn(s, "ann", shuffle := Reshuffle().at(9), Draw(cards=["R5"]).at(10))
    build("refills", s).on_reshuffle(shuffle)
    assert found(s) == [("reshuffle.when", 9)]
    assert (s.table.pile_size, s.table.discard, t.reshuffled) == (108, Counter({"R5": 1}), None)


@pytest.mark.parametrize(
    "listed, want, order",
    [
        (["B3", "R5"], [], ["R5", "B3"]),  # the pile as listed, top first
        (["B3", "G7"], [("reshuffle.cards", 9)], None),  # not the discard pile: the order is not known
    ],
)
def test_refills_reshuffle_of_an_empty_pile(listed, want, order):
    s = new()
    known_pile(s)
    s.table.discard = Counter({"R5": 1, "B3": 1})
    t = on_turn(s, "ann", shuffle := Reshuffle(cards=listed).at(9), Draw(cards=["B3"]).at(10))
    build("refills", s).on_reshuffle(shuffle)
    assert found(s) == want
    assert (s.table.pile_order, s.table.pile_size, s.table.discard) == (order, 2, Counter())
    assert t.reshuffled is shuffle  # the next line must be the draw that needed it


# ---- draws ----------------------------------------------------------------------------------------


def test_draws_the_draw_after_no_match():
    s = new()
    give(s, "ann", "B3")
    known_pile(s, "G9", "R5")
    t = on_turn(s, "ann", d := Draw(cards=["R5"]).at(8))
    build("draws", s).on_draw(d)
    assert found(s) == []
    assert (t.drew, t.drawn_card, s.table.hands["ann"], s.table.pile_order) == (
        True,
        "R5",
        Counter({"B3": 1, "R5": 1}),
        ["G9"],
    )


def test_draws_a_draw_nobody_owes():
    s = new()
    give(s, "bob", "B3")
    t = on_turn(s, "ann", d := Draw(player="bob", cards=["R5"]).at(8), matches=1)
    build("draws", s).on_draw(d)
    assert found(s) == [("draw.reason", 8)]
    # taken as not drawn, unless bob plays it later (R41): bob's hand is in doubt
    assert (s.table.hands["bob"], s.table.maybe_held["bob"], "bob" in s.doubt) == (
        Counter({"B3": 1}),
        Counter({"R5": 1}),
        True,
    )
    assert not t.drew


@pytest.mark.parametrize("ruleset, want", [("official", []), ("strict", [("match.decline", 8)])])
def test_draws_declining_a_match(ruleset, want):
    s = new(ruleset)
    give(s, "ann", "R5")
    row(s, "R5", "B3")
    t = on_turn(s, "ann", d := Draw(cards=["G9"]).at(8))
    build("draws", s).on_draw(d)
    assert found(s) == want
    assert (t.drew, s.table.hands["ann"]) == (True, Counter({"R5": 1, "G9": 1}))  # the draw stands


# ---- deal -----------------------------------------------------------------------------------------

DECK = sorted(composition().elements())  # a deck in a fixed order, top first


def _deal(s: RefereeState, deck: list[str], hands: dict | None = None) -> None:
    rnd = Round(number=1, setup=[Dealer(player="ann").at(4)]).at(3)
    build("deal", s).setup_from_deck(rnd, Deck(cards=deck).at(5), deck, hands or {}, None)


def test_deal_from_the_dealers_left():
    s = new()
    _deal(s, DECK)
    assert found(s) == []
    # one card at a time from the dealer's left (bob), 7 each, then 2 to the Center Row (V9)
    assert s.table.hands == {"bob": Counter(DECK[0:14:2]), "ann": Counter(DECK[1:14:2])}
    assert center(s) == DECK[14:16]
    assert (s.table.pile_size, s.table.top()) == (92, DECK[16])


def test_deal_a_deck_with_one_card_written_wrong():
    s = new()
    deck = DECK[:-1] + [DECK[0]]  # the last card written as a copy of the first
    _deal(s, deck)
    assert found(s) == [("cards.deck", 5)]
    assert s.deck_alias == (DECK[0], DECK[-1])  # R66: one copy of DECK[0] stands for the missing card


def test_deal_a_hand_written_beside_the_deck_that_disagrees():
    s = new()
    wrong = DECK[1:14:2][:-1] + [DECK[20]]
    _deal(s, DECK, {"ann": (Hand(player="ann", cards=[*wrong]).at(6), wrong)})
    assert found(s) == [("setup.deal", 6)]
    assert s.table.hands["ann"] == Counter(wrong)  # the hand as written is trusted
    # and the pile is the deck without the cards written: ann's 7th card dealt (DECK[13]) stays in it
    assert s.table.pile == Counter(DECK[16:]) - Counter([DECK[20]]) + Counter([DECK[13]])
    assert s.table.pile_size == 92


# ---- setup ----------------------------------------------------------------------------------------

ANN = ["R1", "R3", "R4", "R5", "R6", "R7", "R8"]
BOB = ["B1", "B3", "B4", "B5", "B6", "B7", "B8"]


@pytest.mark.parametrize(
    "ann, prev, want",
    [
        (ANN, (None, None, None), []),
        (ANN[:6], (None, None, None), [("setup.hand", 5)]),  # 6 cards
        # ann holds both B6: bob's line, the later, writes a third
        (["B6", "B6", *ANN[:5]], (None, None, None), [("cards.composition", 6)]),
        (ANN, (1, "bob", "bob"), [("setup.dealer", 4)]),  # bob won round 1 and deals round 2 (V4)
    ],
)
def test_setup_written_hands_and_center_row(ann, prev, want):
    s = new()
    s.dealer = None
    rnd = Round(
        number=1,
        setup=[
            Dealer(player="ann").at(4),
            Hand(player="ann", cards=ann).at(5),
            Hand(player="bob", cards=[*BOB]).at(6),
            Center(cards=["G9", "Y4"]).at(7),
        ],
    ).at(3)
    build("setup", s).setup(rnd, *prev)
    assert found(s) == want
    assert (s.table.hands["ann"], s.table.hands["bob"], center(s)) == (Counter(ann), Counter(BOB), ["G9", "Y4"])
    assert s.table.pile_size == 108 - len(ann) - 7 - 2
    assert s.dealer == "ann"


# ---- turns ----------------------------------------------------------------------------------------


def test_skipped_a_place_skipped_is_taken_as_made():
    """R54: a `place` line the reader skipped: one card of the hand (unknown which) into the Center
    Row, the hand in doubt, the card for no match placed; nothing reported (the reader did)."""
    s = new()
    give(s, "bob", "R1", "B3")
    row(s, "G7", "Y8")
    t = on_turn(s, "bob", drew=True)
    build("skipped", s).skipped_line("place", 1)
    assert center(s) == ["G7", "Y8", UNKNOWN] and "bob" in s.doubt and t.action_done
    assert found(s) == []


def test_skipped_a_match_skipped_takes_the_cards_it_names():
    """R93: `match G7 with ??` skipped: the row card named leaves the row, a card of the hand (one that
    makes the match add up) leaves the hand, the bonus may be honoured (R1), the hand is in doubt."""
    s = new()
    give(s, "bob", "G7", "B3")
    row(s, "G7", "Y8")
    t = on_turn(s, "bob")
    build("skipped", s).skipped_line("match", 1, ("G7", "x9"))
    assert center(s) == ["Y8"] and sum(s.table.hands["bob"].values()) == 1
    assert t.matches == 1 and t.bonus_maybe == 1 and "bob" in s.doubt and found(s) == []


def test_skipped_a_refill_skipped_takes_the_cards_off_the_pile():
    """R54: a `refill` skipped for n cards: n cards off the pile into the row, refilled, after step 2."""
    s = new()
    row(s, "Y8")
    known_pile(s, "B5", "R2")
    t = on_turn(s, "bob", matches=1)
    build("skipped", s).skipped_line("refill", 1)
    assert center(s) == ["Y8", "R2"] and t.refilled == 1 and t.step >= 2 and found(s) == []


@pytest.mark.parametrize("player, want", [("bob", []), ("ann", [("turn.order", 10)])])
def test_turns_start_a_turn(player, want):
    s = new()
    s.turn_no = 0
    turn = Turn(player=player).at(10)
    assert build("turns", s).start(turn, Round(number=1, turns=[turn])) is True
    assert found(s) == want
    assert s.t is not None and (s.t.player, s.turn_no, s.prev_player) == (player, 1, player)


def test_turns_a_turn_after_the_round_ended():
    s = new()
    s.round_over, s.round_winner = True, "ann"
    turn = Turn(player="bob").at(10)
    assert build("turns", s).start(turn, Round(number=1, turns=[turn])) is False
    assert found(s) == [("round.end", 10)]
    assert s.t is None and s.after_end_reported


def test_turns_event_hands_each_line_to_its_part():
    s = new()
    turns = build("turns", s)
    want = {
        "match": ("matches", "on_match"),
        "draw": ("draws", "on_draw"),
        "refill": ("refills", "on_refill"),
        "place": ("plays", "on_place"),
        "pass": ("plays", "on_pass"),
        "dos": ("calls", "on_dos"),
        "catch": ("calls", "on_catch"),
        "reshuffle": ("refills", "on_reshuffle"),
    }
    handlers = turns.handlers
    assert {k: (type(h.__self__).__name__.lower(), h.__name__) for k, h in handlers.items()} == {
        k: (type(getattr(turns.parts, part)).__name__.lower(), name) for k, (part, name) in want.items()
    }
    # and a line goes through it: a `dos` with 2 cards is the call made
    give(s, "ann", "R5", "B3")
    on_turn(s, "ann", dos := Dos().at(11))
    turns.event(dos)
    assert found(s) == [] and s.called["ann"]


def test_turns_a_penalty_not_drawn_at_once():
    s = new()
    give(s, "ann", "R5", "B3")
    give(s, "bob", "G9", "Y4")
    t = on_turn(s, "ann", place := Place(card="R5").at(12), drew=True, drawn_card="B3")
    t.immediate = ("bob", 2)
    build("turns", s).event(place)
    assert found(s) == [("dos.penalty", 12)]
    # from a pile of unknown order: the draw left out brought bob 2 unknown cards; then ann's place stands
    assert (t.immediate, t.penalty_maybe, "bob" in s.doubt) == (None, {"bob": 2}, True)
    assert s.table.hands["bob"] == Counter({"G9": 1, "Y4": 1, UNKNOWN: 2})
    assert center(s) == ["R5"]


def test_turns_a_line_after_the_round_ended_at_once():
    s = new(round_end="at-once")
    give(s, "bob", "G9")
    end = Place(card="R5").at(11)
    t = on_turn(s, "ann", end, d := Draw(player="bob", cards=["R1"]).at(12))
    t.ended = end
    build("turns", s).event(d)
    assert found(s) == [("round.end", 12)]
    assert t.after_end_reported and s.table.hands["bob"] == Counter({"G9": 1})  # the line is not played


# ---- every part has its test --------------------------------------------------------------------


def test_every_part_has_a_unit_test_of_its_own():
    """A part added to part.ORDER comes with a test here named test_<part>_..."""
    tests = [
        name for name, f in inspect.getmembers(sys.modules[__name__], inspect.isfunction) if name.startswith("test_")
    ]
    missing = [part for part in ORDER if not any(name.startswith(f"test_{part}_") for name in tests)]
    assert not missing, f"no test_<part>_... here for {missing}"
    assert sorted(ORDER) == sorted(PART_CLASSES)
