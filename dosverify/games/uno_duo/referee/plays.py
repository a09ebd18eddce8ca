"""`play` lines: one card, a run, a start run; matching, volleys, wilds, and what the last card
does (contract, "Turns"; S2 RÂNDUL UNUI JUCĂTOR, Draw 2, SKIP, INVERSARE, SĂLBATICI, WILD DRAW 4)."""

from __future__ import annotations

from ..cards import Card, parse_card
from ..events import Play
from .state import UNSEEN, Calls, Facing, Owed


class PlaysMixin:
    def matches(self, card: Card) -> bool:
        st = self.st
        return card.wild or st.top_colour is None or card.colour == st.top_colour or card.rank == st.top_rank

    def play(self, ev: Play) -> None:
        st, t = self.st, self.t
        p = t.player
        cards = [parse_card(c) for c in ev.cards]
        if self._missing_turn_line(ev, cards):
            t = self.t
            p = t.player
        facing_total = t.need == "total" and not t.done
        stack_ok = self._check_answer(ev, cards)
        self._check_held(ev, cards)
        start_run = self._is_start_run(cards)
        if start_run:
            self._check_start_run(ev, cards)
        else:
            self._check_ordinary(ev, cards)
        legit = self._wd4_legit(cards)
        self._apply(ev, cards)
        self._act(ev, cards, stack_ok and facing_total, legit)
        if self.hand_size(p) == 1:
            st.calls[p] = Calls(open=True)
        if self.hand_size(p) == 0:
            self._out(p)

    def _missing_turn_line(self, ev: Play, cards: list[Card]) -> bool:
        """A play after the action, of cards the opponent holds and the player on turn does not: the
        opponent's `turn` line is missing (READINGS R25). One turn.order finding; their turn starts."""
        st, t = self.st, self.t
        if not t.done or t.drawn is not None or st.owed is not None:
            return False
        q = self.other(t.player)
        mine, theirs = self.hand(t.player).copy(), self.hand(q).copy()
        theirs.subtract(c.base for c in cards)
        mine.subtract(c.base for c in cards)
        if any(n < 0 for n in theirs.values()) or not any(n < 0 for n in mine.values()):
            return False
        self.report(
            "turn.order",
            f"`turn {q}` seems to be missing: {q} holds these cards, {t.player} does not",
            ev,
            player=q,
            expected=f"turn {q}",
        )
        self.close_turn(ev)
        self.begin_turn(q, t.model, judged=False)
        return True

    # ---- checks, in the contract's precedence ---------------------------------------------
    def _check_answer(self, ev: Play, cards: list[Card]) -> bool:
        """turn.end, volley.stack, wd4.answer: whether this line may be a play at all. True when it
        is a legal stack on a total."""
        t = self.t
        if t.done and not (t.drawn is not None):
            self.report("turn.end", f"{t.player}'s turn had its action: a second play belongs to no turn", ev)
            return False
        if t.need == "total":
            f = t.facing
            if f.turned and self.opt.get("start-volley") == "no":
                self.report("volley.stack", "a turned-up Draw 2 cannot be stacked (U3): draw 2, turn over", ev)
                return False
            if len(cards) != 1 or cards[0].rank != "+2":
                self.report(
                    "volley.stack",
                    f"facing a total of {f.total}: only one Draw 2 continues the volley",
                    ev,
                    expected="one Draw 2, or the total drawn",
                )
                return False
            return True
        if t.need == "wd4":
            self.report("wd4.answer", "facing a Wild Draw 4: draw 4 or challenge, no play", ev)
        return False

    def _check_held(self, ev: Play, cards: list[Card]) -> None:
        p = self.t.player
        left = self.hand(p).copy()
        for i, c in enumerate(cards):
            if left[c.base] > 0:
                left[c.base] -= 1
            elif left[UNSEEN] > 0:
                left[UNSEEN] -= 1
            else:
                self.report("play.held", f"{p} does not hold {c.base}", ev, index=i, player=p, found=c.code)
                return

    def _is_start_run(self, cards: list[Card]) -> bool:
        t = self.t
        if t.need == "run":
            return True
        if t.need == "run-may":  # start-reverse may: a line of several cards not starting with a Reverse
            return len(cards) > 1 and cards[0].rank != "R"
        return False

    def _check_start_run(self, ev: Play, cards: list[Card]) -> None:
        t = self.t
        colour = t.facing.colour
        for i, c in enumerate(cards):
            if c.wild or c.colour != colour:
                # under `start-reverse may` the line chose to be the start run: a card of another colour
                # is then reverse.colour, as in any run
                rule = "start.reverse" if t.need == "run" else "reverse.colour"
                self.report(
                    rule,
                    f"{t.player} owes a start run: every {colour} card held, nothing else",
                    ev,
                    index=i,
                    found=c.code,
                )
                return
        self._check_all(ev, cards, colour)

    def _check_all(self, ev: Play, cards: list[Card], colour: str) -> None:
        p = self.t.player
        left = self.hand(p).copy()
        left.subtract(c.base for c in cards)
        kept = sorted(c for c, n in left.items() if n > 0 and c != UNSEEN and c[0] == colour)
        if kept:
            self.report(
                "reverse.all",
                f"all or nothing: {p} still holds {' '.join(kept)} of that colour",
                ev,
                player=p,
                index=len(cards) - 1,
            )

    def _check_ordinary(self, ev: Play, cards: list[Card]) -> None:
        t = self.t
        for i, c in enumerate(cards):
            if c.wild and c.colour is None:
                self.report("wild.colour", f"the {c.base} played names a colour (`{c.base}=G`)", ev, index=i)
                break
        if t.drawn not in (None, UNSEEN) and cards[0].base != t.drawn:
            self.report(
                "draw.drawn-only",
                f"after the draw only the drawn card ({t.drawn}) may be played",
                ev,
                index=0,
                found=cards[0].code,
                expected=t.drawn,
            )
        if not self.matches(cards[0]):
            st = self.st
            self.report(
                "play.match",
                f"{cards[0].code} matches neither the colour ({st.top_colour}) nor the "
                f"{'number' if (st.top_rank or '').isdigit() else 'symbol'} ({st.top_rank}) "
                f"of the top card",
                ev,
                index=0,
                found=cards[0].code,
            )
        if len(cards) > 1:
            if cards[0].rank != "R":
                self.report("play.one", "several cards on one line: only a run, a Reverse first, may", ev, index=1)
                return
            colour = cards[0].colour
            for i, c in enumerate(cards[1:], 1):
                if c.wild or c.colour != colour:
                    self.report(
                        "reverse.colour", f"a run holds only the Reverse's colour ({colour})", ev, index=i, found=c.code
                    )
                    return
            self._check_all(ev, cards, colour)

    def _wd4_legit(self, cards: list[Card]) -> bool | None:
        """U9, judged now, before the card leaves the hand: used only if it is challenged."""
        st, t = self.st, self.t
        if len(cards) != 1 or cards[0].base != "W+4" or t.drawn == "W+4":
            return True
        if self.in_doubt(t.player) or st.top_rank is None:
            return None  # unknowable: a challenge's outcome is taken as the log gives it (READINGS R6)
        others = [c for c, n in self.hand(t.player).items() if n and c not in ("W+4", UNSEEN)]
        if self.opt.get("wd4-legal") == "colour":
            return not any(c[0] == st.top_colour for c in others if c != "W")
        return not any(self.matches(parse_card(c)) for c in others)

    # ---- applying ------------------------------------------------------------------------
    def _apply(self, ev: Play, cards: list[Card]) -> None:
        """As written: the cards leave the hand (from the unseen cards if not held); the last is the top."""
        st, p = self.st, self.t.player
        hand = self.hand(p)
        for c in cards:
            if hand[c.base] > 0:
                hand[c.base] -= 1
            elif hand[UNSEEN] > 0:
                hand[UNSEEN] -= 1
            else:  # not held (play.held): from the unseen cards, and the hand is one card short all the same
                if st.pool[c.base] > 0:
                    st.pool[c.base] -= 1
                some = next((k for k, n in hand.items() if n > 0), None)
                if some is not None:
                    hand[some] -= 1
                st.doubt.add(p)
            st.discards.append(c.base)
        last = cards[-1]
        st.top_colour, st.top_rank = last.colour, last.rank

    def _act(self, ev: Play, cards: list[Card], stacked: bool, legit: bool | None) -> None:
        """The line is the action; only its last card acts (U7)."""
        st, t = self.st, self.t
        p, q = t.player, self.other(t.player)
        t.done, t.drawn = True, None
        t.need = "ordinary"
        last = cards[-1]
        if last.rank == "+2":
            total = (t.facing.total if stacked else 0) + 2
            st.facing = Facing("total", q, total=total)
        elif last.rank == "W+4":
            st.facing = Facing("wd4", q, by=p, legit=legit)
        elif last.rank == "S" or (last.rank == "R" and len(cards) == 1 and self.opt.get("reverse-alone") == "skip"):
            t.done, t.need = False, "again"
        elif last.rank == "R" and len(cards) > 1 and self.opt.get("run-reverse") == "opponent":
            st.facing = Facing("run", q, colour=last.colour)

    def _out(self, p: str) -> None:
        """A hand emptied: the round is over (U14: under `last-draw yes` the opponent draws first)."""
        st = self.st
        st.over, st.out = True, p
        f, st.facing = st.facing, None
        if self.opt.get("last-draw") == "yes" and f is not None and f.kind in ("total", "wd4"):
            n = f.total if f.kind == "total" else 4
            st.owed = Owed(f.player, n, "volley.draw" if f.kind == "total" else "wd4.draw")
