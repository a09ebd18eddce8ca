"""Findings: what the parser and the referee say about a log.

A finding names the rule it enforces; its kind and severity are read from the
specification, never written at the call site, so ``spec/`` stays the law.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from .spec import Spec


@dataclass
class Position:
    """Where something was written: text line and column, or a JSON pointer."""

    line: int | None = None
    column: int | None = None
    pointer: str | None = None


@dataclass(kw_only=True)
class Finding:
    """One problem, at one place, under one rule. (A dataclass: reports are built on the
    check's hot path; the service publishes its schema through pydantic all the same.)"""

    kind: str  # one of the fixed finding kinds of notation.md
    rule: str  # the rule id in spec/
    severity: str  # error or warning, from the spec
    line: int | None = None
    column: int | None = None
    pointer: str | None = None  # JSON pointer, for logs in the JSON form
    round: int | None = None
    turn: int | None = None  # the turn's index in its round, from 1
    player: str | None = None
    message: str
    expected: str | None = None
    found: str | None = None
    help: str | None = None  # what a person can do about it
    related: list[Position] = field(default_factory=list)

    def to_dict(self) -> dict:
        """As ``dataclasses.asdict`` gives it, key for key, built directly: a report of many findings
        is turned into JSON on every check, and asdict's generic deep copy cost a fifth of a check."""
        d = {k: getattr(self, k) for k in _FIELDS}
        d["related"] = [{"line": r.line, "column": r.column, "pointer": r.pointer} for r in self.related]
        return d


_FIELDS = tuple(f.name for f in dataclasses.fields(Finding))


MAX_TEXT = 200  # characters of a finding's message, expected and found: a long line is quoted in part


@overload
def bounded(text: str, limit: int = ...) -> str: ...
@overload
def bounded(text: None, limit: int = ...) -> None: ...
def bounded(text: str | None, limit: int = MAX_TEXT) -> str | None:
    """The text, cut to `limit` characters with a visible ellipsis: a finding about a line of a
    megabyte must not quote the megabyte (in every report, rendered or JSON)."""
    return text if text is None or len(text) <= limit else text[: limit - 1] + "…"


def finding(rule_id: str, message: str, **kw) -> Finding:
    """A DOS finding (the DOS pack's reporter; kept while DOS code moves into its pack)."""
    from .spec import load_spec

    return make_finding(load_spec("dos"), rule_id, message, **kw)


class Reporter:
    """Makes findings under one game's specification: each pack holds one bound to its spec, so
    a rule id is always looked up in the game it belongs to."""

    __slots__ = ("spec",)

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def __call__(self, rule_id: str, message: str, **kw) -> Finding:
        return make_finding(self.spec, rule_id, message, **kw)


def make_finding(
    spec: Spec,
    rule_id: str,
    message: str,
    *,
    at=None,
    column: int | None = None,
    line: int | None = None,
    pointer: str | None = None,
    round: int | None = None,
    turn: int | None = None,
    player: str | None = None,
    expected: str | None = None,
    found: str | None = None,
    help: str | None = None,
    related: list[Position] | None = None,
) -> Finding:
    """Build a finding for ``rule_id``; ``at`` is an event model (its position is used)."""
    rule = spec.rules[rule_id]
    if at is not None:
        line = line if line is not None else at._line
        column = column if column is not None else at._column
        pointer = pointer if pointer is not None else at._pointer
    if line is not None and column is None:
        column = 1
    return Finding(
        kind=rule.kind,
        rule=rule_id,
        severity=rule.severity,
        line=line,
        column=column,
        pointer=pointer,
        round=round,
        turn=turn,
        player=player,
        message=bounded(message),
        expected=bounded(expected),
        found=bounded(found),
        help=help if help is not None else (rule.fix or None),
        related=related or [],
    )
