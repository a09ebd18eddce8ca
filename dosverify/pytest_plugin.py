"""A pytest plugin (entry point ``pytest11``): ``pytest --dosverify DIR`` collects every log under
DIR (the logs `dosverify check DIR` would read) as a test item that fails with the referee's
findings, so that an engine's own test suite checks the games it wrote in one line.

``--dosverify`` may be repeated and may name files; ``--dosverify-ruleset NAME`` overrides the
logs' ruleset. Imports of the referee wait until a log is collected: other test runs pay nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser) -> None:
    group = parser.getgroup("dosverify", "card game logs checked by the dosverify referee")
    group.addoption(
        "--dosverify",
        action="append",
        default=[],
        metavar="PATH",
        help="check the game logs under PATH (a folder or a file), one test item each",
    )
    group.addoption("--dosverify-ruleset", default=None, metavar="NAME", help="override the logs' ruleset")


def pytest_configure(config) -> None:
    roots = [Path(p).resolve() for p in config.getoption("dosverify")]
    config._dosverify_roots = roots
    for p in config.getoption("dosverify"):
        if p not in config.args:
            config.args.append(p)  # collected beside the tests asked for


def pytest_collect_file(file_path: Path, parent):
    roots = getattr(parent.config, "_dosverify_roots", [])
    if not roots:
        return None
    from .inputs import is_log_name

    path = file_path.resolve()
    named = path in roots
    if named or (
        is_log_name(path.name)
        and any(r in path.parents for r in roots)
        and not any(
            part.startswith(".") for part in path.relative_to(next(r for r in roots if r in path.parents)).parts
        )
    ):
        return DosLogFile.from_parent(parent, path=file_path)
    return None


class DosLogFile(pytest.File):
    def collect(self):
        yield DosLogItem.from_parent(self, name=self.path.name)


class DosFindings(Exception):
    """The log is not legal: carries the report to show."""


class DosLogItem(pytest.Item):
    def runtest(self) -> None:
        from .api import check

        report = check(self.path.read_bytes(), name=str(self.path), ruleset=self.config.getoption("dosverify_ruleset"))
        if report.verdict != "legal":
            raise DosFindings(report)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, DosFindings):
            from .report import render_text

            report = excinfo.value.args[0]
            return render_text(report, report.text, limit=50)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"dosverify check {self.path.name}"
