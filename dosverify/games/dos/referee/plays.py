"""What the player on turn does with cards: matches, the card placed after a fruitless draw or as a bonus, `pass`.

A part of :class:`dosverify.games.dos.referee.Referee`; each check names the rule it enforces."""

from __future__ import annotations

from collections import Counter

from ....hints import plural
from ..cards import parse_card
from ..events import Draw, Match, Pass, Place, seen
from .matching import judge_codes
from .table import UNKNOWN, CenterCard
from .turn import TurnState


class PlaysMixin:
    def likely_meant(self, ev: Match, p: str) -> dict[int, str]:
        """For the cards of a match that p does not hold: the one held card each most likely
        stands for (a typo of colour or number), when exactly one makes the match legal."""
        if len(ev.cards) > 2:  # no card in place of one makes a match of three or more cards legal
            return {}
        hand = self.table.hands[p]
        missing = [i for i, c in enumerate(ev.cards) if hand.get(parse_card(c).base, 0) <= 0]
        if len(missing) != 1 or hand.get(UNKNOWN):
            return {}
        i = missing[0]
        x = parse_card(ev.cards[i])
        if x.decl is not None:
            return {}
        rest = [parse_card(c).base for j, c in enumerate(ev.cards) if j != i]
        fits = []
        for y in sorted(hand):
            if hand[y] - rest.count(y) <= 0 or parse_card(y).decl is not None or y in ("W2",) or y.endswith("#"):
                continue
            codes = list(ev.cards)
            codes[i] = y
            if judge_codes(ev.target, tuple(codes)).ok and (y[0] == x.base[0] or y[1:] == x.base[1:]):
                fits.append(y)
        return {i: fits[0]} if len(fits) == 1 else {}

    def held_fits(self, ev: Match, p: str, only: int | None = None) -> tuple[dict[int, str], dict[int, list[str]]]:
        """For a match that does not add up or plays a card p lacks: the cards p holds that make it legal
        in place of one written card, by position. The first part is the one card meant, when exactly one
        fits (after the draw under after-draw-match=drawn-only, only the drawn card may); else all fits."""
        if len(ev.cards) > 2:  # three or more cards never match, whichever one is changed (and trying
            return {}, {}  # each in place of each costs the cube of a long line's cards)
        t, hand = self.t, self.table.hands[p]
        drawn_only = t.drew and self.rs.opt("after-draw-match") == "drawn-only"
        fits: dict[int, list[str]] = {}
        for i, c in enumerate(ev.cards):
            if only is not None and i != only:
                continue
            rest = Counter(parse_card(x).base for k, x in enumerate(ev.cards) if k != i)
            base = parse_card(c).base
            for y in sorted(hand, key=lambda y: (y[1:] != base[1:], y[0] != base[0], y)):  # alike first
                if y == base or y == UNKNOWN or hand[y] - rest.get(y, 0) <= 0 or (drawn_only and y != t.drawn_card):
                    continue
                codes = list(ev.cards)
                codes[i] = y
                if judge_codes(ev.target, tuple(codes)).ok:
                    fits.setdefault(i, []).append(y)
        if sum(map(len, fits.values())) == 1 and only is None:
            i, ys = next(iter(fits.items()))
            return {i: ys[0]}, {}
        return {}, fits

    def slip_in_turn(self, ev: Match) -> bool:
        """Whether a match of cards the player on turn lacks reads as their slip rather than the next
        player's turn begun (R26): the turn is still matching (no refill yet), they lack one card of it,
        and a card they hold makes it legal in its place (R42)."""
        t, hand = self.t, self.table.hands[self.t.player]
        if t.step >= 2 or t.action_done or UNKNOWN in hand:
            return False
        lacking = Counter(parse_card(c).base for c in ev.cards) - hand
        if sum(lacking.values()) != 1:  # one card wrong: a slip; more: the lines are another player's
            return False
        if self.table.phantom_of(t.player) is not None:  # a hand the referee knows to be wrong (R42, R43)
            return True
        i = next(i for i, c in enumerate(ev.cards) if parse_card(c).base in lacking)
        return bool(self.held_fits(ev, t.player, only=i)[1])

    def report_not_held(self, ev: Match, p: str, c, i: int) -> None:
        if self.follow_on("match.held", p):  # where() counts this turn's cards: not for every card of a long line
            return
        where = self.table.where(c.base)
        self.report(
            "match.held",
            f"{p} does not hold {c.base}" + (f" (it is in {where})" if where != "nowhere seen" else ""),
            ev,
            "cards",
            i,
            expected="a card from " + (" ".join(sorted(self.table.hands[p].elements())) or "an empty hand"),
            found=c.code,
        )

    def turn_seems_missing(self, ev, cards: list[str]) -> str | None:
        """The next player, when this line plainly starts their turn: the player on turn has
        played already and lacks these cards, which the next player holds."""
        t, tb = self.t, self.table
        if not (t.matches or t.action_done):  # after a bare draw the player on turn may still match
            return None
        nxt, hand = self.left(t.player), tb.hands[t.player]
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

    def _turn_fits(self, turn, p: str) -> bool:
        """Whether p's hand (with the cards p draws in the turn) holds every card the turn plays."""
        need, gained, loose = Counter(), Counter(), self.table.hands[p].get(UNKNOWN, 0)
        for ev in turn.events:
            if isinstance(ev, Match):
                need.update(parse_card(c).base for c in ev.cards)
            elif isinstance(ev, Place):
                need[parse_card(ev.card).base] += 1
            elif isinstance(ev, Draw) and ev.player in (None, turn.player):
                known = seen(ev.cards)
                gained.update(parse_card(c).base for c in known)
                loose += (len(ev.cards) - len(known)) if ev.cards else 1  # unnamed cards may be any
        have = self.table.hands[p] + gained
        return sum(max(0, n - have.get(b, 0)) for b, n in need.items()) <= loose

    def turn_meant(self, turn, rnd, want: str) -> bool:
        """R49: whether a `turn W` line out of order names the wrong player for the turn of `want`,
        the player due: the cards the turn plays are want's and not W's, or (when the cards tell
        neither) the next turn, or the round's score, follows want's turn."""
        w = turn.player
        fit_want, fit_w = self._turn_fits(turn, want), self._turn_fits(turn, w)
        if fit_want != fit_w:
            return fit_want
        i = next((k for k, x in enumerate(rnd.turns) if x is turn), None)
        nxt = rnd.turns[i + 1].player if i is not None and i + 1 < len(rnd.turns) else None
        if nxt is not None:
            return nxt == self.left(want) and nxt != self.left(w)
        return rnd.score is not None and rnd.score.player == want

    def start_implied_turn(self, p: str, ev) -> None:
        """A `turn P` line seems left out before ev: report it once, end the turn before, start P's."""
        turn = self.t.turn
        self.report(
            "turn.order",
            f"{p}'s turn seems to be missing: a `turn {p}` line before this one",
            ev,
            player=p,
            expected=f"turn {p}",
            found=f"`{ev.type}` in {self.t.player}'s turn",
        )
        self.close_turn(ev)
        self.turn_no += 1
        self.turns_seen += 1
        self.prev_player = p
        for c in self.table.center:
            c.refilled = False
        self.t = TurnState(p, turn)

    def lazy_penalty_shown(self, p: str, codes) -> None:
        """A penalty not drawn at once (reported) whose cards p now plays: it was drawn, the line left out (R27)."""
        tb = self.table
        if self.lazy_skip is None or self.lazy_skip[0] != p or not tb.pile_order:
            return
        n = self.lazy_skip[1]
        top = Counter(tb.pile_order[-n:])
        if any(tb.hands[p].get(b := parse_card(c).base, 0) <= 0 and top.get(b) for c in codes):
            self.lazy_skip = None
            self.draw_left_out(p, n)

    def stand_taken_back(self) -> None:
        """R47: a refill beyond 2 cards after a match taken back shows that the match stood: it is
        applied now (the row's card and the player's cards go with this turn's matches)."""
        t, tb = self.t, self.table
        for slot, cards in t.taken_back:
            if slot in tb.center:
                tb.center.remove(slot)
                tb.pending.append(slot.base)
            for b in cards:
                tb.remove_from_hand(t.player, b)
                tb.pending.append(b)
            t.refill_maybe += 1
            t.bonus_maybe += 1  # R1: the bonus of a match that was not allowed may be honoured or not
        self.hand_changed(t.player)
        t.taken_back.clear()

    def on_match(self, ev: Match) -> None:
        self.lazy_penalty_shown(self.t.player, ev.cards)
        if self.table.swaps:  # a card p lacks, where a draw.top wrote another: p took this one (R40)
            hand = self.table.hands[self.t.player]
            for c in ev.cards:
                if hand.get(b := parse_card(c).base, 0) <= 0:
                    x = self.table.unswap(None, self.t.player, b)
                    if x is not None and self.t.drawn_card == x:
                        self.t.drawn_card = b  # the draw after no match took this card
        if (nxt := self.turn_seems_missing(ev, ev.cards)) is not None and not self.slip_in_turn(ev):
            self.start_implied_turn(nxt, ev)
        t, tb = self.t, self.table
        p = t.player
        meant = {} if p in self.doubt else self.likely_meant(ev, p)
        target = parse_card(ev.target)
        cards = [parse_card(c) for c in ev.cards]
        reported = False
        # a match that does not add up, with cards p holds: the held card meant instead (R42), or which
        # written cards are in doubt (they reach the discard pile as unknown cards) and the cards that may be them
        written_j = judge_codes(ev.target, tuple(ev.cards))
        held_meant: dict[int, str] = {}
        uncertain: dict[int, list[str]] = {}
        if (
            not meant
            and not written_j.ok
            and p not in self.doubt
            and UNKNOWN not in tb.hands[p]
            and not (Counter(c.base for c in cards) - tb.hands[p])
        ):
            held_meant, uncertain = self.held_fits(ev, p)
        if t.dcm_draw_ev is not None and not t.order_reported:
            # dcm-draws=end-of-turn (V12): a Double Color Match draw was made before this match
            t.order_reported = True
            self.report(
                "bonus.draw-time",
                "a Double Color Match draw before a later match of the turn: the others draw "
                "at the end of the turn (dcm-draws=end-of-turn)",
                t.dcm_draw_ev,
                expected="the draw after the turn's last match and the refill, bonus and penalty steps",
                found="the draw before a match",
                related_to=ev,
            )
        unsure = False
        refilled_only = any(c.base == target.base and c.refilled for c in tb.center) and not any(
            c.base == target.base and not c.refilled for c in tb.center
        )
        if refilled_only and not any(c.base == UNKNOWN for c in tb.center):
            # R47: a match the rules forbid outright is taken back (the card stays in the Center Row, the
            # player's cards in hand): the later lines were written without it
            self.report(
                "match.refilled",
                f"{target.base} was refilled this turn and cannot be matched until the next",
                ev,
                "target",
                expected="a Center Row card that was there before the refill",
                found=ev.target,
            )
            slot = next(c for c in tb.center if c.base == target.base and c.refilled)
            t.taken_back.append((slot, [parse_card(meant.get(i, c)).base for i, c in enumerate(ev.cards)]))
            return
        if t.step >= 2 or t.action_done:
            if not refilled_only and not t.order_reported:
                t.order_reported = True
                self.report(
                    "turn.steps",
                    "a match after the turn's matching phase ended",
                    ev,
                    expected="matches before the refill, bonus cards and draws",
                    found="match",
                )
                reported = True
        if (
            t.drew
            and self.rs.opt("after-draw-match") == "drawn-only"
            and not reported
            and t.drawn_card == UNKNOWN
            and len(cards) == 1
            and t.matches_after_draw == 0
            and cards[0].base not in tb.hands[p]
        ):
            self.unverify("match.after-draw")  # the drawn card is face down: the choice decides it
        elif t.drew and self.rs.opt("after-draw-match") == "drawn-only" and not reported:
            played = parse_card(
                meant.get(0, held_meant.get(0, ev.cards[0]))
            ).base  # the card meant, where a typo was inferred
            if len(cards) != 1 or played != t.drawn_card or t.matches_after_draw >= 1:
                self.report(
                    "match.after-draw",
                    "after the draw only the drawn card may be matched, in one single match "
                    "(after-draw-match=drawn-only)",
                    ev,
                    "cards",
                    0,
                    expected=f"match X with {t.drawn_card}" if t.drawn_card else "no match",
                    found=" + ".join(ev.cards),
                )
                reported = True
        # the Center Row card (a card matched this turn has left the row already)
        slot = None
        base = target.base
        for c in tb.center:
            if c.base == base and not c.refilled:
                slot = c
                break
        if slot is None and (ph := next((c for c in tb.center if c.base == UNKNOWN), None)) is not None:
            slot = ph  # a refill or bonus card the log left out (reported) brought this card: it is the one matched
            ph.base = target.base
            if ph.src is not None and not tb.remove_from_hand(ph.src, target.base):
                pass  # a card from a hand in doubt: taken as it is
            elif ph.src is None:
                tb.remove_from_pile(target.base)
        if slot is None:
            if t.matched_targets.get(target.base):
                self.report(
                    "match.once",
                    f"{target.base} was already matched this turn: each Center Row card is matched once",
                    ev,
                    "target",
                    expected="a Center Row card not yet matched",
                    found=ev.target,
                )
                # nothing lies there to cover: the line cannot have happened, and the cards stay in the
                # hand (R39), so that the later lines that play them are not judged against a hand short of them
                return
            else:
                self.report(
                    "match.center",
                    f"there is no {target.base} in the Center Row",
                    ev,
                    "target",
                    expected="one of " + " ".join(c.base for c in tb.center)
                    if tb.center
                    else "a card of the Center Row",
                    found=ev.target,
                )
                # R63: a card of the row was covered all the same (the later refill and matches show it):
                # one the hand cards match (none: nothing was covered); which one, and its bonus, stay unsure
                slot = self._meant_center(ev)
                unsure = slot is not None
            reported = True
        # the hand cards
        for i, c in enumerate(cards):
            if i in meant:  # a typo: the held card it stands for is the one played
                self.report(
                    "match.held",
                    f"{p} does not hold {c.base}: {meant[i]}, which {p} holds, seems meant",
                    ev,
                    "cards",
                    i,
                    expected=meant[i],
                    found=c.code,
                )
                tb.remove_from_hand(p, meant[i])
                tb.pending.append(meant[i])
                reported = True
                continue
            if i in held_meant:  # R42: the held card that makes the match add up is the one played
                tb.remove_from_hand(p, held_meant[i])
                tb.pending.append(held_meant[i])
                continue
            if (
                tb.hands[p].get(c.base, 0) <= 0
                and UNKNOWN not in tb.hands[p]
                and not tb.phantom_of(p)
                and not tb.maybe_held[p].get(c.base)
            ):
                # not held: if cards p holds make the match legal in its place, one of them was played (R42)
                _, fits = self.held_fits(ev, p, only=i)
                uncertain.update(fits)
            if i in uncertain and tb.hands[p].get(c.base, 0) <= 0:
                unsure = True
                self.report_not_held(ev, p, c, i)
                reported = True
                y = next(y for y in uncertain[i] if tb.hands[p].get(y, 0) > 0)
                tb.remove_from_hand(p, y)
                tb.phantoms[p].update(x for x in uncertain[i] if x != y)
                tb.pending.append(UNKNOWN)
                continue
            if tb.remove_from_hand(p, c.base):
                if tb.from_hidden:
                    self.hidden_reveal(p, c.base, ev, "cards", i, "match.held")
            else:
                unsure = True  # which card was really played is unknown: so is its colour bonus
                self.report_not_held(ev, p, c, i)
                reported = True
            if i in uncertain:  # held, but perhaps written for another held card: which one left the hand is in doubt
                unsure = True
                tb.phantoms[p].update(uncertain[i])
                tb.pending.append(UNKNOWN)
                continue
            tb.pending.append(c.base)
        self.hand_changed(p)
        j = judge_codes(ev.target, tuple(meant.get(i, held_meant.get(i, c)) for i, c in enumerate(ev.cards)))
        if held_meant:
            i, y = next(iter(held_meant.items()))
            self.report(
                written_j.rule,
                f"{written_j.message}; {y}, which {p} holds, seems meant",
                ev,
                "cards",
                i,
                expected=y,
                found=" + ".join(ev.cards),
            )
            reported = True
        elif not j.ok:
            field, idx = ("cards", 0)
            self.report(j.rule, j.message, ev, field, idx, expected=j.expected, found=" + ".join(ev.cards))
        t.matches += 1
        if t.drew:
            t.matches_after_draw += 1
        if slot is not None:
            t.matched_targets[slot.base] = t.matched_targets.get(slot.base, 0) + 1
            tb.center.remove(slot)  # CenterCard compares by identity: this is the very card
            tb.pending.append(slot.base)
            if t.discarded:  # a match after the refill began (reported): refilling again is allowed, not owed
                t.refill_maybe = max(t.refill_maybe, t.refilled + max(0, 2 - len(tb.center)) - t.refill_owed)
        if unsure and not j.colour and len(cards) <= 2:  # R1: a bonus the real card may have earned, not judged
            t.bonus_maybe += 1
            if len(cards) == 2:
                for q in self._seats_from_left(p):
                    t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + 1
        if j.colour and len(cards) <= 2:
            certain = j.ok and not reported
            if not j.double and self.rs.opt("single-color-bonus") == "optional":
                t.bonus_maybe += 1  # bonus.card: S3's Single Color Match card may be placed, or not
            elif certain:
                t.bonus_earned += 1
            else:
                t.bonus_maybe += 1
            if j.double:
                t.dcm += 1
                owed = t.dcm_owed if certain else t.dcm_maybe
                for q in self.dcm_order(p):
                    owed[q] = owed.get(q, 0) + 1
                if certain and self.rs.opt("dcm-draws") == "at-once":
                    t.dcm_now = True
        if self.rs.opt("discard-matched") == "at-once":
            tb.flush_pending()  # V17: the matched cards reach the discard pile at once
        if self.rs.opt("round-end") == "at-once" and tb.hand_size(p) == 0:
            if t.dcm_now and any(n > 0 for n in t.dcm_owed.values()):
                t.end_after_draws = ev  # V12 + V15: the at-once draws belong to the match, then the round ends
            else:
                t.ended = ev  # V15: the round ends on this line

    def _meant_center(self, ev: Match):
        """The Center Row card a match naming a card not there most likely covered (R63): one its
        hand cards match, else the one card of the row like the card named (a card written wrong
        where it entered the row). A match that holds as written covered some card: the first is
        then marked, and leaves the row when the refill shows the row was a card short."""
        row = [c for c in self.table.center if not c.refilled and c.base != UNKNOWN and not c.maybe_gone]
        fits = [c for c in row if judge_codes(c.base, tuple(ev.cards)).ok]
        if fits:
            return fits[0]
        if not judge_codes(ev.target, tuple(ev.cards)).ok:
            return None
        named = parse_card(ev.target).base
        like = [c for c in row if len(c.base) > 1 and (c.base[0] == named[0] or c.base[1:] == named[1:])]
        if len(like) == 1:
            return like[0]
        if row:
            row[0].maybe_gone = True
        return None

    def _place_not_held(self, ev: Place, p: str, base: str) -> CenterCard:
        """A `place` of a card p does not hold (reported once): the one held card of its colour or
        number is the card meant; else an unnamed card of p's hand went into the row, which a
        later match may name (R64)."""
        hand = self.table.hands[p]
        doubted = p in self.doubt  # a hand in doubt may hold the card after all (R28, R43): as written
        near = (
            []
            if doubted
            else sorted(
                b
                for b, n in hand.items()
                if n > 0 and b != UNKNOWN and len(b) > 1 and (b[0] == base[0] or b[1:] == base[1:])
            )
        )
        meant = f": {near[0]}, which {p} holds, seems meant" if len(near) == 1 else ""
        self.report(
            "cards.held",
            f"{p} does not hold {base}{meant}",
            ev,
            "card",
            expected=near[0] if meant else "a card from " + (" ".join(sorted(hand.elements())) or "an empty hand"),
            found=ev.card,
        )
        if meant:
            self.table.remove_from_hand(p, near[0])
            return CenterCard(near[0])
        return CenterCard(UNKNOWN, src=p) if hand and not doubted else CenterCard(base)

    def on_place(self, ev: Place) -> None:
        self.lazy_penalty_shown(self.t.player, [ev.card])
        t, tb = self.t, self.table
        p = t.player
        card = parse_card(ev.card)
        if card.decl is not None:
            self.report(
                "notation.card",
                f"`{ev.card}`: a declaration stands only on a card of a `match` line (notation.md, Declarations)",
                ev,
                "card",
                expected=card.base,
                found=ev.card,
            )
        if t.bonus_owed() > 0 or t.bonus_maybe > 0:
            self.step(ev, 3, "a bonus card")
            self.arrive(3, ev)
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            else:
                t.bonus_maybe -= 1
        elif not t.drew and t.matches == 0 and not t.action_done and t.step == 0 and self.refill_possible():
            self.report(
                "draw.no-match",
                f"{p} places a card without having matched or drawn: a player who makes no match draws one card first",
                ev,
                expected="draw C, then place",
                found=f"place {ev.card}",
            )
            t.drew = t.action_done = True
        elif (t.drew or not self.refill_possible()) and t.matches == 0 and not t.action_done:
            if self.rs.opt("no-match-after-draw") == "pass":
                self.report(
                    "place.no-match",
                    "under this ruleset a player who still cannot match keeps the card and passes "
                    "(no-match-after-draw=pass)",
                    ev,
                    expected="pass",
                    found=f"place {ev.card}",
                )
            else:
                self.arrive("no-match", ev)  # a DOS penalty drawn before it came too early (V7, turn.steps)
            t.action_done = True
        else:
            if t.matches and t.bonus_earned:
                msg = f"{p} earned {plural(t.bonus_earned, 'bonus card')} and placed them already"
            elif t.matches:
                msg = "no colour match was made this turn, so no bonus card is owed"
            elif not t.drew:
                msg = "a card is placed only as a colour bonus or after a draw that brought no match"
            else:
                msg = "the card for the unmatched draw was already placed"
            self.report(
                "bonus.card",
                f"a card placed that was never earned: {msg}",
                ev,
                "card",
                expected="no place",
                found=f"place {ev.card}",
            )
            return  # R47: taken back, as a referee at the table would have it; the later lines agree
        placed = CenterCard(card.base)
        # a card not held is taken from the unseen cards only when it is placed as written (R64: else a held card was)
        if tb.remove_from_hand(p, card.base, unseen=p in self.doubt or not tb.hands[p]):
            if tb.from_hidden:
                self.hidden_reveal(p, card.base, ev, "card", None, "cards.held")
        else:
            placed = self._place_not_held(ev, p, card.base)
        self.hand_changed(p)
        tb.center.append(placed)
        if self.rs.opt("round-end") == "at-once" and tb.hand_size(p) == 0:
            t.ended = ev  # V15: the round ends on this line

    def on_pass(self, ev: Pass) -> None:
        t = self.t
        if self.rs.opt("no-match-after-draw") != "pass":
            self.report(
                "turn.pass",
                "this ruleset has no `pass`: a player who cannot match after the draw puts a card into "
                "the Center Row (no-match-after-draw=place)",
                ev,
                expected="place C",
                found="pass",
            )
            if t.drew and t.matches == 0 and not t.action_done:
                # R50: the card owed was placed all the same, as the later lines show: an unknown card of
                # the player's hand, which a later match may name (as a bonus card left out, R27)
                self.table.center.append(CenterCard(UNKNOWN, src=t.player))
                self.doubt.add(t.player)
        elif not ((t.drew or not self.refill_possible()) and t.matches == 0) or t.action_done:
            # with both piles empty the draw cannot happen (V5): the pass follows no draw, as a place does
            self.report(
                "turn.pass",
                "`pass` ends a turn only after a draw that brought no match",
                ev,
                expected="a match, or a draw first",
                found="pass",
            )
        t.action_done = True
