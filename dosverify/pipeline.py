"""The one data path every game's log takes: read -> referee -> report (the formats render it).

A pack supplies parts (:class:`dosverify.games.GamePack`): ``read`` (the log's header and, where
the game reads a round at a time, a :class:`RoundStream` of the rest; by default its ``parse``,
whole), ``referee`` (a :class:`Judge` of the log under a ruleset), ``ruleset_finding`` (the finding
for a log's own ruleset or option that its spec does not have), ``no_round_finding`` and
``judged`` (what more its report holds). The core does the rest, the same for every game: the
caller's overrides checked, the report made, a malformed log's findings in its reader's order,
the ruleset resolved, findings ranked and capped as they are made (findings.Kept), the no-round
finding, a JSON stream that gives way read whole, the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from .findings import NO_LINE, Finding, Keep, Kept, keep_as_given
from .jsondoc import sniff_json
from .model import Parsed
from .report import Report
from .spec import Ruleset, Spec, SpecError

__all__ = ["RANK_CHECK", "RANK_READER", "RANK_REFEREE", "Judge", "Parts", "Reading", "RoundStream", "check"]

#: Report order on one spot (findings.Kept): the reader's findings, then the referee's (a pack's
#: referee that gives its findings to the sink ranks its own below RANK_REFEREE), then the core's.
RANK_READER, RANK_REFEREE, RANK_CHECK = 0, 3, 4


class RoundStream(Protocol):
    """The rest of a log read a round at a time, after its header (a pack's ``read``)."""

    malformed: bool  # the reader met what makes the log unreadable midway
    failed: bool  # (JSON) the stream gave way: the log is to be read whole instead
    refused: list[Finding] | None  # (JSON) malformed after all: the whole reading's findings

    def rounds(self) -> Iterator[Any]:
        """Each round, once read (the referee's ``run`` takes them as they come)."""
        ...

    def close(self) -> list[Finding]:
        """Read what is left; the reader's findings not yet given to the sink."""
        ...


class Judge(Protocol):
    """A game's referee of one log under one ruleset (a pack's ``referee``)."""

    @property
    def rounds_seen(self) -> int: ...

    @property
    def turns_seen(self) -> int: ...

    def run(self, rounds: Iterable[Any] | None = None) -> list[Finding]:
        """Referee the log's rounds (or each of `rounds` as it comes); the findings made that were
        not given to the sink the pack bound it to (the core ranks them as the referee's)."""
        ...


class Parts(Protocol):
    """What the data path asks of a game's pack (dosverify.games.GamePack has each, the optional
    ones with a default): its name and spec, its reader, its referee, and its words for a log's
    unknown ruleset, a log without a round, and what more a judged log's report holds."""

    @property
    def name(self) -> str: ...

    def spec(self) -> Spec: ...

    def read(self, source: str | bytes | dict, *, as_json: bool, whole: bool, sink: Kept) -> Reading | None: ...

    def referee(self, log: Any, ruleset: Ruleset, *, sink: Kept, read: list[Finding], streamed: bool) -> Judge: ...

    def ruleset_finding(self, log: Any, ruleset: str, error: SpecError, text: str | None) -> Finding: ...

    def no_round_finding(self, as_json: bool, lines: int) -> Finding | None: ...

    def judged(self, report: Report, judge: Judge) -> None: ...


@dataclass
class Reading:
    """What a pack's ``read`` gives: the log as far as the referee needs before it starts (its
    header, the reader's findings so far, whether it is malformed, its text), and the stream of
    the rest (None: read whole)."""

    parsed: Parsed
    stream: RoundStream | None = None


def is_json(source: str | bytes | dict | list, form: str | None) -> bool:
    """Whether a log is read as the JSON form: `form` says, else its first character does."""
    return form == "json" or (form is None and sniff_json(source))


def check(
    pack: Parts,
    source: str | bytes | dict,
    *,
    name: str = "<input>",
    ruleset: str | None = None,
    form: str | None = None,
    options: dict[str, str] | None = None,
    whole: bool = False,
    keep: Keep | None = None,
) -> Report:
    """Check one log of `pack`'s game (GamePack.check's contract). An unknown `ruleset` or
    `options` override raises SpecError (a misuse); everything wrong with the log is a finding.
    `whole` reads the log all first and keeps the referee on the report (the witness, a game's
    result and replay need it); `keep` which findings the report keeps and how many (the rest
    counted as they are made, never held)."""
    spec = pack.spec()
    _refuse_unknown_overrides(pack, ruleset, options)
    again = {"name": name, "ruleset": ruleset, "options": options, "keep": keep}
    kept = Kept(keep)
    as_json = is_json(source, form)
    reading = pack.read(source, as_json=as_json, whole=whole, sink=kept)
    if reading is None:  # a JSON stream gave way on the header: the whole reading says what is wrong
        return _read_whole(pack, source, again)
    parsed, stream = reading.parsed, reading.stream
    report = _unjudged_report(pack, name, spec.version, parsed.text)
    log = parsed.log
    if parsed.malformed or log is None:
        if parsed.findings:  # a malformed log's findings in its reader's own order
            keep_as_given(report, list(parsed.findings), keep)
        else:  # read into `kept` (a stream's)
            kept.give(report)
        return report
    kept.view(RANK_READER).extend(parsed.findings)
    name_rs = ruleset or log.ruleset or "official"
    try:
        rs = spec.ruleset(name_rs, {**log.options, **(options or {})}, log.target)
    except SpecError as exc:
        if stream is not None:  # the rest of the log's findings come first, as when it is read whole
            kept.view(RANK_READER).extend(stream.close())
            if (other := _stream_refused(pack, stream, report, source, again)) is not None:
                return other
        kept.add(pack.ruleset_finding(log, name_rs, exc, parsed.text), RANK_CHECK, (NO_LINE + 1, 0))
        kept.give(report)
        return report
    judge = pack.referee(log, rs, sink=kept, read=parsed.findings, streamed=stream is not None)
    if stream is None:
        kept.view(RANK_REFEREE).extend(judge.run())
    else:
        kept.view(RANK_REFEREE).extend(judge.run(stream.rounds()))
        kept.view(RANK_READER).extend(stream.close())
        if (other := _stream_refused(pack, stream, report, source, again)) is not None:
            return other
        if stream.malformed:  # pragma: no cover - a failure midway (never raise): as a log that cannot be read
            kept.give(report)
            return report
    if not judge.rounds_seen and not kept.made_errors:
        if (none := pack.no_round_finding(as_json, report.lines)) is not None:
            kept.add(none, RANK_CHECK)
    kept.give(report)
    report.ruleset, report.options, report.target = rs.name, dict(rs.options), rs.target
    report.rounds, report.turns = judge.rounds_seen, judge.turns_seen
    pack.judged(report, judge)
    if whole:
        report.referee = judge
    report.verdict = "illegal" if kept.errors else "legal"
    return report


def _refuse_unknown_overrides(pack: Parts, ruleset: str | None, options: dict[str, str] | None) -> None:
    """The caller's `ruleset` and `options` are checked before the log is read: a misuse raises."""
    spec = pack.spec()
    if ruleset is not None and ruleset not in spec.rulesets:
        spec.ruleset(ruleset)  # raises SpecError with the known names
    if options:
        spec.ruleset("official", options)  # raises SpecError naming the unknown option or value


def _unjudged_report(pack: Parts, name: str, spec_version: str, text: str | None) -> Report:
    """The report as a malformed log's, what it stays unless the log is refereed; its lines counted."""
    report = Report(file=name, verdict="malformed", ruleset=None, spec_version=spec_version)
    report.game = pack.name
    report.text = text
    if text is not None:
        report.lines = line_count(text)
    return report


def line_count(text: str) -> int:
    """The lines of a log's text (a last line without a newline counts)."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def _stream_refused(
    pack: Parts, stream: RoundStream, report: Report, source: str | bytes | dict, again: dict[str, Any]
) -> Report | None:
    """After a JSON log's rounds were read: the report if a round made it malformed (the schema's
    findings, as the whole reading gives them), or read whole if the stream gave way; else None."""
    if stream.failed:
        return _read_whole(pack, source, again)
    if stream.refused is None:
        return None
    keep_as_given(report, stream.refused, again["keep"])
    return report  # still as a malformed log's: no ruleset, no rounds


def _read_whole(pack: Parts, source: str | bytes | dict, again: dict[str, Any]) -> Report:
    """A JSON log the stream gave way on (a key written twice, deep nesting, bytes that are not
    UTF-8, valid JSON that is not a log's object), judged as read whole."""
    report = check(pack, source, form="json", whole=True, **again)
    report.referee = None  # no witness was asked for: keep no referee
    return report
