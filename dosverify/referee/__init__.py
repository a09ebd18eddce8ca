"""The referee: replays a log's events against a ruleset and collects findings.

Like python-chess's game errors, findings are collected, never raised: after a
finding the referee applies the event as written where it can and goes on, and
does not report the consequences of a problem already reported.
"""

from __future__ import annotations

from collections import Counter

from ..cards import composition, parse_card, value
from ..events import Catch, Center, Dealer, Deck, Dos, Draw, Hand, Log, Match, Pass, Place, Refill, Reshuffle, Round, Turn
from ..findings import Finding, Position, finding
from ..spec import Ruleset
from .matching import any_match, judge
from .table import UNKNOWN, CenterCard, Table
from .turn import TurnState

__all__ = ["Referee"]

# Findings that need every line of a turn to be known: in a turn with a line the parser
# skipped (a syntax finding), they would be guesses about what that line did (READINGS R17).
NEEDS_WHOLE_TURN = frozenset({
    "draw.reason", "draw.no-match", "place.no-match", "turn.steps", "turn.pass", "center.refill", "bonus.card",
    "bonus.draw", "dos.penalty", "dos.catch", "dos.call", "reshuffle.when", "match.once", "match.refilled",
})

ORDINAL = {2: "the refill", 3: "the bonus cards", 4: "the DOS penalty draws", 5: "the Double Color Match draws"}


