"""DOS's data path: text or JSON in, one event model, one referee, one report.

The core reaches it through the pack (:mod:`dosverify.api` finds the game by the log's first
word); the text is read a round at a time, JSON through jsonstream where it can.
"""

from __future__ import annotations

from ...findings import Finding, finding
from ...jsondoc import sniff_json
from ...report import Report, verdict_of
from ...spec import SpecError, load_spec


def parse(source: str | bytes | dict, form: str | None = None):
    """Read a log in either form; returns a Parsed (log, findings, malformed, text)."""
    if form == "json" or (form is None and sniff_json(source)):
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
) -> Report:
    """Check one log. A `ruleset` override that does not exist, or an `options` override
    (over the log's own `option` lines) that is unknown, raises SpecError (a misuse, not a
    verdict); everything wrong with the log itself is a finding in the report.

    A log is read and judged a round at a time (memory for the game state, not the log;
    for JSON, see jsonstream); `whole` reads it all first and keeps it, with the referee, on
    the report (the witness needs both)."""
    spec = load_spec()
    if ruleset is not None and ruleset not in spec.rulesets:
        spec.ruleset(ruleset)  # raises SpecError with the known names
    if options:
        spec.ruleset("official", options)  # raises SpecError naming the unknown option or value
    stream = None
    as_json = form == "json" or (form is None and sniff_json(source))
    if as_json and not whole and isinstance(source, (str, bytes, bytearray)):
        from ...model import Parsed
        from .jsonstream import JsonStream

        stream = JsonStream(source)
        log = stream.header()
        if stream.failed:  # not plainly a log: the whole reading says what is wrong
            return _json_whole(source, name=name, ruleset=ruleset, options=options)
        malformed = stream.refused is not None  # in the whole reading's words
        parsed = Parsed(log, stream.refused if malformed else stream.findings, malformed, stream.text)
    elif whole or as_json:
        parsed = parse(source, form)
    else:
        from ...model import Parsed
        from .notation import stream as read_stream

        stream = read_stream(source)
        log = stream.header()
        parsed = Parsed(log, [], stream.malformed, stream.text)
        if log is None:
            parsed.findings = stream.close()
    findings: list[Finding] = list(parsed.findings)
    log = parsed.log
    report = Report(file=name, verdict="malformed", ruleset=None, spec_version=spec.version, findings=findings)
    report.text = parsed.text
    if parsed.text is not None:
        report.lines = parsed.text.count("\n") + (0 if parsed.text.endswith("\n") or not parsed.text else 1)
    if parsed.malformed or log is None:
        return report  # the report holds `findings` itself: later appends land in it
    name_rs = ruleset or log.ruleset or "official"
    try:
        rs = spec.ruleset(name_rs, {**log.options, **(options or {})}, log.target)
    except SpecError as exc:
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
            findings.extend(stream.close())
            if other := _json_refused(stream, report, source, name=name, ruleset=ruleset, options=options):
                return other
        findings.append(
            finding("notation.ruleset", str(exc), line=line, column=col, pointer=None if line else ptr, found=found)
        )
        return report
    from .referee import Referee

    ref = Referee(log, rs)
    if stream is None:
        findings.extend(ref.run())
    else:
        ref.provs = None  # no witness: keep no round's provenance
        judged = ref.run(stream.rounds())
        findings.extend(stream.close())  # the parser's findings first, as when the log is read whole
        if other := _json_refused(stream, report, source, name=name, ruleset=ruleset, options=options):
            return other
        if stream.malformed:  # pragma: no cover - a failure midway (never raise): as a log that cannot be read
            report.findings[:] = findings
            return report
        findings.extend(judged)
    # notation.rounds: a header alone is legal, but never in silence; after an unreadable line
    # (perhaps the `round` line itself) it would be a follow-on finding
    if not ref.rounds_seen and not any(f.severity == "error" for f in findings):
        findings.append(
            finding(
                "notation.rounds",
                "the log has no round: nothing was played, nothing refereed",
                line=None if as_json else report.lines + 1,
                pointer="/rounds" if as_json else None,
                expected="`round 1` and the game's turns after the header",
            )
        )
    findings.sort(key=lambda f: (f.line if f.line is not None else 1 << 60, f.column or 0))
    report.ruleset = rs.name
    report.options = dict(rs.options)
    report.target = rs.target
    report.rounds = ref.rounds_seen
    report.turns = ref.turns_seen
    report.face_down = ref.face_down
    report.unverified = list(ref.unverified)
    if stream is None:
        report.referee = ref
    report.verdict = verdict_of(findings, False)
    return report


def _json_refused(stream, report: Report, source, **kw) -> Report | None:
    """After a JSON log's rounds were read: the report if a round made it malformed (the schema's
    findings, as the whole reading gives them), or read whole if the stream gave way; else None."""
    if getattr(stream, "failed", False):
        return _json_whole(source, **kw)
    if getattr(stream, "refused", None) is None:
        return None
    report.findings[:] = stream.refused
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
        report._witness_refused = (
            f"the choice of face-down cards found breaks {first.rule} at line {first.line} ({first.message})"
        )
        return None, report
    return proof, report
