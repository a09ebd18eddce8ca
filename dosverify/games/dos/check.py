"""DOS's data path: text or JSON in, one event model, one referee, one report.

The core reaches it through the pack (:mod:`dosverify.api` finds the game by the log's first
word); the text is read a round at a time, JSON through jsonstream where it can.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ...findings import NO_LINE, Finding, Keep, Kept, finding, keep_as_given
from ...jsondoc import sniff_json
from ...model import Parsed
from ...report import Report
from ...spec import SpecError, load_spec

if TYPE_CHECKING:
    from .jsonstream import JsonStream
    from .notation import TextStream


def parse(source: str | bytes | dict, form: str | None = None):
    """Read a log in either form; returns a Parsed (log, findings, malformed, text)."""
    if isinstance(source, dict) or form == "json" or (form is None and sniff_json(source)):
        from .jsonform import load_json

        return load_json(source)
    from .notation import parse as parse_text

    return parse_text(source)


def check(
    source: str | bytes | dict,
    *,
    name: str = "<input>",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
    whole: bool = False,
    keep: Keep | None = None,
) -> Report:
    """Check one log. A `ruleset` override that does not exist, or an `options` override
    (over the log's own `option` lines) that is unknown, raises SpecError (a misuse, not a
    verdict); everything wrong with the log itself is a finding in the report.

    A log is read and judged a round at a time (memory for the game state, not the log;
    for JSON, see jsonstream); `whole` reads it all first and keeps it, with the referee, on
    the report (the witness needs both). `keep` says which findings the report keeps (the
    command line's --select, --ignore, --warnings-as-errors) and how many (--max-errors, the
    service's --max-findings): the rest are counted as they are made, never held."""
    spec = load_spec()
    _refuse_unknown_overrides(spec, ruleset, options)
    again = dict(name=name, ruleset=ruleset, options=options, keep=keep)  # to read it whole, if a JSON stream gives way
    kept = Kept(keep)  # ranks: the reader's findings 0; the referee's 2 and 3; what the check adds, 4
    as_json = form == "json" or (form is None and sniff_json(source))
    read = _read_header(source, form, as_json, whole, kept)
    if read is None:  # not plainly a log: the whole reading says what is wrong
        return _json_whole(source, **again)
    parsed, stream = read
    log = parsed.log
    report = _unjudged_report(name, spec.version, parsed.text)
    if parsed.malformed or log is None:
        return _as_malformed(report, parsed, kept, keep)
    kept.view(0).extend(parsed.findings)
    name_rs = ruleset or log.ruleset or "official"
    try:
        rs = spec.ruleset(name_rs, {**log.options, **(options or {})}, log.target)
    except SpecError as exc:
        return _bad_ruleset(exc, report, kept, stream, parsed, log, name_rs, source, again)
    from .referee import Referee

    ref = Referee(log, rs, sink=kept)
    if stream is None:
        ref.run()
    elif stopped := _referee_streamed(ref, stream, report, kept, source, again):
        return stopped
    if not ref.rounds_seen and not kept.made_errors:
        kept.add(_no_round(as_json, report.lines), 4)
    kept.give(report)
    return _judged(report, rs, ref, kept, keep_referee=stream is None)


def _refuse_unknown_overrides(spec, ruleset: str | None, options: dict[str, str] | None) -> None:
    """The caller's `ruleset` and `options` are checked before the log is read: a misuse raises."""
    if ruleset is not None and ruleset not in spec.rulesets:
        spec.ruleset(ruleset)  # raises SpecError with the known names
    if options:
        spec.ruleset("official", options)  # raises SpecError naming the unknown option or value


def _read_header(
    source: str | bytes | dict, form: str | None, as_json: bool, whole: bool, kept: Kept
) -> tuple[Parsed, JsonStream | TextStream | None] | None:
    """The log read as far as the referee needs before it starts, and the stream that reads the
    rest (None: read whole, for the witness, or a dict). A text stream's findings go straight
    into `kept`. None when a JSON stream gave way on the header: it is to be read whole."""
    if as_json and not whole and isinstance(source, (str, bytes, bytearray)):
        from .jsonstream import JsonStream

        stream = JsonStream(source)
        log = stream.header()
        if stream.failed:
            return None
        refused = stream.refused  # the schema's findings, in the whole reading's words: malformed
        return Parsed(log, stream.findings if refused is None else refused, refused is not None, stream.text), stream
    if whole or as_json:
        return parse(source, form), None
    from .notation import stream as read_stream

    lines = read_stream(cast("str | bytes", source), kept)  # a dict is JSON (as_json above)
    log = lines.header()
    parsed = Parsed(log, [], lines.malformed, lines.text)
    if log is None:
        parsed.findings = lines.close()  # none but a text that is no log's: the rest are in `kept`
    return parsed, lines


def _unjudged_report(name: str, spec_version: str, text: str | None) -> Report:
    """The report as a malformed log's, what it stays unless the log is refereed; its lines counted."""
    report = Report(file=name, verdict="malformed", ruleset=None, spec_version=spec_version)
    report.text = text
    if text is not None:
        report.lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return report


def _as_malformed(report: Report, parsed: Parsed, kept: Kept, keep: Keep | None) -> Report:
    """A log that cannot be refereed: its reader's findings, and no verdict but malformed."""
    if parsed.findings:  # a malformed log's findings are reported in the reader's own order
        keep_as_given(report, list(parsed.findings), keep)
    else:  # read into `kept` (a text stream's)
        kept.give(report)
    return report


def _referee_streamed(
    ref, stream: JsonStream | TextStream, report: Report, kept: Kept, source, again: dict
) -> Report | None:
    """Referee the rounds as the stream reads them. None when it read them to the end; else
    the report to give instead (a JSON round made the log malformed, or the stream gave way)."""
    ref.provs = None  # no witness: keep no round's provenance
    ref.run(stream.rounds())
    kept.view(0).extend(stream.close())  # (a JSON stream's face-down findings: a text's are in `kept`)
    if other := _json_refused(stream, report, source, **again):
        return other
    if stream.malformed:  # pragma: no cover - a failure midway (never raise): as a log that cannot be read
        kept.give(report)
        return report
    return None


def _no_round(as_json: bool, lines: int) -> Finding:
    """notation.rounds: a header alone is legal, but never in silence (asked for only when no
    error was made: after an unreadable line, perhaps the `round` line itself, it would be a
    follow-on finding)."""
    return finding(
        "notation.rounds",
        "the log has no round: nothing was played, nothing refereed",
        line=None if as_json else lines + 1,
        pointer="/rounds" if as_json else None,
        expected="`round 1` and the game's turns after the header",
    )


def _judged(report: Report, rs, ref, kept: Kept, *, keep_referee: bool) -> Report:
    """The refereed log's report: the ruleset in force, what was played, the verdict (and the
    referee, when the log was read whole: the witness needs it)."""
    report.ruleset = rs.name
    report.options = dict(rs.options)
    report.target = rs.target
    report.rounds = ref.rounds_seen
    report.turns = ref.turns_seen
    report.face_down = ref.face_down
    report.unverified = list(ref.unverified)
    if keep_referee:
        report.referee = ref
    report.verdict = "illegal" if kept.errors else "legal"
    return report


def _bad_ruleset(exc, report, kept, stream, parsed, log, name_rs, source, again: dict) -> Report:
    """The log's ruleset or option names none of the spec's: the log's other findings, then
    one for that line, after them (as a malformed log's, not refereed)."""
    spec = load_spec()
    if name_rs not in spec.rulesets:  # only the log's own ruleset can be unknown here
        where, ptr = "ruleset", "/ruleset"
    else:
        key = next(k for k, v in log.options.items() if k not in spec.options or v not in spec.options[k]["values"])
        where, ptr = f"option:{key}", f"/options/{key}"
    line, col = log._header_at.get(where, (None, None))
    found = name_rs if where == "ruleset" else None
    if line and parsed.text and where == "ruleset":  # point at the value, not the keyword
        src = parsed.text.splitlines()[line - 1] if line <= parsed.text.count("\n") + 1 else ""
        at = src.find(name_rs, (col or 1) - 1 + len("ruleset"))
        col = at + 1 if at >= 0 else col
    if stream is not None:  # the rest of the log's findings come first, as when it is read whole
        kept.view(0).extend(stream.close())
        if other := _json_refused(stream, report, source, **again):
            return other
    last = finding("notation.ruleset", str(exc), line=line, column=col, pointer=None if line else ptr, found=found)
    kept.add(last, 4, (NO_LINE + 1, 0))
    kept.give(report)
    return report


def _json_refused(stream, report: Report, source, **kw) -> Report | None:
    """After a JSON log's rounds were read: the report if a round made it malformed (the schema's
    findings, as the whole reading gives them), or read whole if the stream gave way; else None."""
    if getattr(stream, "failed", False):
        return _json_whole(source, **kw)
    if getattr(stream, "refused", None) is None:
        return None
    keep_as_given(report, stream.refused, kw.get("keep"))
    return report  # still as a malformed log's: no ruleset, no rounds


def _json_whole(source, **kw) -> Report:
    """A JSON log the stream gave way on (jsonstream: a key written twice, deep nesting, bytes
    that are not UTF-8, valid JSON that is not a log's object), judged as read whole."""
    report = check(source, form="json", whole=True, **kw)
    report.referee = None  # no witness was asked for: keep no referee
    return report


def witness(
    source: str | bytes | dict, *, name: str = "<input>", ruleset: str | None = None, form: str | None = None
) -> tuple[str | None, Report]:
    """Check a log and, when it is legal, write its witness: the same log in the text
    notation with every `?` replaced by a card (notation.md, "Witness"). None with the
    report when the log is not legal, or some `?` found no card."""
    from .hide import witness as fill
    from .notation import write

    report = check(source, name=name, ruleset=ruleset, form=form, whole=True)
    ref = report.referee
    if report.verdict != "legal" or ref is None or not fill(ref):
        return None, report
    proof = write(ref.log)
    # a witness is a legal open log, or none is given: the cards chosen may break a rule that depends on
    # them and that the choice does not try to satisfy (READINGS R34: match.decline, match.after-draw)
    opened = check(proof, name=name, ruleset=ruleset)
    errors = [f for f in opened.findings if f.severity == "error"]
    if errors:
        first = errors[0]
        report.witness_refused = (
            f"the choice of face-down cards found breaks {first.rule} at line {first.line} ({first.message}); "
            "the log is legal, but this choice is no proof of it (READINGS R34)"
        )
        return None, report
    return proof, report
