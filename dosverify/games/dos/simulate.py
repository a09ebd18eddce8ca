"""A DOS game simulator: legal logs in notation v1, deterministic for a seed.

This is an engine of its own, built from the rules digest (defaults V1-V11 of the
`official` ruleset and the options of spec/options.toml), not from the referee:
the two are meant to check each other. Simple agents play every kind of move a
real table makes: single and double matches, both colour bonuses, declined
matches, draw-then-match, draw-then-place (or pass), Wild # and Wild DOS with
explicit declarations (in hand and on a wild lying in the Center Row), forgotten
DOS calls, late calls and catches in and out of turn, refills, reshuffles, the
end of a round with `score` and `totals`, and whole games to a target.

Entry points: :func:`simulate` (a :class:`~dosverify.games.dos.events.Log`),
:func:`simulate_text` (the log as text), and for the CLI
:func:`add_simulate_arguments`, :func:`run_simulate` and :func:`main_simulate`.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass

from ...spec import load_spec
from . import events as ev
from .cards import full_deck, value

NAMES = ("ann", "bob", "cyd", "dan")
COLS = ("R", "G", "B", "Y")
ROUND_TURN_CAP = 400  # a round still open after this many turns ends the log (an unfinished game is valid)


# ---- card helpers --------------------------------------------------------------------------


def nums(base: str) -> tuple[int, ...]:
    """The numbers a physical card can stand for."""
    if base == "W2":
        return (2,)
    if base.endswith("#"):
        return tuple(range(1, 11))
    return (int(base[1:]),)


def col(base: str) -> str | None:
    """The colour of a physical card; None for a Wild DOS (any colour)."""
    return None if base == "W2" else base[0]


def declare(base: str, n: int | None = None, c: str | None = None) -> str:
    """The card code with its declaration (only wilds carry one)."""
    if base == "W2":
        return f"W2={c}"
    if base.endswith("#"):
        return f"{base}={n}"
    return base


def is_wild(base: str) -> bool:
    return base == "W2" or base.endswith("#")


@dataclass
class Opt:
    """One way to match one Center Row card."""

    ci: int  # index into the Center Row
    target: str  # the Center Row card's code, declared when wild
    cards: list[str]  # the hand cards' codes, declared when wild
    bases: list[str]  # the hand cards' physical codes
    colour: bool  # a Single or Double Color Match
    double: bool


def _single(ci: int, t: str, h: str, rng: random.Random) -> Opt | None:
    common = [n for n in nums(t) if n in nums(h)]
    if not common:
        return None
    n = common[0] if len(common) == 1 else rng.choice(common)
    ct, ch = col(t), col(h)
    if ct and ch:
        dt, dh, cm = ct, ch, ct == ch
    elif ct:
        dt, dh, cm = ct, ct, True
    elif ch:
        dt, dh, cm = ch, ch, True
    else:
        dt = dh = rng.choice(COLS)
        cm = True
    return Opt(ci, declare(t, n, dt), [declare(h, n, dh)], [h], cm, False)


def _double(ci: int, t: str, a: str, b: str, rng: random.Random) -> Opt | None:
    targets = range(2, 11) if t.endswith("#") else nums(t)
    sols = [(nt, na, nt - na) for nt in targets for na in nums(a) if (nt - na) in nums(b)]
    if not sols:
        return None
    nt, na, nb = sols[0] if len(sols) == 1 else rng.choice(sols)
    ct, ca, cb = col(t), col(a), col(b)
    if ct is None:  # a Wild DOS in the Center Row: the player on turn names its colour
        fixed = [c for c in (ca, cb) if c]
        if len(fixed) == 2 and fixed[0] != fixed[1]:
            c, dcm = rng.choice(COLS), False
        else:
            c, dcm = (fixed[0] if fixed else rng.choice(COLS)), True
        dt, da, db = c, (ca or c), (cb or c)
    else:
        dcm = ca in (None, ct) and cb in (None, ct)
        dt = ct
        da = ca or (ct if dcm else rng.choice(COLS))
        db = cb or (ct if dcm else rng.choice(COLS))
    return Opt(ci, declare(t, nt, dt), [declare(a, na, da), declare(b, nb, db)], [a, b], dcm, True)


def match_options(
    cr: list[str], hand: list[str], rng: random.Random, only: str | None = None, singles_only: bool = False
) -> list[Opt]:
    """Every way (one declaration each) to match each Center Row card with the hand."""
    out: list[Opt] = []
    counts = Counter(hand)
    kinds = list(counts)  # insertion order: deterministic
    for ci, t in enumerate(cr):
        for h in kinds:
            if only is not None and h != only:
                continue
            o = _single(ci, t, h, rng)
            if o:
                out.append(o)
        if singles_only or only is not None:
            continue
        for i, a in enumerate(kinds):
            for b in kinds[i:]:
                if a == b and counts[a] < 2:
                    continue
                o = _double(ci, t, a, b, rng)
                if o:
                    out.append(o)
    return out


# ---- the game ------------------------------------------------------------------------------


class RoundOver(Exception):
    """round-end=at-once (V15): the line that emptied the hand ended the round there."""


class Sim:
    """One simulated game; `events` are tuples rendered to a Log or text at the end."""

    def __init__(
        self,
        players: int,
        seed: int,
        ruleset: str = "official",
        rounds: int | None = 1,
        game: bool = False,
        deck: bool = True,
        target: int | None = None,
        options: dict | None = None,
        long_round: bool | str | None = None,
    ):
        if not 2 <= players <= 4:
            raise ValueError("DOS is played by 2 to 4 players")
        self.rng = random.Random(seed)
        self.rs = load_spec().ruleset(ruleset, options, target)
        self.opt = self.rs.options
        self.options_given = dict(options or {})
        self.ruleset_name = ruleset
        self.target_given = target
        self.target = self.rs.target
        self.rounds_max = None if game else (rounds if rounds is not None else 1)
        self.with_deck = deck
        self.names = list(NAMES[:players])
        # agent temperament, fixed per game
        self.p_call = self.rng.choice((0.55, 0.7, 0.85))
        self.p_decline = 0.08
        self.p_stop_after_draw = 0.1  # a player who declined may decline again after the draw
        # long rounds, where the piles run out (V5): every player declines and draws (the Center
        # Row grows, or the hands) until the draw pile first runs out ("drain": then both piles
        # are empty), or, once a hand is down to 3 cards, whenever the pile holds a card or two
        # ("thin": the rest of the round is played at a pile of 0 or 1, so that catches,
        # penalties and Double Color Match draws meet it); forgetful callers in both. Chosen
        # for about 1 game in 8 unless asked for (True: either).
        if long_round is None:
            long_round = self.rng.random() < 0.125
        if long_round is True:
            long_round = self.rng.choice(("drain", "thin"))
        if long_round not in (False, "drain", "thin"):
            raise ValueError(f"long_round must be a bool, 'drain' or 'thin', not {long_round!r}")
        self.long_round = long_round
        self.draining = False
        # caught at once in their own turn (the penalty at the step), or left owed for the others
        self.p_self_catch = 0.15 if long_round == "thin" else 0.5
        self.thin_floor = self.rng.choice((1, 2, 2)) if long_round == "thin" else 0
        if long_round:
            self.p_call = 0.3 if long_round == "drain" else 0.15
        self.moments: Counter = Counter()  # what happened, for the tests that count the moments
        # where an engine option (V12-V17) made the game depart from `official`, as the referee
        # judges it under `official`: (place, kind, rule), place as in :meth:`departure_lines`
        self.departures: list[tuple[tuple, str, str]] = []
        self.step_cls: int | None = None  # the end-of-turn step of the card lines emitted now (V7)
        self.rounds: list[dict] = []
        self.winner: str | None = None
        self.totals = {p: 0 for p in self.names}

    # -- seats
    def left(self, p: str) -> str:
        return self.names[(self.names.index(p) + 1) % len(self.names)]

    def others_from_left(self, p: str) -> list[str]:
        i = self.names.index(p)
        n = len(self.names)
        return [self.names[(i + k) % n] for k in range(1, n)]

    def dcm_order(self, p: str) -> list[str]:
        """Who draws for p's Double Color Match, in order (V13)."""
        if self.opt["dcm-order"] == "first-seat":
            return [q for q in self.names if q != p]
        return self.others_from_left(p)

    def emptied(self) -> None:
        """A line emptied the hand of the player on turn: under round-end=at-once the round ends there (V15)."""
        if self.opt["round-end"] == "at-once" and not self.hands[self.on_turn]:
            raise RoundOver

    def place_step3(self, p: str, hand: list) -> None:
        """p places a card of the hand in the Center Row at step 3 (for no match, V1, or a colour bonus)."""
        c = self.choose_place(hand)
        hand.remove(c)
        self.cr.append(c)
        with self.at_step(3):
            self.emit("place", c)
        self.last_dcm = False
        self.emptied()
        with self.at_step(3):
            self.after_change(p)

    # -- emission
    def emit(self, *event) -> None:
        self.turn_events.append(event)
        # the step of the turn a line belongs to (0 matching, 2 refill, 3 place, 4 own penalty, 5 the
        # others' Double Color Match draws); None for lines outside the order (calls, catches, reshuffles,
        # another player's at-once penalty)
        self.turn_cls.append(None if event[0] in ("reshuffle", "dos", "catch") else self.step_cls)

    def at_step(self, cls: int | None):
        """Emit the lines of what follows as lines of end-of-turn step `cls` (a context manager)."""
        sim = self

        class _Ctx:
            def __enter__(self):
                self.saved = sim.step_cls
                sim.step_cls = cls

            def __exit__(self, *exc):
                sim.step_cls = self.saved

        return _Ctx()

    # -- the piles
    def reshuffle(self) -> None:
        cards = self.discard
        self.rng.shuffle(cards)
        self.pile, self.discard = cards, []
        listed = self.with_deck or self.rng.random() < 0.75
        self.taken_in = None
        if self.matched_in_discard and not self.discarded:  # V17: this turn's matched cards taken in
            # a departure where `official` takes the reshuffle for one in mid-turn (judge_turn decides)
            self.v17_shuffles.append((len(self.turn_events), listed))
            if not listed:  # `official` sees it at the first draw its own pile (without them) cannot pay
                mine = Counter(self.matched_now)
                self.taken_in = [
                    ("turn", len(self.rounds) - 1, len(self.rounds[-1]["turns"]), len(self.turn_events)),
                    Counter(cards) - mine,
                ]
        if listed and not self.discarded and (self.covered or self.used) and self.step_cls in (4, 5):
            # drawn at once (V12, V14) before this turn's matched cards are discarded: if nothing of an earlier
            # step follows, `official` takes the draw for an end-of-turn step, and so misses them here
            self.reshuffles_mid.append(len(self.turn_events))
        self.matched_in_discard = 0
        self.emit("reshuffle", list(cards) if listed else [])
        if self.covered and not self.discarded:
            self.moments["reshuffle before this turn's matched cards are discarded"] += 1

    def take(self, n: int, kind: str, player: str | None = None, reason: str = "") -> list[str]:
        """Take n cards from the top of the pile (reshuffling when it runs out), emitting
        `draw`/`refill` lines that never span a reshuffle; returns the cards taken.
        `reason` (no-match, penalty-now, penalty-step, dcm, refill) only names the moments."""
        got: list[str] = []
        reason = reason or kind
        cur: list[str] = []

        def flush():
            if not cur:
                return
            if len(cur) > 1 and self.rng.random() < 0.25:  # one reason, several lines: same meaning
                for c in cur:
                    self.emit(kind, player, [c]) if kind == "draw" else self.emit(kind, [c])
            else:
                self.emit(kind, player, list(cur)) if kind == "draw" else self.emit(kind, list(cur))
            cur.clear()

        for _ in range(n):
            if not self.pile:
                self.draining = False
                if not self.discard:
                    self.moments["both piles empty"] += 1
                    break  # V5: both piles empty, nothing is drawn
                flush()
                self.reshuffle()
                self.moments[f"reshuffle inside {reason}" if got else f"reshuffle before {reason}"] += 1
            c = self.pile.pop(0)
            if self.taken_in is not None:  # V17, unlisted: does this draw show the matched cards taken in?
                at, theirs = self.taken_in
                if theirs[c] > 0:
                    theirs[c] -= 1
                else:
                    self.departures.append((at, "card-accounting", "reshuffle.cards"))
                    self.taken_in = None
            cur.append(c)
            got.append(c)
            if kind == "draw":
                self.hands[player or self.on_turn].append(c)
        flush()
        return got

    # -- DOS calls
    def after_change(self, p: str) -> None:
        """A completed action changed p's hand: a call is owed at exactly 2 cards (V6)."""
        if len(self.hands[p]) != 2 or self.opt["dos-call"] == "off":  # S3's game has no call
            self.status[p] = None
            return
        self.status[p] = "owed"
        if self.rng.random() < self.p_call:
            self.emit("dos", None if p == self.on_turn else p)
            self.status[p] = "called"
        elif p == self.on_turn and not self.past_penalty and not self.pending and self.rng.random() < self.p_self_catch:
            self.catch(p)

    def catch(self, q: str) -> None:
        """Someone other than q calls DOS first: q is caught."""
        by = self.rng.choice([x for x in self.names if x != q])
        self.emit("catch", q, by)
        self.status[q] = "caught"
        with self.at_step(4 if q == self.on_turn else None):
            self._penalty(q)

    def _penalty(self, q: str) -> None:
        if q == self.on_turn and not self.past_penalty and self.opt["own-penalty"] == "penalty-step":
            self.pending = True  # drawn at the turn's penalty step (V6, V7)
            self.moments["catch of the player on turn, penalty at the step"] += 1
        else:
            self.moments["catch with the pile at %s" % (len(self.pile) if len(self.pile) < 2 else "2+")] += 1
            if q != self.on_turn and self.matching_now:
                self.moments["catch of another player while the player on turn is matching"] += 1
            start = len(self.turn_events)
            if self.take(2, "draw", q, "penalty-now"):  # at once: the next line(s)
                if q == self.on_turn:  # own-penalty=at-once (V14): a departure if an earlier step follows
                    self.cand_penalty.append(self.first_draw(start))
                self.after_change(q)
            elif q == self.on_turn and not self.discarded:  # both piles empty: lapsed, where `official` draws later
                self.penalty_lapsed = True

    def dos_hook(self, at_start: bool) -> None:
        """Late calls and catches of forgotten calls, at the start or the end of a turn."""
        for q in self.names:
            if self.status[q] != "owed":
                continue
            if not at_start and q == self.on_turn:
                continue  # the player on turn is caught out of turn at the start of the next one
            r = self.rng.random()
            if r < self.p_catch(0.35, mid_match=False):
                if q == self.on_turn and self.pending:
                    continue
                self.catch(q)
            elif r < self.p_catch(0.35, mid_match=False) + self.p_late(0.15):
                self.emit("dos", None if q == self.on_turn else q)
                self.status[q] = "called"
                self.moments["late call"] += 1

    @property
    def hoarding(self) -> bool:
        """In a long round, whether the players decline every match now."""
        if self.long_round == "thin":  # once a hand is down to 3 cards, while the pile holds cards
            if not self.endgame:
                self.endgame = any(len(h) <= 3 for h in self.hands.values())
            return self.endgame and len(self.pile) >= self.thin_floor
        return self.draining

    def p_catch(self, p: float, mid_match: bool = True) -> float:
        """How likely a forgotten call is caught now: in a long round, nearly always when the pile
        holds 0 or 1 card (a penalty that the pile cannot pay, or pays across a reshuffle), and
        seldom before."""
        if self.long_round == "thin":  # and at the start or end of a turn, now and then, so that
            # some are left for the middle of the next player's matches
            return (0.9 if mid_match else 0.3) if len(self.pile) < 2 else 0.1
        return p

    def p_late(self, p: float) -> float:
        """How likely a forgotten call is made late now: in a long round, seldom, so that the
        forgotten calls wait for the low pile."""
        return 0.02 if self.long_round == "thin" else p

    def others_hook(self) -> None:
        """Between two matches of the player on turn: another player's forgotten call is caught
        (the penalty is drawn at once, before the next match), or called late."""
        for q in self.names:
            if q == self.on_turn or self.status[q] != "owed":
                continue
            r = self.rng.random()
            if r < self.p_catch(0.6):
                self.catch(q)
            elif r < self.p_catch(0.6) + self.p_late(0.1):
                self.emit("dos", q)
                self.status[q] = "called"
                self.moments["late call"] += 1

    # -- choices
    def pick(self, opts: list[Opt]) -> Opt:
        weights = []
        for o in opts:
            w = 1.0
            if o.colour:
                w *= 4
            if o.double:
                w *= 1.5
            w /= 1 + sum(is_wild(b) for b in o.bases) * 0.7
            weights.append(w)
        return self.rng.choices(opts, weights)[0]

    def choose_place(self, hand: list[str]) -> str:
        weights = [0.3 if is_wild(c) else 1.0 for c in hand]
        return self.rng.choices(hand, weights)[0]

    # -- one turn
    def do_match(self, o: Opt) -> None:
        p = self.on_turn
        self.covered.append(self.cr.pop(o.ci))
        for b in o.bases:
            self.hands[p].remove(b)
        self.used.extend(o.bases)
        with self.at_step(0):
            self.emit("match", o.target, list(o.cards))
        if self.opt["discard-matched"] == "at-once":  # V17: to the discard pile at once
            self.matched_in_discard += len(self.covered) + len(self.used)
            self.matched_now.extend(self.covered + self.used)
            self.discard.extend(self.covered + self.used)
            self.covered, self.used = [], []
        dcm_now = o.colour and o.double and self.opt["dcm-draws"] == "at-once"
        # a Double Color Match that empties the hand owes draws the round's end at once leaves out (V15), unless
        # they are made at once: then they belong to the match, and come before the round ends (V12 + V15)
        self.last_dcm = o.colour and o.double and not dcm_now
        if not dcm_now:  # at-once draws belong to the match: they come, then the round ends (digest, V12+V15)
            self.emptied()
        if o.colour:
            if o.double:
                self.bonus += 1
                if not dcm_now:
                    self.dcm += 1
            elif self.opt["single-color-bonus"] == "required" or self.rng.random() < 0.6:
                self.bonus += 1  # S3: the Single Color Match card may be placed, or not
        if dcm_now:  # V12: the others draw at once, on the next lines
            start = len(self.turn_events)
            with self.at_step(5):
                for q in self.dcm_order(p):
                    if self.take(1, "draw", q):
                        self.after_change(q)
                    else:  # both piles empty: the draw lapses (V5), where `official` would draw at the end
                        self.lapsed.append(q)
            if self.first_draw(start) is not None:
                self.cand_dcm.append(self.first_draw(start))
            self.dcm_groups.append((start, len(self.turn_events)))
            if not self.hands[p]:
                self.moments["hand emptied by a Double Color Match whose draws are made at once"] += 1
            self.emptied()
        with self.at_step(0):
            self.after_change(p)

    def matching(self, must: bool, only: str | None = None, limit: int | None = None) -> int:
        p = self.on_turn
        n = 0
        while limit is None or n < limit:
            if n == 0 and not must and self.hoarding:
                break  # declines (and spares the search over a long round's big Center Row)
            opts = match_options(self.cr, self.hands[p], self.rng, only=only)
            if not opts:
                break
            if n == 0 and not must and self.rng.random() < self.p_stop_after_draw:
                break
            if n > 0 and self.rng.random() > 0.85:
                break
            if n > 0:
                self.matching_now = True
                self.others_hook()
                self.matching_now = False
            self.do_match(self.pick(opts))
            n += 1
        return n

    def play_turn(self, p: str) -> bool:
        """Play p's turn; True when the round ended with it (V11)."""
        self.on_turn = p
        self.turn_events = []
        self.turn_cls = []
        self.cand_dcm, self.cand_penalty, self.dcm_groups = [], [], []  # for the departures (V12-V14)
        self.matched_in_discard = 0  # this turn's matched cards on the discard pile already (V17)
        self.matched_now = []  # and which cards
        self.last_dcm = False
        self.v17_shuffles = []  # (index, listed): reshuffles that took this turn's matched cards in (V17)
        self.reshuffles_mid = []  # listed reshuffles inside at-once draws, before the discard (V12, V14)
        self.penalty_lapsed = False  # an own at-once penalty that found both piles empty (V14)
        self.lapsed = []  # who drew nothing for an at-once Double Color Match, both piles being empty (V12)
        self.pending = False
        self.past_penalty = False
        self.matching_now = False
        self.discarded = False
        self.covered, self.used = [], []
        self.bonus = self.dcm = 0
        self.dos_hook(at_start=True)
        hand = self.hands[p]

        forbid_decline = self.opt["decline-match"] == "forbidden"
        made = 0
        if (forbid_decline or not self.hoarding) and match_options(self.cr, hand, self.rng):
            if forbid_decline or self.rng.random() >= self.p_decline:
                made = self.matching(must=True)
        if made == 0:  # no match (or declined): draw one (V2)
            with self.at_step(0):
                drawn = self.take(1, "draw", None, "no-match")
            if drawn:  # with both piles empty nothing is drawn, and the hand has not changed
                self.after_change(p)
            if self.opt["after-draw-match"] == "drawn-only":
                if drawn and drawn[0] in hand:
                    made = self.matching(must=forbid_decline, only=drawn[0], limit=1)
            else:
                made = self.matching(must=forbid_decline)
            if made == 0:
                if self.opt["no-match-after-draw"] == "pass":
                    with self.at_step(3):
                        self.emit("pass")
                    self.moments["pass"] += 1
                elif hand:
                    self.place_step3(p, hand)
        # the end of the turn (V7)
        self.discard.extend(self.covered + self.used)  # 1. discard
        self.discarded = True
        if len(self.cr) < 2:  # 2. refill to 2
            with self.at_step(2):
                self.cr.extend(self.take(2 - len(self.cr), "refill", None, "refill"))
        for _ in range(self.bonus):  # 3. bonus cards; one with no card left lapses (V10)
            if not hand:
                break
            self.place_step3(p, hand)
        if self.pending:  # 4. DOS penalty
            self.past_penalty = True
            if len(self.pile) < 2:
                self.moments[f"penalty at the step with the pile at {len(self.pile)}"] += 1
            with self.at_step(4):
                if self.take(2, "draw", p, "penalty-step"):
                    self.after_change(p)
        self.past_penalty = True
        if self.dcm:  # 5. the others' Double Color Match draws, seat order from p's left
            start = len(self.turn_events)
            with self.at_step(5):
                for q in self.dcm_order(p):
                    if self.take(self.dcm, "draw", q, "dcm"):
                        self.after_change(q)
            self.dcm_groups.append((start, len(self.turn_events)))
        ended = not hand
        if ended and self.dcm:
            self.moments["round ends with Double Color Match draws"] += 1
        if not ended:
            self.dos_hook(at_start=False)
        return ended

    # -- rounds and the game
    def play(self) -> Sim:
        dealer = self.rng.choice(self.names)
        number = 0
        while True:
            number += 1
            ended, winner = self.play_round(number, dealer)
            if not ended:
                break
            if any(t >= self.target for t in self.totals.values()):
                self.winner = max(self.names, key=lambda x: self.totals[x])
                break
            if self.rounds_max is not None and number >= self.rounds_max:
                break
            dealer = winner if self.opt["next-dealer"] == "winner" else self.left(dealer)
        return self

    def play_round(self, number: int, dealer: str) -> tuple[bool, str | None]:
        deck = full_deck()
        self.rng.shuffle(deck)
        rnd = {"number": number, "setup": [("dealer", dealer)], "turns": [], "score": None, "totals": None}
        self.rounds.append(rnd)
        if self.with_deck:
            for i in range(0, len(deck), 12):
                rnd["setup"].append(("deck", deck[i : i + 12]))
        order = [self.left(dealer)]
        while len(order) < len(self.names):
            order.append(self.left(order[-1]))
        self.hands = {p: [] for p in self.names}
        self.taken_in = None  # (place, cards): an unlisted V17 reshuffle, and the pile `official` believes in
        pile = list(deck)
        deal = list(self.names) if self.opt["deal-from"] == "first-seat" else order  # V16 (V9)
        for _ in range(7):  # V9: one card at a time from the dealer's left
            for p in deal:
                self.hands[p].append(pile.pop(0))
        self.cr = [pile.pop(0), pile.pop(0)]
        self.pile, self.discard = pile, []
        if not self.with_deck:
            for p in order:
                rnd["setup"].append(("hand", p, list(self.hands[p])))
            rnd["setup"].append(("center", list(self.cr)))
        self.status = {p: None for p in self.names}
        self.draining = self.long_round == "drain"
        self.endgame = False
        p = order[0]
        for _ in range(ROUND_TURN_CAP):
            at_once = False
            try:
                ended = self.play_turn(p)
            except RoundOver:
                ended = at_once = True
            rnd["turns"].append((p, self.turn_events))
            self.judge_turn(len(self.rounds) - 1, len(rnd["turns"]) - 1, at_once)
            if ended:
                pts = sum(value(c) for q in self.names if q != p for c in self.hands[q])
                self.totals[p] += pts
                rnd["score"] = (p, pts)
                rnd["totals"] = [(q, self.totals[q]) for q in self.names]
                self.judge_deal(len(self.rounds) - 1, deck, order)
                return True, p
            p = self.left(p)
        self.judge_deal(len(self.rounds) - 1, deck, order)
        return False, None

    # -- departures from `official` (the engine options V12-V17)
    def departure(self, at, kind: str, rule: str) -> None:
        """A departure at event `at` of the turn being played (or at a place given as a tuple)."""
        if isinstance(at, int):
            at = ("turn", len(self.rounds) - 1, len(self.rounds[-1]["turns"]), at)
        self.departures.append((at, kind, rule))

    def first_draw(self, start: int) -> int | None:
        return next((i for i in range(start, len(self.turn_events)) if self.turn_events[i][0] == "draw"), None)

    def judge_turn(self, ri: int, ti: int, at_once: bool) -> None:
        """After a turn: which of its lines `official` judges out of order (V12-V14), and whether the
        round ended with steps `official` still owes (V15)."""
        p, evs = self.rounds[ri]["turns"][ti]
        cls = self.turn_cls
        found = []

        def later_below(i: int, step: int) -> bool:
            return any(c is not None and c < step for c in cls[i + 1 :])

        for i in self.cand_dcm:  # V12: drawn before a later line of an earlier step
            if later_below(i, 4):
                found.append((i, "draw-order", "bonus.draw-time"))
            elif later_below(i, 5):  # only the DOS penalty after it: a step out of order (R9)
                found.append((i, "draw-order", "turn.steps"))
        for i in self.cand_penalty:  # V14: the penalty drawn before a later line of an earlier step
            if later_below(i, 4):
                found.append((i, "draw-order", "turn.steps"))
        official = self.others_from_left(p)
        for start, end in self.dcm_groups:  # V13: a draw while a player before them in seat order still owes
            draws = [(i, evs[i][1], len(evs[i][2])) for i in range(start, end) if evs[i][0] == "draw" and cls[i] == 5]
            left = Counter()
            for _, q, n in draws:
                left[q] += n
            for i, q, n in draws:
                if any(left[r] > 0 for r in official[: official.index(q)]):
                    found.append((i, "draw-order", "turn.steps"))
                    break
                left[q] -= n
        for i, listed in self.v17_shuffles:
            nxt = next((j for j in range(i + 1, len(evs)) if evs[j][0] in ("draw", "refill")), None)
            mid = (nxt is not None and cls[nxt] is None) or any(c is not None and c < 4 for c in cls[i + 1 :])
            if listed and mid:
                found.append((i, "card-accounting", "reshuffle.cards"))
            elif not listed and not mid:  # `official` discards the matched cards first: nothing to see
                at = ("turn", ri, ti, i)
                if self.taken_in is not None and self.taken_in[0] == at:
                    self.taken_in = None
                self.departures = [d for d in self.departures if d[0] != at]
        for i in self.reshuffles_mid:
            if not any(c is not None and c < 4 for c in cls[i + 1 :]):
                found.append((i, "card-accounting", "reshuffle.cards"))
        for i, kind, rule in sorted(found):
            self.departures.append((("turn", ri, ti, i), kind, rule))
        if (self.lapsed or self.penalty_lapsed) and not at_once and (self.pile or self.discard):
            # V12, V14: the draws lapsed at once, and at the end of the turn the discards could pay them (R18)
            if self.hands[p]:
                if self.penalty_lapsed:
                    self.departures.append((("after", ri, ti), "dos-call", "dos.penalty"))
                for _ in dict.fromkeys(self.lapsed):
                    self.departures.append((("after", ri, ti), "missed-bonus", "bonus.draw"))
            else:  # the round ends: one finding for the steps still owed (R55)
                kind_rule = ("missed-bonus", "bonus.draw") if self.lapsed else ("dos-call", "dos.penalty")
                self.departures.append((("after", ri, ti), *kind_rule))
        if at_once:  # V15: the round ended on the line that emptied the hand
            can_draw = bool(self.pile or self.discard or self.covered or self.used)
            if len(self.cr) < 2 and can_draw and any(e[0] == "match" for e in evs):
                self.departures.append((("score", ri), "card-accounting", "center.refill"))
            elif (self.dcm or self.last_dcm or self.lapsed) and can_draw:
                self.departures.append((("score", ri), "missed-bonus", "bonus.draw"))
            elif (self.pending or self.penalty_lapsed) and can_draw:
                self.departures.append((("score", ri), "dos-call", "dos.penalty"))

    def judge_deal(self, ri: int, deck: list[str], order: list[str]) -> None:
        """V16: with a `deck` and a deal from the first seat, the first line that plays a card the
        player would not hold after the deal from the dealer's left (V9) shows the deal."""
        if not self.with_deck or self.opt["deal-from"] != "first-seat" or order == self.names:
            return
        n = len(self.names)
        held = {p: Counter(deck[k] for k in range(7 * n) if order[k % n] == p) for p in self.names}
        for ti, (p, evs) in enumerate(self.rounds[ri]["turns"]):
            for i, e in enumerate(evs):
                if e[0] == "draw":
                    held[e[1] or p].update(e[2])
                elif e[0] in ("match", "place"):
                    for c in e[2] if e[0] == "match" else [e[1]]:
                        b = c.split("=")[0]
                        if held[p][b] <= 0:
                            self.departures.append((("turn", ri, ti, i), "draw-order", "setup.deal"))
                            return
                        held[p][b] -= 1

    def departure_lines(self) -> list[tuple[int, str, str]]:
        """The departures as (line, kind, rule) of the text log (:meth:`to_text`), in line order."""
        where: dict[tuple, int] = {}
        line = len(self.header_lines())
        after = None  # the last turn's place for "the line after it"
        for ri, r in enumerate(self.rounds):
            line += 1
            if after is not None:  # a round cut off: its `round` line
                where[after] = line + 1
            line += 1 + len(r["setup"])  # the blank line, `round N`, the set-up
            for ti, (_, evs) in enumerate(r["turns"]):
                if after is not None:
                    where[after] = line + 1
                line += 1
                for i in range(len(evs)):
                    where[("turn", ri, ti, i)] = line + 1 + i
                line += len(evs)
                after = ("after", ri, ti)
            where[("score", ri)] = line + 1
            if r["score"]:
                where[after] = line + 1
                after = None
            line += bool(r["score"]) + bool(r["totals"])
        if after is not None:
            where[after] = line + 1 + bool(self.winner)
        return sorted((where[at], kind, rule) for at, kind, rule in self.departures)

    # -- rendering
    def header_lines(self) -> list[str]:
        out = ["dos 1", "players " + " ".join(self.names), f"ruleset {self.ruleset_name}"]
        out.extend(f"option {k} {v}" for k, v in self.options_given.items())
        if self.target_given is not None:
            out.append(f"target {self.target_given}")
        return out

    def to_log(self) -> ev.Log:
        rounds = []
        for r in self.rounds:
            setup = []
            for s in r["setup"]:
                if s[0] == "dealer":
                    setup.append(ev.Dealer(player=s[1]))
                elif s[0] == "deck":
                    setup.append(ev.Deck(cards=s[1]))
                elif s[0] == "hand":
                    setup.append(ev.Hand(player=s[1], cards=s[2]))
                else:
                    setup.append(ev.Center(cards=s[1]))
            turns = [ev.Turn(player=p, events=[_event_model(e) for e in evs]) for p, evs in r["turns"]]
            rounds.append(
                ev.Round(
                    number=r["number"],
                    setup=setup,
                    turns=turns,
                    score=ev.Score(player=r["score"][0], points=r["score"][1]) if r["score"] else None,
                    totals=ev.Totals(entries=[ev.Total(player=q, points=n) for q, n in r["totals"]])
                    if r["totals"]
                    else None,
                )
            )
        return ev.Log(
            players=self.names,
            ruleset=self.ruleset_name,
            options=dict(self.options_given),
            target=self.target_given,
            rounds=rounds,
            winner=ev.Winner(player=self.winner) if self.winner else None,
        )

    def to_text(self) -> str:
        out = self.header_lines()
        for r in self.rounds:
            out.append("")
            out.append(f"round {r['number']}")
            for s in r["setup"]:
                if s[0] == "dealer":
                    out.append(f"dealer {s[1]}")
                elif s[0] == "deck":
                    out.append("deck " + " ".join(s[1]))
                elif s[0] == "hand":
                    out.append(f"hand {s[1]} " + " ".join(s[2]))
                else:
                    out.append("center " + " ".join(s[1]))
            for p, evs in r["turns"]:
                out.append(f"turn {p}")
                out.extend("  " + _event_text(e) for e in evs)
            if r["score"]:
                out.append(f"score {r['score'][0]} {r['score'][1]}")
            if r["totals"]:
                out.append("totals " + " ".join(f"{q} {n}" for q, n in r["totals"]))
        if self.winner:
            out.append(f"winner {self.winner}")
        return "\n".join(out) + "\n"


