"""DOS's findings, made under DOS's specification: the reader, the JSON form and the referee report
through this one function, so a DOS rule id is never looked up in another game's spec."""

from __future__ import annotations

from typing import Any

from ...findings import Finding, make_finding
from ...spec import load_spec


def finding(rule_id: str, message: str, **kw: Any) -> Finding:
    """A DOS finding: `rule_id` in spec/dos, its kind and severity read from there."""
    return make_finding(load_spec("dos"), rule_id, message, **kw)
