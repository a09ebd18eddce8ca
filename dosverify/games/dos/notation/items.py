"""The line items of valid lines, made alike by the grammar's callbacks and by the fast path: one
maker per kind, so the two readers cannot drift apart."""

from __future__ import annotations

from ..events import FACE_DOWN, FACE_DOWN_WORD, Catch, Dealer, Dos, Draw, Hand, Match, Place, Score, Show, Turn, Winner

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
