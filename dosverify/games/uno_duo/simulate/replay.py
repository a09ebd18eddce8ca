"""A small replayer of `uno-duo 1` text for the test side: the state at every line, and its own findings.

It is not the referee (it reads only what the simulator writes, in every rendering, and the mutants
of the pack's mutate.py), but it judges the rules it meets, from the contract alone, so that the tests can
check the simulator's logs for consistency (cards accounted for, hand sizes, scores equal to hand
values, nothing broken) and mutate.py can confirm that a mutant breaks exactly the rule it claims,
at its line, and nothing after it. After a finding it goes on as section 3 says (an illegal play is
applied as written; a drawn wrong card is taken; an owed total cancelled after `volley.stack`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Self

from .cards import DEFAULTS, TARGET, WD4, base, colour, composition, face, hand_value, is_wild, matches, top_colour
from .pile import Pile


@dataclass
class Line:
    """One line of the text: its words, and the state before it."""

    no: int
    raw: str
    words: list[str]
    kind: str
    round: int = 0
    turn: int = -1  # index into Replay.turns, -1 outside turns
    player: str | None = None  # on turn
    hands: dict[str, list[str]] = field(default_factory=dict)
    top: str = ""
    role: str = ""  # what the line was, as replayed: "play", "run", "start-run", "stack", "drawn-play", "draw:<why>"...
    drawer: str | None = None  # draw lines: who drew
    known: bool = False  # draw lines: the top of the pile was known before the line
    phase: str = ""  # the turn's phase before the line


@dataclass
class Turn:
    index: int
    round: int
    player: str
    start: int  # the `turn` line
    lines: list[int] = field(default_factory=list)
    after: int = 0  # the next `turn`, `round` or `score` line, or the last line + 1


@dataclass
class Finding:
    line: int
    rule: str
    note: str = ""


@dataclass
class Face:
    """What the player on turn faces (section 3, Turns)."""

    total: int = 0
    turned_up: bool = False
    wd4: bool = False
    by_opponent: bool = False  # a WD4 played (challengeable), not turned up
    legit: bool = True
    run: str | None = None


def split_lines(text: str) -> list[tuple[str, list[str]]]:
    """(raw, words) for every line: BOM, CR, comments (`#` at the start or after white space) removed."""
    text = text.lstrip("\ufeff")
    body = text.split("\n")
    if text.endswith("\n"):
        body = body[:-1]
    out = []
    for raw in body:
        raw = raw.rstrip("\r")
        words: list[str] = []
        for w in raw.split():
            if w.startswith("#"):
                break
            words.append(w)
        out.append((raw, words))
    return out


class _Base:
    """The header, the set-up of a round, and its end (score, totals, winner)."""

    def __init__(self, text: str):
        self.text = text
        self.lines = [Line(i, raw, w, w[0] if w else "") for i, (raw, w) in enumerate(split_lines(text), 1)]
        self.nlines = len(self.lines)
        self.players: list[str] = []
        self.opts = dict(DEFAULTS)
        self.target = TARGET
        self.findings: list[Finding] = []
        self.moments: Counter = Counter()
        self.turns: list[Turn] = []
        self.totals: dict[str, int] = {}
        self.rnd = 0
        self.prev_drafter: str | None = None
        self.game_over = False
        self.round_over = False
        self.scored = True
        self.hands: dict[str, list[str]] = {}
        self.discard: list[str] = []
        self.pile = Pile([], Counter())
        self.deck: list[str] | None = None
        self.picks: list[tuple[str, str, str]] = []
        self.hand_lines: dict[str, list[str]] = {}
        self.drafter = ""
        self.score_lines: list[int] = []
        self.totals_lines: list[int] = []
        self.winner_line = 0
        self.accounts: list[int] = []  # cards accounted for at each `score` line
        self.dealt: list[dict[str, int]] = []  # hand sizes after each round's set-up

    def find(self, no: int, rule: str, note: str = "") -> None:
        self.findings.append(Finding(no, rule, note))

    def other(self, p: str) -> str:
        return self.players[1 - self.players.index(p)]

    def header(self, ln: Line) -> None:
        w = ln.words
        if ln.kind == "players":
            self.players = w[1:3]
            self.totals = {p: 0 for p in self.players}
        elif ln.kind == "option":
            self.opts[w[1]] = w[2]
        elif ln.kind == "target":
            self.target = int(w[1])

    def new_round(self, ln: Line) -> None:
        self.end_turn(ln.no)
        if not self.scored:
            self.find(ln.no, "score.round")
        elif self.game_over:  # contract, End: the game ended after the last round
            self.find(ln.no, "game.end")
        self.rnd = int(ln.words[1])
        self.round_over = False
        self.scored = False
        self.deck, self.picks, self.hand_lines = None, [], {}
        self.discard = []
        self.hands = {p: [] for p in self.players}

    def setup_line(self, ln: Line) -> None:
        w = ln.words
        if ln.kind == "drafter":
            self.drafter = w[1]
            if self.prev_drafter is not None and self.prev_drafter == w[1]:
                self.find(ln.no, "setup.drafter")
            self.prev_drafter = w[1]
        elif ln.kind == "deck":
            self.deck = (self.deck or []) + w[1:]
        elif ln.kind == "draft":
            keep, discard = (w[3], w[5]) if w[2] == "keep" else (w[5], w[3])
            self.picks.append((w[1], keep, discard))
            self.hands[w[1]].append(keep)
            if self.deck is not None:
                pair = [keep, discard] if w[2] == "keep" else [discard, keep]
                at = 2 * (len(self.picks) - 1)
                if self.deck[at : at + 2] != pair:
                    self.find(ln.no, "draft.pick")
        elif ln.kind == "hand":
            self.hand_lines[w[1]] = w[2:]
            self.hands[w[1]] = list(w[2:])

    def build_pile(self) -> None:
        """The pile after the draft (U11), as far as the log tells it."""
        size = self.opts["deck"]
        full = composition(size)
        discards = [d for _, _, d in self.picks]
        held = Counter(c for h in self.hands.values() for c in h)
        rest = full - held - Counter(discards)
        if self.deck is not None:
            main: list[str | None] = list(self.deck[28:])
            if Counter(self.deck) != full:
                self.find(0, "cards.composition")
        else:
            main = [None] * (full.total() - 28)
        if self.hand_lines:
            slots: list[str | None] = [None] * (full.total() - 14)
            cards = full - held
        else:
            turned = self.opts["pile-order"] == "turned"
            slots = main + (list(discards) if turned else [None] * 14)
            cards = rest + Counter(discards)
        self.pile = Pile(slots, cards)
        if self.deck is None and not self.hand_lines and self.opts["pile-order"] == "turned":
            self.pile.discards_known = 14

    def score(self, ln: Line) -> None:
        self.end_turn(ln.no)
        self.accounts.append(self.accounted())
        self.score_lines.append(ln.no)
        p, n = ln.words[1], int(ln.words[2])
        if not self.round_over or self.scored or not self.hands.get(p):
            self.find(ln.no, "score.round")
        elif n != hand_value(self.hands[p]):
            self.find(ln.no, "score.values")
        self.scored = True
        if p in self.totals:
            self.totals[p] += n
        if max(self.totals.values()) >= self.target:
            self.game_over = True

    def totals_line(self, ln: Line) -> None:
        self.totals_lines.append(ln.no)
        w = ln.words
        said = {w[i]: int(w[i + 1]) for i in range(1, len(w) - 1, 2)}
        if said != self.totals:
            self.find(ln.no, "score.totals")

    def winner(self, ln: Line) -> None:
        self.winner_line = ln.no
        if not self.game_over or ln.words[1] != min(self.players, key=lambda p: self.totals[p]):
            self.find(ln.no, "game.winner")

    def end_turn(self, no: int) -> None:  # the turn rules' (Replay) business
        raise NotImplementedError

    def accounted(self) -> int:
        """Cards in hands, the discard pile and the draw pile: the deck's size when nothing is lost."""
        return sum(len(h) for h in self.hands.values()) + len(self.discard) + len(self.pile)


