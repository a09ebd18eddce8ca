"""The report of one check, and its renderers (JSON Lines and compiler-style text)."""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .findings import Cut, Finding
from .hints import plural

Verdict = Literal["legal", "illegal", "malformed"]


@dataclass(kw_only=True)
class Report:
    """The report of one check: what `check --format json` prints and the service answers."""

    file: str  # the file name, `-` for standard input, or the name given by the client
    verdict: Verdict
    ruleset: str | None  # the ruleset used (None when the log could not be read that far)
    options: dict[str, str] = field(default_factory=dict)  # the ruleset's options in force
    target: int | None = None
    spec_version: str
    findings: list[Finding] = field(default_factory=list)
    truncated: int = 0  # findings left out after a cap (`check --max-errors`, the service's --max-findings)
    rounds: int = 0
    turns: int = 0
    lines: int = 0
    # a log with face-down cards (`?`): how many, and the rules the choice of cards decides
    # (notation.md, "Face-down cards"); left out of the JSON of a log without `?`
    face_down: int = 0
    unverified: list[str] = field(default_factory=list)
    # `check --ruleset auto`: what the inference chose over all the logs given (profile.auto_choice);
    # left out of the JSON otherwise
    auto: dict[str, Any] | None = None

    # the game whose rules judged it (keyword only, and required: no game is the default here): left
    # out of the JSON of a DOS report (the first game's reports never carried it), so a rule id is
    # always read in its own game's spec
    game: str = field(kw_only=True)
    # not part of the JSON: the decoded log text (for renderers that show source lines), and the
    # referee and log of a whole reading (the witness needs them)
    text: str | None = field(default=None, repr=False, compare=False, metadata={"internal": True})
    referee: Any = field(default=None, repr=False, compare=False, metadata={"internal": True})
    # not part of the JSON either: the findings a cap left out (a Cut: `truncated` of them, counted
    # by severity and rule), and how many `check --select`/`--ignore` left out; `cut` is typed Any, not
    # Cut | None, because pydantic builds the service's OpenAPI schema of Report from these annotations
    cut: Any = field(default=None, repr=False, compare=False, metadata={"internal": True})
    hidden: int = field(default=0, repr=False, compare=False, metadata={"internal": True})
    # not part of the JSON: why a legal log with face-down cards has no witness (the cards chosen
    # break a rule the choice does not try to keep), said by `check --witness`
    witness_refused: str | None = field(default=None, repr=False, compare=False, metadata={"internal": True})

    def to_dict(self) -> dict[str, Any]:
        """What ``dataclasses.asdict`` gives, built field by field (see ``Finding.to_dict``)."""
        d = {k: getattr(self, k) for k in _FIELDS}
        d["options"] = dict(self.options)
        d["findings"] = [f.to_dict() for f in self.findings]
        d["unverified"] = list(self.unverified)
        d["auto"] = copy.deepcopy(self.auto)
        if not self.face_down and not self.unverified:
            del d["face_down"], d["unverified"]
        if self.auto is None:
            del d["auto"]
        return d  # `game` always: a reader of a mixed folder's reports needs no default to know a DOS log

    @property
    def errors(self) -> int:
        """Every error found, those a cap left out included."""
        return sum(1 for f in self.findings if f.severity == "error") + (self.cut.errors if self.cut else 0)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == "warning") + (self.cut.warnings if self.cut else 0)

    def cap(self, limit: int | None) -> int:
        """Keep the first `limit` findings (in line order; None or 0: all) and count the rest in `truncated`."""
        if limit and len(self.findings) > limit:
            self.truncated += len(self.findings) - limit
            if self.cut is None:
                self.cut = Cut()
            for f in self.findings[limit:]:
                self.cut.add(f)
            del self.findings[limit:]
        return self.truncated

    def to_json_line(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)


_FIELDS = tuple(f.name for f in dataclasses.fields(Report) if not f.metadata.get("internal"))


def verdict_of(findings: list[Finding], malformed: bool) -> Verdict:
    if malformed:
        return "malformed"
    return "illegal" if any(f.severity == "error" for f in findings) else "legal"


# ---- text rendering ----------------------------------------------------------------------

