"""The text notation (v1): parse a log into the event model, and write one back.

``parse`` reads text (or bytes) into a :class:`~dosverify.games.dos.events.Log` and a list
of findings. The grammar (``grammars/dos/dos.lark``) defines what one line may say;
this module folds the lines into the log and checks where each line stands.
A line that is not a sentence of the notation, or stands out of place, is
reported and skipped, and reading goes on with the next line. The parser never
judges the game: players, cards and turns are the referee's business.

Speed: a well-formed line is read by a fast path (one regular expression per
line keyword, the same line items as the grammar's callbacks make; see "the fast
path" below); any other line by the LALR parser, which builds the models as it
reduces (no parse tree). After a first syntax error the rest is parsed line by
line, so recovery stays linear in the size of the log.
"""

from __future__ import annotations

import gc
import json
import os
import re
import threading
from collections.abc import Collection, Iterator
from itertools import chain
from pathlib import Path
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ...findings import Finding, finding
from ...model import Parsed
from .events import (
    FACE_DOWN,
    FACE_DOWN_WORD,
    Catch,
    Center,
    Dealer,
    Deck,
    Dos,
    Draw,
    FaceDown,
    Hand,
    Log,
    Match,
    Pass,
    Place,
    Refill,
    Reshuffle,
    Round,
    Score,
    Show,
    Total,
    Totals,
    Turn,
    Winner,
    word,
)

__all__ = ["Parsed", "parse", "write", "KEYWORDS", "VALID_CARDS", "card_problem", "grammar_path", "grammar_text"]

KEYWORDS = frozenset(
    "dos round dealer deck hand center turn match with draw refill place pass catch by "
    "reshuffle show score totals winner players ruleset option target".split()
)

COLOURS = "RGBY"
NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)
#: Every valid card code, declarations included (85 codes).
VALID_CARDS = frozenset(
    [f"{c}{n}" for c in COLOURS for n in NUMBERS]
    + [f"{c}#" for c in COLOURS]
    + [f"{c}#={n}" for c in COLOURS for n in range(1, 11)]
    + ["W2"]
    + [f"W2={c}" for c in COLOURS]
)
CARD_WORD_RE = re.compile(r"[RGBYW][0-9#]")
TAG_RE = re.compile(r"[a-z][a-z0-9_-]*\Z")
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}\Z")
WORD_RE = re.compile(r'[^ \t\r\n#"]+\Z')


# ---- the grammar and the cached parser ----------------------------------------------------


def grammar_path() -> Path:
    """grammars/dos/dos.lark, a resource of DOS's package (dosverify.resources)."""
    from ...resources import game_data

    return game_data("dosverify.games.dos", "grammars", "dos") / "dos.lark"


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


_local = threading.local()


def _parser() -> tuple[Lark, _Builder]:
    """One parser per thread (the builder it calls back holds per-parse state)."""
    p = getattr(_local, "parser", None)
    if p is None:
        builder = _Builder()
        try:
            lark = Lark(
                grammar_text(),
                parser="lalr",
                lexer="contextual",
                start=["start", "line_only"],
                transformer=builder,
                cache=True,
            )
        except Exception:  # an unwritable cache directory: build without it
            lark = Lark(
                grammar_text(), parser="lalr", lexer="contextual", start=["start", "line_only"], transformer=builder
            )
        p = _local.parser = (lark, builder)
    return p


# ---- card words ---------------------------------------------------------------------------


def card_slip(word: str) -> str | None:
    """A card code written with a common slip, and the fix: lower case, stray punctuation, a
    comment glued to the card (None when it is none of these)."""
    for i in range(2, len(word)):
        if word[i] == "#" and word[:i] in VALID_CARDS:
            return f"`{word}` is not a card code: a comment needs a space before # (`{word[:i]} {word[i:]}`)"
    if word.upper() in VALID_CARDS and word not in VALID_CARDS:
        return f"`{word}` is not a card code: card codes are upper case: {word.upper()}"
    core = word.strip(",;:.!?'\"()[]")
    if core != word and core.upper() in VALID_CARDS:
        stray = "".join(sorted(set(word) - set(core), key=word.index))
        return f"`{word}` is not a card code: stray punctuation `{stray}` (write {core.upper()})"
    return None


def card_problem(word: str) -> str | None:
    """Why a card word is not a valid card code (None if it is one)."""
    if word in VALID_CARDS:
        return None
    slip = card_slip(word)
    if slip:
        return slip
    head = word[0]
    if "+" in word or re.search(r"[RGBYW][0-9#].*[RGBYW][0-9#]", word):
        return f"`{word}` is not a card code: words are separated by white space (write `B3 + B7`, `R3 B4`)"
    base, eq, decl = word.partition("=")
    if head == "W":
        if base != "W2":
            return f"there is no {base}: the only W card is the Wild DOS, W2 (declared as W2=R, W2=G, W2=B or W2=Y)"
        return f"`{word}` is not a card code: a Wild DOS is declared as a colour, W2=R, W2=G, W2=B or W2=Y"
    if base[1] == "#":
        if base != f"{head}#":
            return f"`{word}` is not a card code: a Wild # is written {head}#, or {head}#=N to declare it as N"
        return f"`{word}` is not a card code: a Wild # is declared as a number from 1 to 10 ({head}#=7)"
    num = base[1:]
    if num == "2":
        return f"there is no {base}: the Wild DOS W2 is the 2"
    if not num.isdigit():
        return f"`{word}` is not a card code: a numbered card is a colour and a number, like {head}7"
    if eq:
        if base in VALID_CARDS:
            return f"`{word}` is not a card code: only wilds take a declaration, and {base} is a numbered card"
        return f"`{word}` is not a card code"
    return f"there is no {base}: the numbers are 1 and 3 to 10"


# ---- the builder: grammar callbacks -------------------------------------------------------

_VALID_SUPERSET = VALID_CARDS.issuperset
_new = object.__new__
_setattr = object.__setattr__


def _mk(cls, fields: dict, line: int, column: int, cols: dict):
    """``cls(**fields).at(line, column, cols)``, without the call overhead.

    The grammar has already checked every field, and ``fields`` names every field of
    ``cls`` (a dataclass), so the instance is what the constructor would build; a test
    checks that the two agree.
    """
    o = _new(cls)
    fields["_line"] = line
    fields["_column"] = column
    fields["_cols"] = cols
    _setattr(o, "__dict__", fields)
    return o


class _LineError(Exception):
    pass


# ---- line items of valid lines: made alike by the grammar's callbacks and by the fast path ---