class _Turns(_Base):
    """The turn's frame: whose turn, what they face, owed draws and actions, UNO windows."""

    def __init__(self, text: str):
        super().__init__(text)
        self.on = ""
        self.face = Face()
        self.pending = Face()
        self.phase = "none"
        self.drawn: str | None = None
        self.owed: list[list] = []  # [player, n, rule]
        self.expect: str | None = None
        self.first_turn = False
        self.uno_owes: dict[str, bool] = {}
        self.window: dict[str, bool] = {}
        self.prev_kind = ""
        self.dead = False  # a turn after the round's end: the rest of the round is not refereed

    def run(self) -> Self:
        for ln in self.lines:
            if not ln.kind:
                continue
            self.snapshot(ln)
            self.dispatch(ln)
            self.prev_kind = ln.kind if ln.kind != "uno" else self.prev_kind
        self.end_turn(self.nlines + 1)
        if self.round_over and not self.scored:
            self.find(self.nlines + 1, "score.round")
        return self

    def snapshot(self, ln: Line) -> None:
        ln.round = self.rnd
        ln.turn = len(self.turns) - 1 if self.phase != "none" else -1
        ln.player = self.on or None
        ln.hands = {p: list(h) for p, h in self.hands.items()}
        ln.top = self.discard[-1] if self.discard else ""
        ln.phase = self.phase
        ln.known = self.pile.top_known()
        if ln.turn >= 0 and ln.kind not in ("turn", "round", "score", "totals", "winner"):
            self.turns[-1].lines.append(ln.no)

    def dispatch(self, ln: Line) -> None:
        k = ln.kind
        if k in ("uno-duo", "players", "option", "target", "ruleset") or (self.rnd == 0 and k != "round"):
            self.header(ln)
        elif k == "round":
            self.dead = False
            self.new_round(ln)
            self.phase = "none"
        elif k in ("drafter", "deck", "draft", "hand"):
            self.setup_line(ln)
        elif k == "start":
            self.start(ln)
        elif k == "score":
            self.dead = False
            self.score(ln)
        elif k == "totals":
            self.totals_line(ln)
        elif k == "winner":
            self.winner(ln)
        elif k == "turn":
            self.turn(ln)
        elif self.dead:
            return
        elif self.round_over and not (k == "draw" and self.owed):
            self.find(ln.no, "round.end")
            self.dead = True
        else:
            self.event(ln)

    def event(self, ln: Line) -> None:
        k = ln.kind
        if self.owed and k != "reshuffle" and not (k == "draw" and self.drawer(ln) == self.owed[0][0]):
            rule = self.owed[0][2]
            self.owed = []
            self.find(ln.no, rule, "owed draws short" if k != "draw" else "the wrong player draws")
            if k == "draw":
                return
        getattr(self, "ev_" + k)(ln)

    # ---- set-up and turns
    def start(self, ln: Line) -> None:
        self.build_pile()
        self.dealt.append({p: len(h) for p, h in self.hands.items()})
        card = ln.words[1]
        rule = self.pile.judge(base(card))
        if rule:
            self.find(ln.no, "setup.start" if rule in ("draw.top", "draft.under") else rule)
        self.pile.take(base(card))
        self.discard.append(card)
        if is_wild(card) and "=" not in card:
            self.find(ln.no, "wild.colour")
        p1, p2 = self.drafter, self.other(self.drafter)
        self.expect, self.first_turn = p2, True
        f = face(card)
        if base(card) == WD4:
            self.pending = Face(wd4=True, turned_up=True)
        elif f == "+2":
            self.pending = Face(total=2, turned_up=True)
        elif f == "S":
            self.expect = p1
        elif f == "R":
            self.pending = Face(run=card[0])
        self.moments["start-" + (base(card) if is_wild(card) else f)] += 1
        self.uno_owes = {p: False for p in self.players}
        self.window = dict(self.uno_owes)

    def turn(self, ln: Line) -> None:
        self.end_turn(ln.no)
        if self.round_over:
            if not self.dead:
                self.find(ln.no, "round.end")
            self.dead = True
            return
        p = ln.words[1]
        if p != self.expect:
            self.find(ln.no, "start.first" if self.first_turn else "turn.order")
        self.on = self.expect or p
        self.expect = self.other(self.on)
        self.first_turn = False
        self.face, self.pending = self.pending, Face()
        self.phase = "start"
        self.drawn = None
        self.turns.append(Turn(len(self.turns), self.rnd, self.on, ln.no))

    def end_turn(self, no: int) -> None:
        """The turn before line `no` is over: owed draws and a missing action are reported here."""
        if self.turns and not self.turns[-1].after:
            self.turns[-1].after = no
        if self.phase == "none" or self.dead:
            self.phase = "none"
            return
        if self.owed:
            self.find(no, self.owed[0][2], "owed draws short")
            self.owed = []
        if not self.round_over:
            missing = self.missing_action()
            if missing:
                self.find(no, missing, "missing action")
        self.phase = "none"

    def missing_action(self) -> str | None:
        if self.phase == "again":
            return "skip.again" if self.opts["skip-again"] == "must" else None
        if self.phase == "ordinary":
            return "draw.one"
        if self.phase != "start":
            return None
        if self.face.total:
            return "volley.draw"
        if self.face.wd4:
            return "wd4.draw"
        if self.owes_run():
            return "start.reverse"
        return "draw.one"

    def owes_run(self) -> bool:
        c = self.face.run
        return c is not None and self.phase == "start" and any(colour(x) == c for x in self.hands[self.on])

    def drawer(self, ln: Line) -> str:
        w = ln.words
        return w[1] if len(w) > 1 and w[1] in self.players else self.on

    # ---- UNO bookkeeping
    def action_line(self) -> None:
        if self.opts["uno-window"] == "next-action":
            self.window = {p: False for p in self.players}

    def hand_changed(self, p: str) -> None:
        self.uno_owes[p] = False
        self.window[p] = False


