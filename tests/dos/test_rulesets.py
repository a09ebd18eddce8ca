"""The named rulesets say what their seeds say: every option of `bosnian` (S3) and `italian`
(S4) is cited from the seed, every option value is played by the simulator and refereed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.games.dos.simulate import simulate_text
from dosverify.spec import load_spec

SEEDS = Path(os.environ.get("DOSVERIFY_SEEDS", Path(__file__).resolve().parents[2] / "shared" / "seeds"))
SEEDED = {"bosnian": "S3", "italian": "S4"}


def _quotes(part: str) -> list[str]:
    return re.findall(r"«([^»]+)»", part)


@pytest.mark.parametrize("name", sorted(SEEDED))
def test_seeded_ruleset_cites_its_seed_for_every_option(name):
    spec = load_spec("dos")
    raw = spec.rulesets[name]
    cited = raw.get("sources", {})
    rulebook = {k for k, o in spec.options.items() if not o.get("engine")}
    assert set(raw["options"]) == rulebook, "a seeded ruleset sets every rulebook option explicitly"
    assert set(cited) == set(raw["options"]) | {"target"}
    for key, src in cited.items():
        assert src["ref"] in spec.sources and spec.sources[src["ref"]]["file"] == src["file"], (key, src)
        if src["ref"] == SEEDED[name]:
            assert _quotes(src["part"]), f"{name}.{key}: the seed's passage is quoted"


def test_quoted_passages_are_in_the_seeds():
    """Every «quote» of a ruleset or option source is verbatim in its seed file (when the seeds
    are at hand: ../shared/seeds or $DOSVERIFY_SEEDS)."""
    if not SEEDS.is_dir():
        pytest.skip(f"no seed files at {SEEDS}")
    spec = load_spec("dos")
    srcs = [s for rs in spec.rulesets.values() for s in rs.get("sources", {}).values()]
    srcs += [s for opt in spec.options.values() for s in opt.get("sources", ())]
    checked = 0
    for s in srcs:
        path = SEEDS / s["file"]
        if not path.is_file():
            continue
        text = " ".join(path.read_text(encoding="utf-8").split())
        for q in _quotes(s["part"]):
            assert " ".join(q.split()) in text, (s["file"], q)
            checked += 1
    assert checked >= 15


def test_rulesets_follow_their_seeds():
    spec = load_spec("dos")
    bos, ita = spec.ruleset("bosnian").options, spec.ruleset("italian").options
    assert (bos["after-draw-match"], bos["single-color-bonus"], bos["dos-call"], bos["next-dealer"]) == (
        "drawn-only",
        "optional",
        "off",
        "left",
    )
    assert (ita["decline-match"], ita["after-draw-match"], ita["no-match-after-draw"]) == (
        "forbidden",
        "drawn-only",
        "pass",
    )


def test_every_option_value_is_sourced_and_played_by_some_ruleset():
    """The simulator plays every named ruleset, so every rulebook option value must be some ruleset's."""
    spec = load_spec("dos")
    for key, opt in spec.options.items():
        assert opt["default"] in opt["values"]
        assert opt.get("rules") and all(r in spec.rules for r in opt["rules"]), key
        assert {s["value"] for s in opt.get("sources", ())} <= set(opt["values"]), key
        played = {spec.ruleset(n).options[key] for n in spec.rulesets}
        if opt.get("engine"):  # a program's choice, not a rulebook's: every ruleset keeps the default
            assert played == {opt["default"]}, (key, played)  # (played through --option: test_engine_options)
        else:
            assert played == set(opt["values"]), (key, played)


def _games(ruleset: str, n: int):
    for seed in range(n):
        yield simulate_text(2 + seed % 3, seed, ruleset, game=True, target=60, deck=seed % 2 == 0)


def test_bosnian_games_leave_single_bonuses_out_and_never_call():
    """The simulator plays S3: no `dos`/`catch` line, and some Single Color Match cards not
    placed; the referee finds every such game legal, and official finds some illegal."""
    left_out = 0
    for text in _games("bosnian", 12):
        words = [ln.split()[0] for ln in text.splitlines()[1:] if ln.split()]  # after the `dos 1` header
        assert "dos" not in words and "catch" not in words
        assert check(text).verdict == "legal", [(f.line, f.rule, f.message) for f in check(text).findings][:3]
        official = check(text, ruleset="official")
        left_out += any(f.rule == "bonus.card" for f in official.findings)
    assert left_out > 0


def test_italian_games_draw_only_when_unable_and_play_only_the_drawn_card():
    passes = 0
    for text in _games("italian", 12):
        report = check(text)
        assert report.verdict == "legal", [(f.line, f.rule, f.message) for f in report.findings][:3]
        passes += "pass" in text.split()
    assert passes > 0
