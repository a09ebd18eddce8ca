"""UNO Duo rule fixtures: every log in fixtures/uno-duo/ with a `.expected.json` beside it gives
exactly those findings, and every rule of the spec has a legal log exercising it and an illegal
log breaking it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dosverify.games import find_game

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "uno-duo"
PACK = find_game("uno-duo")


def expected_files() -> list[Path]:
    """The fixtures' expectations; the conformance corpus (conformance/) keeps its own, in the corpus's
    form, and tests/uno_duo/test_corpus.py holds it."""
    return sorted(p for p in ROOT.rglob("*.expected.json") if "conformance" not in p.relative_to(ROOT).parts)


def log_for(exp: Path) -> Path:
    stem = exp.name[: -len(".expected.json")]
    for ext in (".log", ".json"):
        if (cand := exp.with_name(stem + ext)).exists():
            return cand
    raise FileNotFoundError(f"no log beside {exp}")


@pytest.mark.parametrize("exp", expected_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture(exp: Path) -> None:
    want = json.loads(exp.read_text())
    path = log_for(exp)
    report = PACK.check(path.read_bytes(), name=path.name)
    got = Counter((f.rule, f.kind, f.line) for f in report.findings)
    assert got == Counter((f["rule"], f["kind"], f["line"]) for f in want["findings"]), "\n".join(
        f"{f.line}:{f.column} {f.rule} {f.message}" for f in report.findings
    )
    assert report.verdict == want["verdict"]
    spec = PACK.spec()
    for f in report.findings:  # kind and severity always come from the spec
        assert f.kind == spec.rules[f.rule].kind and f.severity == spec.rules[f.rule].severity


def test_every_rule_has_a_legal_and_an_illegal_fixture() -> None:
    exercised: set[str] = set()
    broken: set[str] = set()
    for exp in expected_files():
        want = json.loads(exp.read_text())
        if want["verdict"] == "legal" and not want["findings"]:
            exercised.update(want.get("exercises", []))
        broken.update(f["rule"] for f in want["findings"])
    rules = set(PACK.spec().rules)
    assert rules - exercised == set(), "rules without a legal fixture"
    assert rules - broken == set(), "rules without an illegal fixture"
    for rule in rules:
        assert (ROOT / "rules" / rule / "legal.log").exists() or (ROOT / "rules" / rule / "legal.json").exists()
        assert list((ROOT / "rules" / rule).glob("illegal*.expected.json")), rule


def test_illegal_fixtures_break_their_own_rule() -> None:
    for folder in (ROOT / "rules").iterdir():
        for exp in folder.glob("illegal*.expected.json"):
            want = json.loads(exp.read_text())
            assert folder.name in {f["rule"] for f in want["findings"]}, exp
