"""Engine departures judged under `official`: a log written by a program that
plays an engine option (V12-V17) gets one finding per departure, at its line, and the referee then
follows the log as the program played it, so that nothing else is reported.

The departures are recognised by looking ahead within the turn (the rest of the turn shows whether a
draw came in the middle of it) and, for the deal, within the round (the first card a player plays
that the deal from the dealer's left did not give them). A part of :class:`dosverify.games.dos.referee.Referee`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable
from itertools import chain

from ..cards import parse_card
from ..events import Draw, FaceDown, Match, Pass, Place, Refill, Reshuffle, Turn, seen
from .part import Part
from .table import UNKNOWN

PLAYS = (Match, Place, Pass, Refill)  # lines of the steps before the DOS penalty (matches 0, refill 2, place/pass 3)


def _base(code: str | FaceDown) -> str:
    """A written card's physical code; a face-down `?` is an unknown card."""
    return UNKNOWN if isinstance(code, FaceDown) else parse_card(code).base


class Engine(Part):
    """Looks ahead in the turn and the round to tell an engine's departure (V12-V17) from a slip."""

    def turn_index(self, ev) -> int | None:
        """ev's place among its turn's lines. The places are counted once a turn (a look-ahead is
        asked for on many lines: searching or slicing the turn each time costs the square of a
        long turn's lines)."""
        turn = self.t.turn
        if self.s.places is None or self.s.places[0] is not turn:
            self.s.places = (turn, {id(e): k for k, e in enumerate(turn.events)})
        return self.s.places[1].get(id(ev))

    def rest_of_turn(self, ev):
        """The lines of the turn after ev, as they are read (an iterator, not a copy)."""
        events = self.t.turn.events
        i = self.turn_index(ev)
        return iter(()) if i is None else (events[k] for k in range(i + 1, len(events)))

    def play_follows(self, events: Iterable) -> bool:
        """Whether the player on turn plays (match, refill, place, `pass`) in these lines of the turn: up
        to a match or place of cards they do not hold, where the next player's turn seems to start (R26)."""
        p = self.t.player
        hand = Counter(self.s.table.hands[p])
        for e in events:
            if isinstance(e, Draw) and (e.player or p) == p:
                hand.update(_base(c) for c in e.cards)
            elif isinstance(e, (Match, Place)):
                need = Counter(_base(c) for c in (e.cards if isinstance(e, Match) else [e.card]))
                return all(hand[b] >= n for b, n in need.items()) or hand.get(UNKNOWN, 0) > 0
            elif isinstance(e, (Refill, Pass)):
                return True
        return False

    def dcm_draw_mid_turn(self, ev: Draw) -> bool:
        """A Double Color Match draw with a match, refill, place or `pass` after it in the turn: drawn at
        once (V12), not at the end. (Before the DOS penalty draw alone it is a step out of order, R9.)"""
        return self.play_follows(self.rest_of_turn(ev))

    def penalty_mid_turn(self, ev: Draw) -> bool:
        """The player on turn, caught before the penalty step, draws here the penalty cards at once (V14):
        this line and the draws of theirs right after it bring exactly the cards owed, and then come the
        draw after no match, or a match, refill, place or `pass`."""
        p, owed = self.t.player, self.t.penalty_owed
        got = 0
        for e in chain([ev], self.rest_of_turn(ev)):
            if isinstance(e, Reshuffle):
                continue
            if not (isinstance(e, Draw) and (e.player or p) == p):
                return False
            got += max(1, len(e.cards))
            if got >= owed:
                nxt = next((x for x in self.rest_of_turn(e) if not isinstance(x, Reshuffle)), None)
                no_match_next = (
                    isinstance(nxt, Draw) and (nxt.player or p) == p and not self.t.drew and self.t.matches == 0
                )  # the draw after no match, still to come
                return got == owed and (no_match_next or self.play_follows(chain([ev], self.rest_of_turn(ev))))
        return False

    def next_card_is_top(self, closing) -> bool:
        """Whether the next turn's first drawn or refilled card is the top of the known pile: then cards
        owed at the end of this turn were never drawn (an at-once draw that found both piles empty, V12),
        rather than drawn and left out of the log (R27)."""
        order = self.s.table.pile_order
        if not order or not isinstance(closing, Turn):
            return False
        nxt = next((e for e in closing.events if isinstance(e, (Draw, Refill, Reshuffle))), None)
        if not (isinstance(nxt, (Draw, Refill)) and bool(nxt.cards) and _base(nxt.cards[0]) == order[-1]):
            return False
        # unless the next player, owed those cards, first plays the top card without holding it: then
        # the draw was made and only left out of the log (R27), and the next card drawn is another copy
        hand = self.s.table.hands.get(closing.player, Counter())
        for e in closing.events:
            if e is nxt:
                break
            if isinstance(e, (Match, Place)) and self.s.t is not None and self.s.t.dcm_owed.get(closing.player, 0) > 0:
                need = Counter(_base(c) for c in (e.cards if isinstance(e, Match) else [e.card]))
                if need.get(order[-1], 0) > hand.get(order[-1], 0):
                    return False
        return True

    def next_card_drawn(self, ev) -> str | None:
        """The first card the next draw or refill line of the turn names."""
        nxt = next((e for e in self.rest_of_turn(ev) if isinstance(e, (Draw, Refill))), None)
        return _base(nxt.cards[0]) if nxt is not None and nxt.cards else None

    def reshuffle_mid_turn(self, ev: Reshuffle) -> bool:
        """A reshuffle for a draw in the middle of the turn (a match, refill, place or `pass` follows):
        this turn's matched cards are not discarded yet (V5, V17)."""
        i = self.turn_index(ev)
        if i is None:
            return False
        j = self.next_step_at(i)
        return j is not None and isinstance(self.t.turn.events[j], Draw) and self.play_follows_after(i)

    def play_follows_after(self, i: int) -> bool:
        """:meth:`play_follows` over the lines of the turn after line i, from an index of the turn made
        once for its player: where the next play stands after each line, and where each card the
        player draws in it is drawn (a walk from each of many reshuffles between draws went over every
        later draw: the square of the turn's lines)."""
        turn, p = self.t.turn, self.t.player
        if self.s.plays_ahead is None or self.s.plays_ahead[0] is not turn:
            self.s.plays_ahead = (turn, {})
        index = self.s.plays_ahead[1].get(p)
        if index is None:
            index = self.s.plays_ahead[1][p] = self._index_plays(turn.events, p)
        next_play, drawn = index
        j = next_play[i] if i < len(next_play) else None
        if j is None:
            return False
        e = turn.events[j]
        if not isinstance(e, (Match, Place)):
            return True  # a refill or a `pass`
        hand = self.s.table.hands[p]

        def have(b: str) -> int:
            at = drawn.get(b)
            return hand.get(b, 0) + (bisect_left(at, j) - bisect_right(at, i) if at else 0)

        need = Counter(_base(c) for c in (e.cards if isinstance(e, Match) else [e.card]))
        return all(have(b) >= n for b, n in need.items()) or have(UNKNOWN) > 0

    @staticmethod
    def _index_plays(events: list, p: str) -> tuple[list[int | None], dict[str, list[int]]]:
        """After each line, where the next match, place, refill or `pass` stands; and for each card, the
        lines where p draws it (a line once per copy), in order."""
        next_play: list[int | None] = [None] * len(events)
        nxt: int | None = None
        for k in range(len(events) - 1, -1, -1):
            next_play[k] = nxt
            if isinstance(events[k], PLAYS):
                nxt = k
        drawn: dict[str, list[int]] = {}
        for k, e in enumerate(events):
            if isinstance(e, Draw) and (e.player or p) == p:
                for c in e.cards:
                    drawn.setdefault(_base(c), []).append(k)
        return next_play, drawn

    def next_step_at(self, i: int) -> int | None:
        """Where the first draw, refill or play after line i of the turn stands. Found once a turn for
        every line, from the last line back (a search from each of many reshuffles in one turn went to
        the turn's end each time: the square of its lines)."""
        turn = self.t.turn
        if self.s.next_step is None or self.s.next_step[0] is not turn:
            ahead: list[int | None] = [None] * len(turn.events)
            nxt: int | None = None
            for k in range(len(turn.events) - 1, -1, -1):
                ahead[k] = nxt
                if isinstance(turn.events[k], (Draw, Refill) + PLAYS):
                    nxt = k
            self.s.next_step = (turn, ahead)
        ahead = self.s.next_step[1]
        return ahead[i] if i < len(ahead) else None

    def deal_from_first_seat(self, rnd, dealt_left: dict, dealt_first: dict, pile: list | None = None):
        """V16: the first line of the round that plays a card its player would not hold after the
        deal from the dealer's left (V9), when the deal from the first seat explains every card the
        round's players play (with the cards their draw lines name, and for a bare `draw` the top of
        `pile`, the deck after the deal, top last: the same under both deals). Returns (player, line), else None."""
        pile = list(pile or [])
        held = {
            "left": {p: Counter(c) for p, c in dealt_left.items()},
            "first": {p: Counter(c) for p, c in dealt_first.items()},
        }
        shown = None
        for turn in rnd.turns:
            p = turn.player
            if p not in self.s.seat:
                return None
            for ev in turn.events:
                if isinstance(ev, Draw):
                    q = ev.player or p
                    cards = [_base(c) for c in ev.cards] if ev.cards else [pile[-1]] if pile else []
                    del pile[len(pile) - max(1, len(ev.cards)) :]  # the draw takes the pile's top cards
                    for h in held.values():
                        if q in h:
                            h[q].update(cards)
                elif isinstance(ev, Refill):
                    del pile[len(pile) - max(1, len(ev.cards)) :]
                elif isinstance(ev, Reshuffle):
                    pile = [_base(c) for c in reversed(ev.cards)]  # a bare reshuffle: the order is not known
                elif isinstance(ev, (Match, Place)):
                    need = Counter(_base(c) for c in (ev.cards if isinstance(ev, Match) else [ev.card]))
                    if any(held["first"][p][b] < n for b, n in need.items()):
                        return None  # the deal from the first seat does not explain it either
                    if shown is None and any(held["left"][p][b] < n for b, n in need.items()):
                        shown = (p, ev)
                    for h in held.values():
                        h[p].subtract(need)
        return shown

    def draws_right_after(self, ev, q: str) -> list[Draw]:
        """q's draw lines right after ev (a draw written one card a line): the rest of the same draw,
        which a card below the top cannot show to be left out."""
        out = []
        for e in self.rest_of_turn(ev):
            if not isinstance(e, Draw) or (e.player or self.t.player) != q:
                break
            out.append(e)
        return out

    def turn_seems_missing(self, ev, cards: list[str]) -> str | None:
        """The next player, when this line plainly starts their turn: the player on turn has
        played already and lacks these cards, which the next player holds."""
        t, tb = self.t, self.s.table
        if not (t.matches or t.action_done):  # after a bare draw the player on turn may still match
            return None
        nxt, hand = self.s.left(t.player), tb.hands[t.player]
        # the face-down cards of the player on turn may be any cards the line lacks, while the line can still
        # be theirs (still matching: no refill, no card placed); a seat view holds the others' cards face down
        loose = hand.get(UNKNOWN, 0) if t.step < 2 and not t.action_done else 0
        if len(cards) == 1:  # the common case, without a Counter
            b = parse_card(cards[0]).base
            if hand.get(b, 0) >= 1 or loose:
                return None
            return nxt if tb.hands[nxt].get(b, 0) >= 1 else None
        need = Counter(parse_card(c).base for c in cards)
        if not cards or sum(max(0, n - hand.get(b, 0)) for b, n in need.items()) <= loose:
            return None
        if all(tb.hands[nxt].get(b, 0) >= n for b, n in need.items()):
            return nxt
        return None

    def draw_starts_next_turn(self, ev: Draw) -> bool:
        """Whether the line after this unowed draw plays cards (other than the drawn ones) that the
        next player holds and the player on turn does not: then the next player's turn began here."""
        nxt = next(self.rest_of_turn(ev), None)
        if nxt is None:
            return False
        cards = nxt.cards if nxt.type == "match" else [nxt.card] if nxt.type == "place" else []
        cards = seen(cards)  # a face-down card tells nothing of whose it is
        drawn = Counter(parse_card(c).base for c in seen(ev.cards))
        rest = [c for c in cards if not (drawn[parse_card(c).base] > 0 and not drawn.subtract([parse_card(c).base]))]
        return bool(rest) and self.turn_seems_missing(nxt, rest) is not None

    def split_draw(self, ev: Draw, k: int) -> tuple[Draw, Draw]:
        """The first k cards of a draw line and the rest, as two draws standing at its place."""
        cols = ev._cols.get("cards") if ev._cols else None  # a card list's: a list of columns
        cols = cols if isinstance(cols, list) else None
        parts = []
        for cards, cc, first in (
            (ev.cards[:k], cols[:k] if cols else None, True),
            (ev.cards[k:], cols[k:] if cols else None, False),
        ):
            d = Draw(player=ev.player, cards=list(cards))
            d.at(
                ev._line,
                ev._column if first or not cc else cc[0],
                {**(ev._cols or {}), "cards": cc} if cc else ev._cols,
            )
            d._pointer = ev._pointer
            parts.append(d)
        i = self.turn_index(ev)
        if i is not None:
            assert self.s.places is not None  # turn_index counted the turn's places
            for d in parts:
                self.s.places[1][id(d)] = i  # its look-ahead is the line's
        self.s.split_keep.extend(parts)  # the ids stay theirs while the turn is played
        return parts[0], parts[1]
