"""Reading a text log a round at a time, so that memory follows the game state, not the log."""

from __future__ import annotations

import gc

from ....findings import Finding
from ....model import Parsed
from ..events import Log
from ..findings import finding
from .placement import _Fold
from .reader import _iter_items
from .words import _short


def utf16_problem(data: bytes) -> str | None:
    """A log saved as UTF-16 (Windows editors do): named as such, with what to do."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (  # a BOM, or text with every other byte zero
        len(data) >= 4
        and ((data[1] == data[3] == 0 and data[0] and data[2]) or (data[0] == data[2] == 0 and data[1] and data[3]))
    ):
        return "the log is UTF-16 text, not UTF-8: save it as UTF-8 (in most editors: Save As, encoding UTF-8)"
    return None


def _decode(source: str | bytes) -> tuple[str | None, Finding | None]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        utf16 = utf16_problem(data[:4])
        if utf16:
            return None, finding("notation.encoding", utf16, line=1, column=1, found="UTF-16", expected="UTF-8 text")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            off = e.start
            line = data.count(b"\n", 0, off) + 1
            ls = data.rfind(b"\n", 0, off) + 1
            col = len(data[ls:off].decode("utf-8", errors="replace")) + 1
            return None, finding(
                "notation.encoding",
                f"the log is not UTF-8 text: byte 0x{data[off]:02x} at line {line}, column {col} (byte offset {off}) "
                f"is not valid UTF-8",
                line=line,
                column=col,
                found=f"0x{data[off]:02x}",
                expected="UTF-8 text",
            )
    else:
        text = str(source)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, _not_text(text)


def _not_text(text: str) -> Finding | None:
    """A text whose lines end with a carriage return alone (as classic Mac OS wrote them): read
    as one line, every finding would quote the whole log (READINGS.md R73)."""
    cr = text.find("\r")
    if 0 <= cr < len(text.rstrip("\r")) and "\n" not in text:
        return finding(
            "notation.encoding",
            "the log's lines end with a carriage return alone (CR, as classic Mac OS wrote them): save it "
            "with LF (or CRLF) line ends",
            line=1,
            column=cr + 1,
            found="CR",
            expected="lines ending with LF or CRLF",
        )
    return None


def parse(source: str | bytes) -> Parsed:
    """Read a text log, every round of it. Never raises: every problem is a finding."""
    st = stream(source)
    if st.text is None:
        return Parsed(None, st.close(), True, None)
    # the parse allocates many small objects that all live on: the cyclic garbage
    # collector would only slow it down (by a third, measured)
    gc_was_on = gc.isenabled()
    if gc_was_on:
        gc.disable()
    try:
        log = st.header()
        rounds = list(st.rounds())
        findings = st.close()
        if st.malformed or log is None:
            return Parsed(None, findings, True, st.text)
        log.rounds = rounds
        return Parsed(log, findings, False, st.text)
    finally:
        if gc_was_on:
            gc.enable()


def stream(source: str | bytes, sink=None) -> TextStream:
    """A text log to be read a round at a time (see TextStream); `sink`: a check's Kept."""
    text, bad = _decode(source)
    st = TextStream(text, sink)
    if bad is not None:  # the one finding of a text that cannot be read as lines: nothing more is read
        st.findings.append(bad)
        st.malformed = True
        st._gen = iter(())
    return st


class TextStream:
    """A text log read a round at a time: ``header()`` reads up to the first round and gives
    the log's header (a Log without rounds; None when the log is malformed), ``rounds()``
    hands on each round once the next begins (or the text ends), and ``close()`` reads what
    is left and gives the parser's findings, sorted. Only the round being read is held, so
    a referee that judges each round as it comes needs memory for the game state, not the log.
    Never raises: a failure is a finding (malformed).

    Given a `sink` (a check's :class:`~dosverify.findings.Kept`), the findings go into it as they
    are made, and ``close()`` gives only those of a text that is no log (a few, in their order)."""

    def __init__(self, text: str | None, sink=None) -> None:
        self.text = text
        self.findings: list[Finding] = [] if sink is None else sink.view(0)
        # `?` in a round with a deck: found as each round is handed on
        self._hidden: list[Finding] = [] if sink is None else sink.view(1)
        self.malformed = False
        self.failed = False  # (pipeline.RoundStream: only a JSON stream gives way)
        self.refused: list[Finding] | None = None  # (likewise: a JSON stream's)
        self.log: Log | None = None
        self._sort = True
        self._started = False
        self._gen = self._guarded(self._fold(_iter_items(text))) if text is not None else iter(())

    def _guarded(self, gen):
        try:
            yield from gen
        except Exception as e:  # pragma: no cover - never raise
            self.findings = [finding("notation.line", f"the log could not be read ({type(e).__name__}: {e})", line=1)]
            self._hidden = []
            self.malformed, self._sort, self.log = True, False, None
            yield None

    def header(self) -> Log | None:
        if not self._started:
            self._started = True
            next(self._gen, None)
        return None if self.malformed else self.log

    def rounds(self):
        self.header()
        for rnd in self._gen:
            if self.malformed:  # a failure midway: nothing more is handed on
                return
            yield rnd

    def close(self) -> list[Finding]:
        self.header()
        for _ in self._gen:
            pass
        if not isinstance(self.findings, list):  # in the check's sink
            return []
        findings = self.findings + (self._hidden if isinstance(self._hidden, list) else [])
        if self._sort:
            findings.sort(key=lambda f: (f.line or 0, f.column or 0))
        return findings

    def _fold(self, items):
        """The line items in order, placed in the log's parts (:class:`_Fold`): None once the header is read,
        then each round as the next begins (or the text ends)."""
        items = iter(items)
        first = next(items, None)
        if first is None or first[0] != "dos" or first[3][0] != 1:
            self._not_a_log(first)
            yield None
            return
        fold = _Fold(self, first)
        for kind, line, col, payload in items:
            if kind == "event" and fold.state == "turns" and fold.turn is not None:  # most lines: a turn's events
                fold.turn.events.append(payload)
                continue
            if kind == "round" and fold.state != "end":  # hands on the header, then the round before
                yield from fold.round_line(line, col, payload)
                continue
            fold.line(kind, line, col, payload)
        yield from fold.finish()

    def _not_a_log(self, first) -> None:
        """The first line is not `dos 1`: the log is malformed, with that one finding (and the line's own)."""
        text = self.text or ""
        n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if first is None:
            msg, line, col, found = (
                "the log is empty: a log starts with its game's first line (`dos 1` for DOS; `dosverify --version` "
                "lists the games)",
                1,
                1,
                "end of file",
            )
        elif first[0] == "dos":
            msg, line, col, found = (
                f"this is a log of notation version {first[3][0]}; only version 1 is read",
                first[1],
                first[3][1],
                str(first[3][0]),
            )
        else:
            line, col = first[1], first[2]
            msg, found = (
                "a log starts with `dos 1`",
                _short(text.split("\n", line)[line - 1].strip() if line <= n_lines else ""),
            )
        # the findings so far are the first line's own (a few: read in their order, not sorted)
        self.findings = [finding("notation.version", msg, line=line, column=col, found=found, expected="`dos 1`")] + (
            list(first[3]) if first is not None and first[0] == "bad" else []
        )
        self.malformed, self._sort = True, False