def _card_item(kind: str, cls, typ: str, line: int, col: int, cards: list, ccols: list) -> tuple:
    return (kind, line, col, _mk(cls, {"type": typ, "cards": cards}, line, col, {"cards": ccols}))


def _face_down(cards: list[str]) -> list:
    """A line's card words as the event model holds them: `?` is FACE_DOWN, not a card code."""
    return [FACE_DOWN if c == FACE_DOWN_WORD else c for c in cards] if FACE_DOWN_WORD in cards else cards


def _hand_item(line, col, p, pcol, cards, ccols) -> tuple:
    cards = _face_down(cards)
    return (
        "setup",
        line,
        col,
        _mk(Hand, {"type": "hand", "player": p, "cards": cards}, line, col, {"player": pcol, "cards": ccols}),
    )


def _turn_item(line, col, p, pcol) -> tuple:
    return ("turn", line, col, _mk(Turn, {"player": p, "events": []}, line, col, {"player": pcol}))


def _match_item(line, col, target, tcol, cards, ccols) -> tuple:
    return (
        "event",
        line,
        col,
        _mk(Match, {"type": "match", "target": target, "cards": cards}, line, col, {"target": tcol, "cards": ccols}),
    )


def _draw_item(line, col, p, pcol, cards, ccols) -> tuple:
    cards = _face_down(cards)
    cols = {"player": pcol, "cards": ccols} if p is not None else {"cards": ccols}
    return ("event", line, col, _mk(Draw, {"type": "draw", "player": p, "cards": cards}, line, col, cols))


def _place_item(line, col, card, ccol) -> tuple:
    return ("event", line, col, _mk(Place, {"type": "place", "card": card}, line, col, {"card": ccol}))


def _dos_item(line, col, p, pcol) -> tuple:
    if p is None:
        return ("event", line, col, _mk(Dos, {"type": "dos", "player": None}, line, col, {}))
    return ("event", line, col, _mk(Dos, {"type": "dos", "player": p}, line, col, {"player": pcol}))


def _show_item(line, col, p, pcol, cards, ccols) -> tuple:
    return ("show", line, col, _mk(Show, {"player": p, "cards": cards}, line, col, {"player": pcol, "cards": ccols}))


def _dealer_item(line, col, p, pcol) -> tuple:
    return ("setup", line, col, _mk(Dealer, {"type": "dealer", "player": p}, line, col, {"player": pcol}))


def _catch_item(line, col, q, qcol, r, rcol) -> tuple:
    return (
        "event",
        line,
        col,
        _mk(Catch, {"type": "catch", "player": q, "by": r}, line, col, {"player": qcol, "by": rcol}),
    )


def _winner_item(line, col, p, pcol) -> tuple:
    return ("winner", line, col, _mk(Winner, {"player": p}, line, col, {"player": pcol}))


def _score_item(line, col, p, pcol, n, ncol) -> tuple:
    return (
        "score",
        line,
        col,
        _mk(Score, {"player": p, "points": int(n)}, line, col, {"player": pcol, "points": ncol}),
    )


