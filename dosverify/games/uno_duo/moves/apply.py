"""How a listed move changes a UNO Duo position: what the referee does with the line when it is
legal (referee/plays.py, draws.py, calls.py, turns.py, scoring.py), without judging it again.

Only listed moves come here (the core's table judges any other line with ``check`` first), so
each function is the referee's applying step alone, in its order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import parse_card
from .state import Calls, Facing, Owed, Pile, RoundState, TurnState

if TYPE_CHECKING:
    from .state import GameState


def _close_windows(pos: GameState, st: RoundState, opened: str | None) -> None:
    """`uno-window next-action`: a play, draw or pass line closes every window but the one it opened."""
    if pos.opts.get("uno-window") != "next-action":
        return
    for p, c in st.calls.items():
        if c.open and not (p == opened and sum(st.hands[p].values()) == 1):
            c.open = False


def _wd4_legit(pos: GameState, st: RoundState, t: TurnState, cards: list[str]) -> bool | None:
    """U9 (wd4.outcome), judged before the card leaves the hand."""
    if len(cards) != 1 or not cards[0].startswith("W+4") or t.drawn == "W+4":
        return True
    if st.top_rank is None:
        return None
    others = [c for c, n in st.hands[t.player].items() if n > 0 and c not in ("W+4", "?")]
    if pos.opts.get("wd4-legal") == "colour":
        return not any(c[0] == st.top_colour for c in others if c != "W")
    col, rank = st.top_colour, st.top_rank
    return not any(c[0] == "W" or col is None or c[0] == col or c[1:] == rank for c in others)


def play(pos: GameState, st: RoundState, words: list[str]) -> None:
    t = st.turn
    assert t is not None
    p, q = t.player, pos.other(t.player)
    stacked = t.need == "total" and not t.done
    legit = _wd4_legit(pos, st, t, words)
    hand = st.hands[p]
    for code in words:
        base = code.partition("=")[0]
        hand[base] -= 1
        st.discards.append(base)
    last = parse_card(words[-1])
    st.top_colour, st.top_rank = last.colour, last.rank
    t.done, t.drawn, t.need = True, None, "ordinary"
    if last.rank == "+2":
        st.facing = Facing("total", q, total=(t.faced.total if stacked else 0) + 2)
    elif last.rank == "W+4":
        st.facing = Facing("wd4", q, by=p, legit=legit)
    elif last.rank == "S" or (last.rank == "R" and len(words) == 1 and pos.opts.get("reverse-alone") == "skip"):
        t.done, t.need = False, "again"
    elif last.rank == "R" and len(words) > 1 and pos.opts.get("run-reverse") == "opponent":
        st.facing = Facing("run", q, colour=last.colour)
    left = sum(hand.values())
    if left == 1:
        st.calls[p] = Calls(open=True)
    elif left == 0:
        st.over, st.out = True, p
        f, st.facing = st.facing, None
        if pos.opts.get("last-draw") == "yes" and f is not None and f.kind in ("total", "wd4"):
            st.owed = Owed(
                f.player, f.total if f.kind == "total" else 4, "volley.draw" if f.kind == "total" else "wd4.draw"
            )
    _close_windows(pos, st, p)


def draw(pos: GameState, st: RoundState, q: str, card: str) -> None:
    st.pile.take(card, st.pool)
    st.hands[q][card] += 1
    st.calls.pop(q, None)
    o, t = st.owed, st.turn
    if o is not None and o.player == q:
        o.n -= 1
        if o.n <= 0:
            st.owed = None
    elif t is not None:
        if t.need in ("total", "wd4"):
            total, rule = (t.faced.total, "volley.draw") if t.need == "total" else (4, "wd4.draw")
            if total > 1:
                st.owed = Owed(q, total - 1, rule)
            t.drawn = None
        else:
            t.need, t.drawn = "ordinary", card
        t.done = True
    _close_windows(pos, st, None)


def reshuffle(pos: GameState, st: RoundState) -> str:
    """U11: the discards less the top, oldest on top; the line written (a listed pile where its
    order is known or the table shuffles it: a `new()` table's own seed)."""
    cards = list(st.discards[:-1])
    st.reshuffles += 1
    shuffled = pos.opts.get("pile-order") == "shuffled"
    if shuffled and pos.fresh:
        pos.rng_for(f"re{st.number}.{st.reshuffles}").shuffle(cards)
    loose = len(cards) if shuffled and not pos.fresh else 0
    st.pile = Pile(slots=list(cards), loose=loose, under_rule="draw.top")
    st.discards = st.discards[-1:]
    return "reshuffle" if loose else " ".join(["reshuffle", *cards])


def challenge(st: RoundState) -> None:
    """U10 (wd4.outcome): legitimate, the challenger draws 6, turn over; else its player draws 4
    and the challenger takes an ordinary action."""
    t = st.turn
    assert t is not None
    f = t.faced
    if f.legit is None or f.legit:
        st.owed = Owed(t.player, 6, "wd4.outcome")
        t.done = True
    else:
        st.owed = Owed(f.by or "", 4, "wd4.outcome")
        t.need, t.done = "ordinary", False


def turn(pos: GameState, st: RoundState, player: str) -> None:
    """The turn on turn ends (its owed draws lapsed, if any), `player`'s begins and takes what it faces."""
    st.owed = None
    st.turns += 1
    t = st.turn = TurnState(player=player, index=st.turns)
    st.last_turn = player
    facing, st.facing = st.facing, None
    if facing is None or facing.player != player:
        return
    t.facing = facing
    if facing.kind == "run":
        if any(n > 0 and c[0] == facing.colour for c, n in st.hands[player].items()):
            t.need = "run" if pos.opts.get("start-reverse") == "must" else "run-may"
    else:
        t.need = facing.kind


def score(pos: GameState, st: RoundState, player: str, points: int) -> None:
    st.scored, st.turn, st.owed = True, None, None
    pos.totals[player] += points
    if max(pos.totals.values()) >= pos.target:
        pos.over_target = True


def push(pos: GameState, line: str, kind: str) -> None:
    """Apply the listed line of `kind` and write it."""
    st = pos.st
    words = line.split()
    written = line
    if kind == "deal":
        from .deal import deal

        deal(pos, int(words[1]))
        return
    if kind == "winner":
        pos.winner_done = True
    elif st is None:
        raise ValueError(f"`{line}` is no move before a round")
    elif kind == "play":
        play(pos, st, words[1:])
    elif kind == "draw":
        draw(pos, st, words[1], words[2])
    elif kind == "uno":
        st.calls.setdefault(words[1], Calls()).called = True
    elif kind == "catch":
        st.calls.setdefault(words[1], Calls()).caught = True
        st.owed = Owed(words[1], 2, "uno.penalty")
    elif kind == "challenge":
        challenge(st)
    elif kind == "pass":
        assert st.turn is not None
        st.turn.done, st.turn.drawn, st.owed = True, None, None
        _close_windows(pos, st, None)
    elif kind == "reshuffle":
        written = reshuffle(pos, st)
    elif kind == "turn":
        turn(pos, st, words[1])
    elif kind == "score":
        score(pos, st, words[1], int(words[2]))
    elif kind == "totals":
        st.totals_written = True
        pos.totals = {words[i]: int(words[i + 1]) for i in range(1, len(words), 2)}
        pos.over_target = max(pos.totals.values()) >= pos.target
    pos.body.append(("  " + written) if kind in _IN_TURN else written)


_IN_TURN = frozenset({"play", "draw", "uno", "catch", "challenge", "pass", "reshuffle"})
