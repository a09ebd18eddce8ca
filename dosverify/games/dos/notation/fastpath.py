"""The fast path: a well-formed line read without Lark's per-token loop, since most lines of a log
are well formed and Lark's loop was most of a check's time (docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import re

from lark import Token

from ..events import Center, Deck, Pass, Refill, Reshuffle, Total, Totals
from .items import (
    _card_item,
    _catch_item,
    _dealer_item,
    _dos_item,
    _draw_item,
    _hand_item,
    _match_item,
    _mk,
    _place_item,
    _score_item,
    _show_item,
    _turn_item,
    _winner_item,
)
from .words import KEYWORDS, VALID_CARDS

# Each line of the notation is a regular language. A line whose words all lex as the grammar's
# terminals (checked against grammars/dos/dos.lark by tests/dos/test_fast_path.py) and whose sequence of
# terminals is one of its keyword's shapes is turned into the tokens Lark would give and handed
# to the same callback; any other line is read by Lark (`line_only`), and if Lark rejects one,
# the whole text is read by Lark alone, which stays the source of every syntax diagnostic.
# DOSVERIFY_PARSER=lark turns the fast path off.

_BLANK_RE = re.compile(r"[ \t]*(?:#[^\n]*)?\r?")
# indentation, the keyword, the words (never starting with `#`: that starts a comment), the end
_LINE_RE = re.compile(r"[ \t]*([a-z]+)((?:[ \t]+[^ \t\r\n#][^ \t\r\n]*)*)(?:[ \t]+#[^\n]*|[ \t]*)\r?")
_WORD_RE = re.compile(r"[^ \t]+")
# the grammar's terminals, one letter each (C CARD, H HIDDEN, N NAME, I INT; `+`, w with, b by)
_CARD_RE = re.compile(r"[RGBYW][0-9#][^ \t\r\n]*")
_NAME_RE = re.compile(r"(?![RGBYW][0-9#])[A-Za-z][A-Za-z0-9_-]*")
_INT_RE = re.compile(r"[0-9]+")
_KW_TYPE = {k: k.upper() for k in KEYWORDS}
_SHAPES = {  # keyword: [(shape of its words, callback name)], as the grammar's rules say
    "dos": [(r"I", "dos_line"), (r"N?", "dos_call")],
    "players": [(r"N*", "players_line")],
    "target": [(r"I", "target_line")],
    "round": [(r"I", "round_line")],
    "dealer": [(r"N", "dealer_line")],
    "deck": [(r"[CH]+", "deck_line")],
    "hand": [(r"N[CH]*", "hand_line")],
    "center": [(r"[CH]*", "center_line")],
    "turn": [(r"N", "turn_line")],
    "match": [(r"[CH]w[CH](?:\+[CH])*", "match_line")],
    "draw": [(r"N?[CH]*", "draw_line")],
    "refill": [(r"[CH]*", "refill_line")],
    "place": [(r"[CH]", "place_line")],
    "pass": [(r"", "pass_line")],
    "catch": [(r"NbN", "catch_line")],
    "reshuffle": [(r"[CH]*", "reshuffle_line")],
    "show": [(r"N[CH]*", "show_line")],
    "score": [(r"NI", "score_line")],
    "totals": [(r"(?:NI)+", "totals_line")],
    "winner": [(r"N", "winner_line")],
}
_FAST_SHAPES = {k: [(re.compile(r), cb) for r, cb in v] for k, v in _SHAPES.items()}
_LETTER_TYPE = {"C": "CARD", "H": "HIDDEN", "N": "NAME", "I": "INT"}


def _word_letter(w: str) -> str | None:
    """The terminal a word lexes as after a keyword; None for a word the fast path leaves to Lark."""
    if w in _SEPARATORS:
        return _SEPARATORS[w]
    if _CARD_RE.fullmatch(w):
        return "C"
    if w[0] == "?":
        return "H"
    if _INT_RE.fullmatch(w):
        return "I"
    if _NAME_RE.fullmatch(w) and w not in KEYWORDS:
        return "N"
    return None


_SEPARATORS = {"+": "+", "with": "w", "by": "b"}


def fast_path_on() -> bool:
    return os.environ.get("DOSVERIFY_PARSER", "").strip().lower() != "lark"


def _token_line(b, raw: str, line: int) -> bool | None:
    """Hand one line to its callback if its words lex as one of its keyword's shapes: True
    when it did, False when the line is blank or a comment, None when Lark must read it."""
    m = _LINE_RE.fullmatch(raw)
    if m is None:
        return False if _BLANK_RE.fullmatch(raw) else None
    kw = m.group(1)
    shapes = _FAST_SHAPES.get(kw)
    if shapes is None:
        return None
    off = m.start(2)
    words = [(w.group(), w.start() + off) for w in _WORD_RE.finditer(m.group(2))]
    letters = []
    for w, _ in words:
        t = _word_letter(w)
        if t is None:
            return None
        letters.append(t)
    shape = "".join(letters)
    for rx, cb in shapes:
        if rx.fullmatch(shape):
            toks = [Token(_KW_TYPE[kw], kw, line=line, column=m.start(1) + 1)]
            for (w, pos), t in zip(words, letters, strict=False):
                if t in _LETTER_TYPE:
                    toks.append(Token(_LETTER_TYPE[t], w, line=line, column=pos + 1))
            getattr(b, cb)(toks)
            return True
    return None


# The first tier: a line every word of which is valid where it stands (a card code, a name that
# is not a keyword and has at most 32 characters, a number) is recognised by one regular
# expression for its keyword and turned into its line item directly, with the item makers the
# callbacks use; any other line goes to the tier above (its tokens and its callback), which
# reports what is wrong with a word, or leaves the line to Lark.
_W = r"[ \t]+"
_C = r"(?:[RGBY](?:10|[13-9]|#(?:=(?:10|[1-9]))?)|W2(?:=[RGBY])?)"  # exactly VALID_CARDS
_N = r"(?![RGBYW][0-9#])[A-Za-z][A-Za-z0-9_-]*"
_I = r"[0-9]+"
_WD = r'[^ \t\r\n#"]+'  # WORD
_V = rf'(?:{_WD}|"(?:[^"\\\r\n]|\\.)*")'  # a value: WORD or STRING (as the grammar writes them)
_END = r"(?:[ \t]+#[^\n]*|[ \t]*)\r?"  # trailing white space and comment (the line end is split off)
_KW_RE = re.compile(r"[ \t]*([a-z][a-z0-9_-]*)")


def _names_ok(names) -> bool:
    for p in names:
        if len(p) > 32 or p in KEYWORDS:
            return False
    return True


def _value_of(v: str):
    """A header value as the callback reads it; None for a STRING json cannot read (the tier above reports it)."""
    if v[0] != '"':
        return v
    try:
        return json.loads(v)
    except ValueError:
        return None


def _direct(line, col, kw, w, c):
    """The line item for keyword `kw` and its words `w` at columns `c` (they have the keyword's
    shape), or None when a name or value needs the callback's check."""
    if kw == "turn":
        p = w[0]
        return _turn_item(line, col, p, c[0]) if len(p) <= 32 and p not in KEYWORDS else None
    if kw == "match":
        return _match_item(line, col, w[0], c[0], w[2::2], c[2::2])
    if kw == "draw":
        if w and w[0] not in VALID_CARDS:
            p = w[0]
            if len(p) > 32 or p in KEYWORDS:
                return None
            return _draw_item(line, col, p, c[0], w[1:], c[1:])
        return _draw_item(line, col, None, None, w, c)
    if kw == "place":
        return _place_item(line, col, w[0], c[0])
    if kw == "refill":
        return _card_item("event", Refill, "refill", line, col, w, c)
    if kw == "dos":
        if not w:
            return _dos_item(line, col, None, None)
        p = w[0]
        if p[0] in "0123456789":
            return ("dos", line, col, (int(p), c[0]))
        return _dos_item(line, col, p, c[0]) if len(p) <= 32 and p not in KEYWORDS else None
    if kw == "deck":
        return _card_item("setup", Deck, "deck", line, col, w, c)
    if kw == "hand":
        p = w[0]
        return _hand_item(line, col, p, c[0], w[1:], c[1:]) if len(p) <= 32 and p not in KEYWORDS else None
    if kw == "pass":
        return ("event", line, col, _mk(Pass, {"type": "pass"}, line, col, {}))
    if kw == "catch":
        return _catch_item(line, col, w[0], c[0], w[2], c[2]) if _names_ok(w[::2]) else None
    if kw == "score":
        return _score_item(line, col, w[0], c[0], w[1], c[1]) if _names_ok(w[:1]) else None
    if kw == "totals":
        names = w[::2]
        if not _names_ok(names):
            return None
        entries = [Total(player=p, points=int(n)) for p, n in zip(names, w[1::2], strict=False)]
        return ("totals", line, col, _mk(Totals, {"entries": entries}, line, col, {"entries": c[::2]}))
    if kw == "center":
        return _card_item("setup", Center, "center", line, col, w, c)
    if kw == "reshuffle":
        return _card_item("event", Reshuffle, "reshuffle", line, col, w, c)
    if kw == "show":
        p = w[0]
        return _show_item(line, col, p, c[0], w[1:], c[1:]) if len(p) <= 32 and p not in KEYWORDS else None
    if kw in ("dealer", "winner"):
        p = w[0]
        if len(p) > 32 or p in KEYWORDS:
            return None
        return (_dealer_item if kw == "dealer" else _winner_item)(line, col, p, c[0])
    if kw in ("round", "target"):
        n = int(w[0])
        return (kw, line, col, (n, c[0])) if n >= 1 else None
    if kw == "players":
        return ("players", line, col, (w, c)) if _names_ok(w) else None
    if kw == "ruleset":
        v = _value_of(w[0])
        return None if v is None else ("ruleset", line, col, (v, c[0]))
    if kw == "option":
        v = _value_of(w[1])
        return None if v is None else ("option", line, col, (w[0], v, c[0], c[1]))
    v = _value_of(w[0])  # a free tag
    return None if v is None else ("tag", line, col, (kw, v, c[0]))


