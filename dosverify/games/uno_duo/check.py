"""The pack's check: text or JSON in, one event model, the referee, one report (the GamePack.check
contract, as dosverify.api.check does it for DOS)."""

from __future__ import annotations

from ...findings import Finding, Keep, Kept
from ...model import Parsed
from ...report import Report, verdict_of
from ...spec import SpecError


def _spec():
    from .spec import spec

    return spec()


def is_json(source) -> bool:
    if isinstance(source, (dict, list)):
        return True
    head = source[:256].lstrip() if isinstance(source, str) else bytes(source[:256]).lstrip(b" \t\r\n\xef\xbb\xbf")
    return head[:1] in ("{", b"{", "[", b"[")


def parse(source, form: str | None = None) -> Parsed:
    """Read a log in either form (never raises)."""
    if form == "json" or (form is None and is_json(source)):
        from .jsonform import load_json

        return load_json(source)
    from .notation import parse as parse_text

    return parse_text(source)


def check(source, *, keep: Keep | None = None, **kw) -> Report:
    """Check one UNO Duo log. An unknown `ruleset` or `options` override raises SpecError (a misuse,
    not a verdict); everything wrong with the log itself is a finding. `keep` (findings.Keep): which
    findings the report keeps, and at most how many (the rest counted; the verdict goes by all)."""
    report = _check(source, **kw)
    if keep is not None:
        kept = Kept(keep)
        for f in list(report.findings):
            kept.add(f, 0)
        kept.give(report)
        if report.verdict != "malformed":
            report.verdict = "illegal" if kept.errors else "legal"
    return report


def _check(
    source,
    *,
    name: str = "<input>",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
    whole: bool = False,
) -> Report:
    """The whole check, every finding kept."""
    spec = _spec()
    if ruleset is not None:
        spec.ruleset(ruleset)
    if options:
        spec.ruleset("official", options)
    as_json = form == "json" or (form is None and is_json(source))
    try:
        parsed = parse(source, "json" if as_json else "text")
    except RecursionError:  # pragma: no cover - a pathological input: never raise
        parsed = Parsed(None, [_bad(spec, "the log is nested too deeply to read")], True, None)
    findings: list[Finding] = list(parsed.findings)
    report = Report(file=name, verdict="malformed", ruleset=None, spec_version=spec.version, findings=findings)
    report.game = "uno-duo"  # its rule ids are read in spec/uno-duo/
    report.text = parsed.text
    if parsed.text is not None:
        report.lines = parsed.text.count("\n") + (0 if parsed.text.endswith("\n") or not parsed.text else 1)
    log = parsed.log
    if parsed.malformed or log is None:
        findings.sort(key=_order)
        return report
    name_rs = ruleset or log.ruleset or "official"
    try:
        rs = spec.ruleset(name_rs, {**log.options, **(options or {})}, log.target)
    except SpecError as exc:
        findings.append(_ruleset_finding(spec, log, name_rs, exc, as_json))
        findings.sort(key=_order)
        return report
    from .referee import Referee

    ref = Referee(log, rs, spec)
    ref.mark_reported(parsed.findings)
    findings.extend(ref.run())
    if not log.rounds and not any(f.severity == "error" for f in findings):
        from ...findings import make_finding

        findings.append(
            make_finding(
                spec,
                "notation.rounds",
                "the log has no round: nothing was played, nothing refereed",
                line=None if as_json else report.lines + 1,
                pointer="/rounds" if as_json else None,
            )
        )
    findings.sort(key=_order)
    report.ruleset, report.options, report.target = rs.name, dict(rs.options), rs.target
    report.rounds, report.turns = ref.rounds_seen, ref.turns_seen
    if whole:
        report.referee = ref
    report.verdict = verdict_of(findings, False)
    return report


def _order(f: Finding):
    return (f.line if f.line is not None else 1 << 60, f.column or 0)


def _bad(spec, message: str) -> Finding:
    from ...findings import make_finding

    return make_finding(spec, "notation.schema", message, pointer="")


def _ruleset_finding(spec, log, name_rs: str, exc: SpecError, as_json: bool) -> Finding:
    from ...findings import make_finding

    if name_rs not in spec.rulesets:
        where, ptr = "ruleset", "/ruleset"
    else:
        key = next(
            (k for k, v in log.options.items() if k not in spec.options or v not in spec.options[k]["values"]), ""
        )
        where, ptr = f"option:{key}", f"/options/{key}"
    line, col = log._header_at.get(where, (None, None))
    return make_finding(spec, "notation.ruleset", str(exc), line=line, column=col, pointer=None if line else ptr)
