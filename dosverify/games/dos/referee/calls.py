"""Calling DOS and catching a player who did not (V6).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from ....hints import plural
from ..events import Catch, Dos
from .part import Part, enforces


class Calls(Part):
    """A `dos` call with two cards, and a `catch` that stands (V6)."""

    @enforces("dos.call")
    def on_dos(self, ev: Dos) -> None:
        q = ev.player or self.t.player
        if not self.r.known(q, ev):
            return
        if self.s.rs.opt("dos-call") == "off":  # S3: a game without DOS calls
            self.r.report(
                "dos.call",
                "this ruleset has no DOS call (dos-call=off): the line means nothing",
                ev,
                "player" if ev.player else None,
                player=q,
                expected="no `dos` line",
                found="dos",
            )
            return
        size = self.s.table.hand_size(q)
        if size != 2:
            self.r.report(
                "dos.call",
                f"{q} calls DOS holding {plural(size, 'card')}",
                ev,
                "player" if ev.player else None,
                player=q,
                expected="a call with exactly 2 cards",
                found=f"{size} cards",
            )
            return
        if not self.s.caught[q]:
            self.s.called[q] = True

    @enforces("dos.catch")
    def on_catch(self, ev: Catch) -> None:
        t = self.t
        q, r = ev.player, ev.by
        if not (self.r.known(q, ev, "player") and self.r.known(r, ev, "by")):
            return
        size = self.s.table.hand_size(q)
        problem = None
        if self.s.rs.opt("dos-call") == "off":  # S3: nobody owes a call, so nobody is caught
            problem = (
                "this ruleset has no DOS call (dos-call=off): nobody can be caught",
                "player",
                "no catch",
                f"catch {q} by {r}",
            )
        elif q == r:
            problem = (f"{q} cannot catch themself", "by", "another player", r)
        elif size != 2:
            problem = (
                f"{q} holds {plural(size, 'card')}, not 2: there is nothing to catch",
                "player",
                "a player holding exactly 2 cards",
                f"{size} cards",
            )
        elif q in t.drawing:
            problem = (
                f"{q} is still drawing the cards owed for one reason: a call is owed only once they are all in "
                f"({self.r.spec.variant_ref('V6')})",
                "player",
                "a catch after the last of those cards",
                f"catch {q}",
            )
        elif self.s.caught[q]:
            problem = (
                f"{q} was already caught and cannot be caught again until their hand changes",
                "player",
                "no catch",
                f"catch {q}",
            )
        elif self.s.called[q]:
            problem = (f"{q} called DOS in time", "player", "no catch", f"catch {q} by {r}")
        if problem:
            message, field, expected, found = problem
            self.r.report("dos.catch", message, ev, field, player=q, expected=expected, found=found)
            # the penalty of a catch that does not stand may still be drawn: a consequence, not judged
            t.penalty_maybe[q] = t.penalty_maybe.get(q, 0) + 2
            return
        self.s.caught[q] = True
        if q == t.player and t.step < 4 and self.s.rs.opt("own-penalty") == "penalty-step":  # V14
            t.penalty_owed += 2
        else:
            t.immediate = (q, 2)
