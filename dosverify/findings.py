"""Findings: what the parser and the referee say about a log.

A finding names the rule it enforces; its kind and severity are read from the
specification, never written at the call site, so ``spec/`` stays the law.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Self, overload

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

    def to_dict(self) -> dict[str, Any]:
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


class Written(Protocol):
    """What a finding may be made `at`: an event model (dosverify.model.Located, a layer above
    this one), which knows where it was written."""

    @property
    def _line(self) -> int | None: ...
    @property
    def _column(self) -> int | None: ...
    @property
    def _pointer(self) -> str | None: ...


class Reporter:
    """Makes findings under one game's specification: each pack holds one bound to its spec, so
    a rule id is always looked up in the game it belongs to."""

    __slots__ = ("spec",)

    def __init__(self, spec: Spec) -> None:
        self.spec = spec

    def __call__(self, rule_id: str, message: str, **kw: Any) -> Finding:
        return make_finding(self.spec, rule_id, message, **kw)


def make_finding(
    spec: Spec,
    rule_id: str,
    message: str,
    *,
    at: Written | None = None,
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


# ---- findings kept for output, the rest counted ----------------------------------------------

NO_LINE = 1 << 60  # a finding without a line (a JSON log's) sorts after every line


@dataclass(frozen=True)
class Keep:
    """What a report keeps of the findings made: those `select` names (all when empty) but
    those `ignore` names, warnings raised to errors with `warnings_as_errors`, and of those the
    first `limit` in report order (0: all). A token names a rule id, a section (`match`, for
    `match.*`) or a finding kind (`check --select`, `--ignore`)."""

    limit: int = 0
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    warnings_as_errors: bool = False

    def admits(self, f: Finding) -> bool:
        return (not self.select or _named(f, self.select)) and not (self.ignore and _named(f, self.ignore))


def _named(f: Finding, tokens: tuple[str, ...]) -> bool:
    return any(f.rule == t or f.kind == t or f.rule.startswith(t + ".") for t in tokens)


@dataclass
class Cut:
    """What a cap left out of a report: counted by severity, rule and kind, not kept, so that a
    report's counts and verdict stay right however few findings it holds."""

    errors: int = 0
    warnings: int = 0
    rules: dict[str, int] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=dict)

    def add(self, f: Finding) -> None:
        if f.severity == "error":
            self.errors += 1
        elif f.severity == "warning":
            self.warnings += 1
        self.rules[f.rule] = self.rules.get(f.rule, 0) + 1
        self.kinds[f.kind] = self.kinds.get(f.kind, 0) + 1

    @property
    def count(self) -> int:
        return sum(self.rules.values())


class Holder(Protocol):
    """What holds a check's findings and the count of the rest: a report (dosverify.report.Report,
    a layer above this one)."""

    findings: list[Finding]
    truncated: int
    cut: Cut | None
    hidden: int


class Kept:
    """The findings of one check as they are made, by every part that makes them (the reader,
    the referee): memory for the findings kept for output (`Keep.limit`), not for the findings
    made. Report order is line, then column, then the part's rank (a reader's findings before
    the referee's on the same spot), then the order made; when more than `limit` are admitted,
    a heap keeps the first `limit` and the rest are counted in `cut`. Each part appends through
    its own ``view(rank)``, a list-like sink."""

    def __init__(self, keep: Keep | None = None) -> None:
        self.keep = keep or Keep()
        # (line, column, rank, seq, finding); negated keys in a heap when capped
        self._items: list[tuple[int, int, int, int, Finding]] = []
        self._seq = 0
        self.made_errors = 0  # errors made, before select/ignore (what the checker itself goes by)
        self.hidden = 0  # findings select/ignore left out
        self.cut = Cut()

    def view(self, rank: int) -> _View:
        return _View(self, rank)

    def add(self, f: Finding, rank: int, at: tuple[int, int] | None = None) -> None:
        """Take a finding made by the part of `rank`; `at` stands for its (line, column) in
        report order, for a finding reported after the others (or in the order given)."""
        if f.severity == "error":
            self.made_errors += 1
        keep = self.keep
        if (keep.select or keep.ignore) and not keep.admits(f):
            self.hidden += 1
            return
        if keep.warnings_as_errors and f.severity == "warning":
            f = dataclasses.replace(f, severity="error")
        self._seq += 1
        line, column = at or (f.line if f.line is not None else NO_LINE, f.column or 0)
        if not keep.limit:
            self._items.append((line, column, rank, self._seq, f))
            return
        heapq.heappush(self._items, (-line, -column, -rank, -self._seq, f))
        if len(self._items) > keep.limit:
            self.cut.add(heapq.heappop(self._items)[4])

    def findings(self) -> list[Finding]:
        """The findings kept, in report order."""
        if not self.keep.limit:
            return [item[4] for item in sorted(self._items, key=lambda item: item[:4])]
        return [item[4] for item in sorted(self._items, key=lambda item: item[:4], reverse=True)]

    @property
    def errors(self) -> int:
        """Errors admitted (kept or cut), after --warnings-as-errors: what makes a log illegal."""
        return sum(1 for item in self._items if item[4].severity == "error") + self.cut.errors

    def give(self, report: Holder) -> None:
        """Put the findings kept, and what was counted of the rest, on `report`."""
        report.findings[:] = self.findings()
        report.truncated += self.cut.count
        report.cut = self.cut if self.cut.count else None
        report.hidden = self.hidden


def keep_as_given(report: Holder, findings: list[Finding], keep: Keep | None) -> None:
    """`report` holds `findings` in the order given (a log that is none, or not read to the
    end: no line order to go by), as `keep` keeps them."""
    kept = Kept(keep)
    for f in findings:
        kept.add(f, 0, (0, 0))
    kept.give(report)


class _View:
    """One part's sink into a Kept: ``append`` and ``extend``, as a list of findings takes them."""

    __slots__ = ("kept", "rank")

    def __init__(self, kept: Kept, rank: int) -> None:
        self.kept, self.rank = kept, rank

    def append(self, f: Finding) -> None:
        self.kept.add(f, self.rank)

    def extend(self, fs: Iterable[Finding]) -> None:
        for f in fs:
            self.kept.add(f, self.rank)

    def __iadd__(self, fs: Iterable[Finding]) -> Self:
        self.extend(fs)
        return self
