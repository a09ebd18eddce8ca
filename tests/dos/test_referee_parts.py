"""The referee's shape, held by tests: each check names the rules it reports (@enforces), every rule it
names is in the spec, and the follow-on policy is read from each rule's `follow_on` and `puts_in_doubt`
fields in spec/dos."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from dosverify.games.dos.notation import parse
from dosverify.games.dos.referee import ENFORCED
from dosverify.games.dos.referee.reporter import Reporter
from dosverify.games.dos.referee.state import new_state
from dosverify.spec import _follow_on, load_spec

REFEREE = Path(__file__).resolve().parents[2] / "dosverify" / "games" / "dos" / "referee"
SPEC = load_spec("dos")
LOG = "dos 1\nplayers ann bob\nround 1\ndealer ann\n"


def _decorated_ids(fn: ast.FunctionDef) -> set[str]:
    out: set[str] = set()
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "enforces":
            out.update(a.value for a in d.args if isinstance(a, ast.Constant))
    return out


def _reported_ids(fn: ast.FunctionDef) -> set[str]:
    """The rule ids `fn` itself passes as a literal to `self.r.report(...)`."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "report"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            out.add(node.args[0].value)
    return out


def _checks():
    for path in sorted(REFEREE.glob("*.py")):
        if path.name == "reporter.py":  # the reporter reports for everyone
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                yield path.name, node


def test_every_check_names_the_rules_it_reports():
    missing = [
        f"{name}:{fn.name} reports {sorted(_reported_ids(fn) - _decorated_ids(fn))}"
        for name, fn in _checks()
        if _reported_ids(fn) - _decorated_ids(fn)
    ]
    assert not missing, "add them to the check's @enforces(...):\n" + "\n".join(missing)


def test_every_rule_a_check_names_is_in_the_spec():
    assert ENFORCED, "no check registered: @enforces runs as the parts are imported"
    assert set(ENFORCED) <= set(SPEC.rules), sorted(set(ENFORCED) - set(SPEC.rules))


def test_where_a_rule_is_enforced_is_one_lookup():
    assert "matches.Matches._judge" in ENFORCED["match.double"]
    assert "matches.Matches._cover" in ENFORCED["match.center"]
    assert all(name.count(".") == 2 for names in ENFORCED.values() for name in names)


def test_the_follow_on_field_names_only_what_can_be_in_doubt():
    for rule in SPEC.rules.values():
        assert set(rule.follow_on) <= set(SPEC.follow_ons), rule.id
    assert set(SPEC.follow_ons) == {"hand", "pile", "skipped-line", "match-line"}
    assert SPEC.rules["draw.top"].follow_on == ("hand", "pile")
    assert SPEC.rules["match.held"].follow_on == ("hand", "match-line")
    assert SPEC.rules["match.single"].follow_on == ("match-line",)
    assert SPEC.rules["turn.order"].follow_on == ()
    assert SPEC.rules["match.held"].puts_in_doubt and not SPEC.rules["draw.no-match"].puts_in_doubt
    with pytest.raises(ValueError, match="follow_on"):
        _follow_on({"id": "x.y", "follow_on": "hand"}, SPEC.follow_ons)  # a string, not a list
    with pytest.raises(ValueError, match="follow_on"):
        _follow_on({"id": "x.y", "follow_on": ["deck"]}, SPEC.follow_ons)


def _reporter(spec=SPEC) -> Reporter:
    state = new_state(parse(LOG).log, SPEC.ruleset("official"), [])
    return Reporter(state, spec)


@pytest.mark.parametrize("rule_id", sorted(SPEC.rules))
def test_a_rule_is_a_follow_on_exactly_as_its_spec_entry_says(rule_id):
    follows = SPEC.rules[rule_id].follow_on
    rep = _reporter()
    assert not rep.follow_on(rule_id, "ann")
    rep.s.doubt.add("ann")
    assert rep.follow_on(rule_id, "ann") == ("hand" in follows)
    assert rep.follow_on(rule_id, "bob") is False
    rep.s.pile_doubt = True
    assert rep.follow_on(rule_id, "bob") == ("pile" in follows)


def test_the_policy_is_read_from_the_spec_not_the_code():
    rules = dict(SPEC.rules)
    rules["match.held"] = dataclasses.replace(rules["match.held"], follow_on=())
    rules["match.single"] = dataclasses.replace(rules["match.single"], follow_on=("hand",))
    rep = _reporter(dataclasses.replace(SPEC, rules=rules))
    rep.s.doubt.add("ann")
    assert not rep.follow_on("match.held", "ann")
    assert rep.follow_on("match.single", "ann")
    rep.report("match.held", "reported: no longer a follow-on", player="ann")
    rep.report("match.single", "left out: now a follow-on", player="ann")
    assert [f.rule for f in rep.s.findings] == ["match.held"]


