"""The UNO Duo specification: every rule id of the contract, S2 quoted verbatim, the options U1-U14."""

from __future__ import annotations

import re
from pathlib import Path

from dosverify.games import find_game
from dosverify.games.uno_duo.cards import composition, value

PACK = find_game("uno-duo")
REPO = Path(__file__).resolve().parents[2]
SEED = Path("/work/shared/seeds/002_703eac6ff2322c43.txt")
CONTRACT_RULES = [
    "cards.composition",
    "cards.unseen",
    "cards.known",
    "draft.hands",
    "reshuffle.cards",
    "setup.drafter",
    "draft.order",
    "start.first",
    "turn.order",
    "turn.end",
    "turn.pass",
    "skip.again",
    "round.end",
    "round.sequence",
    "game.end",
    "play.held",
    "play.match",
    "play.one",
    "wild.colour",
    "draw.drawn-only",
    "reverse.colour",
    "reverse.all",
    "start.reverse",
    "volley.stack",
    "wd4.answer",
    "draft.pick",
    "draft.under",
    "setup.start",
    "draw.one",
    "draw.reason",
    "draw.top",
    "reshuffle.when",
    "volley.draw",
    "wd4.draw",
    "wd4.challenge",
    "wd4.outcome",
    "uno.call",
    "uno.catch",
    "uno.penalty",
    "score.round",
    "score.values",
    "score.totals",
    "game.winner",
    "notation.line",
    "notation.card",
    "notation.player",
    "notation.placement",
    "notation.version",
    "notation.players",
]
OPTIONS = {
    "deck": ["112", "108"],
    "start-volley": ["no", "yes"],
    "start-reverse": ["must", "may"],
    "skip-again": ["must", "optional"],
    "reverse-alone": ["none", "skip"],
    "run-reverse": ["opponent", "none"],
    "volley": ["may", "must"],
    "wd4-legal": ["any", "colour"],
    "pile-order": ["turned", "shuffled"],
    "uno-window": ["hand", "next-action"],
    "last-draw": ["no", "yes"],
}


def _seed_text() -> str | None:
    for path in (SEED, REPO / "seeds" / SEED.name):
        if path.exists():
            return path.read_text(encoding="utf-8")
    return None


def test_every_contract_rule_is_in_the_spec() -> None:
    spec = PACK.spec()
    assert set(CONTRACT_RULES) <= set(spec.rules)
    assert spec.rules["uno.call"].severity == "warning"
    kinds = {
        "syntax",
        "card-accounting",
        "turn-order",
        "illegal-play",
        "draw-order",
        "challenge",
        "uno-call",
        "mis-scored",
    }
    assert {r.kind for r in spec.rules.values()} == kinds and set(spec.kinds) == kinds
    for rule in spec.rules.values():
        assert rule.text and rule.why and rule.sources and rule.example and rule.fix, rule.id


def test_every_s2_quote_is_verbatim() -> None:
    seed = _seed_text()
    if seed is None:
        import pytest

        pytest.skip("the seed file is not here")
    spec = PACK.spec()
    parts = [s.part for r in spec.rules.values() for s in r.sources if s.ref == "S2"]
    parts += [s["part"] for o in spec.options.values() for s in o.get("sources", []) if s["ref"] == "S2"]
    quotes = [q for part in parts for q in re.findall("«([^»]*)»", part)]
    assert len(quotes) > 40
    for q in quotes:
        assert q in seed, q
    # the English is beside each quote (quote_en), not in it: the part is the seed's words alone
    assert not [p for p in parts if "English:" in p]
    assert all(s.quote_en for r in spec.rules.values() for s in r.sources if s.ref == "S2")
    assert all(s.get("quote_en") for o in spec.options.values() for s in o.get("sources", []) if s["ref"] == "S2")


def test_options_are_the_contracts() -> None:
    spec = PACK.spec()
    assert {k: list(v["values"]) for k, v in spec.options.items()} == OPTIONS
    official = spec.ruleset("official")
    assert official.options == {k: v[0] for k, v in OPTIONS.items()} and official.target == 200


def test_deck_and_values() -> None:
    assert sum(composition("112").values()) == 112 and composition("112")["W"] == 8
    assert sum(composition("108").values()) == 108 and composition("108")["W"] == 4
    assert composition("112")["R0"] == 1 and composition("112")["R+2"] == 2
    assert [value(c) for c in ("R7", "G0", "B+2", "YR", "RS", "W", "W+4")] == [7, 0, 10, 10, 10, 15, 20]


def test_follow_on_policy_is_the_specs():
    """The follow-on policy (READINGS R4, R5) is read from the rules' TOML: every circumstance a rule
    names is declared in spec.toml, the rules that put a hand in doubt are card findings that a hand in
    doubt does not report again, and a rule's finding is never suppressed by one it cannot follow."""
    import tomllib

    from dosverify.games.uno_duo.referee.judge import follow_ons

    root = REPO / "spec" / "uno-duo"
    declared = set(tomllib.loads((root / "spec.toml").read_text())["follow_ons"])
    named: dict[str, set[str]] = {}
    for path in sorted((root / "rules").glob("*.toml")):
        for rule in tomllib.loads(path.read_text())["rule"]:
            for circumstance in rule.get("follow_on", []):
                named.setdefault(circumstance, set()).add(rule["id"])
    assert set(named) == declared == {"hand-in-doubt", "skipped-line"}
    policy = follow_ons("uno-duo")
    assert policy.hand_in_doubt == named["hand-in-doubt"] and policy.skipped_line == named["skipped-line"]
    assert policy.puts_in_doubt and policy.puts_in_doubt <= policy.hand_in_doubt
    assert {"play.held", "cards.unseen", "draw.top"} <= policy.puts_in_doubt
    assert not policy.skipped_line & {"play.match", "notation.line", "score.values"}
