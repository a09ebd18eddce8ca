"""Draws, the draw pile, reshuffles and `pass` (contract, "Draw pile", "Owed draws"; S2 RÂNDUL
UNUI JUCĂTOR, Draw 2, WILD DRAW 4)."""

from __future__ import annotations

from collections import Counter

from ..events import Draw, Pass, Reshuffle
from .state import Owed, Pile


class DrawsMixin:
    # ---- the pile ------------------------------------------------------------------------
    def _draw_from_pile(
        self, card: str, ev, field: str, player: str | None, misplaced: str | None, index: int | None = None
    ) -> None:
        """Take `card` from the draw pile for `ev`, reporting what the pile says against it."""
        st = self.st
        if not st.started and not st.has_deck:  # a pick from a pile nobody has seen
            if st.pool[card] > 0:
                st.pool[card] -= 1
            else:
                self.report(
                    "cards.unseen",
                    f"{card}: no copy of it is left in the draw pile",
                    ev,
                    field=field,
                    index=index,
                    player=player,
                    found=card,
                )
            return
        if not st.pile.slots:
            if len(st.discards) >= 2:
                self.report(
                    "reshuffle.when",
                    "the draw pile is empty: `reshuffle` comes before this draw",
                    ev,
                    field=field,
                    index=index,
                    player=player,
                )
                self.do_reshuffle()
            else:
                self.report(
                    "cards.unseen",
                    f"{card}: the draw pile is empty and nothing can be drawn",
                    ev,
                    field=field,
                    index=index,
                    player=player,
                    found=card,
                )
                return
        status = st.pile.take(card, st.pool)
        if status == "misplaced":
            rule = misplaced or st.pile.under_rule
            where = {
                "draft.under": "the draft discards lie at the bottom of the pile, first discarded on top",
                "draft.pick": "a pick takes the pile's top two cards, in the order written",
                "setup.start": "the card turned up is the pile's top",
            }.get(rule, "cards are drawn from the top")
            self.report(
                rule,
                f"{card} is in the draw pile, but not where it lies: {where}",
                ev,
                field=field,
                index=index,
                player=player,
                found=card,
            )
        elif status == "unseen":
            self.report(
                "cards.unseen",
                f"{card} is not in the draw pile (every copy is elsewhere)",
                ev,
                field=field,
                index=index,
                player=player,
                found=card,
            )

    def do_reshuffle(self, order: list | None = None) -> None:
        """U11: the discards less the top become the draw pile, oldest on top."""
        st = self.st
        cards = list(order) if order is not None else st.discards[:-1]
        loose = len(cards) if order is None and self.opt.get("pile-order") == "shuffled" else 0
        st.pile = Pile(slots=cards, loose=loose, under_rule="draw.top")
        st.discards = st.discards[-1:]

    def _take_cards(self, q: str, ev: Draw) -> list[str]:
        """The cards of a draw line into q's hand (a bare draw: the top card, where it is known)."""
        st = self.st
        hand = self.hand(q)
        if not ev.cards:
            if not st.pile.slots and len(st.discards) >= 2:
                self.report(
                    "reshuffle.when", "the draw pile is empty: `reshuffle` comes before this draw", ev, player=q
                )
                self.do_reshuffle()
            if not st.pile.slots:
                return []
            if st.pile.known_top() is None:
                self.report(
                    "cards.known", "a bare `draw` where the pile's order is unknown: write the card", ev, player=q
                )
                st.doubt.add(q)
            card = st.pile.take_top()
            hand[card] += 1
            st.calls.pop(q, None)
            return [card]
        for i, card in enumerate(ev.cards):
            self._draw_from_pile(card, ev, "cards", q, None, index=i)
            hand[card] += 1
        st.calls.pop(q, None)
        return list(ev.cards)

    # ---- draw lines ----------------------------------------------------------------------
    def _own_draw(self, ev: Draw, q: str, n: int) -> bool:
        """A `draw` by the player on turn (naming no one, or naming them) before the turn's action, of
        one card or facing a total or WD4: that player's own draw, not the penalty `draw Q C C` of a
        catch that did not stand (READINGS R27)."""
        t = self.t
        if t is None or q != t.player or t.done:
            return False
        return n == 1 or t.need in ("total", "wd4")  # "owed for nothing else" (contract, After a finding)

    def draw(self, ev: Draw, bad_catch: str | None) -> None:
        st, t = self.st, self.t
        q = ev.player or t.player
        n = len(ev.cards) or 1
        o = st.owed
        if o is not None and o.player == q:
            return self._owed_draw(ev, q, n, o)
        if st.over:
            return self.after_end(ev)
        if bad_catch == q and n <= 2 and not self._own_draw(ev, q, n):
            return self._take_cards(q, ev)  # the penalty of a catch that did not stand: taken as written
        if q != t.player or t.done:
            why = "after the turn's action" if q == t.player else f"{q} is not on turn and owes nothing"
            self.report("draw.reason", f"a draw nobody owes: {why}", ev, player=q)
            return self._take_cards(q, ev)
        if t.need == "run":
            self.report("start.reverse", f"{q} owes a start run of every {t.facing.colour} card held, not a draw", ev)
            t.done = True
            return self._take_cards(q, ev)
        if t.need in ("total", "wd4"):
            return self._draw_owed_total(ev, q, n)
        if n > 1:
            self.report("draw.one", f"an ordinary draw is one card, not {n}", ev, index=1, player=q)
        got = self._take_cards(q, ev)
        t.done, t.need = True, "ordinary"
        t.drawn = got[0] if n == 1 and got else None

    def _draw_owed_total(self, ev: Draw, q: str, n: int) -> None:
        """Drawing the Draw 2 total or the Wild Draw 4's 4: it ends the turn, and once begun the rest
        is drawn at once."""
        t = self.t
        total, rule = (t.facing.total, "volley.draw") if t.need == "total" else (4, "wd4.draw")
        holds_d2 = any(c.endswith("+2") for c, k in self.hand(q).items() if k)
        stackable = not (t.facing.turned and self.opt.get("start-volley") == "no")
        if t.need == "total" and self.opt.get("volley") == "must" and holds_d2 and stackable:
            self.report("volley.stack", f"{q} holds a Draw 2 and must stack it (`volley must`)", ev, player=q)
        if n > total:
            self.report(rule, f"{total} cards are owed, not {n}", ev, index=total, player=q)
        self._take_cards(q, ev)
        t.done = True
        if n < total:
            self.st.owed = Owed(q, total - n, rule)

    def _owed_draw(self, ev: Draw, q: str, n: int, o: Owed) -> None:
        if n > o.n:
            self.report(o.rule, f"{o.n} card{'s are' if o.n > 1 else ' is'} owed, not {n}", ev, index=o.n, player=q)
        self._take_cards(q, ev)
        o.n -= n
        if o.n <= 0:
            self.st.owed = None

    # ---- reshuffle and pass --------------------------------------------------------------
    def reshuffle(self, ev: Reshuffle) -> None:
        st = self.st
        if st.pile.slots or len(st.discards) < 2:
            why = "the draw pile is not empty" if st.pile.slots else "the discard pile holds only its top card"
            self.report("reshuffle.when", f"no reshuffle now: {why}", ev)
            return
        want = st.discards[:-1]
        if ev.cards:
            right = ev.cards == want if self.opt.get("pile-order") != "shuffled" else Counter(ev.cards) == Counter(want)
            if not right:
                self.report(
                    "reshuffle.cards",
                    f"the new pile is the discards less the top, oldest on top: {' '.join(want)}",
                    ev,
                    expected=" ".join(want),
                )
                return self.do_reshuffle()
            return self.do_reshuffle(ev.cards)
        self.do_reshuffle()

    def pass_line(self, ev: Pass) -> None:
        st, t = self.st, self.t
        if t.need == "run" and not t.done:
            self.report("start.reverse", f"{t.player} owes a start run, not a pass", ev)
        elif t.done:
            self.report("turn.end", f"{t.player}'s turn had its action: no `pass` after it", ev)
        elif self.can_draw():
            self.report("turn.pass", "`pass` only when the turn's draw cannot be made: the pile has cards", ev)
        t.done, t.drawn = True, None
        st.owed = None
