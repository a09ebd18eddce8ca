"""What every output format is built on: the run's tally and the Output base class."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO

from ..findings import Finding
from ..report import Report


@dataclass
class Tally:
    """What the run saw: verdicts counted, and findings by rule and by kind (--statistics)."""

    verdicts: dict[str, int] = field(
        default_factory=lambda: {"legal": 0, "illegal": 0, "malformed": 0, "unreadable": 0, "refused": 0}
    )
    by_rule: dict[str, int] = field(default_factory=dict)
    by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, report: Report) -> None:
        self.verdicts[report.verdict] += 1
        for f in report.findings:
            self.by_rule[f.rule] = self.by_rule.get(f.rule, 0) + 1
            self.by_kind[f.kind] = self.by_kind.get(f.kind, 0) + 1
        cut = report.cut  # the findings past --max-errors: counted, not kept
        if cut is not None:
            for k, n in cut.rules.items():
                self.by_rule[k] = self.by_rule.get(k, 0) + n
            for k, n in cut.kinds.items():
                self.by_kind[k] = self.by_kind.get(k, 0) + n

    @property
    def files(self) -> int:
        return sum(self.verdicts.values())


class Output:
    """Base: subclasses write a report (its first `limit` findings) as it comes, and may finish a document."""

    def __init__(self, stream: TextIO, *, colour: bool = False, quiet: bool = False, limit: int = 0) -> None:
        self.stream, self.colour, self.quiet, self.limit = stream, colour, quiet, limit

    def shown(self, report: Report) -> list[Finding]:
        return report.findings[: self.limit] if self.limit else report.findings

    def report(self, report: Report) -> None:
        raise NotImplementedError

    def unreadable(self, path: str, message: str, spec_version: str, game: str) -> None:
        """A named or found file that cannot be read (missing, a broken link, no permission): no game
        is known, so the report names the default one, whose `spec_version` it is."""
        self.failed(path, f"cannot read {path}: {message}", spec_version, "unreadable", game)

    def refused(self, path: str, message: str, spec_version: str, game: str) -> None:
        """A log that was not judged because the command's ruleset or options are not its game's
        (`game`, whose `spec_version` it is)."""
        self.failed(path, f"{path}: {message}", spec_version, "refused", game)

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        """A file that got no report (`kind`: unreadable or refused; `game`: the log's, when known),
        `error` said in full."""

    def close(self, tally: Tally) -> None:
        """After the last report."""
