"""What every game's reader gives the core: the log (the game's own model), the reader's findings
and the text it read. Game-free: the core passes a Parsed on without looking inside the log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .findings import Finding


@dataclass
class Parsed:
    """The result of reading a log: the log (None if malformed) and the findings."""

    log: Any | None
    findings: list[Finding] = field(default_factory=list)
    malformed: bool = False
    text: str | None = None


def json_type_name(value: Any) -> str:
    """A JSON value's type as JSON names it (object, array, string, number, boolean, null), for
    messages: a client never sees Python's names (dict, list, str)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