class Replay(_Turns):
    """The event lines of a turn: play, draw, challenge, uno, catch, reshuffle, pass."""

    def __init__(self, text: str):
        super().__init__(text)
        self.uno_line: dict[str, int] = {}
        self.prev_no = 0

    def dispatch(self, ln: Line) -> None:
        rule = syntax(ln.words, self.players) if self.rnd or ln.kind in KEYWORDS else None
        if rule:
            self.find(ln.no, rule)
        else:
            super().dispatch(ln)
        self.prev_no = ln.no

    # ---- play
    def ev_play(self, ln: Line) -> None:
        cards = ln.words[1:]
        p = self.on
        hand = self.hands[p]
        stacking = self.phase == "start" and self.face.total > 0
        legit = self.phase == "drawn" or self.legit_wd4(hand, cards[0])
        rule, role = self.judge_play(cards)
        ln.role = role
        if rule:
            self.find(ln.no, rule)
        self.action_line()
        for c in cards:
            if base(c) in hand:
                hand.remove(base(c))
            elif self.pile.cards[base(c)] > 0:
                self.pile.cards[base(c)] -= 1  # taken from the unseen cards
        self.discard += cards
        self.hand_changed(p)
        carry = self.face.total if stacking else 0
        if stacking:
            self.moments["stack"] += 1
            if carry + 2 >= 6:
                self.moments["volley3"] += 1
        self.face = Face()
        self.after_play(ln, cards, carry, legit)

    def judge_play(self, cards: list[str]) -> tuple[str | None, str]:
        """The first rule a `play` line breaks (section 4's order), and what the line is."""
        hand = Counter(self.hands[self.on])
        role = {"drawn": "drawn-play", "again": "again-play"}.get(self.phase, "play")
        several = len(cards) > 1
        if self.phase not in ("start", "again", "ordinary", "drawn"):
            return "turn.end", role
        if self.phase == "start" and self.face.total:
            no_stack = self.face.turned_up and self.opts["start-volley"] == "no"
            return (None if not several and face(cards[0]) == "+2" and not no_stack else "volley.stack"), "stack"
        if self.phase == "start" and self.face.wd4:
            return "wd4.answer", role
        if any(Counter(base(c) for c in cards)[b] > hand[b] for b in {base(c) for c in cards}):
            return "play.held", role
        c = self.face.run
        if self.owes_run() and self.start_run_line(cards):
            if any(colour(x) != c for x in cards):
                return "start.reverse", "start-run"
            if sum(1 for x in self.hands[self.on] if colour(x) == c) > len(cards):
                return "reverse.all", "start-run"
            return None, "start-run"
        if any(is_wild(x) and "=" not in x for x in cards):
            return "wild.colour", role
        if self.phase == "drawn" and base(cards[0]) != self.drawn:
            return "draw.drawn-only", role
        if not matches(cards[0], self.discard[-1]):
            return "play.match", role
        if not several:
            return None, role
        if face(cards[0]) != "R":
            return "play.one", "run"
        if any(colour(x) != cards[0][0] for x in cards):
            return "reverse.colour", "run"
        if sum(1 for x in self.hands[self.on] if colour(x) == cards[0][0]) > len(cards):
            return "reverse.all", "run"
        return None, "run"

    def start_run_line(self, cards: list[str]) -> bool:
        """Owing a start run: is this line it? (`start-reverse may`: not a one-card line, nor one starting with a Reverse)."""
        if self.opts["start-reverse"] == "must":
            return True
        return len(cards) > 1 and face(cards[0]) != "R"

    def legit_wd4(self, hand: list[str], first: str) -> bool:
        """U9, judged on the hand before a WD4 is played (only a challenge asks)."""
        if base(first) != WD4 or not self.discard:
            return True
        rest = list(hand)
        if WD4 in rest:
            rest.remove(WD4)
        top = self.discard[-1]
        if self.opts["wd4-legal"] == "colour":
            return not any(not is_wild(c) and c[0] == top_colour(top) for c in rest)
        return not any(base(c) != WD4 and matches(c, top) for c in rest)

    def after_play(self, ln: Line, cards: list[str], carry: int, legit: bool) -> None:
        """The last card acts (U5-U7, U14); the play may leave one card (an UNO call is owed)."""
        p, last, several = self.on, cards[-1], len(cards) > 1
        self.phase = "done"
        if ln.role in ("run", "start-run"):
            self.moments[ln.role] += 1
        if not self.hands[p]:
            self.round_over = True
            self.moments["end-action" if face(last) in ("S", "R", "+2") or is_wild(last) else "end-number"] += 1
            if several and ln.role in ("run", "start-run"):
                self.moments["run-out"] += 1
            n = carry + 2 if face(last) == "+2" else 4 if base(last) == WD4 else 0
            if self.opts["last-draw"] == "yes" and n:
                self.owed = [[self.other(p), n, "volley.draw" if n != 4 or face(last) == "+2" else "wd4.draw"]]
                self.moments["last-draw"] += 1
            return
        if len(self.hands[p]) == 1:
            self.uno_owes[p] = self.window[p] = True
            self.uno_line[p] = ln.no
        if base(last) == WD4:
            self.pending = Face(wd4=True, by_opponent=True, legit=legit)
        elif face(last) == "+2":
            self.pending = Face(total=carry + 2)
        elif face(last) == "S":
            self.phase = "again"
        elif face(last) == "R":
            if several and self.opts["run-reverse"] == "opponent":
                self.pending = Face(run=last[0])
            elif not several and self.opts["reverse-alone"] == "skip":
                self.phase = "again"

    # ---- draw
    def ev_draw(self, ln: Line) -> None:
        q = self.drawer(ln)
        named = len(ln.words) > 1 and ln.words[1] in self.players
        items: list[str | None] = list(ln.words[2:] if named else ln.words[1:]) or [None]
        self.action_line()
        ln.drawer = q
        if not self.owed:
            self.begin_draw(ln, q, items)
        if self.owed:
            n = self.owed[0][1]
            if len(items) > n:
                self.find(ln.no, self.owed[0][2], "cards beyond the reason's number")
            ln.role = "draw:" + self.owed[0][2]
            self.take(ln, q, items)
            self.owed[0][1] -= len(items)
            if self.owed[0][1] <= 0:
                self.owed.pop(0)
        else:
            self.take(ln, q, items)

    def begin_draw(self, ln: Line, q: str, items: list) -> None:
        """A draw where nothing was owed yet: the total or WD4 faced, the ordinary draw, or one nobody owes."""
        if self.round_over or q != self.on or self.phase not in ("start", "again", "ordinary"):
            self.find(ln.no, "draw.reason")
            ln.role = "draw:reason"
            return
        if self.phase == "start" and self.face.total:
            if (
                self.opts["volley"] == "must"
                and not self.face.turned_up
                and any(face(c) == "+2" for c in self.hands[q])
            ):
                self.find(ln.no, "volley.stack")
            self.owed = [[q, self.face.total, "volley.draw"]]
            self.face = Face()
            self.phase = "done"
            return
        if self.phase == "start" and self.face.wd4:
            self.owed = [[q, 4, "wd4.draw"]]
            self.face = Face()
            self.phase = "done"
            return
        if self.owes_run() and self.opts["start-reverse"] == "must":
            self.find(ln.no, "start.reverse")
        elif len(items) > 1:
            self.find(ln.no, "draw.one")
        ln.role = "draw:one"
        self.phase = "drawn"
        self.drawn = items[0]

    def take(self, ln: Line, q: str, items: list) -> None:
        reported = False
        for card in items:
            if not self.pile.slots:
                if len(self.discard) < 2:
                    self.owed = []
                    return
                if not reported:
                    self.find(ln.no, "reshuffle.when", "a draw from an empty pile")
                    reported = True
                self.reshuffle_now(None)
            rule = self.pile.judge(card)
            if rule and not reported:
                self.find(ln.no, rule)
                reported = True
            got = self.pile.take(card) if card is not None or self.pile.top_known() else self.pile.slots.pop(0) or "?"
            self.hands[q].append(got)
            if self.drawn is None and ln.role == "draw:one":
                self.drawn = got
        if ln.role == "draw:one" and items[0] is None:
            self.drawn = self.hands[q][-1]
        self.hand_changed(q)

    # ---- the other lines
    def ev_challenge(self, ln: Line) -> None:
        if not (self.phase == "start" and self.face.wd4 and self.face.by_opponent):
            self.find(ln.no, "wd4.challenge")
            return
        if self.face.legit:
            self.owed = [[self.on, 6, "wd4.outcome"]]
            self.phase = "done"
            self.moments["challenge-lost"] += 1
        else:
            self.owed = [[self.other(self.on), 4, "wd4.outcome"]]
            self.phase = "ordinary"
            self.moments["challenge-won"] += 1
        self.face = Face()

    def ev_uno(self, ln: Line) -> None:
        q = ln.words[1] if len(ln.words) > 1 else self.on
        if len(self.hands[q]) != 1:
            self.find(ln.no, "uno.call", "warning")
            return
        if self.uno_owes[q]:
            self.moments["late-call" if self.uno_line.get(q) != self.prev_no else "call"] += 1
        self.uno_owes[q] = self.window[q] = False

    def ev_catch(self, ln: Line) -> None:
        q, r = ln.words[1], ln.words[3]
        if q == r or len(self.hands[q]) != 1 or not self.uno_owes[q] or not self.window[q]:
            self.find(ln.no, "uno.catch")
            return
        self.uno_owes[q] = self.window[q] = False
        self.owed = [[q, 2, "uno.penalty"]]
        self.moments["catch"] += 1

    def ev_reshuffle(self, ln: Line) -> None:
        if self.pile.slots or len(self.discard) < 2:
            self.find(ln.no, "reshuffle.when")
            return
        listed = [base(c) for c in ln.words[1:]]
        want = [base(c) for c in self.discard[:-1]]
        if listed and (listed != want if self.opts["pile-order"] == "turned" else Counter(listed) != Counter(want)):
            self.find(ln.no, "reshuffle.cards")
            listed = []
        if self.owed and self.owed[0][2] == "volley.draw":
            self.moments["reshuffle-volley"] += 1
        self.moments["reshuffle"] += 1
        self.reshuffle_now(listed or None)

    def reshuffle_now(self, listed: list[str] | None) -> None:
        want = [base(c) for c in self.discard[:-1]]
        if self.opts["pile-order"] == "turned":
            slots: list[str | None] = list(want)
        else:
            slots = list(listed) if listed else [None] * len(want)
        self.pile = Pile(slots, Counter(want))
        self.discard = self.discard[-1:]

    def ev_pass(self, ln: Line) -> None:
        self.action_line()
        if self.owes_run() and self.opts["start-reverse"] == "must":
            self.find(ln.no, "start.reverse")
        elif self.phase not in ("start", "again", "ordinary"):
            self.find(ln.no, "turn.end")
        elif self.pile.slots or len(self.discard) >= 2:
            self.find(ln.no, "turn.pass")
        self.phase = "done"


