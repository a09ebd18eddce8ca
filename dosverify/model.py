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