# a flat table, over 300 lines with reason: one grammar callback per line rule of grammars/dos/dos.lark
# (Lark calls them by name) and the checks they share
class _Builder(Transformer):
    """Called back by the LALR parser for every sentence; appends line items to ``out``.

    An item is ``(kind, line, column, payload)``; a line with a problem the grammar
    lets through (an invalid card word, a keyword as a name) becomes ``("bad", line,
    column, [findings])``.
    """

    def __init__(self):
        super().__init__(visit_tokens=False)
        self.out: list = []
        self.off = 0

    # helpers
    def _bad(self, line, tok, rule, message, expected=None, help=None):
        self.out.append(
            (
                "bad",
                line,
                tok.column,
                [
                    finding(
                        rule,
                        message,
                        line=line,
                        column=tok.column,
                        found=_short(str(tok)),
                        expected=expected,
                        help=help,
                    )
                ],
            )
        )

    def _cards_ok(self, line, toks, hidden: str | None = None) -> bool:
        """Whether every word is a card code; `hidden` names the line when `?` may stand in it."""
        if _VALID_SUPERSET([t.value for t in toks]):
            return True
        for t in toks:
            if t.value not in VALID_CARDS:
                if t.type == "HIDDEN":
                    if t.value != "?":
                        self._bad(
                            line,
                            t,
                            "notation.card",
                            f"`{_short(t)}` is not a card: a face-down card is `?` alone, "
                            "without a declaration or a number",
                            expected="`?` or a card code",
                            help="write `?` for a card you did not see, or the card's code",
                        )
                        return False
                    if hidden is None:
                        self._bad(
                            line,
                            t,
                            "notation.card",
                            "`?` (a face-down card) stands only in `hand` and `draw` lines: "
                            "cards in the Center Row, matched, placed, refilled or shown lie face up and are written",
                            expected="a card code",
                            help="write the card's code: it was face up",
                        )
                        return False
                    continue
                self._bad(line, t, "notation.card", card_problem(str(t)), expected="a card code")
                return False
        return True

    def _name_ok(self, line, tok) -> bool:
        if len(tok) > 32:
            self._bad(
                line,
                tok,
                "notation.line",
                f"a player name has at most 32 characters; `{_short(tok)}` has {len(tok)}",
                expected="a player name",
            )
            return False
        if tok in KEYWORDS:
            self._bad(line, tok, "notation.line", f"`{tok}` is a keyword, not a player name", expected="a player name")
            return False
        return True

    def _card_list(self, c, kind: str, cls, typ: str) -> None:
        """A keyword and a list of cards: `deck`, `center`, `refill`, `reshuffle`."""
        line = c[0].line + self.off
        cards = c[1:]
        if self._cards_ok(line, cards):
            self.out.append(
                _card_item(kind, cls, typ, line, c[0].column, [t.value for t in cards], [t.column for t in cards])
            )

    # header
    def dos_line(self, c):
        k, n = c
        self.out.append(("dos", k.line + self.off, k.column, (int(n), n.column)))

    def players_line(self, c):
        line = c[0].line + self.off
        names = c[1:]
        for t in names:
            if len(t) > 32 or t in KEYWORDS:
                why = "is a keyword" if t in KEYWORDS else f"has {len(t)} characters (at most 32)"
                self._bad(
                    line,
                    t,
                    "notation.players",
                    f"`{_short(t)}` {why}: it cannot be a player name",
                    expected="a player name",
                )
                return
        self.out.append(("players", line, c[0].column, ([str(t) for t in names], [t.column for t in names])))

    def ruleset_line(self, c):
        k, v = c
        val = self._value(k.line + self.off, v)
        if val is not None:
            self.out.append(("ruleset", k.line + self.off, k.column, (val, v.column)))

    def option_line(self, c):
        k, key, v = c
        val = self._value(k.line + self.off, v)
        if val is not None:
            self.out.append(("option", k.line + self.off, k.column, (str(key), val, key.column, v.column)))

    def target_line(self, c):
        k, n = c
        line = k.line + self.off
        if int(n) < 1:
            self._bad(
                line, n, "notation.line", "the target is an integer of at least 1", expected="a number of at least 1"
            )
            return
        self.out.append(("target", line, k.column, (int(n), n.column)))

    def tag_line(self, c):
        k, v = c
        val = self._value(k.line + self.off, v)
        if val is not None:
            self.out.append(("tag", k.line + self.off, k.column, (str(k), val, v.column)))

    def _value(self, line, v):
        if v.type == "STRING":
            try:
                val = json.loads(v)
            except ValueError as e:
                self._bad(
                    line,
                    v,
                    "notation.line",
                    f"a quoted value is a JSON string: {e.msg}",
                    expected="a JSON string or one word",
                )
                return None
            return val
        return str(v)

    # round set-up
    def round_line(self, c):
        k, n = c
        line = k.line + self.off
        if int(n) < 1:
            self._bad(line, n, "notation.line", "rounds are numbered from 1", expected="a round number of at least 1")
            return
        self.out.append(("round", line, k.column, (int(n), n.column)))

    def dealer_line(self, c):
        k, p = c
        line = k.line + self.off
        if self._name_ok(line, p):
            self.out.append(_dealer_item(line, k.column, p.value, p.column))

    def deck_line(self, c):
        self._card_list(c, "setup", Deck, "deck")

    def hand_line(self, c):
        k, p = c[0], c[1]
        line = k.line + self.off
        cards = c[2:]
        if self._name_ok(line, p) and self._cards_ok(line, cards, "hand"):
            self.out.append(
                _hand_item(line, k.column, p.value, p.column, [t.value for t in cards], [t.column for t in cards])
            )

    def center_line(self, c):
        self._card_list(c, "setup", Center, "center")

    # turns
    def turn_line(self, c):
        k, p = c
        line = k.line + self.off
        if self._name_ok(line, p):
            self.out.append(_turn_item(line, k.column, p.value, p.column))

    def match_line(self, c):
        k = c[0]
        line = k.line + self.off
        target = c[1]
        cards = c[2:]
        if self._cards_ok(line, c[1:]):
            self.out.append(
                _match_item(
                    line, k.column, target.value, target.column, [t.value for t in cards], [t.column for t in cards]
                )
            )

    def draw_line(self, c):
        k = c[0]
        line = k.line + self.off
        if len(c) > 1 and c[1].type == "NAME":
            p, cards = c[1], c[2:]
            if not self._name_ok(line, p):
                return
            player, pcol = p.value, p.column
        else:
            player, pcol, cards = None, None, c[1:]
        if self._cards_ok(line, cards, "draw"):
            self.out.append(
                _draw_item(line, k.column, player, pcol, [t.value for t in cards], [t.column for t in cards])
            )

    def refill_line(self, c):
        self._card_list(c, "event", Refill, "refill")

    def reshuffle_line(self, c):
        self._card_list(c, "event", Reshuffle, "reshuffle")

    def place_line(self, c):
        k, card = c
        line = k.line + self.off
        if self._cards_ok(line, (card,)):
            self.out.append(_place_item(line, k.column, card.value, card.column))

    def pass_line(self, c):
        k = c[0]
        line = k.line + self.off
        self.out.append(("event", line, k.column, _mk(Pass, {"type": "pass"}, line, k.column, {})))

    def dos_call(self, c):
        k = c[0]
        line = k.line + self.off
        if len(c) > 1:
            p = c[1]
            if not self._name_ok(line, p):
                return
            self.out.append(_dos_item(line, k.column, p.value, p.column))
        else:
            self.out.append(_dos_item(line, k.column, None, None))

    def catch_line(self, c):
        k, q, r = c
        line = k.line + self.off
        if self._name_ok(line, q) and self._name_ok(line, r):
            self.out.append(_catch_item(line, k.column, q.value, q.column, r.value, r.column))

    # end of a round and of the game
    def show_line(self, c):
        k, p = c[0], c[1]
        line = k.line + self.off
        cards = c[2:]
        if not cards:
            self._bad(
                line,
                k,
                "notation.line",
                f"`show {p}` names no card: a `show` line writes every card {p} holds",
                expected="show P C ...",
            )
            return
        if self._name_ok(line, p) and self._cards_ok(line, cards):
            self.out.append(
                _show_item(line, k.column, p.value, p.column, [t.value for t in cards], [t.column for t in cards])
            )

    def score_line(self, c):
        k, p, n = c
        line = k.line + self.off
        if self._name_ok(line, p):
            self.out.append(_score_item(line, k.column, p.value, p.column, n, n.column))

    def totals_line(self, c):
        k = c[0]
        line = k.line + self.off
        names, nums = c[1::2], c[2::2]
        for p in names:
            if not self._name_ok(line, p):
                return
        entries = [Total(player=str(p), points=int(n)) for p, n in zip(names, nums, strict=False)]
        self.out.append(
            (
                "totals",
                line,
                k.column,
                _mk(Totals, {"entries": entries}, line, k.column, {"entries": [p.column for p in names]}),
            )
        )

    def winner_line(self, c):
        k, p = c
        line = k.line + self.off
        if self._name_ok(line, p):
            self.out.append(_winner_item(line, k.column, p.value, p.column))

    def start(self, c):
        return None

    def line_only(self, c):
        return None


# ---- syntax errors ------------------------------------------------------------------------

_TERMINAL_TEXT = {
    "CARD": "a card code",
    "NAME": "a player name",
    "INT": "a number",
    "TAG": "a tag name",
    "WORD": "a value",
    "STRING": "a value",
    "_PLUS": "`+`",
    "_NL": "end of line",
    "$END": "end of line",
}
_LINE_KEYWORDS = ("turn", "match", "draw", "refill", "place", "score")


def _short(s: str, n: int = 40) -> str:
    s = str(s)
    return s if len(s) <= n else s[: n - 1] + "…"


