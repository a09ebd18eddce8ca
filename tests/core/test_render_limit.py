"""`render_text` with a limit says how many findings it left out, whatever the JSON value the last
shown finding points at (the value once took the name of the list of shown findings, so the count
was of the value's characters, or a TypeError where the pointer led nowhere)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dosverify.api import check
from dosverify.report import render_text

LOG = Path(__file__).resolve().parents[2] / "fixtures" / "dos" / "rules" / "notation.schema" / "illegal-2.json"


@pytest.mark.parametrize("pointer", ["/players", "/tags", "/target", "/nowhere"])
def test_the_findings_left_out_are_counted(pointer):
    text = LOG.read_text()
    report = check(text)
    one = dataclasses.replace(report.findings[0], line=None, pointer=pointer)
    report.findings = [one, one, one]
    out = render_text(report, text, limit=2)
    assert "1 more finding not shown" in out
    assert out.count("dosverify explain") == 2
