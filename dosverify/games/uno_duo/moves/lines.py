"""A written UNO Duo line read as the move it is (docs/moves.md, "Canonical form"): one space
between words, no comment, every `draw` naming its drawer and holding one card (a line of several
is its first card's; a bare one the pile's known top), `uno` naming its caller, a listed
`reshuffle` bare, `totals` in the players' order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import BASE_RE, CARD_WORD_RE, PLAYED_RE
from ..notation import code_part
from .listing import run_line

if TYPE_CHECKING:
    from .state import GameState

_BARE = frozenset({"challenge", "pass"})


def _draw(pos: GameState, rest: list[str], on_turn: str | None) -> str | None:
    q = on_turn
    if rest and not CARD_WORD_RE.match(rest[0]):
        q, rest = rest[0], rest[1:]
    if q is None or any(not BASE_RE.match(c) for c in rest):
        return None
    if rest:
        return f"draw {q} {rest[0]}"
    st = pos.st
    top = st.pile.known_top() if st is not None else None
    return f"draw {q} {top}" if top else f"draw {q}"


def _totals(pos: GameState, rest: list[str]) -> str | None:
    if len(rest) % 2 or not all(n.isdigit() for n in rest[1::2]):
        return None
    written = dict(zip(rest[::2], (int(n) for n in rest[1::2]), strict=True))
    names = pos.players if set(written) == set(pos.players) and len(rest) == 4 else list(written)
    return "totals " + " ".join(f"{p} {written[p]}" for p in names)


def canonical(pos: GameState, line: str) -> str | None:
    """The move `line` is here, or None when it reads as none (a set-up or header line, a comment,
    a line that is no sentence of `uno-duo 1`)."""
    words = code_part(line.replace("\r", " ")).split()
    if not words:
        return None
    key, rest = words[0], words[1:]
    st = pos.st
    on_turn = st.turn.player if st is not None and st.turn is not None else None
    if key == "play":
        if not rest or not all(PLAYED_RE.match(c) for c in rest):
            return None
        return run_line(rest[0], rest[1:-1], rest[-1]) if len(rest) > 1 else f"play {rest[0]}"
    if key == "draw":
        return _draw(pos, rest, on_turn)
    if key == "uno" and len(rest) <= 1:
        q = rest[0] if rest else on_turn
        return f"uno {q}" if q else None
    if key == "catch" and len(rest) == 3 and rest[1] == "by":
        return f"catch {rest[0]} by {rest[2]}"
    if key in _BARE and not rest:
        return key
    if key == "reshuffle" and all(BASE_RE.match(c) for c in rest):
        return "reshuffle"
    if key in ("turn", "winner") and len(rest) == 1:
        return f"{key} {rest[0]}"
    if key == "score" and len(rest) == 2 and rest[1].isdigit():
        return f"score {rest[0]} {int(rest[1])}"
    if key == "totals":
        return _totals(pos, rest)
    if key == "round" and len(rest) == 1 and rest[0].isdigit():
        return f"round {int(rest[0])}"
    return None
