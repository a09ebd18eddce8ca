"""Turns: who is on turn, what the turn's action must be, the action left out, and draws owed at
once (contract, "Turns", "Owed draws", "A missing action")."""

from __future__ import annotations

from ..events import Draw, Reshuffle
from .state import UNSEEN, TurnState

#: the rule of an action left out, by what the turn needed
MISSING = {
    "ordinary": "draw.one",
    "run-may": "draw.one",
    "again": "skip.again",
    "total": "volley.draw",
    "wd4": "wd4.draw",
    "run": "start.reverse",
}
_WHAT = {
    "draw.one": "no action: play a card or draw one",
    "skip.again": "the Skip's second action is missing",
    "volley.draw": "facing a total of {n}: stack a Draw 2 or draw the {n} cards",
    "wd4.draw": "facing a Wild Draw 4: draw 4 or challenge",
    "start.reverse": "the start run of every {c} card held is missing",
}


class TurnsMixin:
    def turn_line(self, turn) -> None:
        st, t = self.st, self.t
        if (
            t is not None
            and not t.model.events
            and turn.player == t.player
            and not t.done
            and st.owed is None
            and not st.over
            and not st.dead
        ):
            # an empty turn, then the same player's: one `turn` line written twice (READINGS R24)
            self.report("turn.order", f"`turn {turn.player}` is written twice", turn, field="player")
            t.model, t.damaged = turn, t.damaged or turn._damaged
            return
        self.close_turn(turn)
        if st.dead:
            return
        if st.over:
            self.t = None
            return self.after_end(turn)
        if st.started:
            self.begin_turn(turn.player, turn)

    def begin_turn(self, player: str, turn, *, judged: bool = True) -> None:
        """`player`'s turn starts (at `turn`, its line, or the first line of a turn whose `turn`
        line is missing: `judged` False): who should be on turn, and what the turn faces."""
        st = self.st
        want = st.first if st.turns == 0 else self.other(st.last_turn)
        if judged and st.turns > 0 and player != want and self._misnamed(turn, want):
            player = want  # the `turn` line names the wrong player; its lines are the due one's (R8)
        st.turns += 1
        self.turns_seen += 1
        self.t = TurnState(player=player, index=st.turns, model=turn, damaged=turn._damaged)
        if turn._damaged:  # a skipped line: what it did is unknown (READINGS R5)
            st.doubt.update(self.players)
        if judged and turn.player != want:
            rule = "start.first" if st.turns == 1 else "turn.order"
            why = "the round's first turn" if st.turns == 1 else "the turns alternate:"
            self.report(
                rule, f"{why} {want} is on turn, not {turn.player}", turn, field="player", expected=f"turn {want}"
            )
        st.last_turn = player
        facing, st.facing = st.facing, None
        if facing is None or facing.player != player:
            return
        t = self.t
        t.facing = facing
        if facing.kind == "run":
            if any(c[0] == facing.colour for c, n in self.hand(player).items() if n and c != UNSEEN):
                t.need = "run" if self.opt.get("start-reverse") == "must" else "run-may"
        else:
            t.need = facing.kind

    def _misnamed(self, turn, want: str) -> bool:
        """A `turn` line naming the wrong player whose lines are the due player's (READINGS R8): its
        first play's first card is held by `want` and not by the player written; without a play that
        decides it, the next `turn` line names the written player again (the alternation goes on)."""
        from ..cards import parse_card
        from ..events import Play

        play = next((ev for ev in turn.events if isinstance(ev, Play) and ev.cards), None)
        if play is not None:
            try:
                c = parse_card(play.cards[0]).base
            except Exception:  # an unreadable card decides nothing
                c = None
            if c is not None:
                mine, theirs = self.hand(want)[c] > 0, self.hand(turn.player)[c] > 0
                if mine != theirs:
                    return mine
        nxt = self.next_turn
        return nxt is not None and nxt.player == turn.player

    def close_turn(self, at) -> None:
        """The turn on turn ends at `at` (a model, or None: the end of the log): its owed draws and
        its action, if missing, are reported there and taken as made."""
        st, t = self.st, self.t
        if st is None:
            return
        self.close_owed(at)
        if t is not None and t.damaged:
            st.top_colour = st.top_rank = None  # the skipped line may have been a play
        if t is None or t.done or st.over or st.dead:
            self.t = None
            return
        if t.need == "again" and self.opt.get("skip-again") == "optional":
            self.t = None
            return
        rule = MISSING[t.need]
        n = t.facing.total if t.facing and t.need == "total" else 4
        msg = _WHAT[rule].format(n=n, c=t.facing.colour if t.facing else "")
        where = {} if at is not None else self.end_at()
        self.report(rule, f"{t.player}'s turn: {msg}", at, player=t.player, **where)
        if t.need in ("ordinary", "run-may", "total", "wd4"):  # taken as made (READINGS R3)
            self.take_as_made(t.player, 1 if t.need in ("ordinary", "run-may") else n)
        self.t = None

    def take_as_made(self, p: str, n: int) -> None:
        """Draws left out: the pile's top cards (unknown ones put the hand in doubt)."""
        st = self.st
        for _ in range(n):
            if not st.pile.slots:
                if len(st.discards) < 2:
                    return
                self.do_reshuffle()
            card = st.pile.take_top()
            if card == UNSEEN:
                st.doubt.add(p)
            self.hand(p)[card] += 1

    def close_owed(self, at) -> None:
        """Owed draws not all made by the line `at`: the shortfall, with the reason's rule."""
        st = self.st
        o = st.owed
        if o is None:
            return
        st.owed = None
        if not self.can_draw():
            return  # nothing can be drawn: the owed draws lapse
        where = {} if at is not None else self.end_at()
        self.report(
            o.rule,
            f"{o.player} owes {o.n} more card{'s' if o.n > 1 else ''}, drawn at once",
            at,
            player=o.player,
            **where,
        )
        self.take_as_made(o.player, o.n)

    def owed_blocks(self, ev) -> bool:
        """While draws are owed, a line other than a `reshuffle` or the owed player's draw: the
        reason's rule (the draws are taken as made) and the line is applied unjudged."""
        st = self.st
        o = st.owed
        if o is None or isinstance(ev, Reshuffle):
            return False
        q = (ev.player or self.t.player) if isinstance(ev, Draw) else None
        if q == o.player:
            return False
        t = self.t
        if (
            q is not None
            and o.rule == "wd4.outcome"
            and t.facing is not None
            and t.facing.by is not None
            and o.n in (4, 6)
            and q in (t.player, t.facing.by)
        ):
            # the outcome drawn the other way round: one finding, then the outcome as written (READINGS R23)
            self.report("wd4.outcome", f"the challenge's outcome: {o.player} draws {o.n}, not {q}", ev, player=q)
            self.challenge_outcome(legit=q == t.player)
            return False
        self.close_owed(ev)
        return False

    def can_draw(self) -> bool:
        st = self.st
        return bool(st.pile.slots) or len(st.discards) >= 2