def _readable(names) -> str:
    names = set(names)
    kws = sorted(n.lower().lstrip("_") for n in names if n.lower().lstrip("_") in KEYWORDS)
    parts: list[str] = []
    if len(kws) > 4:
        parts.append("a line keyword (" + ", ".join(f"`{k}`" for k in _LINE_KEYWORDS) + ", ...)")
        kws = []
    seen = set()
    for n in ("CARD", "NAME", "INT", "WORD", "STRING", "_PLUS"):
        if n in names and _TERMINAL_TEXT[n] not in seen:
            seen.add(_TERMINAL_TEXT[n])
            parts.append(_TERMINAL_TEXT[n] if n not in ("WORD", "STRING") else "a value (one word or a quoted string)")
    parts.extend(f"`{k}`" for k in kws)
    if "TAG" in names and not parts:
        parts.append("a tag name")
    if "_NL" in names or "$END" in names:
        parts.append("end of line")
    if not parts:
        return "something else"
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


_WS_RE = re.compile(r"[ \t\r\n]")


def _word_at(text: str, pos: int) -> str:
    m = _WS_RE.search(text, pos, pos + 200)
    end = m.start() if m else min(len(text), pos + 200)
    return text[pos:end]


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


_KEYWORDS_LONGEST_FIRST = sorted(KEYWORDS, key=len, reverse=True)


def _glued_keyword(word: str) -> str | None:
    """The keyword ``word`` starts with but is not (the longest): a keyword glued to the next word."""
    return next((k for k in _KEYWORDS_LONGEST_FIRST if word.startswith(k) and word != k), None)


def _error_site(exc: UnexpectedInput, text: str, detailed: bool) -> tuple[int, Collection[str], str]:
    """Where in ``text`` Lark stopped, the terminals it could have taken there, and the word it
    found there ("" at a line end). Not ``detailed``: the parser state's terminals, without
    replaying each to see which the line could really take (``accepts``: a few ms a line)."""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        try:
            names = (exc.accepts if detailed else None) or exc.expected
        except Exception:  # pragma: no cover - lark internals
            names = exc.expected
        return (tok.start_pos or 0), names, "" if tok.type in ("_NL", "$END") else str(tok)
    # UnexpectedCharacters, the lexer's (the other kind the parser raises)
    pos = exc.pos_in_stream or 0
    return pos, cast(UnexpectedCharacters, exc).allowed or set(), _word_at(text, pos)


def _not_a_keyword(first: str, word: str, names: Collection[str], line: int, column: int) -> Finding | None:
    """An error past a line's first word that is no keyword but could be a tag: the first word
    is what is wrong (a keyword glued to the next word, or a free tag out of place)."""
    if first in KEYWORDS or TAG_RE.match(first) is None:
        return None
    glued = _glued_keyword(first)
    if glued:
        return finding(
            "notation.line",
            f"`{_short(first)}` is not a keyword: words are separated by white space "
            f"(`{glued} {first[len(glued) :]}`?)",
            line=line,
            column=column,
            found=_short(first),
            expected="a line keyword",
            help="separate the words of a line with spaces",
        )
    if word or "WORD" not in names:
        return None
    return finding(
        "notation.line",
        f"`{_short(first)}` is not a keyword of the notation (as a free tag, it "
        f"would need one value and stand in the header)",
        line=line,
        column=column,
        found=_short(first),
        expected="a line keyword",
    )


def _card_word_finding(
    word: str, first: str, names: Collection[str], expected: str, line: int, column: int
) -> Finding | None:
    """A found word that is a card word, or a slip of one, where it cannot stand: what is wrong
    with the card, or that a card cannot stand there (a player name above all)."""
    found = _short(word)
    if CARD_WORD_RE.match(word):
        problem = card_problem(word)
        if problem:
            return finding("notation.card", problem, line=line, column=column, found=found, expected=expected)
        if "CARD" not in names:
            if first == "players":
                message = f"`{word}` is a card word: it cannot be a player name"
                return finding("notation.players", message, line=line, column=column, found=found, expected=expected)
            help = "a card word is never a player name" if "NAME" in names else None
            message = f"expected {expected}, found the card `{word}`"
            return finding(
                "notation.line", message, line=line, column=column, found=found, expected=expected, help=help
            )
    slip = card_slip(word) if "CARD" in names else None
    if slip:
        return finding("notation.line", slip, line=line, column=column, found=found, expected=expected)
    return None


def _wrong_word(
    word: str, names: Collection[str], expected: str, at_start: bool, exc: UnexpectedInput
) -> tuple[str, str | None]:
    """The message and help for a found word the line cannot take: at a line's start, a keyword
    in capitals, glued to the next word, or no keyword at all; further on, words not spaced."""
    found = _short(word)
    if at_start:
        low = word.lower()
        if low in KEYWORDS and word != low:
            return f"`{found}` is not a keyword: keywords are lower case (`{low}`)", f"keywords are lower case: `{low}`"
        glued = _glued_keyword(low)
        if glued:
            message = (
                f"`{found}` is not a keyword: words are separated by white space (`{glued} {word[len(glued) :]}`?)"
            )
            return message, "separate the words of a line with spaces"
        if "TAG" in names or tok_type(exc) == "NAME":
            help = (
                "a line starts with a keyword (`turn`, `match`, `draw`, ...) or, in the header, a lower-case tag name"
            )
            return f"`{found}` is not a keyword of the notation", help
    elif "=" in word or "+" in word:
        return f"expected {expected}, found `{found}`", "separate the words of a line with spaces"
    return f"expected {expected}, found `{found}`", None


def _syntax_finding(exc: UnexpectedInput, text: str, off: int, detailed: bool = True) -> Finding:
    """A finding for a Lark error in ``text`` (whose first line is line ``off + 1``), worded for
    the slip it most likely is. Not ``detailed``: see `_error_site`."""
    line, column = exc.line + off, exc.column
    pos, names, word = _error_site(exc, text, detailed)
    expected = _readable(names)
    ls = _line_start(text, pos)
    before = text[ls:pos]
    indent = len(before) - len(before.lstrip(" \t"))
    at_start = before.strip(" \t") == ""
    first = _word_at(text, ls + indent)  # the line's first word
    if not at_start:
        wrong_first = _not_a_keyword(first, word, names, line, indent + 1)
        if wrong_first:
            return wrong_first
    if not word:
        found, message, help = "end of line", f"the line ends too early: expected {expected}", None
    else:
        card = _card_word_finding(word, first, names, expected, line, column)
        if card:
            return card
        found = _short(word)
        message, help = _wrong_word(word, names, expected, at_start, exc)
    rule = "notation.players" if first == "players" else "notation.line"  # no valid players line: malformed
    return finding(rule, message, line=line, column=column, found=found, expected=expected, help=help)


