"""Text and JSON say the same: text -> JSON -> text is lossless, a JSON log is judged as its text,
and the schema in spec/uno-duo/ is the one the models give."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dosverify.games import find_game
from dosverify.games.uno_duo.jsonform import json_schema, schema_path

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "uno-duo"
PACK = find_game("uno-duo")


@pytest.mark.parametrize("path", sorted(ROOT.rglob("*.log")), ids=lambda p: str(p.relative_to(ROOT)))
def test_text_json_text_is_lossless(path: Path) -> None:
    parsed = PACK.parse(path.read_bytes())  # (read here, not to parametrize: every worker collects)
    if parsed.malformed or any(f.kind == "syntax" for f in parsed.findings):
        return  # a log the reader cannot read whole has no JSON form to hold to its text
    log = parsed.log
    text = PACK.write(log)
    as_json = PACK.dump_json(log)
    back = PACK.parse(as_json)
    assert not back.malformed and back.findings == []
    assert PACK.write(back.log) == text
    assert PACK.parse(text).log == log  # the writer's text reads as the same log
    json_report = PACK.check(as_json)
    text_report = PACK.check(path.read_bytes())
    assert json_report.verdict == text_report.verdict
    assert Counter(f.rule for f in json_report.findings) == Counter(f.rule for f in text_report.findings)
    assert all(f.pointer is not None for f in json_report.findings)


def test_schema_file_is_current() -> None:
    assert json.loads(schema_path().read_text(encoding="utf-8")) == json_schema()


def test_json_misfits() -> None:
    good = json.loads(PACK.dump_json(PACK.parse((ROOT / "examples" / "example-1.log").read_text()).log))
    both = dict(good, dos=1)
    assert PACK.check(both).verdict == "malformed"
    three = dict(good, players=["ann", "bob", "cyd"])
    report = PACK.check(three)
    assert report.verdict == "malformed" and report.findings[0].rule == "notation.players"
    bad_card = json.loads(json.dumps(good))
    bad_card["rounds"][0]["turns"][0]["events"][0]["cards"] = ["R10"]
    report = PACK.check(bad_card)
    assert report.verdict == "illegal"
    assert next((f.rule, f.pointer) for f in report.findings) == ("notation.card", "/rounds/0/turns/0/events/0/cards/0")
    assert PACK.check("[1, 2]").verdict == "malformed"
    assert PACK.check("{not json").verdict == "malformed"