_DIRECT = {
    kw: re.compile(f"({rest}){_END}")
    for kw, rest in {
        "turn": f"{_W}{_N}",
        "match": f"{_W}{_C}{_W}with{_W}{_C}(?:{_W}\\+{_W}{_C})*",
        "draw": f"(?:{_W}{_N})?(?:{_W}{_C})*",
        "place": f"{_W}{_C}",
        "refill": f"(?:{_W}{_C})*",
        "dos": f"(?:{_W}(?:{_N}|{_I}))?",
        "deck": f"(?:{_W}{_C})+",
        "hand": f"{_W}{_N}(?:{_W}{_C})*",
        "pass": "",
        "catch": f"{_W}{_N}{_W}by{_W}{_N}",
        "score": f"{_W}{_N}{_W}{_I}",
        "totals": f"(?:{_W}{_N}{_W}{_I})+",
        "center": f"(?:{_W}{_C})*",
        "reshuffle": f"(?:{_W}{_C})*",
        "show": f"{_W}{_N}(?:{_W}{_C})+",
        "dealer": f"{_W}{_N}",
        "winner": f"{_W}{_N}",
        "round": f"{_W}{_I}",
        "target": f"{_W}{_I}",
        "players": f"(?:{_W}{_N})*",
        "ruleset": f"{_W}{_V}",
        "option": f"{_W}{_WD}{_W}{_V}",
    }.items()
}
_TAG_LINE = re.compile(f"({_W}{_V}){_END}")
_VWORD_RE = re.compile(r'"(?:[^"\\\r\n]|\\.)*"|[^ \t]+')  # a word or a quoted value


def _fast_line(b, raw: str, line: int) -> bool | None:
    """Read one line without Lark if the fast path accepts it: True when it did, False when
    the line is blank or a comment, None when Lark must read it."""
    if not raw:
        return False
    m = _KW_RE.match(raw)
    if m is not None:
        kw = m.group(1)
        rx = _DIRECT.get(kw)
        if rx is None and kw not in KEYWORDS:
            rx = _TAG_LINE
        if rx is not None:
            r = rx.fullmatch(raw, m.end())
            if r is not None:
                s = r.group(1)
                if "\t" in s or "  " in s or '"' in s:
                    off = r.start(1) + 1
                    w, c = [], []
                    for x in _VWORD_RE.finditer(s):
                        w.append(x.group())
                        c.append(x.start() + off)
                else:
                    w = s.split(" ")
                    del w[0]
                    c = []
                    at = r.start(1) + 2
                    for word in w:
                        c.append(at)
                        at += len(word) + 1
                item = _direct(line, m.start(1) + 1, kw, w, c)
                if item is not None:
                    b.out.append(item)
                    return True
    return _token_line(b, raw, line)