def tok_type(exc) -> str | None:
    tok = getattr(exc, "token", None)
    return getattr(tok, "type", None)


# ---- parse --------------------------------------------------------------------------------


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


# ---- the fast path: well-formed lines without Lark's per-token loop --------------------------
#
# Each line of the notation is a regular language. A line whose words all lex as the grammar's
# terminals (checked against grammars/dos/dos.lark by tests/test_fast_path.py) and whose sequence of
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
_JUNK_START_RE = re.compile(r"([ \t]*)([^ \t\r\n#\"][^ \t\r\n]*)")
_TAG_WORD_RE = re.compile(r"[a-z][a-z0-9_-]*")


def _start_expected(lark, b) -> tuple:
    """What the parser expects at the start of a chunk (its state's terminals, as an error
    past the detailed ones names them): a bad line's own parse finds the same."""
    out, off = b.out, b.off
    b.out, b.off = [], 0
    try:
        lark.parse("%\n", start="start")
    except UnexpectedInput as e:
        names = e.expected if isinstance(e, UnexpectedToken) else cast(UnexpectedCharacters, e).allowed
        return (names, _readable(names))
    finally:
        b.out, b.off = out, off
    raise AssertionError("`%` is a sentence")  # pragma: no cover


def _plain_junk(raw: str, line: int, plain: tuple):
    """The "bad" item of a line that cannot start a sentence (its first word is not one a
    keyword or a tag could be), as `_syntax_finding` words it for an error past the detailed
    ones at the start of a line; None for any other line (Lark reads it). Lark's token there,
    or the word it reports, is the whole first word: every terminal runs to white space, the
    word of an unlexable one is cut at 200 characters (left to Lark), and a quote starts a
    string (left to Lark)."""
    m = _JUNK_START_RE.match(raw)
    if m is None:
        return None
    word = m.group(2)
    if len(word) > 200 or _TAG_WORD_RE.fullmatch(word):
        return None
    column = len(m.group(1)) + 1
    names, expected = plain
    found = _short(word)
    if CARD_WORD_RE.match(word):
        problem = card_problem(word)
        if problem:
            return (
                "bad",
                line,
                column,
                [finding("notation.card", problem, line=line, column=column, found=found, expected=expected)],
            )
        if "CARD" not in names:
            return (
                "bad",
                line,
                column,
                [
                    finding(
                        "notation.line",
                        f"expected {expected}, found the card `{word}`",
                        line=line,
                        column=column,
                        found=found,
                        expected=expected,
                        help="a card word is never a player name" if "NAME" in names else None,
                    )
                ],
            )
        return None  # pragma: no cover - no card starts a line
    low = word.lower()
    help = None
    message = f"expected {expected}, found `{found}`"
    if low in KEYWORDS and word != low:
        help = f"keywords are lower case: `{low}`"
        message = f"`{found}` is not a keyword: keywords are lower case (`{low}`)"
    else:
        glued = next((k for k in sorted(KEYWORDS, key=len, reverse=True) if low.startswith(k) and low != k), None)
        if glued:
            message = (
                f"`{found}` is not a keyword: words are separated by white space (`{glued} {word[len(glued) :]}`?)"
            )
            help = "separate the words of a line with spaces"
        elif "TAG" in names:
            message = f"`{found}` is not a keyword of the notation"
            help = (
                "a line starts with a keyword (`turn`, `match`, `draw`, ...) or, in the header, a lower-case tag name"
            )
        else:
            return None  # pragma: no cover - a tag may start a line
    return (
        "bad",
        line,
        column,
        [finding("notation.line", message, line=line, column=column, found=found, expected=expected, help=help)],
    )


def _read_lines(text: str) -> list:
    """Every line item of the text, in order."""
    return list(_iter_items(text))


_CHUNK = 64
_BATCH = 256  # line items handed on at a time
_DETAILED_ERRORS = 200  # syntax errors a log gets told exactly what was expected; the rest, the state's terminals

_LOWER_CARD_RE = re.compile(r"(?<![^ \t])([rgbyw](?:[0-9][0-9]?|#)(?:=(?:[0-9][0-9]?|[rgbyRGBY]))?)(?![^ \t])")


_GLUE_KEYWORDS = sorted(("turn", "match", "draw", "refill", "place", "catch", "show"), key=len, reverse=True)


def _retry_line(lark, b, fixed: str, line: int, out: list, note) -> bool:
    """Read `fixed` in place of a line that failed; on success the line counts, with `note`
    (a finding) reported once at it instead of the syntax error."""
    mark = len(out)
    b.off = line - 1
    try:
        lark.parse(fixed + "\n", start="line_only")
    except Exception:
        del out[mark:]
        return False
    finally:
        b.off = 0
    if len(out) != mark + 1:
        del out[mark:]
        return False
    out.insert(mark, ("note", line, note.column, [note]))
    return True


def _code_part(raw: str) -> str:
    """A line without its line end (a CRLF log: not part of the last word) and its comment."""
    raw = raw.rstrip("\r")
    return re.split(r"[ \t]#", raw, maxsplit=1)[0] if not raw.lstrip().startswith("#") else ""


def _retry_glued(lark, b, raw: str, line: int, out: list) -> bool:
    """A line whose keyword is glued to the next word (`matchY5 with Y5`, `drawY5`): read it with
    the space put back, reporting the glue once (notation.line), as R23 does for lower case."""
    body = _code_part(raw)
    stripped = body.lstrip(" \t")
    indent = len(body) - len(stripped)
    first = stripped.split(None, 1)[0] if stripped else ""
    k = next((k for k in _GLUE_KEYWORDS if first.startswith(k) and len(first) > len(k)), None)
    if k is None or first in KEYWORDS:
        return False
    rest = first[len(k) :]
    fixed = body[:indent] + k + " " + rest + stripped[len(first) :]
    return _retry_line(
        lark,
        b,
        fixed,
        line,
        out,
        finding(
            "notation.line",
            f"`{_short(first)}` is not a keyword: words are separated by white space (`{k} {rest}`?)",
            line=line,
            column=indent + 1,
            found=_short(first),
            expected="a line keyword",
            help="separate the words of a line with spaces",
        ),
    )


