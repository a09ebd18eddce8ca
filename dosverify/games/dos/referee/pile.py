"""Cards taken from the draw pile: the reshuffle a draw needs, the top of a known pile, cards that are
unseen (conservation), and the end-of-turn draws a later card shows were left out (R27, R44).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ..cards import parse_card
from ..events import Draw, FaceDown, seen, word
from .part import Part, enforces
from .table import UNKNOWN, CenterCard


class Pile(Part):
    """Takes each card a draw or refill line names from the pile, and judges the card taken."""

    uses = ("engine", "facedown", "steps")

    def draw_from_pile(
        self, written: str | FaceDown | None, ev, index: int, what: str, who: str | None = None
    ) -> str | None:
        """Take one card for a draw or refill, checking the reshuffle, the top and conservation."""
        s = self.s
        tb = s.table
        if s.taken_in is not None and (
            tb.pile_size <= 0
            or (
                isinstance(written, str)
                and tb.pile.get(wanted := parse_card(written).base, 0) <= 0
                and s.taken_in[1].get(wanted, 0) > 0
            )
        ):
            self.took_matches_in(ev)
        if tb.pile_size <= 0 and not self._turn_over(written, ev, index, what):
            return None
        if isinstance(written, FaceDown):
            if tb.pile_order:  # after a listed reshuffle a `?` drawn is the top card: known
                got, _ = tb.take(None)
                if self.s.prov is not None:
                    self.s.prov.out(got)
                return got
            tb.pile_size = max(0, tb.pile_size - 1)
            return UNKNOWN
        # one card of every draw and refill line: each check is called only when its cheap condition holds
        if written is None and tb.pile_order is None:
            self._known(written, ev, what)
        card = parse_card(written) if written else None
        base = card.base if card is not None else None
        if s.lazy_skip is not None or tb.swaps or s.deck_alias is not None:
            self._line_up(base)
        top = tb.pile_order[-1] if tb.pile_order else None
        got, problem = tb.take(base)
        if problem is None and base is not None and s.prov is not None:  # (face-down cards about)
            self.parts.facedown.hidden_out(base, ev, index, what)
        if problem is not None or (card is not None and card.decl is not None):
            self._check_taken(problem, written, base, top, ev, index, what, who)
        return got

    @enforces("cards.unseen", "reshuffle.when")
    def _turn_over(self, written: str | FaceDown | None, ev, index: int, what: str) -> bool:
        """The draw pile is empty: the discard pile is turned over first (reported if the log did not);
        False when both piles are empty and nothing can be drawn."""
        tb = self.s.table
        # this turn's matched cards are not in the discard pile before step 1 of the end of the turn (V5);
        # the callers of an end-of-turn step have run it (flush) already
        if sum(tb.discard.values()) == 0:
            if written is not None:
                self.r.report(
                    "cards.unseen",
                    f"{what} {word(written)}, but the draw pile and the discard pile are both empty",
                    ev,
                    "cards",
                    index,
                    expected="no card (nothing can be drawn)",
                    found=word(written),
                )
            return False
        self.r.report(
            "reshuffle.when",
            f"the draw pile is empty: the discard pile must be turned over (`reshuffle`) before this {what}",
            ev,
            "cards",
            index if written is not None else None,
            expected="a `reshuffle` line first",
            found=f"`{what}`",
        )
        self.parts.facedown.hidden_reshuffle()
        tb.reshuffle(None)
        return True

    @enforces("cards.known")
    def _known(self, written: str | None, ev, what: str) -> None:
        """A bare draw or refill names no card: only a known pile order says which it is."""
        if written is None and self.s.table.pile_order is None:
            self.r.report(
                "cards.known",
                f"without a known pile order every {what} card must be written",
                ev,
                expected=f"`{what} C` naming the card",
                found=f"a bare `{what}`",
            )

    def _line_up(self, base: str | None) -> None:
        """Before the card is taken, what it shows of earlier lines: a penalty left out (R27), a card an
        earlier draw.top took instead (R40), the deck's card written wrong (R66)."""
        s, tb = self.s, self.s.table
        if s.lazy_skip is not None and base is not None and tb.pile_order:
            q, n = s.lazy_skip  # a penalty not drawn at once: if this card lies below its cards, it was left out
            s.lazy_skip = None
            if n < len(tb.pile_order) and tb.pile_order[-1 - n] == base:  # (also when the top is a copy of it)
                self.parts.steps.draw_left_out(q, n)
        if base is not None and tb.swaps and tb.pile_order and tb.top() != base:
            tb.unswap(base, None)  # an earlier draw.top's player took the top card, not this one (R40)
        if s.deck_alias is not None and base == s.deck_alias[1] and tb.top() == s.deck_alias[0]:
            assert tb.pile_order is not None
            tb.pile_order[-1] = base  # the deck's card written wrong was this one (R66)
            tb.pile[s.deck_alias[0]] -= 1
            tb.pile[base] += 1
            s.deck_alias = None

    @enforces("draw.top", "cards.unseen", "notation.card")
    def _check_taken(self, problem, written, base, top, ev, index: int, what: str, who: str | None) -> None:
        """The card taken: the top of a known pile, a card some copy of which is unseen, no declaration."""
        tb = self.s.table
        if problem == "top" and self._refilled_top_after_all(base, top):
            pass
        elif problem == "top":
            tb.record_swap(who, base, top)
            self.r.report(
                "draw.top",
                f"{what} {written}, but the top of the draw pile is {top}",
                ev,
                "cards",
                index,
                expected=top,
                found=written,
                player=who,
            )
        elif (
            problem == "unseen"
            and not self._copy_in_doubt(base)
            and not self._refilled_instead(base, top)
            and not self._placed_as_written(base)
        ):
            if self.r.report(
                "cards.unseen",
                f"{what} {written}, but no {written} is unseen: every copy is in {tb.where(base)}",
                ev,
                "cards",
                index,
                expected="a card still in the draw pile",
                found=written,
                player=who,
            ):  # reported: a copy in a hand may be the slip as well as the draw (R78)
                for q in (q for q, h in tb.hands.items() if h.get(base, 0) > 0):
                    self.s.doubt.add(q)
                    self.s.slips[q] += 1
                    tb.phantoms[q][base] += 1  # a card the player lacks may be played in its place (R42)
                if who is not None:  # and the drawer's copy may be the card really drawn, written wrong (R81)
                    tb.phantoms[who][base] += 1
        if written and parse_card(written).decl is not None:
            self.r.report(
                "notation.card",
                f"`{written}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                ev,
                "cards",
                index,
                expected=parse_card(written).base,
                found=written,
            )

    def _copy_in_doubt(self, base: str) -> bool:
        """A card drawn whose every copy is seen, one of them in a hand in doubt (R28): that copy was the
        slip, and is the card drawn; the hand's card there is an unknown one (R78)."""
        tb = self.s.table
        q = next((q for q in self.s.players if q in self.s.doubt and tb.hands[q].get(base, 0) > 0), None)
        if q is None:
            return False
        hand = tb.hands[q]
        hand[base] -= 1
        if not hand[base]:
            del hand[base]
        hand[UNKNOWN] += 1
        return True

    def _refilled_instead(self, base: str, top: str | None) -> bool:
        """A card drawn whose every copy is seen, one of them a row card refilled where the known pile's top
        was `top` (draw.top, reported), drawn now from that top: the refill took `top` after all, and the
        card written lay in the pile where R2 put `top` back (R82, as R80 for a match)."""
        c = _refill_below(self.s.table.center, base, top)
        if c is None or c.top_was is None:
            return False
        c.base, c.top_was = c.top_was, None
        return True

    def _refilled_top_after_all(self, base: str, top: str | None) -> bool:
        """A draw or refill of `base` below the top `top` of a known pile, where a row card `base` was refilled
        when `top` was the top (draw.top, reported): that refill took `top`, and `base` lay where R2 put `top`
        back, the top now: the two are exchanged back and this card is the top after all (R82)."""
        tb = self.s.table
        c = _refill_below(tb.center, base, top)
        if c is None or c.top_was is None or tb.pile_order is None:
            return False
        tb.pile_order[tb.swap_at] = base
        tb.pile[base] += 1
        tb.pile[c.top_was] -= 1
        c.base, c.top_was = c.top_was, None
        return True

    def _placed_as_written(self, base: str) -> bool:
        """A card drawn whose every copy is seen, one of them the row card R64 took as the card a `place` not
        held meant, while the card that line wrote is unseen: the `place` put the card written after all (the
        slip was in the hand as replayed, a `draw` line written wrong), and the drawn card was unseen (R83)."""
        tb = self.s.table
        c = next((c for c in tb.center if c.guess and c.base == base), None)
        if c is None or c.written is None or tb.pile_order is not None or tb.pile.get(c.written, 0) <= 0:
            return False
        tb.pile[c.written] -= 1
        c.base, c.guess, c.written = c.written, None, None
        return True

    def catch_up(
        self, ev: Draw, written: str | FaceDown, dcm_of: str | None, q: str | None = None, own: int = 0
    ) -> None:
        """A known pile's top is not this draw's card, but the card lies just below the cards that
        earlier end-of-turn steps still owe (refill, DOS penalty, others' Double Color Match draws):
        those lines were left out. They are taken as made now and reported once at the turn's end (R27)."""
        t, tb = self.t, self.s.table
        order = tb.pile_order
        if isinstance(written, FaceDown):  # drawn face down from a known pile: its top card, whatever it is
            return
        if not order or order[-1] == parse_card(written).base:
            return
        queue: list[tuple[str, str | None, int]] = []
        if t.discarded and t.refill_owed > t.refilled:
            queue.append(("refill", None, t.refill_owed - t.refilled))
        if dcm_of is not None:
            if t.penalty_owed > 0:
                queue.append(("penalty", t.player, t.penalty_owed))
            for p in self.s.seats_from_left(t.player):
                if p == dcm_of:
                    break
                if t.dcm_owed.get(p, 0) > 0:
                    queue.append(("dcm", p, t.dcm_owed[p]))
        depth = sum(n for _, _, n in queue)
        base = parse_card(written).base
        if not (queue and depth < len(order) and order[-1 - depth] == base):
            # or a line of this same draw left out: q's own cards lie above the written one
            d = next((d for d in range(1, own + 1) if d < len(order) and order[-1 - d] == base), 0)
            if not d or q is None:
                return  # nothing of q's own draw lies above the written card
            later = Counter(
                parse_card(c).base for e in self.parts.engine.draws_right_after(ev, q) for c in seen(e.cards)
            )
            if not d or not (Counter(order[-d:]) - later):
                return  # the cards above come on q's next lines: two cards drawn out of order (draw.top)
            for b in tb.take_owed(d):
                tb.hands[q][b] += 1
            self.s.hand_changed(q)
            if q == t.player and t.penalty_owed:
                t.penalty_owed = max(0, t.penalty_owed - d)
                t.skipped.append(("penalty", q, d))
            elif t.immediate and t.immediate[0] == q:
                t.immediate = (q, t.immediate[1] - d)  # d <= owed - written: the written cards still owed
                t.skipped.append(("penalty", q, d))
            else:
                t.dcm_owed[q] = max(0, t.dcm_owed.get(q, 0) - d)
                t.skipped.append(("dcm", q, d))
            return
        for kind, who, n in queue:
            got = tb.take_owed(n)
            if kind == "refill":
                tb.center.extend(CenterCard(b, refilled=True) for b in got)
                t.refilled += n
                t.skipped.append((kind, who, n))
            else:
                # left out, or only written later (the steps out of order, turn.steps)? Set aside until
                # the turn ends: a later line of that draw takes them (R44), else they were left out
                t.reserved[(kind, who)] = list(got)

    @enforces("reshuffle.cards")
    def took_matches_in(self, ev) -> None:
        """A draw shows that a bare reshuffle in mid-turn turned over that turn's matched cards too (the draw
        pile runs out early, or a card is drawn that was only among them): an engine with
        discard-matched=at-once (V17). One finding at the reshuffle; the cards join the pile (R60)."""
        tb = self.s.table
        assert self.s.taken_in is not None  # called only while a reshuffle may have taken them in
        shuffle, cards = self.s.taken_in
        self.s.taken_in = None
        self.r.report(
            "reshuffle.cards",
            "the reshuffle turned over the matched cards of its turn too "
            f"({' '.join(sorted(cards.elements()))}), as a later draw shows: they reach the discard pile at the "
            "end of the turn (discard-matched=end-of-turn)",
            shuffle,
            related_to=ev,
            expected="the discard pile without this turn's matched cards",
            found="the matched cards in the pile",
        )
        for b, n in cards.items():
            for _ in range(n):
                if b in tb.pending:
                    tb.pending.remove(b)
                elif tb.discard.get(b, 0) > 0:
                    tb.discard[b] -= 1
                else:
                    continue
                tb.pile[b] += 1
                tb.pile_size += 1
        tb.discard = +tb.discard


def _refill_below(center: list[CenterCard], base: str, top: str | None) -> CenterCard | None:
    """The row card `base` refilled where the known pile's top was `top` (draw.top, R80), if any."""
    return next((c for c in center if c.top_was is not None and c.top_was == top and c.base == base), None)
