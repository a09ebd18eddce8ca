"""spec/uno-duo/notation.md is the public contract of `uno-duo 1`: its complete examples are the
fixtures the example tests (test_uno_examples.py) hold to their stated meaning, and its list of
rule ids is the specification's, id for id, kind for kind."""

from __future__ import annotations

import re
from pathlib import Path

from dosverify.games import find_game

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "spec" / "uno-duo" / "notation.md").read_text(encoding="utf-8")
PACK = find_game("uno-duo")


def test_the_complete_examples_are_the_fixtures() -> None:
    blocks = re.findall(r"### Example (\d)[^\n]*\n```\n(.*?)```", DOC, re.S)
    assert [n for n, _ in blocks] == ["1", "2"]
    for n, text in blocks:
        assert text == (ROOT / "fixtures" / "uno-duo" / "examples" / f"example-{n}.log").read_text(encoding="utf-8")
        report = PACK.check(text)
        assert report.verdict == "legal" and report.findings == [], n
    # the example the page loads (GamePack.example_path, spec/uno-duo/example.log) is example 1, as written
    assert PACK.example_path().read_text(encoding="utf-8") == blocks[0][1]


def _listed() -> dict[str, str]:
    """rule id -> finding kind, as the page's "Finding kinds and rule ids" lists them."""
    section = DOC.split("## Finding kinds and rule ids", 1)[1].split("**One mistake, one finding.**")[0]
    listed, kind = {}, None
    for line in section.splitlines():
        if m := re.match(r"- ([a-z-]+):\s*$", line):
            kind = m.group(1)
        elif (m := re.match(r"  - `([a-z0-9.-]+)`", line)) and kind:
            listed[m.group(1)] = kind
    return listed


def test_every_rule_of_the_spec_is_listed_with_its_kind() -> None:
    spec = {r.id: r.kind for r in PACK.spec().rules.values() if not r.id.startswith("notation.")}
    assert len(spec) > 30 and _listed() == spec


def test_the_page_is_linked_from_the_readme_and_the_games_guide() -> None:
    assert "(spec/uno-duo/notation.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(../spec/uno-duo/notation.md)" in (ROOT / "docs" / "uno-duo.md").read_text(encoding="utf-8")