def _retry_upper(lark, b, raw: str, line: int, out: list) -> bool:
    """A line that failed only because its card codes are in lower case (`b10`): read it with
    the codes upper-cased, and report the case once, at the first such word (notation.card),
    so that the line still counts and its consequences are not reported again. Else a keyword
    glued to the next word (_retry_glued)."""
    if _retry_glued(lark, b, raw, line, out):
        return True
    body = _code_part(raw)
    words = list(_LOWER_CARD_RE.finditer(body))
    if not words:
        return False
    fixed = _LOWER_CARD_RE.sub(lambda m: m.group(1).upper(), body)
    w = words[0]
    shown = ", ".join(f"`{m.group(1)}`" for m in words)
    return _retry_line(
        lark,
        b,
        fixed,
        line,
        out,
        finding(
            "notation.card",
            f"card codes are upper case: {w.group(1).upper()}"
            + (f" (this line writes {shown})" if len(words) > 1 else ""),
            line=line,
            column=w.start() + 1,
            found=w.group(1),
            expected=w.group(1).upper(),
            help="write colours and the Wild DOS in capitals: R, G, B, Y, W",
        ),
    )


def _last_line(out) -> int:
    return out[-1][1] if out else 0


_SETUP_KW = {Dealer: "dealer", Deck: "deck", Hand: "hand", Center: "center"}


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
            if kind == "event" and fold.state == "turns":  # most lines: a turn's events
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


class _HeaderFold:
    """The part of :class:`_Fold` that reads the header (`dos`, `players`, `ruleset`, `target`,
    `option` and free tags, each once, before the first round) and the state the two share."""

    def __init__(self, stream: TextStream, first) -> None:
        self.stream = stream
        self.text = text = stream.text or ""
        self.findings = stream.findings
        self.first = first
        self.end_line = text.count("\n") + (0 if text.endswith("\n") or not text else 1) + 1
        self.header_at: dict = {"dos": (first[1], first[2])}
        self.players: list[str] | None = None
        self.ruleset: str | None = None
        self.target: int | None = None
        self.players_bad = False
        self.options: dict = {}
        self.tags: dict = {}
        self.rnd: Round | None = None
        self.state = "header"  # header | setup | turns | show | score | totals | end

    def place(self, line: int, col: int, msg: str, found: str | None = None) -> None:
        self.findings.append(
            finding(
                "notation.placement",
                msg,
                line=line,
                column=col,
                found=found,
                round=self.rnd.number if self.rnd is not None else None,
            )
        )

    def read_header(self) -> None:
        """The header is read (a first `round`, or the end): the log's header, or malformed."""
        stream = self.stream
        if self.players is None:
            stream.malformed = True
            return
        log = stream.log = Log(
            dos=1,
            players=self.players,
            ruleset=self.ruleset,
            options=self.options,
            target=self.target,
            tags=self.tags,
            rounds=[],
            winner=None,
        )
        log.at(self.first[1], self.first[2])
        log._header_at = self.header_at
        log._end_line = self.end_line

    def header_line(self, kind: str, line: int, col: int, payload) -> None:
        """`dos`, `players`, `ruleset`, `target`, `option` or a free tag: once each, before the first round."""
        word = kind if kind != "tag" else payload[0]
        if self.state != "header":
            if kind == "tag":
                msg = (
                    f"`{payload[0]}` is not a keyword of the notation; as a free tag it belongs in the "
                    "header, before the first `round`"
                )
            else:
                msg = f"a header line (`{word}`) after the first `round`: header lines come before it"
            self.place(line, col, msg, found=word)
            return
        key = f"{kind}:{payload[0]}" if kind in ("option", "tag") else kind
        if key in self.header_at:
            what = {"option": f"option `{payload[0]}`", "tag": f"tag `{payload[0]}`"}.get(kind, f"`{kind}` line")
            pl, _pc = self.header_at[key]
            self.findings.append(
                finding(
                    "notation.repeated",
                    f"a second {what} (the first is at line {pl})",
                    line=line,
                    column=col,
                    found=word,
                )
            )
            return
        self.header_at[key] = (line, col)
        if kind == "players":
            self.players_line(line, col, payload)
        elif kind == "ruleset":
            self.ruleset = payload[0]
        elif kind == "target":
            self.target = payload[0]
        elif kind == "option":
            self.options[payload[0]] = payload[1]
        elif kind == "tag":
            self.tags[payload[0]] = payload[1]
        # "dos" again is caught as repeated above

    def players_line(self, line: int, col: int, payload) -> None:
        names, cols = payload
        problem = None
        if not 2 <= len(names) <= 4:
            problem = f"a game has 2 to 4 players; this line names {len(names)}"
        else:
            seen: dict = {}
            for nm, _nc in zip(names, cols, strict=False):
                if nm.lower() in seen:
                    problem = f"`{nm}` and `{seen[nm.lower()]}` are the same name, ignoring case"
                    break
                seen[nm.lower()] = nm
        if problem:
            self.players_bad = True
            self.findings.append(
                finding("notation.players", problem, line=line, column=col, expected="2 to 4 distinct player names")
            )
        else:
            self.players = names


