"""Refill and reshuffle lines: the Center Row refilled to 2 cards, and the discard pile turned over
only when a draw or refill finds the draw pile empty (V5, V17).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ....hints import plural
from ..cards import parse_card
from ..events import Refill, Reshuffle
from .part import Part, enforces
from .table import UNKNOWN, CenterCard


class Refills(Part):
    """Judges `refill` and `reshuffle` lines."""

    uses = ("engine", "facedown", "pile", "plays", "steps")

    @enforces("draw.reason")
    def on_refill(self, ev: Refill) -> None:
        t, tb = self.t, self.s.table
        self.parts.steps.flush()
        order = tb.pile_order
        if ev.cards and order and t.discarded and order[-1] != parse_card(ev.cards[0]).base:
            # an earlier refill line left out: this one's card lies just below the cards it took (R27)
            room = t.refill_owed - t.refilled - len(ev.cards)
            d = next(
                (d for d in range(1, room + 1) if d < len(order) and order[-1 - d] == parse_card(ev.cards[0]).base), 0
            )
            if d and self._refilled_later(ev, order[-d:]):
                d = 0  # the cards above come on the turn's next refill lines: refilled out of order (R94, draw.top)
            if d:
                tb.center.extend(CenterCard(b, refilled=True) for b in tb.take_owed(d))
                t.refilled += d
                t.skipped.append(("refill", None, d))
        if t.early is not None:  # a line before this step came too early (Steps.arrive)
            self.parts.steps.arrive(2, ev)
        t.step = max(t.step, 2)
        if t.taken_back and t.refilled >= t.refill_owed + t.refill_maybe:
            self.parts.plays.stand_taken_back()  # R47: the match taken back stood, this refill shows
        written: list[str | None] = list(ev.cards) if ev.cards else [None]
        extra_reported = False
        for i, w in enumerate(written):
            if t.refilled >= t.refill_owed + t.refill_maybe and not extra_reported:
                extra_reported = True
                why = (
                    f"the Center Row is refilled only up to 2 cards, and it holds {len(tb.center)}"
                    if t.matches
                    else "no match was made, so nothing is refilled"
                )
                self.r.report(
                    "draw.reason",
                    why,
                    ev,
                    "cards",
                    i if ev.cards else None,
                    expected="no refill",
                    found=f"refill {w or ''}".strip(),
                )
            if t.refilled >= t.refill_owed and (gone := next((c for c in tb.center if c.maybe_gone), None)) is not None:
                tb.center.remove(gone)  # the refill shows the row was a card short: the match covered it (R63)
            top = tb.top()
            got = self.parts.pile.draw_from_pile(w, ev, i, "refill")
            if got is None:
                continue
            # a refill from a pile of unknown order is taken as written, unchecked (R75); one that is not the
            # top of a known pile may have been the top card after all (R80)
            card = CenterCard(got, refilled=True, guess="" if tb.pile_order is None else None)
            if top is not None and got != top:
                card.top_was, card.top_at = top, tb.swap_at
            tb.center.append(card)
            t.refilled += 1

    def _refilled_later(self, ev: Refill, above: list[str]) -> bool:
        """Whether the turn's `refill` lines right after ev name every card in `above` (R94)."""
        later: Counter = Counter()
        for e in self.parts.engine.rest_of_turn(ev):
            if not isinstance(e, Refill):
                break
            later.update(parse_card(c).base for c in e.cards)
        return not (Counter(above) - later)

    @enforces("reshuffle.when")
    def on_reshuffle(self, ev: Reshuffle) -> None:
        t, tb = self.t, self.s.table
        if not t.immediate and not t.dcm_now and not self.parts.engine.reshuffle_mid_turn(ev):
            # the reshuffle is for an end-of-turn draw or refill: step 1 has discarded this turn's matches.
            # Before an at-once penalty or at-once Double Color Match draw (mid-turn) they are still on the
            # table (V5), unless discard-matched=at-once put them on the discard pile already (V17)
            self.parts.steps.flush()
        if tb.pile_size > 0:
            self.r.report(
                "reshuffle.when",
                f"the draw pile still holds {plural(tb.pile_size, 'card')}: the discard pile is turned over "
                "only when a draw or refill finds the pile empty",
                ev,
                expected="no reshuffle",
                found="reshuffle",
            )
            return
        order: list[str] | None = None
        kept: Counter = Counter()  # cards left in the discard pile
        if ev.cards:
            order, kept = self._listed(ev)
        elif tb.pending and not sum(tb.discard.values()) and self.s.rs.opt("discard-matched") == "end-of-turn":
            self._bare_of_matches(ev)
        self.s.taken_in = None
        if not ev.cards and tb.pending and not t.discarded and self.s.rs.opt("discard-matched") == "end-of-turn":
            self.s.taken_in = (ev, Counter(tb.pending))  # perhaps with this turn's matched cards: later draws tell
        self.parts.facedown.hidden_reshuffle()
        tb.reshuffle(order)
        tb.discard.update(kept)
        t.reshuffled = ev  # the next line must be the draw or refill that found the pile empty

    @enforces("reshuffle.cards")
    def _listed(self, ev: Reshuffle) -> tuple[list[str] | None, Counter]:
        """A reshuffle that lists its cards: the new pile's order (None: not known) and the cards left
        in the discard pile, when the list is not the discard pile (one finding)."""
        t, tb = self.t, self.s.table
        listed = Counter(parse_card(c).base for c in ev.cards)
        known = Counter({b: n for b, n in tb.discard.items() if b != UNKNOWN})
        if tb.discard.get(UNKNOWN) and not (known - listed) and sum((listed - known).values()) == tb.discard[UNKNOWN]:
            return [parse_card(c).base for c in ev.cards], Counter()  # the cards in doubt (R42) are the ones listed
        if listed == tb.discard:
            return [parse_card(c).base for c in ev.cards], Counter()
        extra, missing = listed - tb.discard, tb.discard - listed
        doubt = tb.discard.get(UNKNOWN, 0)  # discards no line named (R42): any card may be one of them
        bits = []
        if extra:
            bits.append(
                ("not among its known cards: " if doubt else "not in the discard pile: ")
                + " ".join(sorted(extra.elements()))
            )
        if missing - Counter({UNKNOWN: doubt}):
            bits.append("left out: " + " ".join(sorted((missing - Counter({UNKNOWN: doubt})).elements())))
        if doubt:
            bits.append(f"it also holds {plural(doubt, 'card')} in doubt since an earlier finding")
        self.r.report(
            "reshuffle.cards",
            f"the reshuffle does not list the discard pile ({'; '.join(bits)})",
            ev,
            expected=f"the {sum(tb.discard.values())} cards of the discard pile",
            found=f"{len(ev.cards)} cards",
        )
        if extra and not missing and not (extra - Counter(tb.pending)):
            # this turn's matched cards taken in (an engine with discard-matched=at-once, V17): one finding,
            # then the pile as listed
            for c in extra.elements():
                tb.pending.remove(c)
            tb.discard.update(extra)
            return [parse_card(c).base for c in ev.cards], Counter()
        if (
            missing
            and not extra
            and not (missing - Counter(t.flushed))
            and t.discarded
            and self.parts.engine.next_card_drawn(ev) == parse_card(ev.cards[0]).base
        ):
            # this turn's matched cards left out by an engine that drew at once, before discarding them
            # (own-penalty or dcm-draws at-once, V14, V12): one finding, then the pile as listed
            tb.discard.subtract(missing)
            tb.discard = +tb.discard
            return [parse_card(c).base for c in ev.cards], missing
        return None, Counter()

    @enforces("reshuffle.cards")
    def _bare_of_matches(self, ev: Reshuffle) -> None:
        """A bare reshuffle of an empty discard pile in mid-turn: it can only have turned over this turn's
        matched cards (an engine with discard-matched=at-once, V17); one finding, then they form the pile."""
        tb = self.s.table
        self.r.report(
            "reshuffle.cards",
            "the reshuffle turns over this turn's matched cards "
            f"({' '.join(sorted(tb.pending))}): they reach the discard pile at the end of the turn "
            "(discard-matched=end-of-turn), and the discard pile is empty",
            ev,
            expected="no reshuffle (both piles are empty: nothing is drawn)",
            found="reshuffle",
        )
        tb.discard.update(tb.pending)
        tb.pending.clear()
