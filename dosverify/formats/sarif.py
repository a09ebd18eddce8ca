"""SARIF 2.1.0 (the OASIS standard GitHub code scanning and IDEs read): a run per game, the rules'
metadata from ``spec/`` (id, title, text, fix, sources, kind), one result per finding shown."""

from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..report import Report, more_line
from ..spec import load_spec
from .base import Output, Tally

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> dict:
    p = Path(path)
    if path == "-":
        return {"uri": "stdin"}
    if p.is_absolute():
        return {"uri": p.as_uri()}
    return {"uri": p.as_posix(), "uriBaseId": "%SRCROOT%"}


def _rule(r) -> dict:
    return {
        "id": r.id,
        "name": "".join(w.capitalize() for w in r.id.replace("-", ".").split(".")),
        "shortDescription": {"text": r.title},
        "fullDescription": {"text": r.text},
        "help": {
            "text": (r.fix + "\n\n" if r.fix else "") + f"`dosverify explain {r.id}` prints the rule with its sources."
        },
        "defaultConfiguration": {"level": "error" if r.severity == "error" else "warning"},
        "properties": {
            "kind": r.kind,
            "section": r.section,
            "variant": r.variant or None,
            "tags": [r.kind],
            "sources": [f"{s.ref} {s.file}: {s.part}" + _english(s) for s in r.sources],
        },
    }


def _english(source) -> str:
    """A source's quote in English, after it (nothing when the source is English)."""
    return f" (English: {source.quote_en})" if source.english_differs else ""


class SarifOutput(Output):
    """One run per game whose logs came (a DOS-only folder: one run, as always): each run's rule
    table is its game's own, so a rule id two games share is listed once per run, never twice in one
    (GitHub code scanning keys a run's rules by id)."""

    def __init__(self, stream, **kw) -> None:
        super().__init__(stream, **kw)
        self.runs: dict[str, dict] = {}  # game -> {"rules", "index", "results", "notes"}, in order of arrival

    def _run(self, game: str | None) -> dict:
        from ..games import default_game

        game = game or (next(iter(self.runs)) if self.runs else default_game())
        if game not in self.runs:
            rules = list(load_spec(game).rules.values())
            extra = {} if game == default_game() else {"game": game}  # the default game's rules, as always
            self.runs[game] = {
                "rules": [{**_rule(r), "properties": {**_rule(r)["properties"], **extra}} for r in rules],
                "index": {r.id: i for i, r in enumerate(rules)},
                "results": [],
                "notes": [],
            }
        return self.runs[game]

    def report(self, report: Report) -> None:
        shown = self.shown(report)
        run = self._run(report.game)
        for f in shown:
            loc: dict = {"artifactLocation": _uri(report.file)}
            if f.line is not None:
                loc["region"] = {"startLine": f.line, "startColumn": f.column or 1}
            res = {
                "ruleId": f.rule,
                "ruleIndex": run["index"][f.rule],
                "level": "error" if f.severity == "error" else "warning",
                "message": {"text": f.message + (f" (expected: {f.expected})" if f.expected else "")},
                "locations": [{"physicalLocation": loc}],
                "properties": {
                    "kind": f.kind,
                    "verdict": report.verdict,
                    "round": f.round,
                    "turn": f.turn,
                    "player": f.player,
                    "pointer": f.pointer,
                    "found": f.found,
                },
            }
            run["results"].append(res)
        if len(shown) < len(report.findings):
            run["notes"].append(
                {
                    "level": "note",
                    "message": {"text": f"{report.file}: {more_line(len(report.findings) - len(shown))}"},
                    "locations": [{"physicalLocation": {"artifactLocation": _uri(report.file)}}],
                }
            )

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        self._run(game)["notes"].append(
            {
                "level": "error",
                "message": {"text": error},
                "locations": [{"physicalLocation": {"artifactLocation": _uri(path)}}],
            }
        )

    def close(self, tally: Tally) -> None:
        self._run(None)  # a run with no log at all is the default game's
        ok = tally.verdicts["unreadable"] + tally.verdicts["refused"] == 0
        versions = {g: load_spec(g).version for g in sorted(self.runs)}
        doc = {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [self._doc(g, r, ok, versions) for g, r in self.runs.items()],
        }
        self.stream.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")

    @staticmethod
    def _doc(game: str, run: dict, ok: bool, versions: dict[str, str]) -> dict:
        """One game's run: its rules, results and notes; `spec_version` its game's, `spec_versions`
        every game's of the output (as a batch's)."""
        return {
            "tool": {
                "driver": {
                    "name": "dosverify",
                    "version": __version__,
                    "semanticVersion": __version__,
                    "informationUri": "https://pypi.org/project/dosverify/",
                    "properties": {"game": game, "spec_version": versions[game], "spec_versions": versions},
                    "rules": run["rules"],
                }
            },
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
            "invocations": [{"executionSuccessful": ok, "toolExecutionNotifications": run["notes"]}],
            "results": run["results"],
        }