class _Fold(_HeaderFold):
    """Where each line of a log may stand (`notation.placement`, `notation.repeated`): a state
    machine over the line items after `dos 1`, in the part of the log being read (`state`:
    header, setup, turns, show, score, totals, end), with one method per kind of line saying
    what it does in each part. `round_line` and `finish` yield what the stream hands on."""

    def __init__(self, stream: TextStream, first) -> None:
        super().__init__(stream, first)
        self.cursor = [1, 0]  # a line number and where it starts: items come in line order, so finding a line is linear
        self.winner = None
        self.turn: Turn | None = None
        self.first_round_line: int | None = None
        self.header_read = False

    @property
    def round_now(self) -> Round:
        """The round being read: every part of the log but the header has one."""
        assert self.rnd is not None
        return self.rnd

    @property
    def turn_now(self) -> Turn:
        """The turn being read, in the `turns` part."""
        assert self.turn is not None
        return self.turn

    def line(self, kind: str, line: int, col: int, payload) -> None:
        """A line item other than a `round` (and a turn's event in a turn, which the loop appends)."""
        if kind == "note":  # a finding about a line that was read all the same
            self.findings.extend(payload)
        elif kind == "bad":
            self.bad_line(line, payload)
        elif self.state == "end":
            what = payload.type if kind in ("event", "setup") else payload[0] if kind == "tag" else kind
            self.place(line, col, "nothing may follow the `winner` line", found=what)
        else:
            _LINE_KINDS.get(kind, _HeaderFold.header_line)(self, kind, line, col, payload)

    def finish(self) -> Iterator[Round | None]:
        """The text has ended: the header if no round came, the last round; then what the header lacked,
        and the winner (set once every round was judged)."""
        if not self.header_read:
            self.read_header()
            yield None
        if self.rnd is not None:
            _no_hidden_with_deck(self.rnd, self.stream._hidden)
            yield self.rnd
        if self.players is None and not self.players_bad:
            self.findings.append(
                finding(
                    "notation.players",
                    "the header has no valid `players` line (2 to 4 names)",
                    line=self.first_round_line or self.end_line,
                    column=1,
                    expected="`players P Q ...`",
                )
            )
        if self.stream.log is not None:
            self.stream.log.winner = self.winner

    def line_text(self, n: int) -> str:
        text = self.text
        ln, at = self.cursor if n >= self.cursor[0] else (1, 0)
        while ln < n:
            j = text.find("\n", at)
            if j < 0:
                return ""
            ln, at = ln + 1, j + 1
        self.cursor[:] = [ln, at]
        j = text.find("\n", at)
        return text[at:] if j < 0 else text[at:j]

    def bad_line(self, line: int, payload: list) -> None:
        """A line that could not be read: its findings; a turn it stood in is damaged."""
        self.findings.extend(payload)
        if payload[0].rule == "notation.players":
            self.players_bad = True
        turn = self.turn
        if self.state == "turns" and turn is not None:
            turn._damaged = True  # the referee does not judge what the skipped line may have done
            if payload[0].rule == "notation.card":
                words = re.split(r"[ \t]#", self.line_text(line), maxsplit=1)[0].split()
                if words and words[0] in ("place", "refill"):
                    # R54: what the line did is plain but for which card: the referee takes it as made
                    turn._skips = (*turn._skips, (len(turn.events), words[0], len(words) - 1, ()))
                elif len(words) >= 4 and words[0] == "match" and words[2] == "with":
                    # R93: a match of the player's cards, some of them unknown: taken as made
                    cards = tuple(w for w in words[3:] if w != "+")
                    turn._skips = (*turn._skips, (len(turn.events), "match", len(cards), (words[1], *cards)))

    def event_line(self, kind: str, line: int, col: int, payload) -> None:
        """A turn's event outside a turn (in a turn it is appended before any method is asked)."""
        state = self.state
        if state == "show":
            self.place(
                line,
                col,
                f"a `{payload.type}` line after a `show` line of round {self.round_now.number}: a turn's lines come "
                "before the `show` lines",
                found=payload.type,
            )
        elif state == "turns":
            self.turn_now.events.append(payload)
        elif state == "header":
            self.place(
                line,
                col,
                f"a `{payload.type}` line before the first `round`: turn events come after a `turn` line",
                found=payload.type,
            )
        elif state == "setup":
            self.place(
                line,
                col,
                f"a `{payload.type}` line before the first `turn` of round {self.round_now.number}",
                found=payload.type,
            )
        else:
            self.place(
                line,
                col,
                f"a `{payload.type}` line after the `{state}` line of round {self.round_now.number}: "
                f"a round's turns come before its `score`",
                found=payload.type,
            )

    def show_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("turns", "show"):
            prior = next((sh for sh in self.round_now.shows if sh.player == payload.player), None)
            if prior is not None:
                self.findings.append(
                    finding(
                        "notation.repeated",
                        f"a second `show` line for {payload.player} in round "
                        f"{self.round_now.number} (the first is at line {prior._line})",
                        line=line,
                        column=col,
                        found="show",
                        round=self.round_now.number,
                    )
                )
                return
            self.round_now.shows.append(payload)
            self.state = "show"
        elif state == "header":
            self.place(line, col, "a `show` line before the first `round`", found="show")
        elif state == "setup":
            self.place(
                line,
                col,
                f"a `show` line before the first `turn` of round {self.round_now.number}: `show` stands between the "
                "turn that ended the round and its `score`",
                found="show",
            )
        else:
            self.place(
                line,
                col,
                f"a `show` line after the `{state}` line of round {self.round_now.number}: `show` stands between "
                "the turn that ended the round and its `score`",
                found="show",
            )

    def turn_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state == "show":
            self.place(
                line,
                col,
                f"a `turn` after a `show` line of round {self.round_now.number}: `show` lines come after the turn "
                "that ended the round",
                found="turn",
            )
        elif state in ("setup", "turns"):
            self.turn = payload
            self.round_now.turns.append(payload)
            self.state = "turns"
        elif state == "header":
            self.place(line, col, "a `turn` before the first `round`", found="turn")
        else:
            self.place(
                line,
                col,
                f"a `turn` after the `{state}` line of round {self.round_now.number}: "
                "the round has ended (start the next one with `round`)",
                found="turn",
            )

    def setup_line(self, kind: str, line: int, col: int, payload) -> None:
        kw = payload.type
        if self.state == "setup":
            self.round_now.setup.append(payload)
        elif self.state == "header":
            self.place(line, col, f"a `{kw}` line before the first `round`", found=kw)
        else:
            self.place(
                line,
                col,
                f"a `{kw}` line after the first `turn` of round {self.round_now.number}: "
                "set-up lines come before the round's first turn",
                found=kw,
            )

    def round_line(self, line: int, col: int, payload) -> Iterator[Round | None]:
        """A new round: the header once read (None), then the round before it, are handed on."""
        if self.state == "header":
            self.first_round_line = line
        num, ncol = payload
        done = self.rnd
        self.rnd = _mk(
            Round,
            {"number": num, "setup": [], "turns": [], "shows": [], "score": None, "totals": None},
            line,
            col,
            {"number": ncol},
        )
        self.turn = None
        self.state = "setup"
        if not self.header_read:
            self.header_read = True
            self.read_header()
            yield None
        if done is not None:
            _no_hidden_with_deck(done, self.stream._hidden)
            yield done

    def score_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("setup", "turns", "show"):
            self.round_now.score = payload
            self.state = "score"
        elif state == "header":
            self.place(line, col, "a `score` line before the first `round`", found="score")
        else:
            self.place(
                line,
                col,
                f"a second `score` line in round {self.round_now.number}"
                if state == "score"
                else f"a `score` line after the `totals` of round {self.round_now.number}",
                found="score",
            )

    def totals_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("setup", "turns", "show", "score"):
            self.round_now.totals = payload
            self.state = "totals"
        elif state == "header":
            self.place(line, col, "a `totals` line before the first `round`", found="totals")
        else:
            self.place(line, col, f"a second `totals` line in round {self.round_now.number}", found="totals")

    def winner_line(self, kind: str, line: int, col: int, payload) -> None:
        self.winner = payload
        self.state = "end"


