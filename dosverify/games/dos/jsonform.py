"""The JSON form of a log: load and validate it, dump a log, and its schema.

The JSON form carries the same events as the text notation, one object per
event line (``notation.md``, "JSON form"). It is validated with the pydantic
models of ``events.py``; each problem becomes a ``notation.schema`` finding at
its JSON pointer, and makes the log malformed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ...findings import Finding
from ...jsondoc import json_pointer, pointer_from_loc
from ...model import Parsed, json_type_name
from .cards import CARD_RE
from .events import CARD_OR_HIDDEN_PATTERN, Log, attach_pointers
from .findings import finding
from .notation.facedown import face_down_checks
from .notation.words import CARD_WORD_RE, KEYWORDS, TAG_RE, card_problem

__all__ = ["load_json", "dump_json", "schema", "write_schema", "schema_path", "json_pointer"]


@lru_cache(maxsize=1)
def log_adapter() -> TypeAdapter:
    """The validator and serializer of the JSON form, built once, on first use."""
    return TypeAdapter(Log)


def _message(err: Mapping[str, Any]) -> str:
    msg = err.get("msg", "invalid")
    t = err.get("type", "")
    if t in ("missing", "missing_keyword_argument", "missing_argument"):
        return "a required field is missing"
    if t in ("extra_forbidden", "unexpected_keyword_argument"):
        return "an unknown field (not part of the log schema)"
    if t == "union_tag_invalid":
        ctx = err.get("ctx") or {}
        return f"an unknown event type {ctx.get('tag')!r}; expected one of {ctx.get('expected_tags')}"
    if t == "string_pattern_mismatch":
        v = err.get("input")
        pattern = (err.get("ctx") or {}).get("pattern", "")
        if pattern in (CARD_RE.pattern, CARD_OR_HIDDEN_PATTERN) and isinstance(v, str):
            problem = card_problem(v) if CARD_WORD_RE.match(v) else None
            return problem or f"{v!r} is not a card code (R1, R3..R10, R#, W2, with declarations like G#=7 or W2=R)"
        if "A-Za-z0-9_-" in pattern:
            return f"{v!r} is not a player name: ASCII, [A-Za-z][A-Za-z0-9_-]{{0,31}}"
        return f"{msg}: found {v!r}"
    return msg


def _short(v: Any, n: int = 60) -> str:
    s = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
    return s if len(s) <= n else s[: n - 1] + "…"


class _NotALog(Exception):
    """Raised by a step of the whole reading for a document that is no log: its findings, and
    the log is malformed (`load_json` gives them, never raises)."""

    def __init__(self, *findings: Finding) -> None:
        super().__init__()
        self.findings = list(findings)


def load_json(data: str | bytes | dict) -> Parsed:
    """Read a log in the JSON form, whole. Never raises: every problem is a finding.

    The whole reading: `api.check` reads a round at a time (``jsonstream``), to the same
    report; this one serves `convert`, the witness and ``check(whole=True)``."""
    text = None
    try:
        if isinstance(data, (bytes, bytearray)):
            data = _utf8_text(data)
        if isinstance(data, str):
            text = data[1:] if data.startswith("\ufeff") else data
            # the parsed value is passed, never named here, so _validated can let it go before it validates
            log = _validated(_json_value(text), text)
        else:
            log = _validated(data, None)
    except _NotALog as e:
        return Parsed(None, e.findings, True, text)
    findings = _header_checks(log)
    if any(f.rule == "notation.players" for f in findings):
        return Parsed(None, findings, True, text)
    attach_pointers(log)
    findings.extend(face_down_checks(log))
    return Parsed(log, findings, False, text)


def _utf8_text(data: bytes | bytearray) -> str:
    """The log's bytes decoded (a UTF-8 byte order mark dropped); UTF-16, or bytes that are not
    UTF-8, are no log: notation.encoding."""
    from .notation.textstream import utf16_problem

    if problem := utf16_problem(bytes(data[:4])):
        raise _NotALog(finding("notation.encoding", problem, line=1, column=1, found="UTF-16", expected="UTF-8 text"))
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise _NotALog(
            finding(
                "notation.encoding",
                f"the JSON log is not UTF-8: byte offset {e.start} is not valid UTF-8",
                line=bytes(data).count(b"\n", 0, e.start) + 1,
            )
        ) from None


def _json_value(text: str) -> Any:
    """The JSON text parsed; a text that is not JSON, or is nested deeper than Python's
    recursion limit, is no log: notation.schema at the whole document."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise _NotALog(
            finding("notation.schema", f"this is not JSON: {e.msg}", line=e.lineno, column=e.colno, pointer="")
        ) from None
    except RecursionError:
        raise _NotALog(
            finding(
                "notation.schema",
                f"this is not a log: the JSON is nested more than {sys.getrecursionlimit()} levels deep",
                line=1,
                pointer="",
            )
        ) from None
    except ValueError as e:
        raise _NotALog(finding("notation.schema", f"this is not JSON: {e}", line=1, pointer="")) from None


