"""Messages that cite an option or a variant point by its code (`V4`, `U3`) say in a few words
what it is, in the spec's own words (`Spec.option_ref`, `Spec.variant_ref`: the option's `text`
in options.toml, else the title of the rule the point governs), never a bare code (issue 35,
item 6). Over every fixture log of both games, whose findings cite V4, V7, V9, V15, V16 and U3."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.games import find_game

ROOT = Path(__file__).resolve().parents[2]
BARE = re.compile(r"\b[VU]\d{1,2}\b(?=[);]|, [a-z-]+=)")  # "(V7)", "(V7; ...", "V4, next-dealer=left"
CITED = re.compile(r"\b([VU]\d{1,2}), ")


def _logs(game: str) -> list[Path]:
    root = find_game(game).fixtures_path()
    return sorted(p for p in root.rglob("*") if p.suffix in (".log", ".json") and ".expected" not in p.name)


@pytest.mark.parametrize("game", ["dos", "uno-duo"])
def test_a_cited_code_comes_with_the_specs_words(game):
    spec = find_game(game).spec()
    cited = set()
    for log in _logs(game):
        for f in check(log.read_bytes(), name=log.name).findings:
            assert not BARE.search(f.message), f"{log.name}: a bare code in {f.message!r}"
            for code in CITED.findall(f.message):
                assert spec.variant_ref(code) in f.message, f"{log.name}: {f.message!r}"
                assert not f.message.endswith("…"), f"{log.name}: the words cut the message short: {f.message!r}"
                cited.add(code)
    assert cited >= ({"V4", "V7", "V15", "V16"} if game == "dos" else {"U3"})


def test_option_ref_and_variant_ref_read_the_spec():
    spec = find_game("dos").spec()
    assert spec.option_ref("next-dealer", "left") == "V4, who deals the next round: next-dealer=left"
    assert spec.variant_ref("V13") == spec.option_ref("dcm-order")  # an option's point: the option's words
    assert spec.variant_ref("V7") == "V7, the order of the end of a turn"  # no option: the rule it governs
    assert spec.variant_ref("V99") == "V99"
    assert find_game("uno-duo").spec().option_ref("start-volley", "no").startswith("U3, whether P2 may stack")


def test_the_open_log_score_warning_names_the_finding_in_doubt():
    """score.hidden in an open log (no card face down): the help names the earlier finding that left
    more than one reading of the hand, not `show` lines for face-down hands there are none of."""
    log = ROOT / "fixtures/dos/rules/score.round/illegal-readings-open-warning.log"
    (held, hidden) = check(log.read_bytes(), name=log.name).findings
    assert (held.rule, held.line, hidden.rule) == ("cards.held", 21, "score.hidden")
    assert hidden.message.endswith("ann's hand is in doubt since the finding at line 21")
    assert hidden.help is not None and "`show`" not in hidden.help
    assert hidden.help.startswith("The finding at line 21 left more than one reading of ann's hand: 88 fits")
    face_down = ROOT / "fixtures/dos/rules/score.hidden/illegal.log"
    (f,) = [f for f in check(face_down.read_bytes(), name=face_down.name).findings if f.rule == "score.hidden"]
    assert f.help == find_game("dos").spec().rules["score.hidden"].fix  # face down: write the `show` lines
