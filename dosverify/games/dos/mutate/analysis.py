"""The state at each line of a legal log (hands, Center Row, pile, the role of each draw), which
the operators need to put a defect where it is one. A small replayer of its own: it trusts the
log, it is not a referee."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from ..cards import composition, full_deck


def base_of(code: str) -> str:
    return code.split("=", 1)[0]


def decl_colour(code: str) -> str | None:
    b, _, d = code.partition("=")
    if b == "W2":
        return d or None
    return b[0]


@dataclass
class Line:
    no: int  # 1-based line number
    raw: str
    words: list[str]
    kind: str  # first word, or "" for blank/comment lines
    round: int = 0
    turn: int = -1  # global turn index, -1 outside turns
    role: str = ""  # match-single, match-double, nomatch-draw, penalty-now, penalty-step, dcm, refill, bonus, nomatch-place, ...
    player: str | None = None  # who the line is about (drawer, placer, caught)
    hands: dict = field(default_factory=dict)  # before the line
    cr: list = field(default_factory=list)
    pile: list = field(default_factory=list)
    pile_known: bool = False
    discard: list = field(default_factory=list)
    status: dict = field(default_factory=dict)  # DOS status before the line
    colour: bool = False  # a colour match (match lines)


@dataclass
class TurnInfo:
    index: int
    round: int
    player: str
    start: int  # the `turn` line
    lines: list[int] = field(default_factory=list)  # its event lines
    after: int = 0  # the first event line after the turn (or last line + 1)
    ended_round: bool = False


@dataclass
class Analysis:
    text: str
    lines: list[Line]
    turns: list[TurnInfo]
    players: list[str]
    ruleset: str
    nlines: int  # lines in the text; nlines + 1 is "the end of the file"

    def line(self, no: int) -> Line:
        return self.lines[no - 1]


def _nlines(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def _read_lines(text: str) -> list[Line]:
    """The text's lines, each with its words (comments dropped) and keyword."""
    raw_lines = text.split("\n")
    if text.endswith("\n"):
        raw_lines = raw_lines[:-1]
    lines: list[Line] = []
    for i, raw in enumerate(raw_lines, 1):
        body = raw.strip()
        if body.startswith("#"):
            body = ""
        if " #" in body:
            body = body.split(" #", 1)[0].strip()
        words = body.split()
        lines.append(Line(i, raw, words, words[0] if words else ""))
    return lines


@lru_cache(maxsize=64)
def analyse(text: str) -> Analysis:
    """A legal log replayed line by line: each line with the table as it stood before it and the role
    it plays in its turn, and the turns with their lines; what the operators choose their edits from."""
    replay = _Replay(_read_lines(text))
    for ln in replay.lines:
        if ln.kind:
            replay.line(ln)
    replay.close_turn(_nlines(text) + 1)
    return Analysis(text, replay.lines, replay.turns, replay.players, replay.ruleset, _nlines(text))


@dataclass
class _TurnState:
    """The turn being replayed: how far it has gone, and what it still owes."""

    index: int
    p: str
    phase: str = "match"  # match, placed (no match, a card placed), end (the end-of-turn steps)
    matches: int = 0
    drew: bool = False
    covered: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    discarded: bool = False
    pending: int = 0  # penalty cards owed at the penalty step
    penalty_seen: bool = False
    dcm_seen: bool = False
    now: tuple[str, int] | None = None  # (player, cards) of a penalty being drawn at once


