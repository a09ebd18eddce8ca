"""The reading loop: the fast path where it can, Lark in chunks from where it cannot, so that the
findings are those of one pass over the whole text and the work stays linear whatever the errors."""

from __future__ import annotations

from itertools import chain

from lark.exceptions import UnexpectedInput

from ..findings import finding
from .fastpath import _fast_line, fast_path_on
from .larkpath import _parser
from .recovery import _plain_junk, _retry_upper, _start_expected
from .syntax import _syntax_finding


def _lines_of(text: str):
    """The text's lines, as ``text.split("\\n")`` gives them, one at a time (no list of them all)."""
    find = text.find
    start = 0
    while True:
        end = find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def _read_fast(lines, b, lark, out: list, stop: list, i: int = 0, hand_over: bool = False):
    """Read lines with the fast path (Lark's `line_only` for a line it leaves), yielding the
    line items a batch at a time. Stops at the first line that neither reads, or at a first
    line that is not a sentence the fast path knows: `stop` then holds its index and text
    (the caller hands Lark the text from there on, as the whole text would read). `i`: the
    index of the first of `lines` in the text; `hand_over`: stop at any line the fast path
    leaves (after a bad line, the caller's Lark reads it, in one parse whether it is bad or not)."""
    started = False  # a line item was read: the first line is not junk
    for raw in lines:
        b.out = out
        r = _fast_line(b, raw, i + 1)
        if r is None:
            if hand_over or (not started and not out):  # not even the first line: Lark reads (junk costs one pass)
                stop[:] = [i, raw]
                return
            mark = len(out)
            b.off = i
            try:
                lark.parse(raw + "\n", start="line_only")
            except Exception:
                del out[mark:]
                stop[:] = [i, raw]
                return
            finally:
                b.off = 0
        i += 1
        if len(out) >= _BATCH:
            started = True
            yield from out
            out.clear()
    yield from out
    out.clear()


def _iter_items(text: str):
    """The line items of a text, in order, a batch at a time: the referee can judge a round
    while the rest is still unread, so memory follows the game state, not the log.

    The fast path reads what it can; from the first line it cannot, Lark reads a chunk of
    lines at a time, each chunk before the first syntax error in the state the whole text
    would be in there (after a line end), so every finding is what one pass over the whole
    text gives; after an error, reading resumes after the bad line (linear, whatever the
    errors), with the fast path again, Lark taking only the lines it leaves, up to where a
    chunk of Lark alone would end (so that the findings are the same with either parser)."""
    lark, b = _parser()
    lines = _lines_of(text)
    out: list = []
    i = 0
    pending: list[str] = []
    first = None  # the first line item: a text that is not a log of notation 1 is read no further
    if fast_path_on():
        stop: list = []
        fast = _read_fast(lines, b, lark, out, stop)
        first = next(fast, None)
        if first is not None:
            yield first
            yield from fast
        if not stop:
            return
        i, raw = stop
        pending.append(raw)
    errors = 0
    plain = None  # what a line that cannot start a sentence is told, once past the detailed errors
    resume = False  # after a bad line, the fast path reads on (Lark reads the lines it leaves)
    seg = 0  # the line after the last bad one: Lark alone reads chunks of lines from there
    while True:
        if resume and fast_path_on():
            resume, stop = False, []
            # the lines held back, then the text's own: one level of chaining, never a chain of
            # chains (each resumption would add a level that every later line goes down)
            held = iter(pending)
            yield from _read_fast(chain(held, lines), b, lark, out, stop, i, hand_over=True)
            if not stop:
                return
            i, raw = stop
            pending = [raw, *held]
        _top_up(pending, lines)
        if not pending:
            yield from out
            return
        # where the fast path stopped, Lark reads up to where its own next chunk would start, in the
        # state that Lark alone would be in there (a bad line's expected words depend on it)
        into = (i - seg) % _CHUNK if errors else 0
        if errors >= _DETAILED_ERRORS and _CHEAP_JUNK and not into:
            # junk costs a regular expression a line, not a parse: the finding Lark's error gives
            plain = plain or _start_expected(lark, b)
            item = _plain_junk(pending[0], i + 1, plain)
            if item is not None:
                out.append(item)
                errors += 1
                del pending[0]
                i += 1
                seg, resume = i, True
                if len(out) >= _BATCH:
                    yield from out
                    out.clear()
                continue
        used, bad = _parse_chunk(lark, b, pending[: _CHUNK - into], i, errors, into, out)
        if bad:  # a bad line: the fast path reads on after it
            errors, resume = errors + 1, True
            if bad == "syntax" and errors == 1 and not _notation_1(first or out[0]):
                yield from out  # not a log of notation 1 (the fold reads no further than its first line)
                out.clear()
                return
        del pending[:used]
        i += used
        if resume:
            seg = i
        if out:
            if first is None:
                first = out[0]
            yield from out
            out.clear()


def _top_up(pending: list[str], lines) -> None:
    """Take lines of the text into `pending` until it holds a chunk (or the text ends)."""
    while len(pending) < _CHUNK:
        raw = next(lines, None)
        if raw is None:
            return
        pending.append(raw)


def _notation_1(item) -> bool:
    """Whether a text's first line item is the header of a log of notation 1."""
    return item[0] == "dos" and item[3][0] == 1


def _parse_chunk(lark, b, chunk: list[str], i: int, errors: int, into: int, out: list) -> tuple[int, str | None]:
    """Lark reads a chunk of lines (from index `i`; `errors` so far; `into`: lines into a chunk of
    Lark alone), appending its items to `out`, up to and with its first bad line. Returns the
    lines it used, and what the bad one was: None if none; "syntax" for Lark's error (a detailed
    finding for the first errors); "retried" when it reads upper-cased (`_retry_upper`);
    "unforeseen" for any other exception (one finding: the reader never raises)."""
    lead = "\n" if (errors == 0 and i > 0) or into else ""  # the state after a line end
    detailed = errors < _DETAILED_ERRORS
    off = i - 1 if lead else i
    src = lead + "\n".join(chunk) + "\n"
    b.out = out
    b.off = off
    try:
        lark.parse(src, start="start")
        return len(chunk), None
    except UnexpectedInput as e:
        if not isinstance(e.line, int) or e.line < 1:  # pragma: no cover - lark gives positions
            e.line, e.column = 1 + len(lead), 1
        at = e.line - len(lead)  # the bad line, from 1, within the chunk
        line = i + at
        b.off = 0
        if _retry_upper(lark, b, chunk[at - 1] if at <= len(chunk) else "", line, out):
            return at, "retried"
        out.append(("bad", line, e.column, [_syntax_finding(e, src, off, detailed)]))
        return at, "syntax"
    except Exception as e:  # never raise: a defensive net for the unforeseen
        message = f"this line could not be read ({type(e).__name__})"
        out.append(("bad", i + 1, 1, [finding("notation.line", message, line=i + 1)]))
        return 1, "unforeseen"
    finally:
        b.off = 0


_CHEAP_JUNK = True  # tests turn it off to compare


def _read_lines(text: str) -> list:
    """Every line item of the text, in order."""
    return list(_iter_items(text))


_CHUNK = 64
_BATCH = 256  # line items handed on at a time
_DETAILED_ERRORS = 200  # syntax errors a log gets told exactly what was expected; the rest, the state's terminals
