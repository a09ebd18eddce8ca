"""Targeted behaviours of the referee: recovery without cascades, and the readings of spec/READINGS.md."""

from __future__ import annotations

from pathlib import Path

from dosverify.api import check

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "fixtures/dos/notation/example.log").read_text()


def rules_at(text: str, **kw) -> list[tuple[int, str]]:
    return [(f.line, f.rule) for f in check(text, **kw).findings]


def test_example_is_legal() -> None:
    assert rules_at(EXAMPLE) == []


def test_a_skipped_line_does_not_cascade_within_its_turn() -> None:
    # the match line cannot be read: its turn's refill and bonus card are not judged (R17)
    text = EXAMPLE.replace("match R3 with G3 ", "match R3 with G2 ")
    assert rules_at(text) == [(17, "notation.card")]


def test_wrong_top_card_is_one_finding() -> None:
    # R2: a draw that is not the top of a known pile swaps the two cards: later draws line up again
    from dosverify.games.dos.simulate import simulate_text

    for seed in range(5, 50):  # the first short game with two one-card draws of the player on turn
        text = simulate_text(players=2, seed=seed, deck=True, long_round=False)
        lines = text.splitlines()
        draws = [i for i, ln in enumerate(lines) if ln.strip().startswith("draw ") and len(ln.split()) == 2]
        if len(draws) >= 2:
            break
    i, j = draws[0], draws[1]
    a, b = lines[i].split()[1], lines[j].split()[1]
    if a == b:
        return
    lines[i] = lines[i].replace(a, b)
    lines[j] = lines[j].replace(b, a)
    got = rules_at("\n".join(lines) + "\n")
    assert [r for _, r in got] == ["draw.top", "draw.top"] or [r for _, r in got] == ["draw.top"]
    assert got[0][0] == i + 1


def test_illegal_match_bonus_is_not_judged_again() -> None:
    # R1: B5 is not bob's; the Double Color Match it would have been may still be honoured
    # (a declared wild is never taken for a typo of a held card)
    text = EXAMPLE.replace("match B10 with B3 + B7 ", "match B10 with B3 + W2=B")
    # one finding a match line (R62): W2 not held; the sum with a card not meant is not judged
    assert [r for _, r in rules_at(text)] == ["match.held"]


def test_card_typo_in_a_match_is_one_finding_naming_the_card_meant() -> None:
    # B5 is not bob's, and B7 (held) is the one card that makes the match: a typo, one finding;
    # the match is played with B7, so nothing later follows from it
    text = EXAMPLE.replace("match B10 with B3 + B7 ", "match B10 with B3 + B5 ")
    report = check(text)
    assert [(f.rule, f.expected) for f in report.findings] == [("match.held", "B7")]
    assert "B7, which bob holds, seems meant" in report.findings[0].message


def test_missing_penalty_is_not_also_an_order_problem() -> None:
    text = """dos 1
players ann bob
round 1
dealer ann
hand ann G3 B4 B6 G8 Y10 R1 R7
hand bob B5 B1 Y3 Y7 W2 B8 B10
center R5 G4
turn bob
  match R5 with B5
  match G4 with B1 + Y3
  refill Y9 R3
turn ann
  match R3 with G3
  refill R3
turn bob
  match Y9 with Y7 + W2=Y
  catch bob by ann
  refill G5
  place B8
  draw ann B3
"""
    assert rules_at(text) == [(21, "dos.penalty")]


def test_order_found_when_the_jumped_step_arrives() -> None:
    # the bonus card before the refill: reported at the bonus card once the refill comes (R9)
    text = EXAMPLE.replace("  refill Y5  ", "  place Y4\n  refill Y5  ").replace("  place Y4    ", "  #")
    assert rules_at(text) == [(18, "turn.steps")]
    # a Double Color Match draw before the bonus card is a draw in the middle of the turn (V12, R56)
    text = EXAMPLE.replace("  place Y4  ", "  draw cyd G1\n  place Y4  ").replace(
        "  draw cyd G1                        #", "  #"
    )
    assert rules_at(text) == [(20, "bonus.draw-time")]


def test_every_ruleset_name_is_in_the_report() -> None:
    for rs in ("official", "italian", "bosnian", "strict"):
        r = check(EXAMPLE, ruleset=rs)
        assert r.ruleset == rs and r.spec_version


def test_penalty_of_a_catch_that_does_not_stand_is_not_judged_again() -> None:
    # R19: cyd holds 8 cards: the catch is wrong, and cyd's two penalty cards are its consequence
    text = EXAMPLE.replace("  draw B1 ", "  catch cyd by ann\n  draw cyd Y3 Y6\n  draw B1 ")
    got = rules_at(text)
    assert [r for _, r in got] == ["dos.catch"]


def test_no_catch_between_two_lines_of_one_reason() -> None:
    # V6: "all the cards one player draws for one reason" complete one action. bob, caught and
    # down to 1 card, draws his 2 penalty cards on two lines: holding 2 in between owes no call
    base = (ROOT / "fixtures/dos/digest/s1-example1.log").read_text()
    split = base.replace("  draw bob R4 G7 ", "  draw bob R4\n  catch bob by ann\n  draw bob G7 ")
    got = rules_at(split)
    assert [r for _, r in got] == ["dos.catch"], got
    assert "still drawing" in check(split).findings[0].message
    # and once both cards are in, bob holds 3: nothing to catch either; the split itself is legal
    assert rules_at(base.replace("  draw bob R4 G7 ", "  draw bob R4\n  draw bob G7 ")) == []


def test_a_place_of_a_copy_the_deck_has_not_leaves_the_center_row_as_it_was() -> None:
    # R99: ann places R1 after each bare draw (its unknown card taken as R1, R8): the Center Row takes R1
    # until it holds the deck's 3 copies, then no more (it grew a card a place, and each line's look at it
    # with it: issue 31, item 1)
    deal = "round 1\ndealer cy\nhand ann R1 B3 G4 Y5 R6 B7 G8\nhand bob Y1 R3 B4 G5 Y6 R7 B8\nhand cy G1 Y3 R4 B5 G6 Y7 R8\n"
    cycle = "turn ann\ndraw\nplace R1\nturn bob\ndraw Y9\npass\nturn cy\nmatch G1 with G7\n"
    text = "dos 1\nplayers ann bob cy\n" + deal + "center G7 Y8\n" + cycle * 6
    row = [c.base for c in check(text, whole=True).referee.s.table.center]
    assert sorted(row) == ["G7", "R1", "R1", "R1", "Y8"]