KEYWORDS = frozenset(
    [
        "uno-duo",
        "round",
        "drafter",
        "deck",
        "draft",
        "keep",
        "discard",
        "hand",
        "start",
        "turn",
        "play",
        "draw",
        "challenge",
        "uno",
        "catch",
        "by",
        "reshuffle",
        "pass",
        "score",
        "totals",
        "winner",
        "players",
        "ruleset",
        "option",
        "target",
    ]
)
_CARD_WORD = re.compile(r"^[RGBYW][0-9A-Z+=#]")
_CODE = re.compile(r"^(?:[RGBY](?:[0-9]|S|R|\+2)|W|W\+4|W=[RGBY]|W\+4=[RGBY])$")
_CARDS_FROM = {"play": 1, "deck": 1, "hand": 2, "start": 1, "reshuffle": 1}


def card_word(w: str) -> bool:
    """Section 3: `W`, or R, G, B, Y or W followed by a digit, an upper-case letter, `+`, `=` or `#`."""
    return w == "W" or bool(_CARD_WORD.match(w))


def syntax(words: list[str], players: list[str]) -> str | None:
    """The notation rule a line breaks as a sentence (the few the test side needs), or None."""
    if not words:
        return None
    k = words[0]
    if k == "show" or (k not in KEYWORDS and not (k.islower() and len(words) == 2)):
        return "notation.line"
    if any(w == "?" for w in words):
        return "notation.card"
    if k in _CARDS_FROM or k == "draw":
        cards = words[_CARDS_FROM.get(k, 1) :]
        if k == "draw" and cards and cards[0] in players:
            cards = cards[1:]
        wilds_named = k in ("play", "start")
        for w in cards:
            if not _CODE.match(w) or ("=" in w and not wilds_named):
                return "notation.card"
    if k in ("uno", "turn") and len(words) > 1 and words[1] not in players:
        return "notation.card" if card_word(words[1]) else "notation.player"
    return None


def replay(text: str) -> Replay:
    """Replay a `uno-duo 1` text: the state at each line, the findings, the moments."""
    return Replay(text).run()


def errors(rp: Replay) -> list[Finding]:
    return [f for f in rp.findings if f.note != "warning"]
