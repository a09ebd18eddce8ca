"""Which card a line that is written wrong means: the held card a typo stands for, the held cards that
make a match add up (READINGS R42), a slip rather than the next player's turn begun (R26), and the Center
Row card a match naming a card not there covered (R63). Nothing here reports: the checks that do ask.

A part of :class:`dosverify.games.dos.referee.Referee`."""

from __future__ import annotations

from collections import Counter

from ..cards import parse_card
from ..events import Match
from .matching import judge_codes
from .part import Part
from .table import UNKNOWN, CenterCard


class Meant(Part):
    """Infers the cards a match line means where they are not the cards written."""

    def likely_meant(self, ev: Match, p: str) -> dict[int, str]:
        """For the cards of a match that p does not hold: the one held card each most likely
        stands for (a typo of colour or number), when exactly one makes the match legal."""
        if len(ev.cards) > 2:  # no card in place of one makes a match of three or more cards legal
            return {}
        hand = self.s.table.hands[p]
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
        t, hand = self.t, self.s.table.hands[p]
        drawn_only = t.drew and self.s.rs.opt("after-draw-match") == "drawn-only"
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
        t, hand = self.t, self.s.table.hands[self.t.player]
        if t.step >= 2 or t.action_done or UNKNOWN in hand:
            return False
        lacking = Counter(parse_card(c).base for c in ev.cards) - hand
        if sum(lacking.values()) != 1:  # one card wrong: a slip; more: the lines are another player's
            return False
        if self.s.table.phantom_of(t.player) is not None:  # a hand the referee knows to be wrong (R42, R43)
            return True
        i = next(i for i, c in enumerate(ev.cards) if parse_card(c).base in lacking)
        return bool(self.held_fits(ev, t.player, only=i)[1])

    def shown_in_row(self, base: str) -> CenterCard | None:
        """The row card a match naming `base`, not in the row as replayed, shows to be `base`: the `place` R64
        read as another card (R76), a refill not of the pile's top (R80), a refill R75 passed over (R86), or
        a copy of the deck's card written wrong (R89)."""
        return (
            self.placed_instead(base)
            or self.refilled_instead(base)
            or self.rewritten_instead(base)
            or self.dealt_instead(base)
        )

    def maybe_covered(self, ev: Match) -> None:
        """A match that does not add up: a row card its cards match may be the one it covered, and is in
        doubt (R85)."""
        for c in self.s.table.center:
            if not c.refilled and c.base != UNKNOWN and judge_codes(c.base, tuple(ev.cards)).ok:
                c.in_doubt = True

    def placed_instead(self, base: str) -> CenterCard | None:
        """The Center Row card that R64 took as the card a `place` meant, when `base` is the card that line
        wrote or one the player who placed it holds as replayed: `base` was the card placed, and the
        guess goes back to the hand (R76)."""
        tb = self.s.table
        c = next((c for c in tb.center if c.guess and (c.written == base or tb.hands[c.guess].get(base, 0) > 0)), None)
        if c is None or not c.guess:
            return None
        p = c.guess
        tb.hands[p][c.base] += 1
        if c.written != base:
            tb.remove_from_hand(p, base, unseen=False)
        # else the card written was placed after all: the slip was in the hand as replayed (in doubt)
        c.base, c.guess, c.written = base, None, None
        return c

    def rewritten_instead(self, base: str) -> CenterCard | None:
        """A match naming `base`, the card R75 took as a refill written wrong and gave the name of an earlier
        match's card: that refill was right, and another card R75 passed over was the one written wrong and
        covered then; it is `base` now (R86)."""
        tb = self.s.table
        c = next((c for c in tb.center if c.maybe_was == base and c.guess == ""), None)
        if c is None:
            return None
        tb.pile[c.base] += 1
        tb.remove_from_pile(base)
        c.base, c.guess, c.in_doubt, c.maybe_was = base, None, False, None
        return c

    def dealt_instead(self, base: str) -> CenterCard | None:
        """A match naming `base`, the card a `deck` line left out where it wrote another (R66), while a copy of
        the card written over the deck lies in the Center Row: that copy is `base` (R89)."""
        alias = self.s.deck_alias
        if alias is None or alias[1] != base:
            return None
        c = next((c for c in self.s.table.center if c.base == alias[0] and not c.refilled), None)
        if c is not None:
            c.base, self.s.deck_alias = base, None
        return c

    def covered_instead(self, base: str) -> CenterCard | None:
        """A match naming `base` once R63 read an earlier match of the turn as covering it: that match
        covered another row card its cards match, which leaves the row now in its place (R79)."""
        earlier = self.s.guessed_covers.pop(base, None)
        if earlier is None:
            return None
        return next(
            (
                c
                for c in self.s.table.center
                if not c.refilled and c.base != UNKNOWN and judge_codes(c.base, tuple(earlier.cards)).ok
            ),
            None,
        )

    def maybe_meant_row_card(self, ev: Match) -> None:
        """A void match line (R39): the first row card its hand cards match is marked, and leaves the row
        when the refill shows the row was a card short (R63)."""
        c = next(
            (
                c
                for c in self.s.table.center
                if not c.refilled and c.base != UNKNOWN and not c.maybe_gone and judge_codes(c.base, tuple(ev.cards)).ok
            ),
            None,
        )
        if c is not None:
            c.maybe_gone = True

    def refilled_instead(self, base: str) -> CenterCard | None:
        """A row card refilled where the known pile's top was `base` (draw.top, reported): the refill took
        `base` after all, and the card written lies in the pile where R2 put `base` back (R80)."""
        tb, order = self.s.table, self.s.table.pile_order
        c = next((c for c in tb.center if c.top_was == base), None)
        if c is None or order is None or base not in order:
            return None
        at = c.top_at if 0 <= c.top_at < len(order) and order[c.top_at] == base else None
        order[at if at is not None else len(order) - 1 - order[::-1].index(base)] = c.base
        tb.pile[c.base] += 1
        tb.pile[base] -= 1
        c.base, c.top_was = base, None
        return c

    def meant_center(self, ev: Match):
        """The Center Row card a match naming a card not there most likely covered (R63): one its
        hand cards match, else the one card of the row like the card named (a card written wrong
        where it entered the row). A match that holds as written covered some card: the first is
        then marked, and leaves the row when the refill shows the row was a card short."""
        row = [c for c in self.s.table.center if not c.refilled and c.base != UNKNOWN and not c.maybe_gone]
        fits = [c for c in row if judge_codes(c.base, tuple(ev.cards)).ok]
        if not judge_codes(ev.target, tuple(ev.cards)).ok:
            return fits[0] if fits else None
        named = parse_card(ev.target).base
        tb = self.s.table
        # a match that holds as written: a refill nobody could check was the slip when its cards match no row
        # card (R75); a card of a `center` line nobody could check, when they match only cards of other lines
        # and the card named is no wild (R87): the match line is likelier right than naming another card its
        # cards happen to match
        if fits and (named == "W2" or named.endswith("#")):
            return fits[0]
        unchecked = [c for c in row if c.guess == "" and (c.dealt and c not in fits if fits else not c.dealt)]
        if unchecked and tb.pile.get(named, 0) > 0:
            # R75: the refill nobody could check wrote this card wrong (the last one refilled, the likeliest
            # still unplayed): the pile gets back the card written and gives up the card named
            c = unchecked[-1]
            for other in unchecked[:-1]:  # the card named may have been this one as well (R85, R86)
                other.in_doubt, other.maybe_was = True, c.base
            tb.pile[c.base] += 1
            tb.remove_from_pile(named)
            c.base, c.guess = named, None
            return c
        if pc := next((c for c in reversed(row) if c.placed_by and tb.hands[c.placed_by].get(named, 0) > 0), None):
            # R92: the `place` that put a row card there wrote another card its player held: it placed this one
            assert pc.placed_by is not None
            tb.hands[pc.placed_by][pc.base] += 1
            tb.remove_from_hand(pc.placed_by, named, unseen=False)
            pc.base, pc.placed_by = named, None
            return pc
        if fits:
            return fits[0]
        if dealt := [c for c in row if c.dealt and c.guess == ""]:
            # R91: a card of a `center` line nobody could check may be the card named, written wrong there: each
            # is marked, and the one the refill shows gone leaves the row (R63), or a later match names it
            for c in dealt:
                c.maybe_gone = True
            return None
        like = [c for c in row if len(c.base) > 1 and (c.base[0] == named[0] or c.base[1:] == named[1:])]
        if len(like) == 1:
            return like[0]
        if row:
            row[0].maybe_gone = True
        return None