class Referee:
    def __init__(self, log: Log, ruleset: Ruleset, visitor=None) -> None:
        """`visitor`, if given, is called as `visitor(referee)` after every turn (and after the
        score of a round): a way to watch the replayed state, like python-chess's visitors."""
        self.visitor = visitor
        self.log = log
        self.rs = ruleset
        self.players = list(log.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        k = len(self.players)
        self._from_left = {p: [self.players[(i + j) % k] for j in range(1, k)] for i, p in enumerate(self.players)}
        self.table = Table(self.players)
        self.findings: list[Finding] = []
        self.totals = {p: 0 for p in self.players}
        self.rounds_seen = 0
        self.turns_seen = 0
        self.game_over = False
        self.game_winner: str | None = None
        # per round
        self.round_no: int | None = None
        self.turn_no = 0
        self.dealer: str | None = None
        self.round_winner: str | None = None  # who went out
        self.round_over = False
        self.scored = False
        self.called: dict[str, bool] = {}
        self.caught: dict[str, bool] = {}
        self.t: TurnState | None = None

    # ---- helpers ------------------------------------------------------------------------------

    def left(self, p: str) -> str:
        return self.players[(self.seat[p] + 1) % len(self.players)]

    def report(self, rule: str, message: str, ev=None, field: str | None = None, index: int | None = None, *,
               line: int | None = None, player: str | None = None, column: int | None = None,
               pointer: str | None = None, related_to=None, **kw) -> None:
        if ev is not None:
            if field is not None:
                col = ev._cols.get(field) if ev._cols else None
                if isinstance(col, list):
                    col = col[index] if index is not None and index < len(col) else (col[0] if col else None)
                column = column if column is not None else col
                if pointer is None and ev._pointer is not None:
                    pointer = f"{ev._pointer}/{field}" + (f"/{index}" if index is not None else "")
        if self.t is not None:
            if rule in NEEDS_WHOLE_TURN and self.t.turn._damaged:
                return
            if player is None:
                player = self.t.player
        if related_to is not None:
            kw["related"] = [Position(line=related_to._line, column=related_to._column, pointer=related_to._pointer)]
        self.findings.append(finding(
            rule, message, at=ev, line=line, column=column, pointer=pointer, round=self.round_no,
            turn=self.turn_no or None, player=player, **kw,
        ))

    def known(self, p: str | None, ev, field: str = "player") -> bool:
        if p is None or p in self.seat:
            return True
        self.report("notation.player", f"`{p}` is not a player of this game", ev, field,
                    expected="one of " + ", ".join(self.players), found=p)
        return False

    def hand_changed(self, p: str) -> None:
        self.called[p] = False
        self.caught[p] = False

    def give(self, p: str, base: str) -> None:
        self.table.hands[p][base] += 1
        self.hand_changed(p)

    def draw_from_pile(self, written: str | None, ev, index: int, what: str) -> str | None:
        """Take one card for a draw or refill, checking the reshuffle, the top and conservation."""
        tb = self.table
        if tb.pile_size <= 0:
            if sum(tb.discard.values()) == 0 and not (self.t and self.t.discarded is False and tb.pending):
                if written is not None:
                    self.report("cards.unseen", f"{what} {written}, but the draw pile and the discard pile are both empty",
                                ev, "cards", index, expected="no card (nothing can be drawn)", found=written)
                return None
            if self.t is not None:
                self.flush()
            self.report("reshuffle.when", f"the draw pile is empty: the discard pile must be turned over (`reshuffle`) before this {what}",
                        ev, "cards", index if written is not None else None, expected="a `reshuffle` line first", found=f"`{what}`")
            tb.reshuffle(None)
        if written is None and tb.pile_order is None:
            self.report("cards.known", f"without a known pile order every {what} card must be written",
                        ev, expected=f"`{what} C` naming the card", found=f"a bare `{what}`")
        base = parse_card(written).base if written else None
        top = tb.top()
        got, problem = tb.take(base)
        if problem == "top":
            self.report("draw.top", f"{what} {written}, but the top of the draw pile is {top}", ev, "cards", index,
                        expected=top, found=written)
        elif problem == "unseen":
            self.report("cards.unseen", f"{what} {written}, but no {written} is unseen: every copy is in {tb.where(base)}",
                        ev, "cards", index, expected="a card still in the draw pile", found=written)
        if written and parse_card(written).decl is not None:
            self.report("wild.declaration", f"{written}: a declaration is made only when a wild card is matched", ev, "cards", index,
                        expected=parse_card(written).base, found=written)
        return got

    # ---- the whole log ------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        log = self.log
        for rnd in log.rounds:
            self.play_round(rnd)
        self.end_round(None)
        if log.winner is not None:
            w = log.winner
            if self.known(w.player, w):
                if not self.game_over:
                    self.report("game.winner", "`winner` before the game ended: no total has reached the target "
                                f"{self.rs.target}", w, "player", player=w.player,
                                expected=f"a total of at least {self.rs.target}", found=self._totals_text())
                elif w.player != self.game_winner:
                    self.report("game.winner", f"the winner is {self.game_winner}, not {w.player}", w, "player",
                                player=w.player, expected=self.game_winner, found=w.player)
        return self.findings

    def _totals_text(self) -> str:
        return " ".join(f"{p} {n}" for p, n in self.totals.items())

    # ---- rounds -------------------------------------------------------------------------------

    def play_round(self, rnd: Round) -> None:
        prev_no, prev_dealer, prev_winner = self.round_no, self.dealer, self.round_winner
        self.end_round(rnd)
        self.t = None
        self.rounds_seen += 1
        expect_no = (prev_no or 0) + 1
        self.round_no = rnd.number
        self.turn_no = 0
        if rnd.number != expect_no:
            self.report("round.sequence", f"round {rnd.number} follows round {prev_no or 0}", rnd, "number",
                        expected=f"round {expect_no}", found=f"round {rnd.number}")
        elif prev_no is not None and not self.prev_round_over:
            self.report("round.sequence", f"round {prev_no} has not ended: nobody went out", rnd,
                        expected=f"more turns of round {prev_no} until a player goes out", found=f"round {rnd.number}")
        if self.game_over:
            self.report("game.end", f"the game ended after round {prev_no}: {self.game_winner} reached the target "
                        f"{self.rs.target}; this round is refereed but not scored", rnd,
                        expected="no further round", found=f"round {rnd.number}")
        self.round_winner = None
        self.round_over = False
        self.scored = False
        self.called = {p: False for p in self.players}
        self.caught = {p: False for p in self.players}
        self.setup(rnd, prev_no, prev_dealer, prev_winner)
        for turn in rnd.turns:
            self.play_turn(turn, rnd)
        self.close_turn(rnd.score or rnd.totals)
        if rnd.score is not None:
            self.check_score(rnd)
        if rnd.totals is not None:
            self.check_totals(rnd)
        self._closing_round = rnd

    prev_round_over = True
    _closing_round: Round | None = None
    _scored_game_over = False

    def end_round(self, next_round: Round | None) -> None:
        """Called when a new round starts (or the log ends): a round that ended needs its score."""
        rnd = self._closing_round
        if rnd is None:
            return
        self._closing_round = None
        self.prev_round_over = self.round_over
        if self.round_over and rnd.score is None:
            line = next_round._line if next_round is not None else self.log._end_line
            ptr = next_round._pointer if next_round is not None else (f"{rnd._pointer}/score" if rnd._pointer is not None else None)
            pts = self.round_points()
            self.report("score.round", f"round {rnd.number} ended ({self.round_winner} went out) but has no `score` line",
                        line=line, pointer=ptr, player=self.round_winner,
                        expected=f"score {self.round_winner} {pts}" if pts is not None else f"score {self.round_winner} N",
                        found="no score line")
            self.apply_score()

    # ---- set-up -------------------------------------------------------------------------------

    def setup(self, rnd: Round, prev_no, prev_dealer, prev_winner) -> None:
        tb = self.table
        tb.start_round()
        deck_cards: list[str] = []
        deck_ev = None
        hands: dict[str, tuple[Hand, list[str]]] = {}
        center_ev: Center | None = None
        self.dealer = None
        comp = composition()
        for ev in rnd.setup:
            if isinstance(ev, Dealer):
                if not self.known(ev.player, ev):
                    continue
                self.dealer = ev.player
                if prev_no is not None:
                    if self.rs.opt("next-dealer") == "winner":
                        want, why = prev_winner, "the previous round's winner deals (V4)"
                    else:
                        want, why = (self.left(prev_dealer) if prev_dealer else None), "the deal passes left (V4, next-dealer=left)"
                    if want is not None and ev.player != want:
                        self.report("setup.dealer", f"{ev.player} deals round {rnd.number}, but {why}", ev, "player",
                                    player=ev.player, expected=want, found=ev.player)
            elif isinstance(ev, Deck):
                deck_ev = deck_ev or ev
                deck_cards.extend(ev.cards)
            elif isinstance(ev, Hand):
                if self.known(ev.player, ev):
                    if ev.player in hands:
                        self.report("notation.repeated", f"a second `hand` line for {ev.player}", ev, "player", player=ev.player)
                    hands[ev.player] = (ev, [parse_card(c).base for c in ev.cards])
            elif isinstance(ev, Center):
                center_ev = ev
        first_turn = rnd.turns[0] if rnd.turns else None
        if self.dealer is None:
            self.report("notation.placement", f"round {rnd.number} has no `dealer` line", rnd,
                        expected="`dealer P` before the first turn", found="no dealer")
        for p, (ev, cards) in hands.items():
            if len(cards) != 7:
                self.report("setup.hand", f"{p} is dealt {len(cards)} card(s), not 7", ev, "player", player=p,
                            expected="7 cards", found=f"{len(cards)} cards")
        if center_ev is not None and len(center_ev.cards) != 2:
            self.report("setup.center", f"the Center Row starts with {len(center_ev.cards)} card(s), not 2", center_ev,
                        expected="2 cards", found=f"{len(center_ev.cards)} cards")
        if deck_cards:
            self.setup_from_deck(rnd, deck_ev, deck_cards, hands, center_ev)
        else:
            for p in self.players:
                if p not in hands:
                    at = first_turn or rnd
                    self.report("setup.hand", f"no `hand` line for {p}, and no `deck` line to deal from", at, player=p,
                                expected=f"hand {p} followed by 7 cards", found="no hand line")
            if center_ev is None:
                self.report("setup.center", "no `center` line, and no `deck` line to deal from", first_turn or rnd,
                            expected="center C C", found="no center line")
            # place the written cards; more copies than the deck holds is cards.composition
            placed: Counter = Counter()
            items = [(ev, ev.cards, p) for p, (ev, _) in hands.items()] + ([(center_ev, center_ev.cards, None)] if center_ev else [])
            items.sort(key=lambda x: (x[0]._line or 0))
            for ev, cards, p in items:
                for i, code in enumerate(cards):
                    base = parse_card(code).base
                    placed[base] += 1
                    if parse_card(code).decl is not None:
                        self.report("wild.declaration", f"{code}: a declaration is made only when a wild card is matched",
                                    ev, "cards", i, player=p, expected=base, found=code)
                    if placed[base] > comp[base]:
                        self.report("cards.composition", f"one {base} too many: the deck holds {comp[base]}", ev, "cards", i,
                                    player=p, expected=f"at most {comp[base]} {base}", found=f"{placed[base]} {base}")
                    else:
                        tb.pile[base] -= 1
                        tb.pile_size -= 1
                    if p is None:
                        tb.center.append(CenterCard(base))
                    else:
                        tb.hands[p][base] += 1

    def setup_from_deck(self, rnd, deck_ev, deck_cards, hands, center_ev) -> None:
        tb = self.table
        comp = composition()
        bases = [parse_card(c).base for c in deck_cards]
        have = Counter(bases)
        if have != comp:
            extra = have - comp
            missing = comp - have
            parts = []
            if extra:
                parts.append("too many: " + " ".join(f"{c}x{n}" for c, n in sorted(extra.items())))
            if missing:
                parts.append("missing: " + " ".join(f"{c}x{n}" for c, n in sorted(missing.items())))
            self.report("cards.deck", f"the deck lists {len(bases)} cards, not the 108 of the composition ({'; '.join(parts)})",
                        deck_ev, expected="each card of the composition exactly once", found=f"{len(bases)} cards")
        for i, c in enumerate(deck_cards):
            if parse_card(c).decl is not None:
                self.report("wild.declaration", f"{c}: a declaration is made only when a wild card is matched", deck_ev,
                            expected=parse_card(c).base, found=c)
                break
        order = list(reversed(bases))
        tb.pile = Counter(bases)
        tb.pile_size = len(bases)
        tb.pile_order = order
        # V9: one card at a time clockwise from the dealer's left, until each holds 7, then 2 to the Center Row
        seats = self.players
        start = (self.seat[self.dealer] + 1) % len(seats) if self.dealer else 0
        dealt = {p: [] for p in seats}
        for _ in range(7):
            for k in range(len(seats)):
                p = seats[(start + k) % len(seats)]
                if order:
                    dealt[p].append(order.pop())
        center = [order.pop() for _ in range(2) if order]
        written_any = False
        for p, (ev, cards) in hands.items():
            if Counter(cards) != Counter(dealt[p]):
                self.report("setup.deal", f"{p}'s hand does not agree with the deal from the deck (V9: one card at a time "
                            "clockwise from the dealer's left)", ev, "player", player=p,
                            expected=" ".join(sorted(dealt[p])), found=" ".join(sorted(cards)))
                written_any = True
        if center_ev is not None and Counter(parse_card(c).base for c in center_ev.cards) != Counter(center):
            self.report("setup.deal", "the `center` line does not agree with the deal from the deck", center_ev,
                        expected=" ".join(center), found=" ".join(center_ev.cards))
            written_any = True
        if written_any:
            # trust what the players held as written; the pile keeps the deck's order without those cards
            for p in seats:
                if p in hands:
                    dealt[p] = list(hands[p][1])
            if center_ev is not None:
                center = [parse_card(c).base for c in center_ev.cards]
            used = Counter()
            for cards in list(dealt.values()) + [center]:
                used.update(cards)
            rest = []
            for b in reversed(bases):  # bottom first, as pile_order keeps the top last
                rest.append(b)
            keep: list[str] = []
            for b in reversed(rest):  # from the top
                if used.get(b, 0) > 0:
                    used[b] -= 1
                else:
                    keep.append(b)
            order[:] = list(reversed(keep))
        for p in seats:
            tb.hands[p] = Counter(dealt[p])
        tb.center = [CenterCard(b) for b in center]
        tb.pile = Counter(order)
        tb.pile_size = len(order)
        tb.pile_order = order

    # ---- turns --------------------------------------------------------------------------------

    def play_turn(self, turn: Turn, rnd: Round) -> None:
        self.close_turn(turn)
        if not self.known(turn.player, turn):
            self.t = None
            return
        if self.round_over:
            if not self._after_end_reported:
                self.report("round.end", f"{self.round_winner} went out: round {rnd.number} is over, and no turn follows",
                            turn, "player", player=turn.player, expected="`score` and a new `round`", found=f"turn {turn.player}")
                self._after_end_reported = True
            self.t = None
            return
        self._after_end_reported = False
        if self.turn_no == 0:
            self.prev_player = None  # a round's first turn: the dealer's left starts
        self.turn_no += 1
        self.turns_seen += 1
        if self.prev_player is None:
            want = self.left(self.dealer) if self.dealer else turn.player
            why = "the dealer's left starts"
        else:
            want = self.left(self.prev_player)
            why = f"play goes clockwise: {want} sits left of {self.prev_player}"
        if turn.player != want:
            self.report("turn.order", f"{turn.player} plays, but {why}", turn, "player", player=turn.player,
                        expected=f"turn {want}", found=f"turn {turn.player}")
        self.prev_player = turn.player
        for c in self.table.center:
            c.refilled = c.matched = False
        self.t = TurnState(turn.player, turn)
        for ev in turn.events:
            self.event(ev)

    _after_end_reported = False
    prev_player: str | None = None

    def event(self, ev) -> None:
        t = self.t
        if t.immediate and not (isinstance(ev, Draw) and (ev.player or t.player) == t.immediate[0]):
            q, n = t.immediate
            self.report("dos.penalty", f"{q} was caught and must draw the {n} penalty card(s) at once, on the next line",
                        ev, player=q, expected=f"draw {q} " + " ".join(["C"] * n), found=f"`{type(ev).__name__.lower()}`")
            t.immediate = None
        self._handlers[ev.type](self, ev)

    # ---- steps of the end of a turn ----------------------------------------------------------

    def flush(self) -> None:
        """Step 1: this turn's matched cards go to the discard pile; the refill owed is fixed now."""
        t = self.t
        if t is None or not t.matches:
            return  # before any match the end of the turn has not begun (a reshuffle for the draw after no match)
        self.table.flush_pending()
        if not t.discarded:
            t.discarded = True
            t.refill_owed = max(0, 2 - len(self.table.center))

    def refill_possible(self) -> bool:
        tb = self.table
        return tb.pile_size > 0 or sum(tb.discard.values()) > 0

    def step(self, ev, n: int, what: str) -> None:
        """Enter end-of-turn step n; report (once a turn) a step that comes before an unfinished earlier one."""
        t = self.t
        self.flush()
        if n > 3:
            self.lapse_bonus()
        missing = None
        if n > 2 and t.refill_owed > t.refilled and self.refill_possible():
            missing = 2
        elif n > 3 and t.bonus_owed() > 0 and self.table.hand_size(t.player) > 0:
            missing = 3
        elif n > 4 and t.penalty_owed > 0:
            missing = 4
        if missing and not t.order_reported and t.early is None:
            # too early, or is the earlier step missing altogether? That is certain only when it comes
            t.early = (ev, missing, f"{what} before {ORDINAL[missing]}", f"{ORDINAL[missing]} first", what)
        t.step = max(t.step, n)

    def arrive(self, key, ev) -> None:
        """A step arrives: if an event came before it too early, report that now, at the early event."""
        t = self.t
        if t.early is None or t.order_reported or t.early[1] != key:
            return
        early, _, message, expected, found = t.early
        t.order_reported = True
        self.report("turn.steps", f"{message}: the end of a turn runs discard, refill, bonus cards, DOS penalty, then the "
                    "others' Double Color Match draws in seat order (V7)", early, expected=expected, found=found,
                    related=[Position(line=ev._line, column=ev._column, pointer=ev._pointer)])

    def lapse_bonus(self) -> None:
        """V10: bonuses still owed when the hand is empty at the bonus step lapse silently."""
        t = self.t
        if self.table.hand_size(t.player) == 0:
            t.bonus_placed = max(t.bonus_placed, t.bonus_earned)
            t.bonus_maybe = 0

    # ---- events -------------------------------------------------------------------------------

    def on_match(self, ev: Match) -> None:
        t, tb = self.t, self.table
        p = t.player
        target = parse_card(ev.target)
        cards = [parse_card(c) for c in ev.cards]
        reported = False
        if t.step >= 2 or t.action_done:
            refilled_only = any(c.base == target.base and c.refilled for c in tb.center) and not any(
                c.base == target.base and not c.refilled and not c.matched for c in tb.center)
            if not refilled_only and not t.order_reported:
                t.order_reported = True
                self.report("turn.steps", "a match after the turn's matching phase ended", ev,
                            expected="matches before the refill, bonus cards and draws", found="match")
                reported = True
        if t.drew and self.rs.opt("after-draw-match") == "drawn-only" and not reported:
            if len(cards) != 1 or cards[0].base != t.drawn_card or t.matches_after_draw >= 1:
                self.report("match.after-draw", "after the draw only the drawn card may be matched, in one single match "
                            "(after-draw-match=drawn-only)", ev, "cards", 0,
                            expected=f"match X with {t.drawn_card}" if t.drawn_card else "no match", found=" + ".join(ev.cards))
                reported = True
        # the Center Row card
        slot = None
        for c in tb.center:
            if c.base == target.base and not c.matched and not c.refilled:
                slot = c
                break
        if slot is None:
            if any(c.base == target.base and c.refilled for c in tb.center):  # the copy lying there now was refilled
                self.report("match.refilled", f"{target.base} was refilled this turn and cannot be matched until the next",
                            ev, "target", expected="a Center Row card that was there before the refill", found=ev.target)
                slot = next(c for c in tb.center if c.base == target.base and c.refilled)  # applied as written
            elif t.matched_targets.get(target.base):
                self.report("match.once", f"{target.base} was already matched this turn: each Center Row card is matched once",
                            ev, "target", expected="a Center Row card not yet matched", found=ev.target)
            else:
                self.report("match.center", f"there is no {target.base} in the Center Row", ev, "target",
                            expected="one of " + " ".join(c.base for c in tb.center if not c.matched) if tb.center else "a card of the Center Row",
                            found=ev.target)
            reported = True
        if target.decl is not None and target.wild is None:
            pass  # the grammar forbids declarations on numbered cards
        # the hand cards
        for i, c in enumerate(cards):
            if not tb.remove_from_hand(p, c.base):
                where = tb.where(c.base)
                self.report("match.held", f"{p} does not hold {c.base}" + (f" (it is in {where})" if where != "nowhere seen" else ""), ev, "cards", i,
                            expected="a card from " + (" ".join(sorted(tb.hands[p].elements())) or "an empty hand"), found=c.code)
                reported = True
            tb.pending[c.base] += 1
        self.hand_changed(p)
        j = judge(target, cards)
        if not j.ok and not (reported and j.rule == "match.two-cards" and False):
            field, idx = ("cards", 0)
            self.report(j.rule, j.message, ev, field, idx, expected=j.expected, found=" + ".join(ev.cards))
        t.matches += 1
        if t.drew:
            t.matches_after_draw += 1
        if slot is not None:
            t.matched_targets[slot.base] = t.matched_targets.get(slot.base, 0) + 1
            slot.matched = True
            tb.center.remove(slot)
            tb.pending[slot.base] += 1
            if t.discarded:  # a match after the refill began (reported): refilling again is allowed, not owed
                t.refill_maybe = max(t.refill_maybe, t.refilled + max(0, 2 - len(tb.center)) - t.refill_owed)
        if j.colour and len(cards) <= 2:
            certain = j.ok and not reported
            if certain:
                t.bonus_earned += 1
            else:
                t.bonus_maybe += 1
            if j.double:
                t.dcm += 1
                owed = t.dcm_owed if certain else t.dcm_maybe
                for q in self._seats_from_left(p):
                    owed[q] = owed.get(q, 0) + 1
        self.after_action(p)

    def after_action(self, p: str) -> None:
        """A completed action: a hand now holding exactly 2 cards owes a DOS call (V6)."""
        # nothing to store: a catch checks the hand size and whether the player called since it changed
        return

    def on_draw(self, ev: Draw) -> None:
        t, tb = self.t, self.table
        q = ev.player or t.player
        if not self.known(q, ev):
            return
        n = max(1, len(ev.cards))
        written: list[str | None] = list(ev.cards) if ev.cards else [None]
        reason = None
        owed = 0
        if t.immediate and t.immediate[0] == q:
            reason, owed = "immediate", t.immediate[1]
        elif (t.penalty_maybe.get(q, 0) and n == t.penalty_maybe[q] and not (q == t.player and t.penalty_owed)
              and not (q != t.player and t.dcm_owed.get(q, 0))):
            reason, owed = "maybe-penalty", t.penalty_maybe[q]  # the penalty of a catch that did not stand
        elif q == t.player and not t.drew and t.matches == 0 and t.step == 0 and not t.action_done:
            reason, owed = "no-match", 1
        elif q == t.player and t.penalty_owed > 0:
            reason, owed = "penalty", t.penalty_owed
        elif q != t.player and (t.dcm_owed.get(q, 0) > 0 or t.dcm_maybe.get(q, 0) > 0):
            reason, owed = "dcm", t.dcm_owed.get(q, 0) + t.dcm_maybe.get(q, 0)
        elif t.penalty_maybe.get(q, 0) > 0:
            reason, owed = "maybe-penalty", t.penalty_maybe[q]
        if reason is None:
            if q == t.player:
                why = "the draw after no match was already made" if t.drew else ("matches were made" if t.matches else "no draw is owed")
                self.report("draw.reason", f"{q} draws {n} card(s) that nobody owes ({why})", ev,
                            "player" if ev.player else None, player=q, expected="no draw",
                            found=f"draw {q} {' '.join(ev.cards)}".strip())
            else:  # another player drawing in this turn: a Double Color Match draw that was never earned
                why = (f"{t.player} made {t.dcm} Double Color Match(es) and {q} drew for them already" if t.dcm
                       else f"{t.player} made no Double Color Match this turn")
                self.report("bonus.draw", f"{q} draws {n} card(s) without a reason: {why}", ev, "player", player=q,
                            expected="no draw", found=f"draw {q} {' '.join(ev.cards)}".strip())
        elif reason == "no-match":
            if self.rs.opt("decline-match") == "forbidden":
                center = [c.base for c in tb.center if not c.refilled]
                hand = [b for b in tb.hands[q].elements() if b != UNKNOWN]
                if any_match(center, hand, parse_card):
                    self.report("match.decline", f"{q} could match and may not decline to draw (decline-match=forbidden)", ev,
                                player=q, expected="a match", found="draw")
        elif reason == "penalty":
            self.step(ev, 4, "the DOS penalty draw")
            self.arrive(4, ev)
        elif reason == "dcm":
            self.step(ev, 5, "a Double Color Match draw")
            # seat order from the left of the player on turn
            order = [p for p in self._seats_from_left(t.player) if t.dcm_owed.get(p, 0) > 0 and p != q]
            earlier = [p for p in order if self._seats_from_left(t.player).index(p) < self._seats_from_left(t.player).index(q)]
            if earlier and not t.order_reported and t.early is None:
                t.early = (ev, ("dcm", earlier[0]), f"{q} draws for the Double Color Match before {earlier[0]}",
                           f"draw {earlier[0]} first", f"draw {q}")
            self.arrive(("dcm", q), ev)
        extra_reported = False
        for i, w in enumerate(written):
            if reason is not None and i >= owed and not extra_reported:
                extra_reported = True
                self.report("bonus.draw" if reason == "dcm" else "draw.reason",
                            f"{q} draws {n} card(s) but owes {owed} here", ev, "cards", i, player=q,
                            expected=f"{owed} card(s)", found=f"{n} cards")
            got = self.draw_from_pile(w, ev, i, "draw")
            if got is None:
                continue
            tb.hands[q][got] += 1
        self.hand_changed(q)
        if reason == "no-match":
            t.drew = True
            t.drawn_card = parse_card(written[0]).base if written[0] else None
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

    def _seats_from_left(self, p: str) -> list[str]:
        """The other players in seat order, starting at p's left."""
        return self._from_left[p]

    def on_refill(self, ev: Refill) -> None:
        t, tb = self.t, self.table
        self.flush()
        self.arrive(2, ev)
        t.step = max(t.step, 2)
        written: list[str | None] = list(ev.cards) if ev.cards else [None]
        extra_reported = False
        for i, w in enumerate(written):
            if t.refilled >= t.refill_owed + t.refill_maybe and not extra_reported:
                extra_reported = True
                why = (f"the Center Row is refilled only up to 2 cards, and it holds {len(tb.center)}" if t.matches
                       else "no match was made, so nothing is refilled")
                self.report("draw.reason", why, ev, "cards", i if ev.cards else None, expected="no refill",
                            found=f"refill {w or ''}".strip())
            got = self.draw_from_pile(w, ev, i, "refill")
            if got is None:
                continue
            tb.center.append(CenterCard(got, refilled=True))
            t.refilled += 1

    def on_place(self, ev: Place) -> None:
        t, tb = self.t, self.table
        p = t.player
        card = parse_card(ev.card)
        if card.decl is not None:
            self.report("wild.declaration", f"{ev.card}: a declaration is made only when a wild card is matched", ev, "card",
                        expected=card.base, found=ev.card)
        if t.bonus_owed() > 0 or t.bonus_maybe > 0:
            self.step(ev, 3, "a bonus card")
            self.arrive(3, ev)
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            else:
                t.bonus_maybe -= 1
        elif not t.drew and t.matches == 0 and not t.action_done and t.step == 0 and self.refill_possible():
            self.report("draw.no-match", f"{p} places a card without having matched or drawn: a player who makes no match "
                        "draws one card first", ev, expected="draw C, then place", found=f"place {ev.card}")
            t.drew = t.action_done = True
        elif (t.drew or not self.refill_possible()) and t.matches == 0 and not t.action_done:
            if self.rs.opt("no-match-after-draw") == "pass":
                self.report("place.no-match", "under this ruleset a player who still cannot match keeps the card and passes "
                            "(no-match-after-draw=pass)", ev, expected="pass", found=f"place {ev.card}")
            t.action_done = True
        else:
            if t.matches and t.bonus_earned:
                msg = f"{p} earned {t.bonus_earned} bonus card(s) and placed them already"
            elif t.matches:
                msg = "no colour match was made this turn, so no bonus card is owed"
            elif not t.drew:
                msg = "a card is placed only as a colour bonus or after a draw that brought no match"
            else:
                msg = "the card for the unmatched draw was already placed"
            self.report("bonus.card", f"a card placed that was never earned: {msg}", ev, "card",
                        expected="no place", found=f"place {ev.card}")
        if not tb.remove_from_hand(p, card.base):
            self.report("cards.held", f"{p} does not hold {card.base}", ev, "card",
                        expected="a card from " + (" ".join(sorted(tb.hands[p].elements())) or "an empty hand"), found=ev.card)
        self.hand_changed(p)
        tb.center.append(CenterCard(card.base))

    def on_pass(self, ev: Pass) -> None:
        t = self.t
        if self.rs.opt("no-match-after-draw") != "pass":
            self.report("turn.pass", "this ruleset has no `pass`: a player who cannot match after the draw puts a card into "
                        "the Center Row (no-match-after-draw=place)", ev, expected="place C", found="pass")
        elif not (t.drew and t.matches == 0) or t.action_done:
            self.report("turn.pass", "`pass` ends a turn only after a draw that brought no match", ev,
                        expected="a match, or a draw first", found="pass")
        t.action_done = True
        t.passed = True

    def on_dos(self, ev: Dos) -> None:
        q = ev.player or self.t.player
        if not self.known(q, ev):
            return
        size = self.table.hand_size(q)
        if size != 2:
            self.report("dos.call", f"{q} calls DOS holding {size} card(s)", ev, "player" if ev.player else None, player=q,
                        expected="a call with exactly 2 cards", found=f"{size} cards")
            return
        if not self.caught[q]:
            self.called[q] = True

    def on_catch(self, ev: Catch) -> None:
        t = self.t
        q, r = ev.player, ev.by
        if not (self.known(q, ev, "player") and self.known(r, ev, "by")):
            return
        size = self.table.hand_size(q)
        problem = None
        if q == r:
            problem = (f"{q} cannot catch themself", "by", "another player", r)
        elif size != 2:
            problem = (f"{q} holds {size} card(s), not 2: there is nothing to catch", "player",
                       "a player holding exactly 2 cards", f"{size} cards")
        elif self.caught[q]:
            problem = (f"{q} was already caught and cannot be caught again until their hand changes", "player",
                       "no catch", f"catch {q}")
        elif self.called[q]:
            problem = (f"{q} called DOS in time", "player", "no catch", f"catch {q} by {r}")
        if problem:
            message, field, expected, found = problem
            self.report("dos.catch", message, ev, field, player=q, expected=expected, found=found)
            # the penalty of a catch that does not stand may still be drawn: a consequence, not judged
            t.penalty_maybe[q] = t.penalty_maybe.get(q, 0) + 2
            return
        self.caught[q] = True
        if q == t.player and t.step < 4:
            t.penalty_owed += 2
        else:
            t.immediate = (q, 2)

    def on_reshuffle(self, ev: Reshuffle) -> None:
        tb = self.table
        self.flush()
        if tb.pile_size > 0:
            self.report("reshuffle.when", f"the draw pile still holds {tb.pile_size} card(s): the discard pile is turned over "
                        "only when a draw or refill finds the pile empty", ev, expected="no reshuffle", found="reshuffle")
            return
        order = None
        if ev.cards:
            listed = Counter(parse_card(c).base for c in ev.cards)
            if listed != tb.discard:
                extra, missing = listed - tb.discard, tb.discard - listed
                bits = []
                if extra:
                    bits.append("not in the discard pile: " + " ".join(sorted(extra.elements())))
                if missing:
                    bits.append("left out: " + " ".join(sorted(missing.elements())))
                self.report("reshuffle.cards", f"the reshuffle does not list the discard pile ({'; '.join(bits)})", ev,
                            expected=f"the {sum(tb.discard.values())} cards of the discard pile", found=f"{len(ev.cards)} cards")
            else:
                order = [parse_card(c).base for c in ev.cards]
        tb.reshuffle(order)

    # ---- the end of a turn and of a round ------------------------------------------------------

    def close_turn(self, closing) -> None:
        """The turn ends at `closing` (the next turn, score, round) or at the end of the log."""
        t = self.t
        if t is None:
            return
        self.t = t  # findings below still belong to the closing turn
        tb = self.table
        line = closing._line if closing is not None else self.log._end_line
        ptr = closing._pointer if closing is not None else None
        kw = dict(line=line, pointer=ptr, related_to=t.turn)
        p = t.player
        can_draw = self.refill_possible()  # V5: with both piles empty nothing is drawn, and nothing is owed
        if t.immediate and can_draw:
            q, n = t.immediate
            self.report("dos.penalty", f"{q} was caught and never drew the {n} penalty card(s)", player=q,
                        expected=f"draw {q} " + " ".join(["C"] * n), found="no penalty draw", **kw)
        if t.matches == 0 and not t.drew and not t.action_done and can_draw:
            self.report("draw.no-match", f"{p} made no match and drew no card", expected="a match, or `draw C`",
                        found="nothing", **kw)
        elif t.drew and t.matches == 0 and not t.action_done and self.rs.opt("no-match-after-draw") == "place":
            self.report("place.no-match", f"{p} drew, made no match and put no card into the Center Row",
                        expected="place C", found="nothing", **kw)
        self.flush()
        if t.refill_owed > t.refilled and self.refill_possible():
            need = t.refill_owed - t.refilled
            self.report("center.refill", f"after the discard the Center Row held {2 - t.refill_owed} card(s) and {t.refilled} "
                        f"{'was' if t.refilled == 1 else 'were'} refilled: {need} more needed to make 2", expected="refill " + " ".join(["C"] * need),
                        found="no refill", **kw)
        self.lapse_bonus()
        owed_bonus = min(t.bonus_owed(), tb.hand_size(p))
        if owed_bonus > 0:
            self.report("bonus.card", f"{p} earned {t.bonus_earned} colour bonus(es) and placed {t.bonus_placed} card(s)",
                        expected=f"{owed_bonus} more `place C` line(s)", found="no bonus card", **kw)
        if t.penalty_owed > 0 and can_draw:
            self.report("dos.penalty", f"{p} was caught and never drew the {t.penalty_owed} penalty card(s)",
                        expected=f"draw {p} " + " ".join(["C"] * t.penalty_owed), found="no penalty draw", **kw)
        for q in self._seats_from_left(p):
            if t.dcm_owed.get(q, 0) > 0 and can_draw:
                self.report("bonus.draw", f"{q} did not draw for {p}'s Double Color Match", player=q,
                            expected=f"draw {q} " + " ".join(["C"] * t.dcm_owed[q]), found="no draw", **kw)
        if tb.hand_size(p) == 0:
            self.round_over = True
            self.round_winner = p
        self.t = None
        if self.visitor is not None:
            self.visitor(self)

    def snapshot(self) -> dict:
        """The replayed state now: hands, Center Row, pile sizes and running totals."""
        tb = self.table
        return {
            "round": self.round_no,
            "turn": self.turn_no,
            "player": self.prev_player,
            "hands": {p: sorted(h.elements()) for p, h in tb.hands.items()},
            "center": [c.base for c in tb.center],
            "draw_pile": tb.pile_size,
            "discard_pile": sum(tb.discard.values()),
            "totals": dict(self.totals),
            "round_over": self.round_over,
        }

    def round_points(self) -> int | None:
        pts = 0
        for q, hand in self.table.hands.items():
            if q == self.round_winner:
                continue
            if hand.get(UNKNOWN):
                return None
            pts += sum(value(b) * n for b, n in hand.items())
        return pts

    def apply_score(self) -> None:
        if self.scored or not self.round_over:
            return
        self.scored = True
        pts = self.round_points() or 0
        if not self.game_over:
            self.totals[self.round_winner] += pts
            if self.totals[self.round_winner] >= self.rs.target:
                self.game_over = True
                self.game_winner = self.round_winner
        else:
            self._post_game_round = True

    def check_score(self, rnd: Round) -> None:
        s = rnd.score
        if not self.known(s.player, s):
            return
        self.t = None
        if not self.round_over:
            self.report("score.round", "a `score` line, but no player went out this round", s, "player", player=s.player,
                        expected="more turns until a player holds no card", found=f"score {s.player} {s.points}")
            return
        pts = self.round_points()
        if s.player != self.round_winner:
            self.report("score.round", f"{self.round_winner} went out and scores the round, not {s.player}", s, "player",
                        player=s.player, expected=f"score {self.round_winner} {pts if pts is not None else 'N'}",
                        found=f"score {s.player} {s.points}")
        elif pts is not None and s.points != pts:
            detail = "; ".join(f"{q}: " + " ".join(sorted(h.elements())) for q, h in self.table.hands.items() if q != self.round_winner and h)
            self.report("score.round", f"the cards left in the other hands are worth {pts}, not {s.points} ({detail})", s, "points",
                        player=s.player, expected=str(pts), found=str(s.points),
                        help="number cards score face value, Wild DOS 20, Wild # 40")
        self.apply_score()

    def check_totals(self, rnd: Round) -> None:
        tt = rnd.totals
        self.t = None
        if not self.scored and self.round_over:
            self.apply_score()
        seen = set()
        cols = tt._cols.get("entries") if tt._cols else None
        for i, e in enumerate(tt.entries):
            col = cols[i] if isinstance(cols, list) and i < len(cols) else None
            ptr = f"{tt._pointer}/entries/{i}" if tt._pointer is not None else None
            if e.player not in self.seat:
                self.report("notation.player", f"`{e.player}` is not a player of this game", tt, column=col, pointer=ptr,
                            expected="one of " + ", ".join(self.players), found=e.player)
                continue
            if e.player in seen:
                self.report("score.totals", f"{e.player} is listed twice", tt, column=col, pointer=ptr, player=e.player,
                            expected="every player once", found=f"{e.player} twice")
                continue
            seen.add(e.player)
            if e.points != self.totals[e.player]:
                self.report("score.totals", f"{e.player}'s running total is {self.totals[e.player]}, not {e.points}", tt,
                            column=col, pointer=ptr, player=e.player, expected=str(self.totals[e.player]), found=str(e.points))
        missing = [p for p in self.players if p not in seen]
        if missing:
            self.report("score.totals", "`totals` leaves out " + ", ".join(missing), tt,
                        expected="every player once", found=" ".join(f"{e.player} {e.points}" for e in tt.entries))


Referee._handlers = {
    "match": Referee.on_match, "draw": Referee.on_draw, "refill": Referee.on_refill, "place": Referee.on_place,
    "pass": Referee.on_pass, "dos": Referee.on_dos, "catch": Referee.on_catch, "reshuffle": Referee.on_reshuffle,
}
