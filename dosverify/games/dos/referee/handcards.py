"""The hand cards a `match` line plays leave the player's hand for the turn's matched cards: the
held card a typo stands for, the held card that makes the match add up (READINGS R42), or the card
as written, and `match.held` where the player does not hold it.

A part of :class:`dosverify.games.dos.referee.Referee`, asked by :class:`~.matches.Matches`."""

from __future__ import annotations

from ..cards import Card
from ..events import Match
from .matchline import MatchLine
from .part import Part, enforces
from .table import UNKNOWN


class HandCards(Part):
    """Takes a match line's cards from the hand of the player on turn."""

    uses = ("facedown", "meant")

    @enforces("match.held")
    def take(self, m: MatchLine) -> None:
        """The hand cards played leave p's hand for this turn's matched cards (R42: the card meant)."""
        tb, ev, p = self.s.table, m.ev, m.player
        hand, uncertain = tb.hands[p], m.uncertain
        for i, c in enumerate(m.cards):
            if i in m.meant:  # a typo: the held card it stands for is the one played
                self.r.report(
                    "match.held",
                    f"{p} does not hold {c.base}: {m.meant[i]}, which {p} holds, seems meant",
                    ev,
                    "cards",
                    i,
                    expected=m.meant[i],
                    found=c.code,
                )
                tb.remove_from_hand(p, m.meant[i])
                tb.pending.append(m.meant[i])
                m.reported = True
                m.unsure = True  # R1: the colour bonus the card written would have earned may be honoured
                continue
            if i in m.held_meant:  # R42: the held card that makes the match add up is the one played
                tb.remove_from_hand(p, m.held_meant[i])
                tb.pending.append(m.held_meant[i])
                continue
            if i not in uncertain and hand.get(b := c.base, 0) > 0:  # held as written (most cards): taken
                tb.remove_from_hand(p, b)
                tb.pending.append(b)
                continue
            self._take_written_card(m, i, c)

    def _take_written_card(self, m: MatchLine, i: int, c: Card) -> None:
        """The i-th card as written, or (not held) the held card that may have been played for it."""
        tb, ev, p = self.s.table, m.ev, m.player
        hand = tb.hands[p]
        if (
            hand.get(c.base, 0) <= 0
            and UNKNOWN not in hand
            and not tb.phantom_of(p)
            and not tb.maybe_held[p].get(c.base)
        ):
            # not held: if cards p holds make the match legal in its place, one of them was played (R42)
            _, fits = self.parts.meant.held_fits(ev, p, only=i)
            m.uncertain.update(fits)
        if i in m.uncertain and tb.hands[p].get(c.base, 0) <= 0:
            m.unsure = True
            self.report_not_held(ev, p, c, i)
            m.reported = True
            y = next(y for y in m.uncertain[i] if tb.hands[p].get(y, 0) > 0)
            tb.remove_from_hand(p, y)
            tb.phantoms[p].update(x for x in m.uncertain[i] if x != y)
            tb.pending.append(UNKNOWN)
            return
        if tb.remove_from_hand(p, c.base):
            if tb.from_hidden:
                self.parts.facedown.hidden_reveal(p, c.base, ev, "cards", i, "match.held")
        else:
            m.unsure = True  # which card was really played is unknown: so is its colour bonus
            self.report_not_held(ev, p, c, i)
            m.reported = True
        if i in m.uncertain:  # held, but perhaps written for another held card: which one left the hand is in doubt
            m.unsure = True
            tb.phantoms[p].update(m.uncertain[i])
            tb.pending.append(UNKNOWN)
            return
        tb.pending.append(c.base)

    @enforces("match.held")
    def report_not_held(self, ev: Match, p: str, c: Card, i: int) -> None:
        """p does not hold the i-th card (unless p's hand is in doubt already: then it only follows from that)."""
        if self.r.follow_on("match.held", p):  # where() counts this turn's cards: not for every card of a long line
            return
        where = self.s.table.where(c.base)
        self.r.report(
            "match.held",
            f"{p} does not hold {c.base}" + (f" (it is in {where})" if where != "nowhere seen" else ""),
            ev,
            "cards",
            i,
            expected="a card from " + (" ".join(sorted(self.s.table.hands[p].elements())) or "an empty hand"),
            found=c.code,
        )