def _event_model(e: tuple):
    kind = e[0]
    if kind == "match":
        return ev.Match(target=e[1], cards=e[2])
    if kind == "draw":
        return ev.Draw(player=e[1], cards=e[2])
    if kind == "refill":
        return ev.Refill(cards=e[1])
    if kind == "place":
        return ev.Place(card=e[1])
    if kind == "pass":
        return ev.Pass()
    if kind == "dos":
        return ev.Dos(player=e[1])
    if kind == "catch":
        return ev.Catch(player=e[1], by=e[2])
    if kind == "reshuffle":
        return ev.Reshuffle(cards=e[1])
    raise ValueError(kind)


def _event_text(e: tuple) -> str:
    kind = e[0]
    if kind == "match":
        return f"match {e[1]} with " + " + ".join(e[2])
    if kind == "draw":
        return " ".join(["draw"] + ([e[1]] if e[1] else []) + list(e[2]))
    if kind == "refill":
        return " ".join(["refill"] + list(e[1]))
    if kind == "place":
        return f"place {e[1]}"
    if kind == "pass":
        return "pass"
    if kind == "dos":
        return "dos" + (f" {e[1]}" if e[1] else "")
    if kind == "catch":
        return f"catch {e[1]} by {e[2]}"
    if kind == "reshuffle":
        return " ".join(["reshuffle"] + list(e[1]))
    raise ValueError(kind)