def _validated(obj: Any, text: str | None) -> Log:
    """The log the schema makes of a JSON value, read from `text` (None: a value given as is);
    each way it breaks the schema is a notation.schema finding at its JSON pointer."""
    if not isinstance(obj, dict):
        raise _NotALog(
            finding(
                "notation.schema",
                "a JSON log is one object",
                pointer="",
                found=json_type_name(obj),
                expected="an object",
            )
        )
    floats: list = []
    obj = _integral_floats(obj, floats)
    # the JSON text validated: the client's own when no number changed (no copy of it), and
    # the parsed objects let go meanwhile (read again only to place an error), so a long log
    # needs its text and its events, not also a second copy and every parsed object
    src = text if text is not None and not floats and not _has_lone_surrogate(text) else json.dumps(obj)
    if src is text:
        obj = None
    try:
        # strict, in JSON mode: JSON types as the schema says (no `false` for 0, no "3" for 3)
        return log_adapter().validate_json(src, strict=True)
    except ValidationError as e:
        if obj is None:
            assert text is not None  # obj let go only when the text given is what was validated
            obj = json.loads(text)
        raise _NotALog(*schema_findings(e.errors(include_url=False), obj)) from None
    except RecursionError:
        raise _NotALog(finding("notation.schema", "the JSON log is nested too deeply", pointer="")) from None


def schema_findings(errors: Sequence[Mapping[str, Any]], obj: Any, prefix: str = "") -> list[Finding]:
    """A notation.schema finding for each pydantic error over `obj` (the part of the document
    at the JSON pointer `prefix`, the whole of it by default)."""
    out = []
    for err in errors:
        ptr = prefix + pointer_from_loc(obj, tuple(err.get("loc", ())))
        found = (
            None
            if err.get("type") in ("missing", "missing_keyword_argument", "missing_argument")
            else _short(err.get("input"))
        )
        out.append(finding("notation.schema", f"{ptr or '/'}: {_message(err)}", pointer=ptr, found=found))
    return out


def _has_lone_surrogate(text: str) -> bool:
    """A ``\\ud800`` escape alone: json.loads takes it, pydantic's parser refuses it; such a text
    is validated as ``json.dumps`` writes it back, as always."""
    return "\\ud" in text or "\\uD" in text


def _integral_floats(obj, changed: list | None = None):
    """JSON numbers like ``3.0`` are integers to JSON Schema: make them Python ints.

    Validation is strict (no ``false`` or ``"3"`` for a number), so this is the one
    conversion JSON allows. Every float seen is noted in `changed`.
    """
    changed = [] if changed is None else changed
    if isinstance(obj, float):
        changed.append(obj)
        return int(obj) if obj.is_integer() else obj
    stack = [obj]
    while stack:
        cur = stack.pop()
        items = cur.items() if isinstance(cur, dict) else enumerate(cur) if isinstance(cur, list) else ()
        for k, v in list(items):
            if isinstance(v, float):
                changed.append(v)
                if v.is_integer():
                    cur[k] = int(v)
            elif isinstance(v, (dict, list)):
                stack.append(v)
    return obj


def _header_checks(log: Log) -> list[Finding]:
    """What the text form's grammar checks and the schema does not."""
    out: list[Finding] = []
    seen: dict = {}
    for i, name in enumerate(log.players):
        ptr = f"/players/{i}"
        if name in KEYWORDS:
            out.append(
                finding("notation.players", f"`{name}` is a keyword, not a player name", pointer=ptr, found=name)
            )
        elif CARD_WORD_RE.match(name):
            out.append(
                finding("notation.players", f"`{name}` is a card word, not a player name", pointer=ptr, found=name)
            )
        elif name.lower() in seen:
            out.append(
                finding(
                    "notation.players",
                    f"`{name}` and `{seen[name.lower()]}` are the same name, ignoring case",
                    pointer=ptr,
                    found=name,
                )
            )
        seen.setdefault(name.lower(), name)
    # a tag the text form cannot write is reported and left out, as the text form
    # reports and skips such a line (unknown option keys are the ruleset check's)
    for key in list(log.tags):
        if not TAG_RE.match(key) or key in KEYWORDS:
            out.append(
                finding(
                    "notation.line",
                    f"`{key}` is not a tag name (lower case `[a-z][a-z0-9_-]*`, not a keyword): the tag is left out",
                    pointer=json_pointer(["tags", key]),
                    found=key,
                )
            )
            del log.tags[key]
    return out


def dump_json(log: Log) -> str:
    """The log as compact JSON (fields that are not set are left out)."""
    return log_adapter().dump_json(log, exclude_none=True).decode()


def schema() -> dict:
    """The JSON schema of the JSON form (generated from the event model's annotations)."""
    js = log_adapter().json_schema()
    js["$id"] = "https://dosverify.invalid/schema/log-v1.json"
    js["title"] = "DOS game log, notation v1"
    for d in js.get("$defs", {}).values():  # the discriminator: every event names its type
        if "const" in d.get("properties", {}).get("type", {}) and "type" not in d.get("required", []):
            d.setdefault("required", []).insert(0, "type")
    return js


def schema_path() -> Path:
    return Path(__file__).resolve().parents[3] / "spec" / "dos" / "log.schema.json"


def write_schema(path: Path | str | None = None) -> Path:
    """Write the schema to ``spec/log.schema.json`` (or ``path``)."""
    p = Path(path) if path is not None else schema_path()
    p.write_text(json.dumps(schema(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return p