def test_which_findings_put_a_hand_in_doubt_is_read_from_the_spec():
    rep = _reporter()
    rep.report("draw.no-match", "not a card finding", player="ann")
    assert "ann" not in rep.s.doubt
    rep.report("match.held", "a card finding", player="ann")
    assert "ann" in rep.s.doubt
    rules = dict(SPEC.rules)
    rules["draw.no-match"] = dataclasses.replace(rules["draw.no-match"], puts_in_doubt=True)
    rules["match.held"] = dataclasses.replace(rules["match.held"], puts_in_doubt=False)
    rep = _reporter(dataclasses.replace(SPEC, rules=rules))
    rep.report("match.held", "no longer puts the hand in doubt", player="ann")
    assert "ann" not in rep.s.doubt
    rep.report("draw.no-match", "now does", player="ann")
    assert "ann" in rep.s.doubt


def test_one_finding_per_match_line_is_read_from_the_spec():
    rep = _reporter()
    rep.report("match.single", "the slip", line=7, player="ann")
    rep.report("match.center", "judged by a card not meant", line=7, player="bob")
    rep.report("turn.order", "not a match-line rule", line=7, player="bob")
    assert [f.rule for f in rep.s.findings] == ["match.single", "turn.order"]
    rules = dict(SPEC.rules)
    rules["match.center"] = dataclasses.replace(rules["match.center"], follow_on=("hand",))
    rep = _reporter(dataclasses.replace(SPEC, rules=rules))
    rep.report("match.single", "the slip", line=7, player="ann")
    rep.report("match.center", "no longer one of a line's", line=7, player="bob")
    assert [f.rule for f in rep.s.findings] == ["match.single", "match.center"]


def test_explain_shows_a_rules_follow_on_policy():
    import subprocess
    import sys

    def explain(rule_id: str) -> str:
        r = subprocess.run(
            [sys.executable, "-m", "dosverify", "explain", rule_id], capture_output=True, text=True, timeout=120
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    shown = explain("draw.top")
    assert "Follow-on (" in shown and "hand is in doubt" in shown and "draw pile is in doubt" in shown
    assert "Follow-on" not in explain("turn.order")
    assert "match line already has a finding" in explain("match.single")
    assert "puts the player's hand in doubt" in explain("match.single")
    assert "puts the player's hand in doubt" not in explain("turn.order")


def _asked(path: Path, names: set[str]) -> set[str]:
    """The parts a module's code asks: `self.parts.X` and `parts.X` (a local alias of it)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in names:
            v = node.value
            if (isinstance(v, ast.Attribute) and v.attr == "parts" and getattr(v.value, "id", None) == "self") or (
                isinstance(v, ast.Name) and v.id == "parts"
            ):
                out.add(node.attr)
    return out


def test_the_parts_call_one_way():
    """Issue 32: a part asks only parts before it in ORDER, and exactly the ones its class declares in
    `uses` (the only ones it is handed): the calls form no circle, and each part's dependencies are
    written on its class."""
    from dosverify.games.dos.referee import PART_CLASSES
    from dosverify.games.dos.referee.part import ORDER

    assert sorted(ORDER) == sorted(PART_CLASSES)
    names = set(ORDER)
    for name, cls in PART_CLASSES.items():
        module = REFEREE / f"{cls.__module__.rsplit('.', 1)[-1]}.py"
        asked = _asked(module, names)
        assert asked == set(cls.uses), f"{name}: asks {sorted(asked)}, declares {sorted(cls.uses)}"
        later = [u for u in cls.uses if ORDER.index(u) >= ORDER.index(name)]
        assert not later, f"{name} asks {later}, not below it in ORDER"


def test_a_part_is_handed_only_what_it_uses():
    """The direction is held at run time too: a part reaching a part it does not declare fails."""
    from dosverify.games.dos.referee import Referee
    from dosverify.games.dos.referee.part import ORDER

    ref = Referee(parse(LOG + "turn bob\n  draw R1\n  place R1\n").log, SPEC.ruleset("official"))
    plays = ref.parts.plays
    assert set(vars(plays.parts)) == set(type(plays).uses)
    with pytest.raises(AttributeError):
        plays.parts.matches  # noqa: B018 (plays is below matches)
    assert set(vars(ref.parts)) == set(ORDER)