_COLOURS = {
    "error": "\x1b[1;31m",
    "warning": "\x1b[1;33m",
    "blue": "\x1b[1;34m",
    "bold": "\x1b[1m",
    "green": "\x1b[1;32m",
    "reset": "\x1b[0m",
}


# control characters (but the tab) shown as their pictures, one character for one: a log's CR,
# NUL or ESC never reaches the terminal raw (a CR would overwrite the line, an ESC recolour it)
_PICTURES = {i: 0x2400 + i for i in range(32) if i != 9} | {127: 0x2421}


def _shown(s: str) -> str:
    return s.translate(_PICTURES)


def _caret_width(src: str, col: int, found: str | None = None) -> int:
    """Underline what was found where it stands as written (`B3 + B5`), else the word at the column."""
    rest = src[col - 1 :]
    if found and len(found) > 1 and rest.startswith(found):
        return len(found)
    word = rest.split(None, 1)[0] if rest.strip() else ""
    return max(1, len(word))


def render_text(report: Report, text: str | None, *, colour: bool = False, limit: int | None = None) -> str:
    """Render like rustc: header, `--> file:line:col`, the line with a caret, then help.
    With `limit`, only the first `limit` findings, then how many more there are."""

    def c(name: str, s: str) -> str:
        return f"{_COLOURS[name]}{s}{_COLOURS['reset']}" if colour else s

    lines = text.split("\n") if text else []  # the notation's lines: LF ends a line, nothing else does
    doc = _json_doc(text) if any(f.line is None and f.pointer for f in report.findings) else None
    out: list[str] = []
    shown = report.findings if not limit else report.findings[:limit]
    for f in shown:
        out.append(f"{c(f.severity, f'{f.severity}[{f.kind}]')}{c('bold', f': {_shown(f.message)}')}  ({f.rule})")
        where = report.file
        if f.line is not None:
            where += f":{f.line}:{f.column or 1}"
        elif f.pointer is not None:
            where += f" at {f.pointer or '/'}"
        gutter = len(str(f.line)) if f.line else 1
        pad = " " * gutter
        out.append(f"{pad}{c('blue', '-->')} {where}")
        ctx = []
        if f.round is not None:
            ctx.append(f"round {f.round}")
        if f.turn is not None:
            ctx.append(f"turn {f.turn}")
        if f.player:
            ctx.append(f"player {f.player}")
        if f.line is not None and 1 <= f.line <= len(lines):
            src = _shown(lines[f.line - 1].rstrip("\r"))
            if len(src) > 200:  # keep very long lines readable around the column
                start = max(0, (f.column or 1) - 60)
                src_show, col = (
                    ("..." if start else "") + src[start : start + 140] + "...",
                    (f.column or 1) - start + (3 if start else 0),
                )
            else:
                src_show, col = src, f.column or 1
            out.append(f"{pad} {c('blue', '|')}")
            out.append(f"{c('blue', str(f.line))} {c('blue', '|')} {src_show}")
            caret = " " * (col - 1) + "^" * _caret_width(src_show, col, f.found)
            label = f.found and f"found {_shown(f.found)}" or ""
            out.append(f"{pad} {c('blue', '|')} {c(f.severity, caret)} {c(f.severity, label)}".rstrip())
        elif f.pointer and doc is not None:
            value = _at_pointer(doc, f.pointer)
            if value is not None:
                out.append(f"{pad} {c('blue', '|')}")
                out.append(f"{pad} {c('blue', '|')} {value}")
        if f.expected:
            out.append(f"{pad} {c('blue', '=')} expected: {_shown(f.expected)}")
        if ctx:
            out.append(f"{pad} {c('blue', '=')} in: {', '.join(ctx)}")
        if f.help:
            out.append(f"{pad} {c('blue', '=')} {c('bold', 'help')}: {f.help}")
        for r in f.related:
            if r.line is not None:
                rel = _shown(lines[r.line - 1].strip()) if 1 <= r.line <= len(lines) else ""
                out.append(f"{pad} {c('blue', '=')} see line {r.line}: {rel}")
        out.append(f"{pad} {c('blue', '=')} rule: `dosverify explain {f.rule}`")
        out.append("")
    more = len(report.findings) - len(shown) + report.truncated
    if more:
        out.append(f"{more_line(more)} (`--max-errors 0` shows all)\n")
    out.append(summary_line(report, colour=colour))
    return "\n".join(out)


