"""DOS's parts of the core's data path (dosverify.pipeline): its reader (a text log a round at a
time, JSON through jsonstream where it can), its referee, the finding for a log's own unknown
ruleset or option, what more its report holds (face-down cards); and the witness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ...findings import Finding, Kept
from ...jsondoc import sniff_json
from ...model import Parsed
from ...pipeline import Reading
from ...report import Report
from ...spec import Ruleset, SpecError, load_spec
from .findings import finding

if TYPE_CHECKING:
    from .referee import Referee


def parse(source: str | bytes | dict, form: str | None = None) -> Parsed:
    """Read a log in either form; returns a Parsed (log, findings, malformed, text)."""
    if isinstance(source, dict) or form == "json" or (form is None and sniff_json(source)):
        from .jsonform import load_json

        return load_json(source)
    from .notation.textstream import parse as parse_text

    return parse_text(source)


def check(source: str | bytes | dict, **kw: Any) -> Report:
    """Check one DOS log: the core's pipeline with DOS's parts (GamePack.check; the pack found as
    the core finds it, so that this module, which the pack imports, imports no pack)."""
    from .. import find_game

    return find_game("dos").check(source, **kw)


def read(source: str | bytes | dict, *, as_json: bool, whole: bool, sink: Kept) -> Reading | None:
    """The log read as far as the referee needs before it starts, and the stream that reads the
    rest (None: read whole, for the witness, or a dict). A text stream's findings go straight
    into `sink`. None when a JSON stream gave way on the header: it is to be read whole."""
    if as_json and not whole and isinstance(source, (str, bytes, bytearray)):
        from .jsonstream import JsonStream

        stream = JsonStream(source)
        log = stream.header()
        if stream.failed:
            return None
        refused = stream.refused  # the schema's findings, in the whole reading's words: malformed
        parsed = Parsed(log, stream.findings if refused is None else refused, refused is not None, stream.text)
        return Reading(parsed, stream)
    if whole or as_json:
        return Reading(parse(source, "json" if as_json else "text"))
    from .notation.textstream import stream as read_stream

    lines = read_stream(cast("str | bytes", source), sink)  # a dict is JSON (as_json above)
    log = lines.header()
    parsed = Parsed(log, [], lines.malformed, lines.text)
    if log is None:
        parsed.findings = lines.close()  # none but a text that is no log's: the rest are in `sink`
    return Reading(parsed, lines)


def referee(log: Any, rs: Ruleset, *, sink: Kept, streamed: bool) -> Referee:
    """DOS's referee, its findings into `sink` as they are made (ranked 2 and 3)."""
    from .referee import Referee

    ref = Referee(log, rs, sink=sink)
    if streamed:
        ref.provs = None  # no witness: keep no round's provenance
    return ref


def ruleset_finding(log: Any, name_rs: str, exc: SpecError, text: str | None) -> Finding:
    """notation.ruleset at the log's `ruleset` line (at its value) or its `option` line that the
    spec does not have (at the pointer, in JSON)."""
    spec = load_spec("dos")
    if name_rs not in spec.rulesets:  # only the log's own ruleset can be unknown here
        where, ptr = "ruleset", "/ruleset"
    else:
        key = next(k for k, v in log.options.items() if k not in spec.options or v not in spec.options[k]["values"])
        where, ptr = f"option:{key}", f"/options/{key}"
    line, col = log._header_at.get(where, (None, None))
    found = name_rs if where == "ruleset" else None
    if line and text and where == "ruleset":  # point at the value, not the keyword
        src = text.splitlines()[line - 1] if line <= text.count("\n") + 1 else ""
        at = src.find(name_rs, (col or 1) - 1 + len("ruleset"))
        col = at + 1 if at >= 0 else col
    return finding("notation.ruleset", str(exc), line=line, column=col, pointer=None if line else ptr, found=found)


def judged(report: Report, ref: Referee) -> None:
    """A DOS report's face-down cards: how many, and the rules the choice of cards decides."""
    report.face_down = ref.face_down
    report.unverified = list(ref.unverified)


def witness(
    source: str | bytes | dict, *, name: str = "<input>", ruleset: str | None = None, form: str | None = None
) -> tuple[str | None, Report]:
    """Check a log and, when it is legal, write its witness: the same log in the text
    notation with every `?` replaced by a card (notation.md, "Witness"). None with the
    report when the log is not legal, or some `?` found no card."""
    from .hide import witness as fill
    from .notation.writer import write

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
