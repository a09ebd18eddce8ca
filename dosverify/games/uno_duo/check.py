"""UNO Duo's parts of the core's data path (dosverify.pipeline): its reader (a log read whole),
its referee, and the finding for a log's own unknown ruleset or option."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ...findings import Finding, make_finding
from ...jsondoc import sniff_json
from ...model import Parsed
from ...report import Report
from ...spec import Ruleset, Spec, SpecError

if TYPE_CHECKING:
    from .referee import Referee


def _spec() -> Spec:
    from .spec import spec

    return spec()


def parse(source: str | bytes | dict, form: str | None = None) -> Parsed:
    """Read a log in either form (never raises); the reader's findings in line order."""
    try:
        if form == "json" or (form is None and sniff_json(source)):
            from .jsonform import load_json

            parsed = load_json(source)
        else:
            from .notation import parse as parse_text

            parsed = parse_text(cast("str | bytes", source))  # a dict is JSON
    except RecursionError:  # pragma: no cover - a pathological input: never raise
        deep = make_finding(_spec(), "notation.schema", "the log is nested too deeply to read", pointer="")
        return Parsed(None, [deep], True, None)
    parsed.findings.sort(key=_order)
    return parsed


def check(source: str | bytes | dict, **kw: Any) -> Report:
    """Check one UNO Duo log: the core's pipeline with UNO Duo's parts (GamePack.check; the pack
    found as the core finds it, so that this module, which the pack imports, imports no pack)."""
    from .. import find_game

    return find_game("uno-duo").check(source, **kw)


def referee(log: Any, rs: Ruleset, read: list[Finding]) -> Referee:
    """UNO Duo's referee; the lines the reader reported it leaves alone (READINGS R17)."""
    from .referee import Referee

    ref = Referee(log, rs, _spec())
    ref.mark_reported(read)
    return ref


def _order(f: Finding) -> tuple[int, int]:
    return (f.line if f.line is not None else 1 << 60, f.column or 0)


def ruleset_finding(log: Any, name_rs: str, exc: SpecError) -> Finding:
    """notation.ruleset at the log's `ruleset` or `option` line that the spec does not have."""
    spec = _spec()
    if name_rs not in spec.rulesets:
        where, ptr = "ruleset", "/ruleset"
    else:
        key = next(
            (k for k, v in log.options.items() if k not in spec.options or v not in spec.options[k]["values"]), ""
        )
        where, ptr = f"option:{key}", f"/options/{key}"
    line, col = log._header_at.get(where, (None, None))
    return make_finding(spec, "notation.ruleset", str(exc), line=line, column=col, pointer=None if line else ptr)
