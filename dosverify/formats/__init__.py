"""The output formats of `dosverify check`: each an Output that takes the reports one by one, as
each file finishes (text and JSON Lines are written at once; the formats that are one document,
SARIF, JUnit XML and GitLab Code Quality, keep only the findings shown, bounded by --max-errors).

- ``text``: compiler-style findings and a summary line per file (``-q``: the summary lines only).
- ``json``: JSON Lines, one report per input (a file that cannot be read included).
- ``sarif``: SARIF 2.1.0, with the rules' metadata from ``spec/`` (GitHub code scanning, IDEs).
- ``junit``: JUnit XML, a test case per log (CI test tabs).
- ``github``: GitHub Actions workflow commands, ``::error file=..,line=..,col=..,title=..::msg``.
- ``gitlab``: GitLab Code Quality JSON (merge request widgets).
"""

from __future__ import annotations

from typing import TextIO

from .base import Output, Tally

__all__ = ["FORMATS", "Output", "Tally", "make"]

FORMATS = ("text", "json", "sarif", "junit", "github", "gitlab")


def make(name: str, stream: TextIO, **kw) -> Output:
    cls: type[Output]
    if name == "text":
        from .text import TextOutput as cls
    elif name == "json":
        from .text import JsonLinesOutput as cls
    elif name == "sarif":
        from .sarif import SarifOutput as cls
    elif name == "junit":
        from .ci import JUnitOutput as cls
    elif name == "github":
        from .ci import GitHubOutput as cls
    else:
        from .ci import GitLabOutput as cls
    return cls(stream, **kw)