# ---- public entry points -------------------------------------------------------------------


def _run(
    players, seed, ruleset="official", rounds=1, game=False, deck=True, target=None, options=None, long_round=None
) -> Sim:
    return Sim(players, seed, ruleset, rounds, game, deck, target, options, long_round).play()


def simulate(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    options: dict | None = None,
    long_round: bool | str | None = None,
) -> ev.Log:
    """A legal game log (the event model) for `players` players, deterministic for `seed`.

    `rounds` rounds are played (fewer if the game reaches its target first); `game=True`
    plays until a total reaches the target (`target`, default the ruleset's) and writes
    `winner`. `deck=True` writes each round's shuffled pile (`deck` lines); `deck=False`
    writes `hand` and `center` lines instead. `options` overrides the ruleset's options (and is
    written as `option` lines); `long_round` (True, "drain" or "thin") makes the players decline
    and draw so that rounds run long and the piles run out (see :class:`Sim`; None: about 1 game
    in 8, False: never)."""
    return _run(players, seed, ruleset, rounds, game, deck, target, options, long_round).to_log()


def simulate_text(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    writer: str = "auto",
    options: dict | None = None,
    long_round: bool | str | None = None,
    style: str = "canonical",
) -> str:
    """The same game as :func:`simulate`, as notation v1 text.

    `style` names a style of :data:`dosverify.games.dos.render.STYLES` (the same game written another way
    notation v1 allows). `writer="auto"` renders with `dosverify.games.dos.notation.write` (or the renderer,
    for another style); `writer="own"` forces the simulator's own writer (canonical style only)."""
    sim = _run(players, seed, ruleset, rounds, game, deck, target, options, long_round)
    if style != "canonical":
        from .render import render

        return render(sim.to_log(), style, seed).text
    if writer == "auto":
        try:
            from .notation import write
        except ImportError:
            write = None
        if write is not None:
            return write(sim.to_log())
    return sim.to_text()


