"""`uno`, `catch` and `challenge` (contract, "UNO", U9, U10, U13; S2 SAYING UNO, WILD DRAW 4
CHALLENGE)."""

from __future__ import annotations

from ..events import Catch, Challenge, Uno
from .state import Calls, Owed


class CallsMixin:
    def uno(self, ev: Uno) -> None:
        st = self.st
        q = ev.player or self.t.player
        if self.hand_size(q) != 1:
            self.report(
                "uno.call",
                f"{q} says UNO holding {self.hand_size(q)} cards: it means nothing",
                ev,
                field="player",
                player=q,
            )
            return
        st.calls.setdefault(q, Calls()).called = True

    def catch(self, ev: Catch) -> None:
        st = self.st
        q, r = ev.player, ev.by
        c = st.calls.get(q)
        why = None
        if q == r:
            why = "a player cannot catch themselves"
        elif self.hand_size(q) != 1:
            why = f"{q} holds {self.hand_size(q)} cards, not 1"
        elif c is not None and c.called:
            why = f"{q} said UNO"
        elif c is not None and c.caught:
            why = f"{q} was caught already"
        elif self.opt.get("uno-window") == "next-action" and (c is None or not c.open):
            why = f"the window to catch {q} closed at the next action"
        if why:
            self.report("uno.catch", f"the catch does not stand: {why}", ev, field="player", player=q)
            st.bad_catch = q
            return
        st.calls.setdefault(q, Calls()).caught = True
        st.owed = Owed(q, 2, "uno.penalty")

    def close_windows(self, ev) -> None:
        """`uno-window next-action`: a play, draw or pass line closes every window but the one it opened."""
        for p, c in self.st.calls.items():
            if c.open and not (self.t and p == self.t.player and self.hand_size(p) == 1 and ev.type == "play"):
                c.open = False

    def challenge(self, ev: Challenge) -> None:
        _st, t = self.st, self.t
        f = t.facing
        if t.need != "wd4" or t.done or f is None or f.by is None:
            why = (
                "a turned-up Wild Draw 4 cannot be challenged"
                if f is not None and f.kind == "wd4" and f.by is None
                else "only facing a Wild Draw 4 the opponent played, before drawing"
            )
            self.report("wd4.challenge", f"no challenge here: {why}", ev)
            return
        legit = f.legit
        if legit is None:  # the WD4's hand in doubt: the outcome the log shows (READINGS R6)
            events = t.model.events
            nxt = next((e for e in events[events.index(ev) + 1 :] if e.type == "draw"), None)
            legit = not (nxt is not None and nxt.player == f.by)
        self.challenge_outcome(legit)

    def challenge_outcome(self, legit: bool) -> None:
        """U10: legitimate, the challenger draws 6, turn over; else its player draws 4 and the
        challenger takes an ordinary action."""
        st, t = self.st, self.t
        if legit:
            st.owed = Owed(t.player, 6, "wd4.outcome")
            t.done = True
        else:
            st.owed = Owed(t.facing.by, 4, "wd4.outcome")
            t.need, t.done = "ordinary", False
