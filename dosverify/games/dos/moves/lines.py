"""A written line read as the move it is (issue 33, Canonical form): `fmt`'s canonical text, every wild
declared, a double's hand cards in deck order, every draw naming its player, one card per `draw` or
`refill` line; lines that leave the same state are one move, written with the smallest declaration."""

from __future__ import annotations

from ..cards import is_card
from ..fmt import _split
from ..referee.matching import judge_codes
from .matchgen import deck_key, double_moves, single_moves
from .state import FACE_DOWN, Game, Table


def _base(code: str) -> str:
    return code.split("=", 1)[0]


def read(g: Game, tb: Table, text: str) -> tuple[str, tuple | None] | None:
    """(canonical line, op) for a written line; op None when the line reads as no move here (a match that
    does not add up, a card word that is none); None when it does not read at all."""
    words, _ = _split(text.strip())
    if not words:
        return None
    kw, rest = words[0], words[1:]
    on_turn = tb.t.player if tb.t is not None else None
    if kw == "match":
        return _match(rest)
    if kw == "draw":
        q = rest[0] if rest and rest[0] in g.players else on_turn
        cards = rest[1:] if rest and rest[0] in g.players else rest
        if q is None:
            return " ".join(words), None
        return _card_line(tb, f"draw {q}", ("draw", q), cards)
    if kw == "refill":
        return _card_line(tb, "refill", ("refill",), rest)
    if kw == "place" and len(rest) == 1 and is_card(rest[0]):
        return f"place {rest[0]}", ("place", rest[0])
    if kw == "pass" and not rest:
        return "pass", ("pass",)
    if kw == "dos" and len(rest) <= 1:
        q = rest[0] if rest else on_turn
        if q is None:
            return "dos", None
        return ("dos" if q == on_turn else f"dos {q}"), ("dos", q)
    if kw == "catch" and len(rest) == 3 and rest[1] == "by":
        return f"catch {rest[0]} by {rest[2]}", ("catch", rest[0], rest[2])
    if kw == "reshuffle":
        order = [c for c in rest if is_card(c)] if rest else None
        return "reshuffle", ("reshuffle", order, None)
    if kw in ("turn", "winner") and len(rest) == 1:
        return f"{kw} {rest[0]}", (kw, rest[0])
    if kw == "score" and len(rest) == 2 and rest[1].isdigit():
        return f"score {rest[0]} {int(rest[1])}", ("score", rest[0], int(rest[1]))
    if kw == "round" and len(rest) == 1 and rest[0].isdigit():
        return f"round {int(rest[0])}", ("round", int(rest[0]))
    if kw == "totals":
        return " ".join(words), ("totals",)
    if kw == "show" and len(rest) > 1 and all(is_card(c) for c in rest[1:]):
        return " ".join(words), ("show", rest[0], [_base(c) for c in rest[1:]])
    if kw == "deal" and not rest:
        return "deal", ("deal",)
    return " ".join(words), None


def _card_line(tb: Table, head: str, op: tuple, cards: list[str]) -> tuple[str, tuple | None]:
    """A `draw` or `refill` line: its first card (a tried line of several is judged card by card)."""
    if not cards:  # a bare draw: the top of a known pile
        c = tb.pile[-1] if tb.pile else None
        if c is None:
            return head, None
    else:
        c = cards[0]
        if c != FACE_DOWN and not is_card(c):
            return f"{head} {c}", None
        c = _base(c) if c != FACE_DOWN else c
    return f"{head} {c}", (*op, c)


def _match(rest: list[str]) -> tuple[str, tuple | None]:
    """`match T with A [+ B]` as its move: the colour the declarations give (undeclared: the favourable
    reading, notation.md Declarations), written with the smallest declaration giving it."""
    written = "match " + " ".join(rest)
    if len(rest) not in (3, 5) or rest[1] != "with" or (len(rest) == 5 and rest[3] != "+"):
        return written, None
    codes = [rest[0], *rest[2::2]]
    if not all(is_card(c) for c in codes):
        return written, None
    j = judge_codes(codes[0], tuple(codes[1:]))  # match.single, match.double, wild.declaration
    if not j.ok:
        return written, None
    target = _base(codes[0])
    cards = tuple(sorted((_base(c) for c in codes[1:]), key=deck_key))
    moves = single_moves(target, cards[0]) if len(cards) == 1 else double_moves(target, *cards)
    for line, colour in moves:
        if colour == j.colour:
            return line, ("match", target, cards, colour)
    return written, None
