"""Draw lines, reshuffles and `pass` (contract, "Draw pile", "Owed draws"; S2 RÂNDUL UNUI
JUCĂTOR, Draw 2, WILD DRAW 4)."""

from __future__ import annotations

from collections import Counter

from ..events import Draw, Pass, Reshuffle
from .judge import Judge
from .pile import can_draw, do_reshuffle, take_cards
from .state import Owed


def _own_draw(j: Judge, q: str, n: int) -> bool:
    """A `draw` by the player on turn (naming no one, or naming them) before the turn's action, of
    one card or facing a total or WD4: that player's own draw, not the penalty `draw Q C C` of a
    catch that did not stand (READINGS R27)."""
    t = j.t
    if t is None or q != t.player or t.done:
        return False
    return n == 1 or t.need in ("total", "wd4")  # "owed for nothing else" (contract, After a finding)


def draw(j: Judge, ev: Draw, bad_catch: str | None) -> None:
    """A draw line, in section 4's order: the owed draws, draw.reason, start.reverse, a total or a
    WD4's 4, then the ordinary draw of one card (draw.one)."""
    st, t = j.st, j.turn
    q = ev.player or t.player
    n = len(ev.cards) or 1
    o = st.owed
    if o is not None and o.player == q:
        return _owed_draw(j, ev, q, n, o)
    if st.over:
        return j.after_end(ev)
    if bad_catch == q and n <= 2 and not _own_draw(j, q, n):
        take_cards(j, q, ev)  # the penalty of a catch that did not stand: taken as written
        return
    if not check_draw_reason(j, ev, q):
        take_cards(j, q, ev)
        return
    if not check_start_reverse(j, ev, q):
        t.done = True
        take_cards(j, q, ev)
        return
    if t.need in ("total", "wd4"):
        return _draw_owed_total(j, ev, q, n)
    check_draw_one(j, ev, q, n)
    got = take_cards(j, q, ev)
    t.done, t.need = True, "ordinary"
    t.drawn = got[0] if n == 1 and got else None


def check_draw_reason(j: Judge, ev: Draw, q: str) -> bool:
    """draw.reason: no draw nobody owes (after the turn's action, or by the player not on turn)."""
    t = j.turn
    if q == t.player and not t.done:
        return True
    why = "after the turn's action" if q == t.player else f"{q} is not on turn and owes nothing"
    j.report("draw.reason", f"a draw nobody owes: {why}", ev, player=q)
    return False


def check_start_reverse(j: Judge, ev: Draw, q: str) -> bool:
    """start.reverse: owing a start run (U4, U7), the action is that run, not a draw."""
    t = j.turn
    if t.need != "run":
        return True
    j.report("start.reverse", f"{q} owes a start run of every {t.faced.colour} card held, not a draw", ev)
    return False


def check_draw_one(j: Judge, ev: Draw, q: str, n: int) -> None:
    """draw.one: an ordinary draw is exactly one card (reported at the second)."""
    if n > 1:
        j.report("draw.one", f"an ordinary draw is one card, not {n}", ev, index=1, player=q)


def _check_must_stack(j: Judge, ev: Draw, q: str) -> None:
    """volley.stack under `volley must`: holding a Draw 2 that may be stacked, the total is not drawn."""
    t = j.turn
    holds_d2 = any(c.endswith("+2") for c, k in j.hand(q).items() if k)
    stackable = not (t.faced.turned and j.opt.get("start-volley") == "no")
    if j.opt.get("volley") == "must" and holds_d2 and stackable:
        j.report("volley.stack", f"{q} holds a Draw 2 and must stack it (`volley must`)", ev, player=q)


def _draw_owed_total(j: Judge, ev: Draw, q: str, n: int) -> None:
    """Drawing the Draw 2 total (volley.draw) or the Wild Draw 4's 4 (wd4.draw): it ends the turn,
    and once begun the rest is drawn at once."""
    t = j.turn
    total, rule = (t.faced.total, "volley.draw") if t.need == "total" else (4, "wd4.draw")
    if t.need == "total":
        _check_must_stack(j, ev, q)
    if n > total:
        j.report(rule, f"{total} cards are owed, not {n}", ev, index=total, player=q)
    take_cards(j, q, ev)
    t.done = True
    if n < total:
        j.st.owed = Owed(q, total - n, rule)


def _owed_draw(j: Judge, ev: Draw, q: str, n: int, o: Owed) -> None:
    """Owed draws (the reason's rule for a card beyond them)."""
    if n > o.n:
        j.report(o.rule, f"{o.n} card{'s are' if o.n > 1 else ' is'} owed, not {n}", ev, index=o.n, player=q)
    take_cards(j, q, ev)
    o.n -= n
    if o.n <= 0:
        j.st.owed = None


def reshuffle(j: Judge, ev: Reshuffle) -> None:
    """reshuffle.when (only while the draw pile is empty and the discards hold 2+), then
    reshuffle.cards (a listed pile is the discards less the top, oldest on top)."""
    st = j.st
    if st.pile.slots or len(st.discards) < 2:
        why = "the draw pile is not empty" if st.pile.slots else "the discard pile holds only its top card"
        j.report("reshuffle.when", f"no reshuffle now: {why}", ev)
        return
    want = st.discards[:-1]
    if not ev.cards:
        return do_reshuffle(j)
    shuffled = j.opt.get("pile-order") == "shuffled"
    right = Counter(ev.cards) == Counter(want) if shuffled else ev.cards == want
    if not right:
        msg = f"the new pile is the discards less the top, oldest on top: {' '.join(want)}"
        j.report("reshuffle.cards", msg, ev, expected=" ".join(want))
        return do_reshuffle(j)
    do_reshuffle(j, ev.cards)


def pass_line(j: Judge, ev: Pass) -> None:
    """start.reverse, turn.end, then turn.pass: `pass` only when the turn's draw cannot be made."""
    st, t = j.st, j.turn
    if t.need == "run" and not t.done:
        j.report("start.reverse", f"{t.player} owes a start run, not a pass", ev)
    elif t.done:
        j.report("turn.end", f"{t.player}'s turn had its action: no `pass` after it", ev)
    elif can_draw(j):
        j.report("turn.pass", "`pass` only when the turn's draw cannot be made: the pile has cards", ev)
    t.done, t.drawn = True, None
    st.owed = None