def simulate_json(
    players: int,
    seed: int,
    ruleset: str = "official",
    rounds: int | None = 1,
    game: bool = False,
    deck: bool = True,
    target: int | None = None,
    options: dict | None = None,
    long_round: bool | str | None = None,
) -> str:
    from .jsonform import dump_json

    return dump_json(simulate(players, seed, ruleset, rounds, game, deck, target, options, long_round))


# ---- CLI -----------------------------------------------------------------------------------


def add_simulate_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Arguments of `dosverify simulate`."""
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4), help="number of players (2-4; default 3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed: the same seed gives the same log (default 0)")
    parser.add_argument("--ruleset", default="official", help="ruleset from spec/rulesets (default official)")
    g = parser.add_mutually_exclusive_group()
    g.add_argument(
        "--rounds", type=int, default=1, metavar="K", help="play K rounds (default 1; fewer if the target is reached)"
    )
    g.add_argument(
        "--whole-game",
        "--game",
        dest="game",
        action="store_true",
        help="play a whole game, until a total reaches the target",
    )
    parser.add_argument(
        "--target",
        type=int,
        default=None,
        metavar="N",
        help="the game's target (written as `target N`; default the ruleset's)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output form (default text)")
    parser.add_argument(
        "--no-deck",
        dest="deck",
        action="store_false",
        help="write `hand`/`center` lines instead of each round's `deck`",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set an option of the ruleset (written as `option KEY VALUE`); repeatable",
    )
    parser.add_argument(
        "--long-round",
        choices=("drain", "thin"),
        default=None,
        help="players who decline and draw so that the piles run out: until both are empty "
        "(drain), or whenever the draw pile holds more than 3 cards (thin)",
    )
    from .render import STYLES

    parser.add_argument(
        "--style",
        default="canonical",
        choices=sorted(STYLES),
        help="write the game in this style of notation v1 (text only; default canonical); "
        "`dosverify simulate --list-styles` says what each does",
    )
    parser.add_argument("--list-styles", action="store_true", help="list the styles and exit")
    parser.add_argument(
        "--view",
        default=None,
        metavar="VIEW",
        help="write what `table` (every hand and draw face down, `show` lines at each round's end) or "
        "`seat:P` (P's cards written, the others face down) saw; default: the open log",
    )
    parser.add_argument(
        "--as-program",
        action="store_true",
        help="write the log as a program that plays these options writes it: no `option` lines "
        "(its departures from `official` are for `dosverify profile` to find)",
    )
    parser.add_argument(
        "--departures",
        default=None,
        metavar="FILE",
        help="also write, as JSON, where `official` must find the engine options' departures (V12-V17) in "
        "the log written: [{line, kind, rule}] (text, canonical style, no view)",
    )
    parser.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    return parser


def program_text(sim: Sim, as_program: bool = True) -> tuple[str, list[tuple[int, str, str]]]:
    """The game as a program that plays its options writes it (no `option` lines when `as_program`), and
    the departures from `official` (line, kind, rule) at the lines of that text."""
    text = sim.to_text()
    departures = sim.departure_lines()
    if not as_program:
        return text, departures
    shift = len(sim.options_given)  # the option lines come before every line a departure is on
    text = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("option "))
    return text, [(line - shift, kind, rule) for line, kind, rule in departures]


def run_simulate(args: argparse.Namespace) -> int:
    """Run `dosverify simulate` with parsed arguments; returns the exit status."""
    if args.list_styles:
        from .render import STYLES

        for name, st in STYLES.items():
            print(f"{name:20} {st.describe()}")
        return 0
    options = {}
    for kv in args.option:
        key, eq, val = kv.partition("=")
        if not eq:
            print(f"dosverify simulate: --option takes KEY=VALUE, not `{kv}`", file=sys.stderr)
            return 2
        options[key.strip()] = val.strip()
    try:
        load_spec().ruleset(args.ruleset, options)
    except ValueError as exc:
        print(f"dosverify simulate: {exc}", file=sys.stderr)
        return 2
    if args.target is not None and args.target < 1:
        print("dosverify simulate: --target must be at least 1", file=sys.stderr)
        return 2
    if not args.game and args.rounds < 1:
        print("dosverify simulate: --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.style != "canonical" and args.format == "json":
        print(
            "dosverify simulate: --style is for the text form (the JSON form has one way to write a log)",
            file=sys.stderr,
        )
        return 2
    kw = dict(
        players=args.players,
        seed=args.seed,
        ruleset=args.ruleset,
        rounds=args.rounds,
        game=args.game,
        deck=args.deck,
        target=args.target,
        options=options or None,
        long_round=args.long_round,
    )
    if args.departures is not None or args.as_program:
        return _write_program(args, kw)
    if args.view is not None:
        from .hide import ViewError, hide
        from .jsonform import dump_json
        from .notation import write

        if args.style != "canonical":
            print(
                "dosverify simulate: --style and --view do not combine (a view is written in the canonical style)",
                file=sys.stderr,
            )
            return 2
        try:
            log = hide(simulate(**kw), args.view)
        except ViewError as exc:
            print(f"dosverify simulate: {exc}", file=sys.stderr)
            return 2
        out = dump_json(log) + "\n" if args.format == "json" else write(log)
    else:
        out = simulate_json(**kw) + "\n" if args.format == "json" else simulate_text(**kw, style=args.style)
    if args.output == "-":
        sys.stdout.write(out)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:  # CRLF styles keep their line ends
                fh.write(out)
        except OSError as exc:  # a missing folder, no permission: one line, not a traceback
            print(f"dosverify simulate: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


def _write_program(args: argparse.Namespace, kw: dict) -> int:
    """`--as-program` / `--departures`: the simulator's own canonical text, and where its departures are."""
    import json

    if args.format != "text" or args.style != "canonical" or args.view is not None:
        print(
            "dosverify simulate: --as-program and --departures write the text form, canonical style, no view",
            file=sys.stderr,
        )
        return 2
    text, departures = program_text(_run(**kw), args.as_program)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    if args.departures is not None:
        rows = [{"line": line, "kind": kind, "rule": rule} for line, kind, rule in departures]
        with open(args.departures, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)
            fh.write("\n")
    return 0


def main_simulate(argv: list[str] | None = None) -> int:
    parser = add_simulate_arguments(
        argparse.ArgumentParser(prog="dosverify simulate", description="Write a legal simulated DOS game log.")
    )
    return run_simulate(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main_simulate())
