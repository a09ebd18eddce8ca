"""The one data path every game's log takes: read -> referee -> report (the formats render it).

A pack supplies parts (:class:`dosverify.games.GamePack`): ``read`` (the log's header and, where
the game reads a round at a time, a :class:`RoundStream` of the rest; by default its ``parse``,
whole), ``referee`` (a :class:`Judge` of the log under a ruleset), ``ruleset_finding`` (the finding
for a log's own ruleset or option that its spec does not have), ``no_round_finding`` and
``judged`` (what more its report holds). The core does the rest, the same for every game: the
caller's overrides checked, the report made, a malformed log's findings in its reader's order,
the ruleset resolved, findings ranked and capped as they are made (findings.Kept), the no-round
finding, a JSON stream that gives way read whole, the verdict; and a text log written in another
game's notation under this one's header named as such (:func:`other_notation`, READINGS R100).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .findings import NO_LINE, Finding, Keep, Kept, keep_as_given
from .jsondoc import sniff_json
from .model import Parsed
from .report import Report
from .spec import Ruleset, Spec, SpecError

__all__ = [
    "RANK_CHECK",
    "RANK_READER",
    "RANK_REFEREE",
    "Judge",
    "Notation",
    "Parts",
    "Reading",
    "RoundStream",
    "check",
    "other_notation",
]

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

    @property
    def title(self) -> str: ...

    def header_finding(
        self, message: str, *, line: int, column: int, found: str, expected: str, help: str
    ) -> Finding | None: ...


class Notation(Protocol):
    """A game whose text notation can be told line by line (a pack with the capability
    ``recognize``): its header word, name for people, notation versions, and which lines it reads."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def versions(self) -> tuple[int, ...]: ...

    def recognize(self, lines: Iterable[str]) -> Iterator[bool]: ...


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
    notations: Callable[[], Sequence[Notation]] | None = None,
) -> Report:
    """Check one log of `pack`'s game (GamePack.check's contract). An unknown `ruleset` or
    `options` override raises SpecError (a misuse); everything wrong with the log is a finding.
    `whole` reads the log all first and keeps the referee on the report (the witness, a game's
    result and replay need it); `keep` which findings the report keeps and how many (the rest
    counted as they are made, never held). `notations`: the games whose text notation can be
    told line by line (GamePack.check gives the registered ones); a text log that is not legal
    is then asked :func:`other_notation`, and one in another of them is malformed with one
    finding that names it."""
    report = _judge(pack, source, name=name, ruleset=ruleset, form=form, options=options, whole=whole, keep=keep)
    # only a log with an error made (kept, or hidden by --select/--ignore) is looked at again: a legal one costs nothing
    if notations is None or (report.verdict == "legal" and not report.hidden) or report.text is None:
        return report
    if is_json(source, form):  # the JSON form names its game by key
        return report
    named = other_notation(pack.name, report.text, notations)
    if named is None:
        return report
    return _in_other_notation(pack, name, report.text, named, keep) or report


def _judge(
    pack: Parts,
    source: str | bytes | dict,
    *,
    name: str,
    ruleset: str | None,
    form: str | None,
    options: dict[str, str] | None,
    whole: bool,
    keep: Keep | None,
) -> Report:
    """Read, referee and report one log (:func:`check` without the look at another notation)."""
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
    report = Report(file=name, verdict="malformed", ruleset=None, spec_version=spec_version, game=pack.name)
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
    report = _judge(pack, source, form="json", whole=True, **again)
    report.referee = None  # no witness was asked for: keep no referee
    return report


# ---- a log in another game's notation (READINGS R100) -----------------------------------------


@dataclass(frozen=True)
class OtherNotation:
    """Another game whose notation a log is written in: the game, and the counts that tell it
    (of the log's `lines` after its header, how many each game reads, and both)."""

    game: Notation
    lines: int
    header_reads: int
    other_reads: int
    both_read: int


