"""Golden fixtures: every log in fixtures/ with a `.expected.json` beside it is checked,
and every rule of the specification has a legal log that exercises it and an illegal
log that breaks it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.spec import load_spec

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "dos"


def expected_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.expected.json") if "conformance" not in p.parts)


def log_for(exp: Path) -> Path:
    stem = exp.name[: -len(".expected.json")]
    for ext in (".log", ".json"):
        cand = exp.with_name(stem + ext)
        if cand.exists():
            return cand
    raise FileNotFoundError(f"no log beside {exp}")


def key(f: dict, with_column: bool) -> tuple:
    return (f["rule"], f["kind"], f.get("line")) + ((f.get("column"),) if with_column else ())


@pytest.mark.parametrize("exp", expected_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_fixture(exp: Path) -> None:
    want = json.loads(exp.read_text())
    path = log_for(exp)
    report = check(path.read_bytes(), name=path.name, ruleset=want.get("ruleset_override"))
    got = [f.to_dict() for f in report.findings]
    with_column = any("column" in f for f in want["findings"])
    assert Counter(key(f, with_column) for f in got) == Counter(key(f, with_column) for f in want["findings"]), (
        "\n".join(f"{f['line']}:{f['column']} {f['rule']} {f['message']}" for f in got)
    )
    assert report.verdict == want["verdict"]
    spec = load_spec("dos")
    for f in report.findings:  # kind and severity always come from the spec
        assert f.kind == spec.rules[f.rule].kind and f.severity == spec.rules[f.rule].severity


def test_every_rule_has_a_legal_and_an_illegal_fixture() -> None:
    exercised: set[str] = set()
    broken: set[str] = set()
    for exp in expected_files():
        want = json.loads(exp.read_text())
        if want["verdict"] == "legal":
            exercised.update(want.get("exercises", []))
        broken.update(f["rule"] for f in want["findings"])
    rules = set(load_spec("dos").rules)
    assert not (exercised - rules), f"fixtures name unknown rules: {sorted(exercised - rules)}"
    assert not (broken - rules), f"fixtures name unknown rules: {sorted(broken - rules)}"
    missing_legal = sorted(rules - exercised)
    missing_illegal = sorted(rules - broken)
    assert not missing_legal and not missing_illegal, (
        f"rules without a legal fixture: {missing_legal}\nrules without an illegal fixture: {missing_illegal}"
    )


def test_every_rule_is_enforced_by_code_that_names_it() -> None:
    # a rule of the spec that no check names would be law without a referee
    pkg = ROOT.parents[1] / "dosverify" / "games" / "dos"
    generators = {"simulate", "mutate", "corpus", "golden"}  # modules or packages that write logs, not judge them
    checking = [p for p in pkg.rglob("*.py") if not generators & {p.stem, *p.relative_to(pkg).parts[:-1]}]
    checking.append(
        pkg.parent / "__init__.py"
    )  # the core's data path: `notation.rounds` for every game whose spec has it
    src = "".join(p.read_text(encoding="utf-8") for p in checking)
    unnamed = sorted(r for r in load_spec("dos").rules if f'"{r}"' not in src)
    assert not unnamed, f"rules no check names: {unnamed}"
