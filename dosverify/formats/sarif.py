"""SARIF 2.1.0 (the OASIS standard GitHub code scanning and IDEs read): one run, the rules'
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
    def __init__(self, stream, **kw) -> None:
        super().__init__(stream, **kw)
        self.spec = load_spec()
        self.rules = [_rule(r) for r in self.spec.rules.values()]
        # (game, rule id) -> its place in the rule table: DOS's rules first, as always; another
        # game's are added the first time one of its reports comes (their ids may repeat DOS's)
        self.index = {("dos", rid): i for i, rid in enumerate(self.spec.rules)}
        self.games = {"dos"}
        self.first_game: str | None = None
        self.results: list[dict] = []
        self.notes: list[dict] = []

    def _versions(self) -> dict:
        """The run's rules specifications: `spec_versions` each game's whose rules the table holds,
        `spec_version` the first report's game's (DOS's for a run without one), as a batch's."""
        first = self.first_game or self.spec.game
        return {
            "spec_version": load_spec(first).version,
            "spec_versions": {g: load_spec(g).version for g in sorted(self.games)},
        }

    def report(self, report: Report) -> None:
        shown = self.shown(report)
        self.first_game = self.first_game or report.game
        self._add_game(report.game)
        for f in shown:
            loc: dict = {"artifactLocation": _uri(report.file)}
            if f.line is not None:
                loc["region"] = {"startLine": f.line, "startColumn": f.column or 1}
            res = {
                "ruleId": f.rule,
                "ruleIndex": self.index[(report.game, f.rule)],
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
            self.results.append(res)
        if len(shown) < len(report.findings):
            self.notes.append(
                {
                    "level": "note",
                    "message": {"text": f"{report.file}: {more_line(len(report.findings) - len(shown))}"},
                    "locations": [{"physicalLocation": {"artifactLocation": _uri(report.file)}}],
                }
            )

    def _add_game(self, game: str) -> None:
        """Put the rules of `game` into the table, once (its findings' rule ids are its spec's)."""
        if game in self.games:
            return
        self.games.add(game)
        for r in load_spec(game).rules.values():
            self.index[(game, r.id)] = len(self.rules)
            self.rules.append({**_rule(r), "properties": {**_rule(r)["properties"], "game": game}})

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str | None = None) -> None:
        self.notes.append(
            {
                "level": "error",
                "message": {"text": error},
                "locations": [{"physicalLocation": {"artifactLocation": _uri(path)}}],
            }
        )

    def close(self, tally: Tally) -> None:
        doc = {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "dosverify",
                            "version": __version__,
                            "semanticVersion": __version__,
                            "informationUri": "https://pypi.org/project/dosverify/",
                            "properties": self._versions(),
                            "rules": self.rules,
                        }
                    },
                    "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
                    "invocations": [
                        {
                            "executionSuccessful": tally.verdicts["unreadable"] + tally.verdicts["refused"] == 0,
                            "toolExecutionNotifications": self.notes,
                        }
                    ],
                    "results": self.results,
                }
            ],
        }
        self.stream.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
