"""The referee never raises: any sequence of well-formed lines, however absurd as a game,
gives a report (property-based), and each finding names a rule of the spec."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dosverify.api import check
from dosverify.spec import load_spec

PLAYERS = ["ann", "bob", "cyd"]
bases = [f"{c}{n}" for c in "RGBY" for n in (1, 3, 4, 5, 6, 7, 8, 9, 10)] + [f"{c}#" for c in "RGBY"] + ["W2"]
cards = st.one_of(
    st.sampled_from(bases),
    st.builds(lambda c, n: f"{c}#={n}", st.sampled_from("RGBY"), st.integers(1, 10)),
    st.builds(lambda c: f"W2={c}", st.sampled_from("RGBY")),
)
player = st.sampled_from(PLAYERS + ["zed"])
card_list = st.lists(cards, min_size=0, max_size=4).map(" ".join)

event_line = st.one_of(
    st.builds(lambda t, a: f"match {t} with {a}", cards, st.lists(cards, min_size=1, max_size=3).map(" + ".join)),
    st.builds(lambda p, c: f"draw {p} {c}".rstrip(), player, card_list),
    st.builds(lambda c: f"draw {c}".rstrip(), card_list),
    st.builds(lambda c: f"refill {c}".rstrip(), card_list),
    st.builds(lambda c: f"place {c}", cards),
    st.just("pass"),
    st.builds(lambda p: f"dos {p}", player),
    st.just("dos"),
    st.builds(lambda p, q: f"catch {p} by {q}", player, player),
    st.builds(lambda c: f"reshuffle {c}".rstrip(), card_list),
    st.builds(lambda p: f"turn {p}", player),
    st.builds(lambda p, n: f"score {p} {n}", player, st.integers(0, 300)),
    st.builds(lambda n: f"totals ann {n} bob 0 cyd 0", st.integers(0, 300)),
    st.builds(lambda n, p: f"round {n}\ndealer {p}", st.integers(1, 4), player),
)


@st.composite
def logs(draw):
    lines = ["dos 1", "players ann bob cyd", f"target {draw(st.integers(1, 300))}", "round 1", "dealer ann"]
    if draw(st.booleans()):
        deck = draw(
            st.permutations(
                sorted(
                    b
                    for b in bases
                    for _ in range({"W2": 12}.get(b, 2 if b[1:] in {"6", "7", "8", "9", "10", "#"} else 3))
                )
            )
        )
        lines.append("deck " + " ".join(deck))
    else:
        for p in PLAYERS:
            lines.append(f"hand {p} " + " ".join(draw(st.lists(st.sampled_from(bases), min_size=6, max_size=8))))
        lines.append("center " + " ".join(draw(st.lists(st.sampled_from(bases), min_size=1, max_size=3))))
    lines.append("turn bob")
    lines += draw(st.lists(event_line, max_size=40))
    if draw(st.booleans()):
        lines.append(f"winner {draw(player)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(logs())
def test_any_wellformed_log_gives_a_report(text: str) -> None:
    report = check(text, name="h.log")
    assert report.verdict in ("legal", "illegal")
    rules = load_spec("dos").rules
    for f in report.findings:
        assert f.rule in rules
        assert f.kind == rules[f.rule].kind
        assert f.line is not None and f.line >= 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["official", "italian", "bosnian", "strict"]), min_size=1, max_size=1), logs())
def test_every_ruleset_referees_without_error(rs, text: str) -> None:
    report = check(text, name="h.log", ruleset=rs[0])
    assert report.ruleset == rs[0]


def test_a_reshuffle_names_the_discards_in_doubt_in_words():
    """After a wrong sum that several held cards could explain (R42), the matched cards reach the
    discard pile unnamed. A later reshuffle that lists the pile wrongly says how many cards are in
    doubt, rather than printing their placeholder ("left out: ? ?")."""
    from pathlib import Path

    src = (Path(__file__).resolve().parents[2] / "fixtures/dos/rules/reshuffle.cards/legal-3.log").read_text()
    assert check(src).verdict == "legal"
    bad = src.replace("match B10 with B3 + B7 ", "match B10 with R1 + B7 ", 1).replace(
        "reshuffle B10 B3 B7 R3", "reshuffle B10 B3 R3", 1
    )
    found = [(f.rule, f.message) for f in check(bad).findings if f.severity == "error"]
    assert found[0] == ("match.double", "R1 + B7 = 8, not 10")
    rule, message = found[-1]
    assert rule == "reshuffle.cards" and "?" not in message
    assert message.endswith("(not among its known cards: B3; it also holds 2 cards in doubt since an earlier finding)")
