"""`uno`, `catch` and `challenge` (contract, "UNO", U9, U10, U13; S2 SAYING UNO, WILD DRAW 4
CHALLENGE)."""

from __future__ import annotations

from ..events import Catch, Challenge, Uno
from .judge import Judge
from .state import Calls, Owed


def uno(j: Judge, ev: Uno) -> None:
    """uno.call (a warning): a call without 1 card means nothing."""
    q = ev.player or j.turn.player
    n = j.hand_size(q)
    if n != 1:
        j.report("uno.call", f"{q} says UNO holding {n} cards: it means nothing", ev, field="player", player=q)
        return
    j.st.calls.setdefault(q, Calls()).called = True


def _why_no_catch(j: Judge, q: str, r: str) -> str | None:
    c = j.st.calls.get(q)
    if q == r:
        return "a player cannot catch themselves"
    if j.hand_size(q) != 1:
        return f"{q} holds {j.hand_size(q)} cards, not 1"
    if c is not None and c.called:
        return f"{q} said UNO"
    if c is not None and c.caught:
        return f"{q} was caught already"
    if j.opt.get("uno-window") == "next-action" and (c is None or not c.open):
        return f"the window to catch {q} closed at the next action"
    return None


def catch(j: Judge, ev: Catch) -> None:
    """uno.catch: R is not Q; Q holds 1, has not called, is not caught; then Q draws 2 at once."""
    st, q = j.st, ev.player
    why = _why_no_catch(j, q, ev.by)
    if why:
        j.report("uno.catch", f"the catch does not stand: {why}", ev, field="player", player=q)
        st.bad_catch = q
        return
    st.calls.setdefault(q, Calls()).caught = True
    st.owed = Owed(q, 2, "uno.penalty")


def close_windows(j: Judge, ev: object) -> None:
    """`uno-window next-action`: a play, draw or pass line closes every window but the one it opened."""
    t = j.t
    opened = t.player if t is not None and getattr(ev, "type", None) == "play" else None
    for p, c in j.st.calls.items():
        if c.open and not (p == opened and j.hand_size(p) == 1):
            c.open = False


def challenge(j: Judge, ev: Challenge) -> None:
    """wd4.challenge: only facing a WD4 the opponent played, not yet drawing."""
    t = j.turn
    f = t.facing
    if t.need != "wd4" or t.done or f is None or f.by is None:
        why = (
            "a turned-up Wild Draw 4 cannot be challenged"
            if f is not None and f.kind == "wd4" and f.by is None
            else "only facing a Wild Draw 4 the opponent played, before drawing"
        )
        j.report("wd4.challenge", f"no challenge here: {why}", ev)
        return
    legit = f.legit
    if legit is None:  # the WD4's hand in doubt: the outcome the log shows (READINGS R6)
        events = t.model.events
        nxt = next((e for e in events[events.index(ev) + 1 :] if e.type == "draw"), None)
        legit = not (nxt is not None and nxt.player == f.by)
    challenge_outcome(j, legit)


def challenge_outcome(j: Judge, legit: bool) -> None:
    """U10 (wd4.outcome is then owed): legitimate, the challenger draws 6, turn over; else its
    player draws 4 and the challenger takes an ordinary action."""
    st, t = j.st, j.turn
    if legit:
        st.owed = Owed(t.player, 6, "wd4.outcome")
        t.done = True
    else:
        by = t.faced.by
        assert by is not None  # a challenge stands only on a WD4 a player played
        st.owed = Owed(by, 4, "wd4.outcome")
        t.need, t.done = "ordinary", False
