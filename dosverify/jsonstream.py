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

Nothing a user sees may differ from the whole reading. So where the document departs from a
plain, valid log (a syntax error, a repeated top-level key, a header or a round the schema
refuses, a repeated key inside ``options`` or ``tags``), the stream gives way (``failed``) and the caller reads the log whole,
which says exactly what it says today; findings about a valid log come out the same either way.
"""

from __future__ import annotations

import json
from array import array
from functools import lru_cache
from json.decoder import WHITESPACE, scanstring

from pydantic import TypeAdapter

from .events import Log, Round, attach_round_pointers
from .findings import Finding

__all__ = ["JsonStream", "index_document"]

_ws = WHITESPACE.match  # JSON's whitespace, as json.loads skips it


class GiveWay(Exception):
    """The document is not plainly a valid log: the whole reading must judge it."""


@lru_cache(maxsize=1)
def round_adapter() -> TypeAdapter:
    """The validator of one round (the same core schema as a round inside a Log)."""
    return TypeAdapter(Round)


def index_document(text: str) -> tuple[dict[str, tuple[int, int]], array, array, set[int]]:
    """Where each value of a JSON document's top-level object lies (key -> (start, end)), where
    each element of its `rounds` array lies (starts, ends), and which of those elements hold a
    number written like 3.0. Each element is decoded once by ``json``'s own scanner (so what
    ``json.loads`` refuses, this refuses: ValueError) and dropped. Raises GiveWay for anything
    but an object with distinct keys whose `rounds`, if any, is an array."""
    dec_floats: list[bool] = [False]

    def hook(s: str) -> float:
        dec_floats[0] = True
        return float(s)

    dec = json.JSONDecoder(parse_float=hook)
    spans: dict[str, tuple[int, int]] = {}
    starts, ends, floaty = array("q"), array("q"), set()
    i = _ws(text, 0).end()
    if text[i:i + 1] != "{":
        raise GiveWay
    i = _ws(text, i + 1).end()
    if text[i:i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i:i + 1] != '"':
                raise GiveWay
            key, i = scanstring(text, i + 1)
            i = _ws(text, i).end()
            if text[i:i + 1] != ":" or key in spans:
                raise GiveWay  # a repeated key: which one counts is the whole reading's to say
            i = start = _ws(text, i + 1).end()
            if key == "rounds":
                if text[i:i + 1] != "[":
                    raise GiveWay  # not an array: the schema's finding, from the whole reading
                i = _ws(text, i + 1).end()
                if text[i:i + 1] == "]":
                    i += 1
                else:
                    while True:
                        dec_floats[0] = False
                        _, end = dec.raw_decode(text, i)
                        if dec_floats[0]:
                            floaty.add(len(starts))
                        starts.append(i)
                        ends.append(end)
                        i = _ws(text, end).end()
                        c, i = text[i:i + 1], i + 1
                        if c == "]":
                            break
                        if c != ",":
                            raise GiveWay
                        i = _ws(text, i).end()
            else:
                _, i = dec.raw_decode(text, i)
            spans[key] = (start, i)
            i = _ws(text, i).end()
            c, i = text[i:i + 1], i + 1
            if c == "}":
                break
            if c != ",":
                raise GiveWay
            i = _ws(text, i).end()
    if _ws(text, i).end() != len(text):
        raise GiveWay  # extra data after the object
    return spans, starts, ends, floaty


class JsonStream:
    """A JSON log to be read a round at a time: ``header()`` scans the document and gives the
    header (a Log without rounds; None when the whole reading must judge the log),
    ``rounds()`` hands on each round validated, ``close()`` reads what is left and gives the
    findings found while reading (face-down cards). ``failed`` says the stream gave way."""

    def __init__(self, source: str | bytes) -> None:
        self.text: str | None = None
        self.failed = False
        self.malformed = False  # the header itself is not a log (notation.players): nothing to judge
        self.findings: list[Finding] = []  # the header's findings (jsonform._header_checks)
        self._hidden: list[Finding] = []  # found as each round is read (face-down cards)
        self._starts = self._ends = array("q")  # where each round lies in the text
        self._floaty: set[int] = set()  # rounds written with a JSON number like 3.0
        self._floats = False
        self._next = 0
        self._log: Log | None = None
        self._scanned = False
        if isinstance(source, (bytes, bytearray)):
            from .notation import utf16_problem

            if utf16_problem(bytes(source[:4])):
                self.failed = True
                return
            try:
                source = bytes(source).decode("utf-8-sig")
            except UnicodeDecodeError:
                self.failed = True
                return
        self.text = source[1:] if source.startswith("\ufeff") else source

    # ---- the first pass: syntax, the header, where each round lies ------------------------

    def _float(self, s: str) -> float:
        self._floats = True
        return float(s)

    def header(self) -> Log | None:
        if not self._scanned and not self.failed:
            self._scanned = True
            try:
                self._log = self._scan()
            except (GiveWay, ValueError, RecursionError, MemoryError):
                self._log, self.failed = None, True
            if self._log is not None:
                self._check_header(self._log)
        return None if self.failed else self._log

    def _scan(self) -> Log:
        from .jsonform import log_adapter

        text = self.text
        spans, self._starts, self._ends, self._floaty = index_document(text)
        pieces = []
        for key, (start, end) in spans.items():
            if key != "rounds":
                self._floats = False
                value = json.loads(text[start:end], parse_float=self._float)
                pieces.append(json.dumps(key) + ":" + self._as_validated(text[start:end], value, key))
        # the header, strict in JSON mode as the whole reading validates it; rounds come later
        return log_adapter().validate_json("{" + ",".join(pieces) + "}", strict=True)

    def _as_validated(self, raw: str, value, key: str) -> str:
        """The JSON text the whole reading would validate for this header value: its own text,
        or (after a number like 3.0, or a lone surrogate escape) the value as json.dumps writes it."""
        from .jsonform import _has_lone_surrogate, _integral_floats

        if key in ("options", "tags") and isinstance(value, dict):
            # the whole reading sees a repeated key's every value, or only the last (after json.dumps)
            def pairs(kv):
                if len({k for k, _ in kv}) != len(kv):
                    raise GiveWay
                return dict(kv)

            json.loads(raw, object_pairs_hook=pairs)
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
            # malformed, unless a round breaks the schema (then that is what the whole reading says)
            self.close()
            self.malformed = not self.failed

    # ---- the second pass: each round, as the referee asks for it ---------------------------

    def _round(self, ri: int) -> Round | None:
        from pydantic import ValidationError

        from .jsonform import _has_lone_surrogate, _integral_floats
        from .notation import face_down_round

        src = self.text[self._starts[ri]:self._ends[ri]]
        if ri in self._floaty or _has_lone_surrogate(src):
            src = json.dumps(_integral_floats(json.loads(src)))
        try:
            rnd = round_adapter().validate_json(src, strict=True)
        except (ValidationError, RecursionError, ValueError):
            self.failed = True
            return None
        attach_round_pointers(rnd, ri)
        face_down_round(rnd, self._hidden)
        return rnd

    def rounds(self):
        if self.header() is None or self.malformed:
            return
        while self._next < len(self._starts) and not self.failed:
            rnd = self._round(self._next)
            self._next += 1
            if rnd is None:
                return
            yield rnd

    def close(self) -> list[Finding]:
        """Read (and validate) what is left; the findings found while reading the rounds."""
        self.header()
        while not self.failed and self._next < len(self._starts):
            self._round(self._next)
            self._next += 1
        return self._hidden
