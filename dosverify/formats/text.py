"""The two formats written as each file finishes: compiler-style text, and JSON Lines."""

from __future__ import annotations

import json
import sys

from ..report import Report, render_text, summary_line
from .base import Output, Tally


class TextOutput(Output):
    def report(self, report: Report) -> None:
        if self.quiet:
            self.stream.write(summary_line(report, colour=self.colour) + "\n")
        else:
            self.stream.write(render_text(report, report.text, colour=self.colour, limit=self.limit) + "\n")
        self.stream.flush()

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        print(f"dosverify: {error}", file=sys.stderr)

    def close(self, tally: Tally) -> None:
        if tally.files > 1:
            self.stream.write(
                f"{tally.files} files: " + ", ".join(f"{n} {k}" for k, n in tally.verdicts.items() if n) + "\n"
            )


class JsonLinesOutput(Output):
    """One report a line, as the service answers it; `truncated` counts the findings past --max-errors.
    A file that cannot be read gets a `malformed` line with no findings and an `error` saying why."""

    def report(self, report: Report) -> None:
        d = report.to_dict()
        shown = self.shown(report)
        if len(shown) < len(report.findings):
            d["findings"] = d["findings"][: len(shown)]
            d["truncated"] += len(report.findings) - len(shown)
        self.stream.write(json.dumps(d, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.stream.flush()

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        report = Report(file=path, verdict="malformed", ruleset=None, spec_version=spec_version, game=game)
        d = report.to_dict()
        d["error"] = error
        self.stream.write(json.dumps(d, separators=(",", ":"), ensure_ascii=False) + "\n")
        self.stream.flush()
