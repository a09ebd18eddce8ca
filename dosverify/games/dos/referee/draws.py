"""Cards from the draw pile: why each draw is owed, the top of a known pile, refills and reshuffles (V5).

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ....hints import plural
from ..cards import parse_card
from ..events import Draw, FaceDown, Refill, Reshuffle, seen, word
from .matching import any_match
from .table import UNKNOWN, CenterCard


class DrawsMixin:
    def draw_from_pile(
        self, written: str | FaceDown | None, ev, index: int, what: str, who: str | None = None
    ) -> str | None:
        """Take one card for a draw or refill, checking the reshuffle, the top and conservation."""
        tb = self.table
        if self.taken_in is not None and (
            tb.pile_size <= 0
            or (
                isinstance(written, str)
                and tb.pile.get(base := parse_card(written).base, 0) <= 0
                and self.taken_in[1].get(base, 0) > 0
            )
        ):
            self.took_matches_in(ev)
        if tb.pile_size <= 0:
            # this turn's matched cards are not in the discard pile before step 1 of the end of the turn (V5);
            # the callers of an end-of-turn step have run it (flush) already
            if sum(tb.discard.values()) == 0:
                if written is not None:
                    self.report(
                        "cards.unseen",
                        f"{what} {word(written)}, but the draw pile and the discard pile are both empty",
                        ev,
                        "cards",
                        index,
                        expected="no card (nothing can be drawn)",
                        found=word(written),
                    )
                return None
            self.report(
                "reshuffle.when",
                f"the draw pile is empty: the discard pile must be turned over (`reshuffle`) before this {what}",
                ev,
                "cards",
                index if written is not None else None,
                expected="a `reshuffle` line first",
                found=f"`{what}`",
            )
            self.hidden_reshuffle()
            tb.reshuffle(None)
        if isinstance(written, FaceDown):
            if tb.pile_order:  # after a listed reshuffle a `?` drawn is the top card: known
                got, _ = tb.take(None)
                if self.prov is not None:
                    self.prov.out(got)
                return got
            tb.pile_size = max(0, tb.pile_size - 1)
            return UNKNOWN
        if written is None and tb.pile_order is None:
            self.report(
                "cards.known",
                f"without a known pile order every {what} card must be written",
                ev,
                expected=f"`{what} C` naming the card",
                found=f"a bare `{what}`",
            )
        base = parse_card(written).base if written else None
        if self.lazy_skip is not None and base is not None and tb.pile_order:
            q, n = self.lazy_skip  # a penalty not drawn at once: if this card lies below its cards, it was left out
            self.lazy_skip = None
            if n < len(tb.pile_order) and tb.pile_order[-1 - n] == base:  # (also when the top is a copy of it)
                self.draw_left_out(q, n)
        if base is not None and tb.swaps and tb.pile_order and tb.top() != base:
            tb.unswap(base, None)  # an earlier draw.top's player took the top card, not this one (R40)
        if self.deck_alias is not None and base == self.deck_alias[1] and tb.top() == self.deck_alias[0]:
            tb.pile_order[-1] = base  # the deck's card written wrong was this one (R66)
            tb.pile[self.deck_alias[0]] -= 1
            tb.pile[base] += 1
            self.deck_alias = None
        top = tb.top()
        got, problem = tb.take(base)
        if problem is None and base is not None:
            self.hidden_out(base, ev, index, what)
        if problem == "top":
            tb.record_swap(who, base, top)
            self.report(
                "draw.top",
                f"{what} {written}, but the top of the draw pile is {top}",
                ev,
                "cards",
                index,
                expected=top,
                found=written,
                player=who,
            )
        elif problem == "unseen":
            self.report(
                "cards.unseen",
                f"{what} {written}, but no {written} is unseen: every copy is in {tb.where(base)}",
                ev,
                "cards",
                index,
                expected="a card still in the draw pile",
                found=written,
                player=who,
            )
        if written and parse_card(written).decl is not None:
            self.report(
                "notation.card",
                f"`{written}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                ev,
                "cards",
                index,
                expected=parse_card(written).base,
                found=written,
            )
        return got

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

    def draws_right_after(self, ev, q: str) -> list[Draw]:
        """q's draw lines right after ev (a draw written one card a line): the rest of the same draw,
        which a card below the top cannot show to be left out."""
        out = []
        for e in self.rest_of_turn(ev):
            if not isinstance(e, Draw) or (e.player or self.t.player) != q:
                break
            out.append(e)
        return out

    def catch_up(
        self, ev: Draw, written: str | FaceDown, dcm_of: str | None, q: str | None = None, own: int = 0
    ) -> None:
        """A known pile's top is not this draw's card, but the card lies just below the cards that
        earlier end-of-turn steps still owe (refill, DOS penalty, others' Double Color Match draws):
        those lines were left out. They are taken as made now and reported once at the turn's end (R27)."""
        t, tb = self.t, self.table
        order = tb.pile_order
        if isinstance(written, FaceDown):  # drawn face down from a known pile: its top card, whatever it is
            return
        if not order or order[-1] == parse_card(written).base:
            return
        queue = []
        if t.discarded and t.refill_owed > t.refilled:
            queue.append(("refill", None, t.refill_owed - t.refilled))
        if dcm_of is not None:
            if t.penalty_owed > 0:
                queue.append(("penalty", t.player, t.penalty_owed))
            for p in self._seats_from_left(t.player):
                if p == dcm_of:
                    break
                if t.dcm_owed.get(p, 0) > 0:
                    queue.append(("dcm", p, t.dcm_owed[p]))
        depth = sum(n for _, _, n in queue)
        base = parse_card(written).base
        if not (queue and depth < len(order) and order[-1 - depth] == base):
            # or a line of this same draw left out: q's own cards lie above the written one
            d = next((d for d in range(1, own + 1) if d < len(order) and order[-1 - d] == base), 0)
            later = Counter(parse_card(c).base for e in self.draws_right_after(ev, q) for c in seen(e.cards))
            if not d or not (Counter(order[-d:]) - later):
                return  # the cards above come on q's next lines: two cards drawn out of order (draw.top)
            for b in tb.take_owed(d):
                tb.hands[q][b] += 1
            self.hand_changed(q)
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
        for kind, p, n in queue:
            got = tb.take_owed(n)
            if kind == "refill":
                tb.center.extend(CenterCard(b, refilled=True) for b in got)
                t.refilled += n
                t.skipped.append((kind, p, n))
            else:
                # left out, or only written later (the steps out of order, turn.steps)? Set aside until
                # the turn ends: a later line of that draw takes them (R44), else they were left out
                t.reserved[(kind, p)] = list(got)

    def split_draw(self, ev: Draw, k: int) -> tuple[Draw, Draw]:
        """The first k cards of a draw line and the rest, as two draws standing at its place."""
        cols = ev._cols.get("cards") if ev._cols else None
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
            for d in parts:
                self._places[1][id(d)] = i  # its look-ahead is the line's
        self._split_keep.extend(parts)  # the ids stay theirs while the turn is played
        return parts[0], parts[1]

    def on_draw(self, ev: Draw) -> None:
        t, tb = self.t, self.table
        q = ev.player or t.player
        if not self.known(q, ev):
            return
        n = max(1, len(ev.cards))
        written: list[str | FaceDown | None] = list(ev.cards) if ev.cards else [None]
        reason = None
        owed = 0
        if (
            q == t.player
            and t.penalty_owed > 0
            and not t.immediate
            and self.rs.opt("own-penalty") == "penalty-step"
            and self.penalty_mid_turn(ev)
        ):
            # drawn at once in the middle of the turn (an engine with own-penalty=at-once, V14): one finding
            # here, then the cards count as drawn, as written
            self.report(
                "turn.steps",
                f"{q} draws the DOS penalty at once, in the middle of the turn: a player caught in "
                "their own turn draws it at the penalty step, after the matches, the refill and the bonus cards "
                "(V7; own-penalty=penalty-step)",
                ev,
                "player" if ev.player else None,
                expected="the penalty draw at the end of the turn",
                found=f"draw {q} in the middle of the turn",
            )
            t.immediate, t.penalty_owed = (q, t.penalty_owed), 0
            if t.bonus_cap is None:  # the bonus cards still owed are judged by the hand before these cards (R51)
                t.bonus_cap = t.bonus_placed + tb.hand_size(t.player)
        if t.immediate and t.immediate[0] == q:
            reason, owed = "immediate", t.immediate[1]
        elif (
            t.penalty_maybe.get(q, 0)
            and n == t.penalty_maybe[q]
            and not (q == t.player and t.penalty_owed)
            and not (q != t.player and t.dcm_owed.get(q, 0))
        ):
            reason, owed = "maybe-penalty", t.penalty_maybe[q]  # the penalty of a catch that did not stand
        elif q == t.player and not t.drew and t.matches == 0 and t.step == 0 and not t.action_done:
            reason, owed = "no-match", 1
        elif q == t.player and t.penalty_owed > 0:
            reason, owed = "penalty", t.penalty_owed
        elif q != t.player and (t.dcm_owed.get(q, 0) > 0 or t.dcm_maybe.get(q, 0) > 0):
            reason, owed = "dcm", t.dcm_owed.get(q, 0) + t.dcm_maybe.get(q, 0)
        elif t.penalty_maybe.get(q, 0) > 0:
            reason, owed = "maybe-penalty", t.penalty_maybe[q]
        if reason is None and ev.player is None and (t.matches or t.action_done) and self.draw_starts_next_turn(ev):
            # the player on turn has played: this draw starts the next player's turn (its line left out)
            self.start_implied_turn(self.left(t.player), ev)
            return self.on_draw(ev)
        if reason is not None and 0 < owed < len(ev.cards) and not t.turn._damaged:
            # notation.md: one line may carry one player's draws for two reasons that follow each other
            # directly; its cards fill them in that order (the rest, if no reason follows, is reported)
            head, tail = self.split_draw(ev, owed)
            self.on_draw(head)
            if self.t is not None:
                self.on_draw(tail)
            return
        if reason is None:
            if q == t.player:
                why = (
                    "the draw after no match was already made"
                    if t.drew
                    else ("matches were made" if t.matches else "no draw is owed")
                )
                self.report(
                    "draw.reason",
                    f"{q} draws {plural(n, 'card')} that nobody owes ({why})",
                    ev,
                    "player" if ev.player else None,
                    player=q,
                    expected="no draw",
                    found=f"draw {q} {' '.join(map(word, ev.cards))}".strip(),
                )
            else:  # another player drawing in this turn: a draw with no reason (notation.md, draw-order; READINGS R10)
                why = (
                    f"{t.player} made {plural(t.dcm, 'Double Color Match', 'Double Color Matches')} and {q} drew for them already"
                    if t.dcm
                    else f"{t.player} made no Double Color Match this turn"
                )
                self.report(
                    "draw.reason",
                    f"{q} draws {plural(n, 'card')} that nobody owes: {why}",
                    ev,
                    "player",
                    player=q,
                    expected="no draw",
                    found=f"draw {q} {' '.join(map(word, ev.cards))}".strip(),
                )
        elif reason == "no-match":
            if self.rs.opt("decline-match") == "forbidden":
                center = [c.base for c in tb.center if not c.refilled]
                hand = [b for b in tb.hands[q].elements() if b != UNKNOWN]
                if UNKNOWN in center:  # a Center Row card left out (R27): not judged
                    pass
                elif UNKNOWN in tb.hands[q] and not any_match(center, hand, parse_card):
                    self.unverify("match.decline")  # whether a face-down card matches: the choice decides
                    if self.prov is not None:  # the witness chooses the `?` held here to match nothing (R34)
                        self.prov.declines.append((q, self.prov.now, tuple(center), tuple(hand)))
                elif any_match(center, hand, parse_card):
                    self.report(
                        "match.decline",
                        f"{q} could match and may not decline to draw (decline-match=forbidden)",
                        ev,
                        player=q,
                        expected="a match",
                        found="draw",
                    )
        elif reason == "penalty":
            self.step(ev, 4, "the DOS penalty draw")
            self.arrive(4, ev)
        elif reason == "dcm":
            if self.rs.opt("dcm-draws") == "end-of-turn":
                if self.dcm_draw_mid_turn(ev):  # drawn at once (an engine with dcm-draws=at-once, V12)
                    if not t.dcm_early:
                        t.dcm_early = True
                        self.report(
                            "bonus.draw-time",
                            f"{q} draws for the Double Color Match in the middle of the turn: "
                            "the others draw at the end of the turn, its last step (dcm-draws=end-of-turn)",
                            ev,
                            "player",
                            player=q,
                            expected="the draw after the turn's matches, refill, bonus cards and penalty",
                            found=f"draw {q} in the middle of the turn",
                        )
                else:
                    self.step(ev, 5, "a Double Color Match draw")
                    if t.dcm_draw_ev is None:
                        t.dcm_draw_ev = ev  # a later match makes it early (bonus.draw-time)
            self.dcm_draw_order(ev, q)
        if reason in ("penalty", "dcm", "immediate") and ev.cards:
            own = max(0, owed - len(ev.cards) - sum(max(1, len(e.cards)) for e in self.draws_right_after(ev, q)))
            self.catch_up(ev, ev.cards[0], q if reason == "dcm" else None, q, own)
        extra_reported = False
        taken: list[str | None] = []  # the cards that left the pile (a bare draw from a known pile takes its top)
        for i, w in enumerate(written):
            if reason is not None and i >= owed and not extra_reported:
                extra_reported = True
                self.report(
                    "draw.reason",
                    f"{q} draws {plural(n, 'card')} but owes {owed} here",
                    ev,
                    "cards",
                    i,
                    player=q,
                    expected=plural(owed, "card"),
                    found=plural(n, "card"),
                )
            if (reason is None or i >= owed) and isinstance(w, str) and not t.turn._damaged:
                # a card nobody owes (reported): taken as not drawn, since the later lines of an engine or
                # scribe that wrote one line too many play on without it; if q plays it later, it came
                # from the unseen cards after all (R41). q's hand is in doubt either way
                tb.maybe_held[q][parse_card(w).base] += 1
                self.doubt.add(q)
                continue
            res = t.reserved.get((reason, q)) if reason in ("penalty", "dcm") else None
            if res and (w is None or (isinstance(w, str) and parse_card(w).base == res[0])):
                got = res.pop(0)  # a card set aside for this draw, written after a later step (R44)
            else:
                got = self.draw_from_pile(w, ev, i, "draw", q)
            taken.append(got)
            if got is None:
                continue
            if got == UNKNOWN:
                self.hidden_token(q, ev, i) if isinstance(w, FaceDown) else (self.prov and self.prov.token(q))
            tb.hands[q][got] += 1
        self.hand_changed(q)
        if reason == "no-match":
            t.drew = True
            # the card taken from the pile, not the word written: a bare `draw` from a known deck is its top card
            first = taken[0] if taken else None
            if isinstance(written[0], FaceDown) and first == UNKNOWN:  # drawn face down
                t.drawn_card = UNKNOWN
                if self.prov is not None:
                    t.drawn_token = self.prov.tokens[-1] if self.prov.tokens else None
            else:
                w0 = written[0]  # a `?` that found no card (both piles empty) names none
                t.drawn_card = (
                    first if first not in (None, UNKNOWN) else (parse_card(w0).base if isinstance(w0, str) else None)
                )
        elif reason == "immediate":
            left = t.immediate[1] - n
            t.immediate = (q, left) if left > 0 else None
        elif reason == "penalty":
            t.penalty_owed = max(0, t.penalty_owed - n)
        elif reason == "maybe-penalty":
            t.penalty_maybe[q] = max(0, t.penalty_maybe[q] - n)
        elif reason == "dcm":
            certain = min(n, t.dcm_owed.get(q, 0))
            t.dcm_owed[q] = t.dcm_owed.get(q, 0) - certain
            t.dcm_maybe[q] = max(0, t.dcm_maybe.get(q, 0) - (n - certain))
            if t.dcm_now and not any(t.dcm_owed.values()):
                t.dcm_now = False
        # V6: a call is owed once all the cards drawn for one reason are in, not in between
        still = {
            "immediate": lambda: t.immediate is not None,
            "penalty": lambda: t.penalty_owed > 0,
            "dcm": lambda: t.dcm_owed.get(q, 0) > 0,
        }.get(reason)
        if still is not None and still():
            t.drawing.add(q)
        else:
            t.drawing.discard(q)

    def dcm_draw_order(self, ev: Draw, q: str) -> None:
        """Seat order from the left of the player on turn, or from the first seat (V13): a draw while a
        player before q still owes is reported at this line once that player draws (else only the
        missing draw is, R9); once for the draws of one Double Color Match (or the turn's end)."""
        t = self.t
        seats = self.dcm_order(t.player)
        if t.dcm_order_early is None and not t.dcm_order_reported:
            earlier = [p for p in seats if t.dcm_owed.get(p, 0) > 0 and p != q and seats.index(p) < seats.index(q)]
            if earlier:
                t.dcm_order_early = (ev, earlier[0], q)
        if t.dcm_order_early is not None and t.dcm_order_early[1] == q:
            early, r, first = t.dcm_order_early
            t.dcm_order_early, t.dcm_order_reported = None, True
            start = (
                "from the first seat of `players`"
                if self.rs.opt("dcm-order") == "first-seat"
                else f"starting at the left of {t.player}"
            )
            self.report(
                "turn.steps",
                f"{first} draws for the Double Color Match before {r}: the others draw in seat order "
                f"{start} (V7; dcm-order={self.rs.opt('dcm-order')})",
                early,
                "player",
                player=first,
                expected=f"draw {r} first",
                found=f"draw {first}",
                related_to=ev,
            )

    def on_refill(self, ev: Refill) -> None:
        t, tb = self.t, self.table
        self.flush()
        order = tb.pile_order
        if ev.cards and order and t.discarded and order[-1] != parse_card(ev.cards[0]).base:
            # an earlier refill line left out: this one's card lies just below the cards it took (R27)
            room = t.refill_owed - t.refilled - len(ev.cards)
            d = next(
                (d for d in range(1, room + 1) if d < len(order) and order[-1 - d] == parse_card(ev.cards[0]).base), 0
            )
            if d:
                tb.center.extend(CenterCard(b, refilled=True) for b in tb.take_owed(d))
                t.refilled += d
                t.skipped.append(("refill", None, d))
        self.arrive(2, ev)
        t.step = max(t.step, 2)
        if t.taken_back and t.refilled >= t.refill_owed + t.refill_maybe:
            self.stand_taken_back()  # R47: the match taken back stood, this refill shows
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
                self.report(
                    "draw.reason",
                    why,
                    ev,
                    "cards",
                    i if ev.cards else None,
                    expected="no refill",
                    found=f"refill {w or ''}".strip(),
                )
            gone = next((c for c in tb.center if c.maybe_gone), None)
            if gone is not None and t.refilled >= t.refill_owed:
                tb.center.remove(gone)  # the refill shows the row was a card short: the match covered it (R63)
            got = self.draw_from_pile(w, ev, i, "refill")
            if got is None:
                continue
            tb.center.append(CenterCard(got, refilled=True))
            t.refilled += 1

    def on_reshuffle(self, ev: Reshuffle) -> None:
        t, tb = self.t, self.table
        if not t.immediate and not t.dcm_now and not self.reshuffle_mid_turn(ev):
            # the reshuffle is for an end-of-turn draw or refill: step 1 has discarded this turn's matches.
            # Before an at-once penalty or at-once Double Color Match draw (mid-turn) they are still on the
            # table (V5), unless discard-matched=at-once put them on the discard pile already (V17)
            self.flush()
        if tb.pile_size > 0:
            self.report(
                "reshuffle.when",
                f"the draw pile still holds {plural(tb.pile_size, 'card')}: the discard pile is turned over "
                "only when a draw or refill finds the pile empty",
                ev,
                expected="no reshuffle",
                found="reshuffle",
            )
            return
        order = None
        kept = Counter()  # cards left in the discard pile
        if ev.cards:
            listed = Counter(parse_card(c).base for c in ev.cards)
            known = Counter({b: n for b, n in tb.discard.items() if b != UNKNOWN})
            if (
                tb.discard.get(UNKNOWN)
                and not (known - listed)
                and sum((listed - known).values()) == tb.discard[UNKNOWN]
            ):
                order = [parse_card(c).base for c in ev.cards]  # the cards in doubt (R42) are the ones listed
            elif listed != tb.discard:
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
                self.report(
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
                    order = [parse_card(c).base for c in ev.cards]
                elif (
                    missing
                    and not extra
                    and not (missing - Counter(t.flushed))
                    and t.discarded
                    and self.next_card_drawn(ev) == parse_card(ev.cards[0]).base
                ):
                    # this turn's matched cards left out by an engine that drew at once, before discarding them
                    # (own-penalty or dcm-draws at-once, V14, V12): one finding, then the pile as listed
                    kept = missing
                    tb.discard.subtract(missing)
                    tb.discard = +tb.discard
                    order = [parse_card(c).base for c in ev.cards]
            else:
                order = [parse_card(c).base for c in ev.cards]
        elif tb.pending and not sum(tb.discard.values()) and self.rs.opt("discard-matched") == "end-of-turn":
            # a bare reshuffle of an empty discard pile in mid-turn: it can only have turned over this turn's
            # matched cards (an engine with discard-matched=at-once, V17); one finding, then they form the pile
            self.report(
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
        self.taken_in = None
        if not ev.cards and tb.pending and not t.discarded and self.rs.opt("discard-matched") == "end-of-turn":
            self.taken_in = (ev, Counter(tb.pending))  # perhaps with this turn's matched cards: later draws tell
        self.hidden_reshuffle()
        tb.reshuffle(order)
        tb.discard.update(kept)
        t.reshuffled = ev  # the next line must be the draw or refill that found the pile empty

    def took_matches_in(self, ev) -> None:
        """A draw shows that a bare reshuffle in mid-turn turned over that turn's matched cards too (the draw
        pile runs out early, or a card is drawn that was only among them): an engine with
        discard-matched=at-once (V17). One finding at the reshuffle; the cards join the pile (R60)."""
        tb = self.table
        shuffle, cards = self.taken_in
        self.taken_in = None
        self.report(
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

    def unneeded_reshuffle(self) -> None:
        """A `reshuffle` that no draw or refill needed at once: it changes which cards form the new pile."""
        ev = self.t.reshuffled
        self.t.reshuffled = None
        self.report(
            "reshuffle.when",
            "a reshuffle that no draw or refill needed: the discard pile is turned over only when "
            "a draw or refill finds the draw pile empty, right before it",
            ev,
            expected="`reshuffle` right before the draw or refill that needs it",
            found="reshuffle",
        )
