"""Every rulebook quote comes with its English (issue 35, item 6): each «quote» of a rule's, an
option's or a ruleset's source in spec/<game>/ has a `quote_en` beside it, a quote from a source
in English (spec.toml's `lang = "en"`) being its own; and `explain`, `rules`, `/v1/rules`, SARIF
and the page show it wherever the quote is shown. The quotes stay verbatim (test_rulesets.py and
test_uno_spec.py hold them to the seeds)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dosverify.games import REGISTRY, find_game
from dosverify.spec import Source, Spec

QUOTE = re.compile("«([^»]*)»")
ROOT = Path(__file__).resolve().parents[2]


def _english_source(spec: Spec, ref: str) -> bool:
    return spec.sources.get(ref, {}).get("lang") == "en"


@pytest.fixture(params=sorted(REGISTRY))
def spec(request) -> Spec:
    return find_game(request.param).spec()


def test_every_quote_of_every_rule_has_its_english(spec):
    quoted = [(r.id, s) for r in spec.rules.values() for s in r.sources if s.quotes]
    assert quoted, f"{spec.game}: no rule quotes its source"
    for rule_id, s in quoted:
        assert s.quote_en.strip(), f"{spec.game} {rule_id}: {s.part} has no quote_en"
        if not _english_source(spec, s.ref):  # a translation, not the quote again
            assert s.english_differs, f"{spec.game} {rule_id}: quote_en repeats {s.part}"


def test_every_quote_of_an_option_or_ruleset_has_its_english(spec):
    raw = [s for o in spec.options.values() for s in o.get("sources", ())]
    raw += [s for rs in spec.rulesets.values() for s in rs.get("sources", {}).values()]
    for s in raw:
        if QUOTE.search(s["part"]) and not _english_source(spec, s["ref"]):
            assert s.get("quote_en", "").strip(), f"{spec.game}: {s['part']} has no quote_en"


def test_a_quote_in_english_is_its_own_and_quote_en_needs_a_quote() -> None:
    from dosverify.spec import _source

    declared = {"E": {"lang": "en"}, "R": {"lang": "ru"}}
    own = _source("x", {"ref": "E", "part": "Header: «a» and «b»"}, declared)
    assert own.quote_en == "a; b" and not own.english_differs
    assert _source("x", {"ref": "R", "part": "«да»"}, declared).quote_en == ""  # the test above catches it
    with pytest.raises(ValueError, match="quotes nothing"):
        _source("x", {"ref": "R", "part": "no quote", "quote_en": "yes"}, declared)


def _translated(game: str) -> tuple[str, Source]:
    spec = find_game(game).spec()
    return next((r.id, s) for r in spec.rules.values() for s in r.sources if s.english_differs)


@pytest.mark.parametrize("game", ["dos", "uno-duo"])
def test_explain_shows_the_english_under_the_quote(game, capsys):
    from dosverify.cli import main

    rule_id, src = _translated(game)
    assert main(["explain", rule_id, "--game", game]) == 0
    out = capsys.readouterr().out
    at = out.index(src.part)
    assert " ".join(out[at:].split()).startswith(f"{src.part} English: {src.quote_en}")
    assert main(["explain", rule_id, "--game", game, "--format", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)["sources"]
    assert {"part": src.part, "quote_en": src.quote_en}.items() <= next(
        s for s in shown if s["part"] == src.part
    ).items()
    assert main(["rules", "--game", game, "--format", "json"]) == 0
    rules = {r["id"]: r for r in json.loads(capsys.readouterr().out)["rules"]}
    assert src.quote_en in [s["quote_en"] for s in rules[rule_id]["sources"]]


def test_explain_an_option_shows_the_english_of_its_sources(capsys):
    from dosverify.cli import main

    assert main(["explain", "decline-match"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "«Quando un giocatore non può giocare, deve pescare una carta» English: When a player cannot play" in out


def test_v1_rules_and_its_openapi_carry_quote_en():
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    rule_id, src = _translated("uno-duo")
    with TestClient(create_app()) as client:
        rules = client.get("/v1/rules", params={"game": "uno-duo"}).json()["rules"]
        one = client.get(f"/v1/rules/{rule_id}", params={"game": "uno-duo"}).json()
        schema = client.get("/openapi.json").json()["components"]["schemas"]["SourceRef"]
    got = [s for r in rules if r["id"] == rule_id for s in r["sources"] if s["part"] == src.part]
    assert got and got[0]["quote_en"] == src.quote_en
    assert src.quote_en in [s["quote_en"] for s in one["sources"]]
    assert "quote_en" in schema["properties"] and schema["properties"]["quote_en"]["description"]


def test_sarif_rule_sources_carry_the_english():
    from dosverify.formats.sarif import _rule

    rule_id, src = _translated("dos")
    rule = find_game("dos").spec().rules[rule_id]
    shown = _rule(rule)["properties"]["sources"]
    assert f"{src.ref} {src.file}: {src.part} (English: {src.quote_en})" in shown


def test_the_page_shows_the_english_beside_each_source():
    js = (ROOT / "dosverify/static/app.js").read_text(encoding="utf-8")
    assert re.search(r"r\.sources\.map\(\(s\) => .*s\.quote_en", js, re.S), "the rule box shows quote_en"
