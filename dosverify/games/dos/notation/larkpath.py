"""The Lark path: the LALR parser and the builder it calls back, which makes the line items as it
reduces (no parse tree). It reads what the fast path leaves, and is the source of every syntax
diagnostic."""

from __future__ import annotations

import json
import threading

from lark import Lark, Transformer

from ..events import Center, Deck, Pass, Refill, Reshuffle, Total, Totals
from ..findings import finding
from .grammar import grammar_text
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
from .words import KEYWORDS, VALID_CARDS, _short, card_problem

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


_VALID_SUPERSET = VALID_CARDS.issuperset


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
                    f"a quoted value is a JSON string: {e.msg if isinstance(e, json.JSONDecodeError) else e}",
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
