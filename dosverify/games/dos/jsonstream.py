"""A JSON log read and judged a round at a time, as a text log is (``notation.TextStream``).

Why: validated whole (``jsonform.load_json``), a JSON log holds every event at once, about
20 bytes of memory per byte of JSON. Here the decoded text is kept (as for a text log, to show
what findings point at) and only spans into it: a first pass walks the top-level object with
the standard library's own decoder (``json.JSONDecoder.raw_decode``, one round's objects at a
time, dropped at once) to check the document's syntax and find the header and where each round
lies; the header is then validated, and each round is validated from its own slice of the text
(a TypeAdapter of ``Round``, strict, in JSON mode: what the whole reading runs over the same
characters) as the referee asks for it. The header is known before any round is judged, so
the keys may come in any order (``rounds`` before ``players``).

Why not ijson: it would read the file in pieces, but the text is kept anyway, and its events
would have to be turned back into JSON text for pydantic; ``raw_decode`` is the very scanner of
``json.loads``, so what the whole reading accepts, this accepts, with no new dependency.

Nothing a user sees may differ from the whole reading, and a malformed log is told here too,
in the whole reading's words and order: a syntax error is json's own (where the first pass does
not decode, json's scanner is run over the text with the rounds already read blanked out), and
the schema's findings are collected a round at a time, in the order pydantic gives them for
the whole document (the header's fields before ``rounds``, each round, then ``winner`` and
unknown keys). Where the two readings might part (a key written twice, which json.dumps would
drop; nesting deep enough to stop a reader; bytes that are not UTF-8, or a str with a lone
surrogate; valid JSON that is not
an object with a ``rounds`` array) the stream gives way (``failed``) and the caller reads the
document whole.
"""

from __future__ import annotations

import json
import re
from array import array
from functools import lru_cache

from pydantic import TypeAdapter

from ...findings import Finding
from ...jsondoc import GiveWay, index_document
from .events import Log, Round, attach_round_pointers

__all__ = ["JsonStream", "index_document"]

_ws = re.compile(
    r"[ \t\n\r]*", re.VERBOSE | re.MULTILINE | re.DOTALL
).match  # json.decoder.WHITESPACE: JSON's whitespace, as json.loads skips it
_SURROGATE = re.compile("[\ud800-\udfff]")


@lru_cache(maxsize=1)
def round_adapter() -> TypeAdapter:
    """The validator of one round (the same core schema as a round inside a Log)."""
    return TypeAdapter(Round)


def _syntax_error(text: str, starts: array, ends: array) -> json.JSONDecodeError | None:
    """The error json.loads gives for a text the first pass left at a place it does not read
    (between the top-level keys, between the rounds): json's own scanner is run over the text
    with every round it had read replaced by `0` and spaces (the same places, no objects)."""
    parts, at = [], 0
    for a, b in zip(starts, ends, strict=False):
        parts += [text[at:a], "0", " " * (b - a - 1)]
        at = b
    parts.append(text[at:])
    try:
        json.loads("".join(parts))
    except json.JSONDecodeError as e:
        return json.JSONDecodeError(e.msg, text, e.pos)  # its line and column counted in the text itself
    except (ValueError, RecursionError):
        return None
    return None  # valid JSON: a repeated key, `rounds` not an array, not an object


_DEEP = 64  # nesting past which a refused part is left to the whole reading (no log nests past 6)


def _nesting(obj) -> int:
    depth, stack = 0, [(obj, 1)]
    while stack:
        cur, d = stack.pop()
        depth = max(depth, d)
        if isinstance(cur, dict):
            stack.extend((v, d + 1) for v in cur.values())
        elif isinstance(cur, list):
            stack.extend((v, d + 1) for v in cur)
    return depth


def _repeats_a_key(src: str) -> bool:
    seen = [False]

    def pairs(kv):
        if len({k for k, _ in kv}) != len(kv):
            seen[0] = True
        return dict(kv)

    json.loads(src, object_pairs_hook=pairs)
    return seen[0]