def event_lines(text: str, game: str | None = None) -> tuple[int, list[str]]:
    """A text log's first line with more than a comment (1-based; 0 when there is none: its
    header, when its first word is `game` or names a registered game), and the lines that count:
    those that are neither blank nor a comment alone (`#` at the start or after white space, every
    notation's rule), after the header (all of them, when the log has no header)."""
    from .registry import REGISTRY, sniff_game

    at, lines = 0, []
    for i, ln in enumerate(text.splitlines(), 1):
        code = ln.lstrip()
        if code and code[0] != "#":  # something before its first `#`
            at = at or i
            lines.append(ln)
    if lines and ((word := sniff_game(lines[0])) == game or word in REGISTRY):
        del lines[0]
    return at, lines


def other_notation(header: str, text: str, notations: Callable[[], Sequence[Notation]]) -> OtherNotation | None:
    """The game whose notation a text log under `header`'s header is written in, when it is
    another: among the log's lines after its header (none blank or a comment alone), the
    header's game cannot read at least half of those that are not read by both games, and the
    other game reads at least 90% of all of them, and more lines than neither game reads. Lines
    both notations have (`turn ann`, `draw`, `pass`, `round 1`) tell neither game, and junk (lines
    neither reads) tells for neither: a log of one line the header's game does not read and the
    rest read by both is the other game's, a DOS log of 300 rounds and 30 junk lines stays DOS's. Of several such games, the one that reads the
    most lines (then the registry's order). None when the header's game cannot tell its lines
    (no capability ``recognize``), or the log is its own. The other games are asked first, each
    stopping once it cannot read more than a tenth of the lines: a log of the header's game
    costs the first lines of each (about 3% of the check of an illegal log; a legal log is never
    asked)."""
    known = list(notations())
    own = next((g for g in known if g.name == header), None)
    if own is None:
        return None
    _, lines = event_lines(text, header)
    n = len(lines)
    if not n:
        return None
    allowed_misses = n // 10  # 10 * reads >= 9 * n  <=>  misses <= n // 10
    candidates: list[tuple[Notation, list[bool]]] = []
    for game in known:
        if game is own:
            continue
        reads: list[bool] = []
        misses = 0
        for ok in game.recognize(lines):
            reads.append(ok)
            misses += not ok
            if misses > allowed_misses:
                break
        else:
            if len(reads) == n:
                candidates.append((game, reads))
    if not candidates:
        return None
    mine = list(own.recognize(lines))
    unread = mine.count(False)
    if not unread:
        return None
    best: OtherNotation | None = None
    for game, reads in candidates:
        pairs = Counter(zip(mine, reads, strict=True))  # (the header's game reads it, the other does)
        both, only_other, neither = pairs[True, True], pairs[False, True], pairs[False, False]
        if 2 * unread < n - both or only_other <= neither:
            continue  # its own game reads enough, or what it cannot read is mostly junk to both
        got = OtherNotation(game, n, n - unread, reads.count(True), both)
        if best is None or got.other_reads > best.other_reads:
            best = got
    return best


def _in_other_notation(pack: Parts, name: str, text: str, other: OtherNotation, keep: Keep | None) -> Report | None:
    """The report of a log in `other`'s notation under `pack`'s header: malformed, with one
    finding at its header line (the header game's, GamePack.header_finding; None when its spec
    has no rule for it: the report stays as judged)."""
    line, _ = event_lines(text, pack.name)
    raw = text.splitlines()[line - 1] if line else ""
    head = f"{other.game.name} {max(other.game.versions)}"
    title = other.game.title
    f = pack.header_finding(
        f"this looks like a {title} log; its first line should be `{head}`",
        line=line or 1,
        column=len(raw) - len(raw.lstrip(" \t\ufeff")) + 1,
        found=raw.split("#", 1)[0].strip(" \t\ufeff"),
        expected=f"`{head}`",
        help=f"{title} reads {other.other_reads} of the {other.lines} lines after the header, {pack.title} "
        f"{other.header_reads}: start a {title} log with `{head}`, or write the lines in {pack.title}'s notation",
    )
    if f is None:
        return None
    report = _unjudged_report(pack, name, pack.spec().version, text)
    keep_as_given(report, [f], keep)
    return report