class _LazyRounds(list[Any]):
    """A JSON log's `rounds`, each decoded from its slice of the text only when a finding points
    into it: showing a finding of a long log does not build the whole document's objects."""

    def __init__(self, text: str, span: tuple[int, int], starts: Sequence[int], ends: Sequence[int]) -> None:
        super().__init__()
        self.text, self.span, self.starts, self.ends = text, span, starts, ends

    def __len__(self) -> int:
        return len(self.starts)

    # a list to _at_pointer's isinstance test, indexed only by an int there (never sliced): the
    # narrower signature breaks list's, which no annotation can reconcile without slicing support
    def __getitem__(self, i: int) -> Any:  # type: ignore[override]
        return json.loads(self.text[self.starts[i] : self.ends[i]])

    def whole(self) -> list[Any]:
        rounds: list[Any] = json.loads(self.text[self.span[0] : self.span[1]])  # the `rounds` array's slice
        return rounds


def _json_doc(text: str | None) -> dict[str, Any] | None:
    if not text or not text.lstrip().startswith("{"):
        return None
    from .jsondoc import GiveWay, index_document

    try:
        spans, starts, ends, _ = index_document(text)
        return {
            k: _LazyRounds(text, (a, b), starts, ends) if k == "rounds" else json.loads(text[a:b])
            for k, (a, b) in spans.items()
        }
    except (GiveWay, ValueError, RecursionError):
        pass  # not plainly an object with distinct keys: decoded whole, as json.loads reads it
    try:
        doc: dict[str, Any] = json.loads(text)  # an object: the text starts with `{`
    except ValueError:
        return None
    return doc


def _at_pointer(doc: dict[str, Any], pointer: str) -> str | None:
    """The JSON value a finding points at (its event, where the pointer goes into a field)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node: Any = doc
    best: Any = None
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            break
        if isinstance(node, dict) and "type" in node:
            best = node  # show the whole event rather than one field of it
    node = node.whole() if isinstance(node, _LazyRounds) else node
    shown = json.dumps(best if best is not None else node, ensure_ascii=False, separators=(", ", ": "))
    return shown if len(shown) <= 200 else shown[:197] + "..."


def more_line(n: int) -> str:
    return f"{plural(n, 'more finding')} not shown"


def summary_line(report: Report, *, colour: bool = False) -> str:
    mark = {"legal": "green", "illegal": "error", "malformed": "error"}[report.verdict]
    verdict = f"{_COLOURS[mark]}{report.verdict}{_COLOURS['reset']}" if colour else report.verdict
    if report.verdict == "malformed":
        return f"{report.file}: {verdict}: {plural(report.errors, 'error')}; not refereed (spec {report.spec_version})"
    hidden = ""
    if report.face_down or report.unverified:
        hidden = f"; {plural(report.face_down, 'face-down card')}" + (
            f", unverified: {', '.join(report.unverified)}" if report.unverified else ""
        )
    return (
        f"{report.file}: {verdict}: {plural(report.errors, 'error')}, {plural(report.warnings, 'warning')}; "
        f"{plural(report.rounds, 'round')}, {plural(report.turns, 'turn')}{hidden}; ruleset {report.ruleset}{_departures(report)}{_inferred(report)} "
        f"(spec {report.spec_version})"
    )


def _inferred(report: Report) -> str:
    """` (inferred from N logs)` under `check --ruleset auto`."""
    return f" (--ruleset auto: inferred from {plural(report.auto['logs'], 'log')})" if report.auto else ""


def _departures(report: Report) -> str:
    """` with KEY=VALUE, ...`: the options in force that differ from the named ruleset's (from the
    log's `option` lines or `--option`), so that a summary says what the log was judged under."""
    from .spec import SpecError, load_spec

    try:
        base = load_spec(report.game).ruleset(report.ruleset or "").options
    except SpecError:
        return ""
    diff = [f"{k}={v}" for k, v in (report.options or {}).items() if base.get(k) != v]
    return f" with {', '.join(diff)}" if diff else ""
