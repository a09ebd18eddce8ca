"""Formats CI services read: JUnit XML (test tabs), GitHub Actions workflow commands
(annotations on the pull request) and GitLab Code Quality JSON (the merge request widget)."""

from __future__ import annotations

import hashlib
import json
from xml.etree import ElementTree as ET

from ..findings import Finding
from ..report import Report, more_line, summary_line
from .base import Output, Tally


def _where(report_file: str, f: Finding) -> str:
    if f.line is not None:
        return f"{report_file}:{f.line}:{f.column or 1}"
    return f"{report_file} at {f.pointer or '/'}" if f.pointer is not None else report_file


def _one_line(report_file: str, f: Finding) -> str:
    return f"{_where(report_file, f)}: {f.severity}[{f.kind}]: {f.message} ({f.rule})"


class JUnitOutput(Output):
    """A <testsuite> of one <testcase> per log: an illegal log is a <failure> (its findings, one a
    line), a malformed or unreadable one an <error>; a legal one passes."""

    def __init__(self, stream, **kw) -> None:
        super().__init__(stream, **kw)
        self.cases: list[ET.Element] = []
        self.failures = self.errors = 0

    def _case(self, name: str) -> ET.Element:
        case = ET.Element("testcase", classname="dosverify", name=name, file=name)
        self.cases.append(case)
        return case

    def report(self, report: Report) -> None:
        case = self._case(report.file)
        if report.verdict == "legal":
            if report.findings:  # warnings only: the log passes, the warnings are kept as output
                ET.SubElement(case, "system-out").text = "\n".join(
                    _one_line(report.file, f) for f in self.shown(report)
                )
            return
        shown = self.shown(report)
        body = [_one_line(report.file, f) for f in shown]
        if len(shown) < len(report.findings):
            body.append(more_line(len(report.findings) - len(shown)))
        tag = "failure" if report.verdict == "illegal" else "error"
        first = shown[0] if shown else None
        el = ET.SubElement(case, tag, message=summary_line(report), type=first.kind if first else report.verdict)
        el.text = "\n".join(body)
        if tag == "failure":
            self.failures += 1
        else:
            self.errors += 1

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        ET.SubElement(self._case(path), "error", message=error, type=kind)
        self.errors += 1

    def close(self, tally: Tally) -> None:
        suites = ET.Element(
            "testsuites",
            name="dosverify",
            tests=str(len(self.cases)),
            failures=str(self.failures),
            errors=str(self.errors),
        )
        suite = ET.SubElement(
            suites,
            "testsuite",
            name="dosverify",
            tests=str(len(self.cases)),
            failures=str(self.failures),
            errors=str(self.errors),
            skipped="0",
        )
        suite.extend(self.cases)
        ET.indent(suites)
        self.stream.write('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n")


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return s.replace(":", "%3A").replace(",", "%2C") if prop else s


class GitHubOutput(Output):
    """`::error file=F,line=L,col=C,title=T::message`: GitHub Actions turns each into an
    annotation at that line of the pull request."""

    def _cmd(self, level: str, props: dict, message: str) -> None:
        p = ",".join(f"{k}={_gh_escape(str(v), True)}" for k, v in props.items() if v is not None)
        self.stream.write(f"::{level} {p}::{_gh_escape(message)}\n")

    def report(self, report: Report) -> None:
        shown = self.shown(report)
        for f in shown:
            msg = (
                f.message
                + (f"\nexpected: {f.expected}" if f.expected else "")
                + (f"\nhelp: {f.help}" if f.help else "")
            )
            self._cmd(
                "error" if f.severity == "error" else "warning",
                {
                    "file": report.file,
                    "line": f.line,
                    "col": f.column if f.line else None,
                    "title": f"{f.kind} ({f.rule})",
                },
                msg,
            )
        if len(shown) < len(report.findings):
            self._cmd(
                "notice", {"file": report.file, "title": "dosverify"}, more_line(len(report.findings) - len(shown))
            )
        self.stream.write(summary_line(report) + "\n")
        self.stream.flush()

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        self._cmd("error", {"file": path, "title": kind}, error)
        self.stream.flush()


class GitLabOutput(Output):
    """GitLab Code Quality: a JSON array of issues with `description`, `check_name`,
    `fingerprint`, `severity` and `location` (`path`, `lines.begin`)."""

    def __init__(self, stream, **kw) -> None:
        super().__init__(stream, **kw)
        self.issues: list[dict] = []

    def _issue(self, path: str, check: str, description: str, severity: str, line: int | None, nth: int) -> None:
        key = f"{path}\0{check}\0{line}\0{description}\0{nth}"
        self.issues.append(
            {
                "description": description,
                "check_name": check,
                "fingerprint": hashlib.md5(key.encode(), usedforsecurity=False).hexdigest(),
                "severity": severity,
                "location": {"path": path, "lines": {"begin": line or 1}},
            }
        )

    def report(self, report: Report) -> None:
        for i, f in enumerate(self.shown(report)):
            sev = "minor" if f.severity == "warning" else ("blocker" if report.verdict == "malformed" else "major")
            self._issue(report.file, f.rule, f"{f.kind}: {f.message}", sev, f.line, i)

    def failed(self, path: str, error: str, spec_version: str, kind: str, game: str) -> None:
        self._issue(path, kind, error, "blocker", None, 0)

    def close(self, tally: Tally) -> None:
        self.stream.write(json.dumps(self.issues, indent=2, ensure_ascii=False) + "\n")