#: What each kind of line item does (:class:`_Fold`); the header lines' kinds go to `header_line`.
_LINE_KINDS = {
    "event": _Fold.event_line,
    "show": _Fold.show_line,
    "turn": _Fold.turn_line,
    "setup": _Fold.setup_line,
    "score": _Fold.score_line,
    "totals": _Fold.totals_line,
    "winner": _Fold.winner_line,
}


def face_down_checks(log: Log) -> list[Finding]:
    """For the JSON form, whose schema lets `"?"` stand wherever a card does: what the text
    form's parser reports (a `?` outside `hand` and `draw`, a repeated `show`), each at its
    pointer; such an event is left out, as the text form skips such a line."""
    out: list[Finding] = []
    for rnd in log.rounds:
        face_down_round(rnd, out)
    return out


def face_down_round(rnd: Round, out: list) -> None:
    """face_down_checks for one round (a round is judged on its own, so the JSON form can be
    read a round at a time): its findings are appended to `out`."""

    def bad(ev, cards) -> bool:
        if FACE_DOWN_WORD not in cards:
            return False
        if isinstance(ev, Place):
            ptr = f"{ev._pointer}/card"
        elif isinstance(ev, Match) and ev.target == FACE_DOWN_WORD:
            ptr = f"{ev._pointer}/target"
        else:
            ptr = f"{ev._pointer}/cards/{ev.cards.index(FACE_DOWN_WORD)}"
        out.append(
            finding(
                "notation.card",
                "`?` (a face-down card) stands only in `hand` and `draw` lines: cards in "
                "the Center Row, matched, placed, refilled or shown lie face up and are written",
                pointer=ptr,
                found="?",
                expected="a card code",
                help="write the card's code: it was face up",
            )
        )
        return True

    rnd.setup[:] = [ev for ev in rnd.setup if not (isinstance(ev, (Deck, Center)) and bad(ev, ev.cards))]
    for turn in rnd.turns:
        keep = [
            ev
            for ev in turn.events
            if not (
                isinstance(ev, (Match, Refill, Reshuffle, Place))
                and bad(
                    ev,
                    [ev.card]
                    if isinstance(ev, Place)
                    else ([ev.target] + ev.cards)
                    if isinstance(ev, Match)
                    else ev.cards,
                )
            )
        ]
        if len(keep) != len(turn.events):
            turn.events[:] = keep
            turn._damaged = True
    seen: dict = {}
    shows = []
    for sh in rnd.shows:
        if bad(sh, sh.cards):
            continue
        if sh.player in seen:
            out.append(
                finding(
                    "notation.repeated",
                    f"a second `show` for {sh.player} in round {rnd.number}",
                    pointer=sh._pointer,
                    found="show",
                    round=rnd.number,
                )
            )
            continue
        seen[sh.player] = sh
        shows.append(sh)
    rnd.shows[:] = shows
    _no_hidden_with_deck(rnd, out)


def _no_hidden_with_deck(rnd: Round, findings: list) -> None:
    """A round with a `deck` line has no `?`: its deal and draws are known. Such a line is
    reported at its first `?` and skipped, like any line that is not a sentence."""
    if not any(isinstance(ev, Deck) for ev in rnd.setup):
        return

    def bad(ev: Hand | Draw) -> bool:
        i = next((i for i, c in enumerate(ev.cards) if isinstance(c, FaceDown)), None)
        if i is None:
            return False
        cols = ev._cols.get("cards") if ev._cols else None
        col = cols[i] if isinstance(cols, list) and i < len(cols) else ev._column
        ptr = f"{ev._pointer}/cards/{i}" if ev._pointer is not None else None
        findings.append(
            finding(
                "notation.card",
                "`?` in a round with a `deck` line: the deck makes every dealt and "
                "drawn card known, so none is face down",
                line=ev._line,
                column=col,
                pointer=ptr,
                found="?",
                expected="a card code (or a bare `draw`)",
                round=rnd.number,
            )
        )
        return True

    rnd.setup[:] = [ev for ev in rnd.setup if not (isinstance(ev, Hand) and bad(ev))]
    for turn in rnd.turns:
        keep = [ev for ev in turn.events if not (isinstance(ev, Draw) and bad(ev))]
        if len(keep) != len(turn.events):
            turn.events[:] = keep
            turn._damaged = True


# ---- write --------------------------------------------------------------------------------

_NEEDS_QUOTE = re.compile(r'[ \t\r\n#"]')


def _value(v: str) -> str:
    if not v or _NEEDS_QUOTE.search(v):
        return json.dumps(v, ensure_ascii=False)
    return v


def _event_line(ev) -> str:
    t = ev.type
    if t == "match":
        return f"match {ev.target} with " + " + ".join(ev.cards)
    if t == "draw":
        return " ".join(["draw"] + ([ev.player] if ev.player else []) + [word(c) for c in ev.cards])
    if t in ("refill", "reshuffle", "deck", "center"):
        return " ".join([t] + list(ev.cards))
    if t == "place":
        return f"place {ev.card}"
    if t == "pass":
        return "pass"
    if t == "dos":
        return f"dos {ev.player}" if ev.player else "dos"
    if t == "catch":
        return f"catch {ev.player} by {ev.by}"
    if t == "dealer":
        return f"dealer {ev.player}"
    if t == "hand":
        return " ".join(["hand", ev.player] + [word(c) for c in ev.cards])
    raise ValueError(f"unknown event type {t!r}")


def write(log: Log) -> str:
    """The log as canonical text: one line per event, turn events indented two spaces."""
    out = ["dos 1", "players " + " ".join(log.players)]
    if log.ruleset is not None:
        out.append(f"ruleset {_value(log.ruleset)}")
    for k, v in log.options.items():
        out.append(f"option {k} {_value(v)}")
    if log.target is not None:
        out.append(f"target {log.target}")
    for k, v in log.tags.items():
        out.append(f"{k} {_value(v)}")
    for rnd in log.rounds:
        out.append("")
        out.append(f"round {rnd.number}")
        out.extend(_event_line(ev) for ev in rnd.setup)
        for turn in rnd.turns:
            out.append(f"turn {turn.player}")
            out.extend("  " + _event_line(ev) for ev in turn.events)
        out.extend("show " + " ".join([sh.player] + list(sh.cards)) for sh in rnd.shows)
        if rnd.score is not None:
            out.append(f"score {rnd.score.player} {rnd.score.points}")
        if rnd.totals is not None:
            out.append("totals " + " ".join(f"{e.player} {e.points}" for e in rnd.totals.entries))
    if log.winner is not None:
        out.append(f"winner {log.winner.player}")
    return "\n".join(out) + "\n"