class _Replay:
    """The table through a log (the cards of each hand, the Center Row, the piles, the DOS calls), one
    method per kind of line; :func:`analyse` snapshots it before each line."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.players: list[str] = []
        self.ruleset = "official"
        self.turns: list[TurnInfo] = []
        self.hands: dict[str, list[str]] = {}
        self.cr: list[str] = []
        self.pile: list[str] = []
        self.pile_known = False
        self.discard: list[str] = []
        self.status: dict[str, str | None] = {}
        self.rnd = 0
        self.dealer: str | None = None
        self.deck: list[str] = []
        self.setup_hands: dict[str, list[str]] = {}
        self.center: list[str] = []
        self.dealt = False
        self.turn: _TurnState | None = None

    def line(self, ln: Line) -> None:
        k = ln.kind
        ln.round = self.rnd
        ln.turn = self.turn.index if self.turn else -1
        if self.dealt:
            self.snapshot(ln)
        w = ln.words
        if k == "players":
            self.players = w[1:]
        elif k == "ruleset":
            self.ruleset = w[1]
        elif k == "round":
            self.close_turn(ln.no)
            self.rnd = int(w[1])
            ln.round = self.rnd
            self.deck, self.setup_hands, self.center, self.dealt = [], {}, [], False
        elif k == "dealer":
            self.dealer = w[1]
        elif k == "deck":
            self.deck.extend(w[1:])
        elif k == "hand":
            self.setup_hands[w[1]] = w[2:]
        elif k == "center":
            self.center = w[1:]
        elif k == "turn":
            self.turn_line(ln)
        elif k in ("score", "totals", "winner"):
            self.close_turn(ln.no)
        elif self.turn is not None:
            self.turns[self.turn.index].lines.append(ln.no)
            handler = _EVENTS.get(k)
            if handler is not None:
                handler(self, ln, self.turn)

    def snapshot(self, ln: Line) -> None:
        """The table as it stands before line `ln`."""
        ln.hands = {p: list(h) for p, h in self.hands.items()}
        ln.cr, ln.pile, ln.pile_known, ln.discard = list(self.cr), list(self.pile), self.pile_known, list(self.discard)
        ln.status = dict(self.status)

    def deal(self) -> None:
        """The round's first turn: the deal from the deck (V9), or the `hand` and `center` lines."""
        players = self.players
        self.hands = {p: [] for p in players}
        if self.deck:
            assert self.dealer is not None  # a legal log names the dealer before the deck is dealt
            seat = players.index(self.dealer)
            order = [players[(seat + k) % len(players)] for k in range(1, len(players) + 1)]
            pl = list(self.deck)
            for _ in range(7):
                for p in order:
                    self.hands[p].append(pl.pop(0))
            self.cr = [pl.pop(0), pl.pop(0)]
            self.pile, self.pile_known = pl, True
        else:
            for p in players:
                self.hands[p] = list(self.setup_hands.get(p, []))
            self.cr = list(self.center)
            rest = Counter(composition())
            for h in self.hands.values():
                rest.subtract(h)
            rest.subtract(self.cr)
            self.pile = [c for c in full_deck() if rest[c] > 0 and not rest.subtract([c])]
            self.pile_known = False
        self.discard = []
        self.status = {p: None for p in players}
        self.dealt = True

    def changed(self, p: str) -> None:
        self.status[p] = "owed" if len(self.hands[p]) == 2 else None

    def take(self, card: str) -> None:
        b = base_of(card)
        if self.pile_known and self.pile and self.pile[0] == b:
            self.pile.pop(0)
        elif b in self.pile:
            self.pile.remove(b)

    def end_phase(self) -> None:
        """The end-of-turn steps begin: this turn's matched cards go to the discard pile."""
        t = self.turn
        if t and not t.discarded:
            self.discard.extend(t.covered + t.used)
            t.discarded = True
            t.phase = "end"

    def close_turn(self, at: int) -> None:
        if self.turn is None:
            return
        self.end_phase()
        info = self.turns[self.turn.index]
        info.after = at
        info.ended_round = not self.hands[info.player]
        self.turn = None

    def turn_line(self, ln: Line) -> None:
        self.close_turn(ln.no)
        if not self.dealt:
            self.deal()
            self.snapshot(ln)
        idx = len(self.turns)
        self.turns.append(TurnInfo(idx, self.rnd, ln.words[1], ln.no))
        self.turn = _TurnState(idx, ln.words[1])
        ln.turn = idx

    # -- a turn's events, each given the turn's state
    def match_line(self, ln: Line, t: _TurnState) -> None:
        w, p = ln.words, t.p
        tgt = w[1]
        cards = [c for c in w[3:] if c != "+"]
        self.cr.remove(base_of(tgt))
        t.covered.append(base_of(tgt))
        for c in cards:
            self.hands[p].remove(base_of(c))
            t.used.append(base_of(c))
        t.matches += 1
        ct = decl_colour(tgt)
        ln.colour = all(decl_colour(c) == ct for c in cards)
        ln.role = "match-double" if len(cards) == 2 else "match-single"
        ln.player = p
        self.changed(p)

    def draw_line(self, ln: Line, t: _TurnState) -> None:
        """Why the cards are drawn: a penalty at once, no match, the penalty step, or a Double Color Match."""
        w, p = ln.words, t.p
        q = w[1] if len(w) > 1 and w[1] in self.players else None
        cards = w[2:] if q else w[1:]
        q = q or p
        ln.player = q
        if t.now and t.now[0] == q:
            ln.role = "penalty-now"
            left = t.now[1] - len(cards)
            t.now = (q, left) if left > 0 else None
        elif q == p and t.phase == "match" and t.matches == 0 and not t.drew:
            ln.role = "nomatch-draw"
            t.drew = True
        else:
            self.end_phase()
            if q == p and t.pending > 0:
                ln.role = "penalty-step"
                t.pending -= len(cards)
                t.penalty_seen = True
            else:
                ln.role = "dcm"
                t.dcm_seen = True
        for c in cards:
            self.take(c)
            self.hands[q].append(base_of(c))
        self.changed(q)

    def refill_line(self, ln: Line, t: _TurnState) -> None:
        self.end_phase()
        ln.role = "refill"
        for c in ln.words[1:]:
            self.take(c)
            self.cr.append(base_of(c))

    def place_line(self, ln: Line, t: _TurnState) -> None:
        if t.matches == 0 and t.phase == "match":
            ln.role = "nomatch-place"
            t.phase = "placed"
        else:
            self.end_phase()
            ln.role = "bonus"
        ln.player = t.p
        self.hands[t.p].remove(base_of(ln.words[1]))
        self.cr.append(base_of(ln.words[1]))
        self.changed(t.p)

    def pass_line(self, ln: Line, t: _TurnState) -> None:
        ln.role = "pass"

    def dos_line(self, ln: Line, t: _TurnState) -> None:
        q = ln.words[1] if len(ln.words) > 1 else t.p
        ln.player = q
        self.status[q] = "called"

    def catch_line(self, ln: Line, t: _TurnState) -> None:
        """A catch: the penalty owed at the step (the player on turn, before it), or drawn at once."""
        q = ln.words[1]
        ln.player = q
        self.status[q] = "caught"
        if q == t.p and not t.penalty_seen and not t.dcm_seen:
            t.pending += 2
            ln.role = "catch-step"
        else:
            t.now = (q, 2)
            ln.role = "catch-now"

    def reshuffle_line(self, ln: Line, t: _TurnState) -> None:
        if t.phase == "match" and t.matches > 0:
            self.end_phase()
        ln.role = "reshuffle"
        if len(ln.words) > 1:
            self.pile, self.pile_known = [base_of(c) for c in ln.words[1:]], True
        else:
            self.pile, self.pile_known = list(self.discard), False
        self.discard = []


#: A turn's event lines, by keyword (a flat table of the replay's methods).
_EVENTS = {
    "match": _Replay.match_line,
    "draw": _Replay.draw_line,
    "refill": _Replay.refill_line,
    "place": _Replay.place_line,
    "pass": _Replay.pass_line,
    "dos": _Replay.dos_line,
    "catch": _Replay.catch_line,
    "reshuffle": _Replay.reshuffle_line,
}