class JsonStream:
    """A JSON log to be read a round at a time: ``header()`` scans the document and gives the
    header (a Log without rounds; None when there is no log to judge), ``rounds()`` hands on
    each round validated, ``close()`` reads what is left and gives the findings found while
    reading (face-down cards). When the log is malformed, ``refused`` holds the findings the
    whole reading gives; ``failed`` says the stream gave way to the whole reading."""

    def __init__(self, source: str | bytes) -> None:
        self.text: str | None = None
        self.failed = False
        self.refused: list[Finding] | None = None  # malformed: the whole reading's findings
        self.malformed = False  # (a text stream's failure midway: here, `refused` says it)
        self.findings: list[Finding] = []  # the header's findings (jsonform._header_checks)
        self._hidden: list[Finding] = []  # found as each round is read (face-down cards)
        self._starts, self._ends = array("q"), array("q")  # where each round lies in the text
        self._floaty: set[int] = set()  # rounds written with a JSON number like 3.0
        self._floats = False
        self._next = 0
        self._log: Log | None = None
        self._scanned = False
        # the schema's findings, in the whole reading's order: the header's fields before
        # `rounds`, each round's, then `winner`'s and unknown keys'
        self._before: list[Finding] = []
        self._errors: list[Finding] = []
        self._after: list[Finding] = []
        self._header: dict = {}
        if isinstance(source, (bytes, bytearray)):
            from .notation.textstream import utf16_problem

            if utf16_problem(bytes(source[:4])):
                self.failed = True
                return
            try:
                source = bytes(source).decode("utf-8-sig")
            except UnicodeDecodeError:
                self.failed = True
                return
        self.text = source[1:] if source.startswith("\ufeff") else source
        if _SURROGATE.search(self.text):  # a str that is not UTF-8 text: pydantic refuses it whole
            self.failed = True

    # ---- the first pass: syntax, the header, where each round lies ------------------------

    def _float(self, s: str) -> float:
        self._floats = True
        return float(s)

    def header(self) -> Log | None:
        if not self._scanned and not self.failed:
            self._scanned = True
            self._log = self._read_header()
        return None if self.failed or self.refused is not None else self._log

    def _read_header(self) -> Log | None:
        from pydantic import ValidationError

        from .findings import finding
        from .jsonform import log_adapter, schema_findings

        text = self.text
        if text is None:  # pragma: no cover - not text: the stream failed before a header was asked for
            return None
        try:
            spans = index_document(text, self._starts, self._ends, self._floaty)[0]
        except json.JSONDecodeError as e:  # inside a value: where json.loads stops too
            self.refused = [
                finding("notation.schema", f"this is not JSON: {e.msg}", line=e.lineno, column=e.colno, pointer="")
            ]
            return None
        except GiveWay:
            syntax = _syntax_error(text, self._starts, self._ends)
            if syntax is None:
                self.failed = True  # valid JSON, but not plainly a log's object: read whole
            else:
                self.refused = [
                    finding(
                        "notation.schema",
                        f"this is not JSON: {syntax.msg}",
                        line=syntax.lineno,
                        column=syntax.colno,
                        pointer="",
                    )
                ]
            return None
        except RecursionError:
            self.failed = True  # nested past the limit: the whole reading says how deep it went
            return None
        except ValueError as e:
            self.refused = [finding("notation.schema", f"this is not JSON: {e}", line=1, pointer="")]
            return None
        pieces = []
        try:
            for key, (start, end) in spans.items():
                if key != "rounds":
                    self._floats = False
                    value = json.loads(text[start:end], parse_float=self._float)
                    self._header[key] = value
                    pieces.append(json.dumps(key) + ":" + self._as_validated(text[start:end], value, key))
            # the header, strict in JSON mode as the whole reading validates it; rounds come later
            log = log_adapter().validate_json("{" + ",".join(pieces) + "}", strict=True)
        except ValidationError as e:
            errors = e.errors(include_url=False)
            if any(_nesting(v) > _DEEP for v in self._header.values()) or any(
                x.get("type") == "json_invalid" for x in errors
            ):
                self.failed = True  # the whole reading might stop on the nesting, with one finding
                return None
            for f, err in zip(schema_findings(errors, self._header), errors, strict=False):
                loc = err.get("loc") or ("",)
                late = loc[0] == "winner" or err.get("type") in ("extra_forbidden", "unexpected_keyword_argument")
                (self._after if late else self._before).append(f)
            self.close()  # every round's findings too
            return None
        except (GiveWay, RecursionError, ValueError):
            self.failed = True
            return None
        self._check_header(log)
        return log

    def _as_validated(self, raw: str, value, key: str) -> str:
        """The JSON text the whole reading would validate for this header value: its own text,
        or (after a number like 3.0, or a lone surrogate escape) the value as json.dumps writes it."""
        from .jsonform import _has_lone_surrogate, _integral_floats

        if key in ("options", "tags") and isinstance(value, dict) and _repeats_a_key(raw):
            raise GiveWay  # the whole reading sees a repeated key's every value, or only the last
        if self._floats or _has_lone_surrogate(raw):
            return json.dumps(_integral_floats(value))
        return raw

    def _check_header(self, log: Log) -> None:
        from .jsonform import _header_checks

        self.findings = _header_checks(log)
        log._pointer = ""
        if log.winner is not None:
            log.winner._pointer = "/winner"
        if any(f.rule == "notation.players" for f in self.findings):
            # malformed, with these findings, unless a round breaks the schema (then those)
            self.close()
            if self.refused is None and not self.failed:
                self.refused = self.findings

    # ---- the second pass: each round, as the referee asks for it ---------------------------

    def _round(self, ri: int) -> Round | None:
        from pydantic import ValidationError

        from .jsonform import _has_lone_surrogate, _integral_floats, schema_findings
        from .notation.facedown import face_down_round

        assert self.text is not None  # rounds are read only after a header was
        raw = self.text[self._starts[ri] : self._ends[ri]]
        src = json.dumps(_integral_floats(json.loads(raw))) if ri in self._floaty or _has_lone_surrogate(raw) else raw
        try:
            rnd = round_adapter().validate_json(src, strict=True)
        except ValidationError as e:
            errors = e.errors(include_url=False)
            try:
                obj = json.loads(raw)
                # nested deep enough that the whole reading might stop on it, or a key written
                # twice (seen twice in the text, once after json.dumps): read whole
                whole = (
                    _nesting(obj) > _DEEP or _repeats_a_key(raw) or any(x.get("type") == "json_invalid" for x in errors)
                )
            except (RecursionError, ValueError):
                whole = True
            if whole:
                self.failed = True
            else:
                self._errors += schema_findings(errors, _integral_floats(obj), f"/rounds/{ri}")
            return None
        except (RecursionError, ValueError):
            self.failed = True
            return None
        if self._errors:
            return None  # malformed already: no more rounds are judged
        attach_round_pointers(rnd, ri)
        face_down_round(rnd, self._hidden)
        return rnd

    def rounds(self):
        if self.header() is None:
            return
        while self._next < len(self._starts) and not self.failed:
            rnd = self._round(self._next)
            self._next += 1
            if rnd is None:
                return
            yield rnd

    def close(self) -> list[Finding]:
        """Read (and validate) what is left; the findings found while reading the rounds. After
        it, ``refused`` says whether the log is malformed."""
        self.header()
        while not self.failed and self._next < len(self._starts):
            self._round(self._next)
            self._next += 1
        if not self.failed and (self._before or self._errors or self._after):
            self.refused = self._before + self._errors + self._after
        return self._hidden
