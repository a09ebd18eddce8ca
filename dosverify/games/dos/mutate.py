"""Mutation operators: one known defect put into a legal log.

Each operator takes a legal log's text and a ``random.Random`` and returns a
:class:`Mutation` (the mutated text, with exactly one defect, and the finding the
referee must report first: its kind, rule id and line), or None when the log has
no place where the operator applies. Later findings, consequences of the defect,
may follow; nothing may come before the expected line.

Where a finding is expected follows notation.md ("Where a finding is reported"):
a step too early is reported at its own line; a missing step at the first event
line after the turn (the next ``turn``, ``round`` or ``score`` line), or at the
last line + 1 at the end of the file.

To know the state at each line (hands, Center Row, pile, the role of each draw),
:func:`analyse` replays the legal log with a small replayer of its own (it trusts
the log; it is not a referee).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ...spec import load_spec
from .. import Mutation
from .cards import composition, full_deck
from .simulate.matches import is_wild, match_options

# ---- replay of a legal log -----------------------------------------------------------------


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


# ---- mutations -----------------------------------------------------------------------------


def _lines(text: str) -> list[str]:
    out = text.split("\n")
    return out[:-1] if text.endswith("\n") else out


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _indent(raw: str) -> str:
    return raw[: len(raw) - len(raw.lstrip())]


def replace_line(text: str, no: int, new: str) -> str:
    ls = _lines(text)
    ls[no - 1] = _indent(ls[no - 1]) + new
    return _join(ls)


def delete_lines(text: str, nos: list[int]) -> str:
    drop = set(nos)
    return _join([ln for i, ln in enumerate(_lines(text), 1) if i not in drop])


def insert_after(text: str, no: int, new: str, like: int | None = None) -> str:
    ls = _lines(text)
    ref = ls[(like or no) - 1]
    ind = _indent(ref) or ("  " if (like or no) and ref.split() and ref.split()[0] == "turn" else "")
    ls.insert(no, ind + new)
    return _join(ls)


def _plain(code: str) -> bool:
    return not is_wild(base_of(code))


def _num(code: str) -> int:
    return int(base_of(code)[1:])


def _choose(rng: random.Random, items: list):
    return rng.choice(items) if items else None


def _after(a: Analysis, t: TurnInfo, removed: int = 0) -> int:
    """The first event line after turn t, in a text where `removed` lines before it were deleted."""
    return t.after - removed


# ---- illegal matches


def op_double_sum(text: str, rng: random.Random) -> Mutation | None:
    """A double match whose two cards do not add up to the Center Row card."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "match-double":
            continue
        tgt, c1, c2 = ln.words[1], ln.words[3], ln.words[5]
        if not (_plain(tgt) and _plain(c1) and _plain(c2)):
            continue
        hand = list(ln.hands[ln.player])
        hand.remove(c1)
        hand.remove(c2)
        alts = sorted({c for c in hand if _plain(c) and _num(c1) + _num(c) != _num(tgt)})
        if alts:
            cands.append((ln, tgt, c1, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, c1, alts = pick
    new = f"match {tgt} with {c1} + {rng.choice(alts)}"
    return Mutation("double_sum", replace_line(text, ln.no, new), "illegal-match", "match.double", ln.no, new)


def op_single_number(text: str, rng: random.Random) -> Mutation | None:
    """A single match with a card of another number."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "match-single":
            continue
        tgt, c1 = ln.words[1], ln.words[3]
        if not (_plain(tgt) and _plain(c1)):
            continue
        hand = list(ln.hands[ln.player])
        hand.remove(c1)
        alts = sorted({c for c in hand if _plain(c) and _num(c) != _num(tgt)})
        if alts:
            cands.append((ln, tgt, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, alts = pick
    new = f"match {tgt} with {rng.choice(alts)}"
    return Mutation("single_number", replace_line(text, ln.no, new), "illegal-match", "match.single", ln.no, new)


def _after_line_state(a: Analysis, ln: Line) -> Line | None:
    nxt = [x for x in a.lines[ln.no :] if x.kind]
    return nxt[0] if nxt else None


def op_matched_twice(text: str, rng: random.Random) -> Mutation | None:
    """A Center Row card matched a second time in the same turn."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-"):
            continue
        t = a.turns[ln.turn]
        if any(a.line(n).role == "nomatch-draw" for n in t.lines):
            continue  # keep clear of the after-draw rules
        tgt = ln.words[1]
        if not _plain(tgt) or ln.cr.count(tgt) != 1:
            continue
        nxt = _after_line_state(a, ln)
        if nxt is None or not nxt.hands:
            continue
        opts = [o for o in match_options([tgt], nxt.hands[ln.player], random.Random(0))]
        if opts:
            cands.append((ln, tgt, opts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, tgt, opts = pick
    o = rng.choice(opts)
    new = f"match {tgt} with " + " + ".join(o.cards)
    return Mutation("matched_twice", insert_after(text, ln.no, new), "illegal-match", "match.once", ln.no + 1, new)


def op_refilled_matched(text: str, rng: random.Random) -> Mutation | None:
    """A card refilled into the Center Row is matched in the same turn."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.role != "refill":
            continue
        nxt = _after_line_state(a, ln)
        if nxt is None or not nxt.hands:
            continue
        p = a.turns[ln.turn].player
        for c in ln.words[1:]:
            if not _plain(c):
                continue
            opts = [o for o in match_options([c], nxt.hands[p], random.Random(0), singles_only=True)]
            if opts:
                cands.append((ln, c, opts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, c, opts = pick
    o = rng.choice(opts)
    new = f"match {c} with " + " + ".join(o.cards)
    return Mutation(
        "refilled_matched", insert_after(text, ln.no, new), "illegal-match", "match.refilled", ln.no + 1, new
    )


def op_not_held(text: str, rng: random.Random) -> Mutation | None:
    """A match with a card the player does not hold (same number, another colour)."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-"):
            continue
        cards = [c for c in ln.words[3:] if c != "+"]
        hand = ln.hands[ln.player]
        for i, c in enumerate(cards):
            if not _plain(c):
                continue
            alts = sorted({f"{k}{c[1:]}" for k in "RGBY"} - set(hand) - {c})
            alts = [x for x in alts if x in ln.pile]  # an unseen copy exists
            if alts:
                cands.append((ln, i, cards, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, i, cards, alts = pick
    cards = list(cards)
    cards[i] = rng.choice(alts)
    new = f"match {ln.words[1]} with " + " + ".join(cards)
    return Mutation("not_held", replace_line(text, ln.no, new), "illegal-match", "match.held", ln.no, new)


# ---- bonuses


def _last_event(a: Analysis, t: TurnInfo) -> Line:
    """The last event line of a turn that has one (callers ask `t.lines` first)."""
    return a.line(t.lines[-1])


def _bonus_counts(a: Analysis, t: TurnInfo) -> tuple[int, int, int]:
    """(bonus cards placed, bonus cards owed, bonus cards allowed) in turn t: under
    single-color-bonus=optional only the Double Color Matches' cards are owed."""
    placed = sum(a.line(n).role == "bonus" for n in t.lines)
    colour = [a.line(n) for n in t.lines if a.line(n).role.startswith("match-") and a.line(n).colour]
    optional = load_spec().ruleset(a.ruleset).options["single-color-bonus"] == "optional"
    owed = sum(ln.role == "match-double" for ln in colour) if optional else len(colour)
    return placed, owed, len(colour)


def op_drop_bonus(text: str, rng: random.Random) -> Mutation | None:
    """An earned colour-bonus card is never placed (the turn's last line removed)."""
    a = analyse(text)
    cands = [
        t
        for t in a.turns
        if t.lines and _last_event(a, t).role == "bonus" and _bonus_counts(a, t)[0] <= _bonus_counts(a, t)[1]
    ]
    t = _choose(rng, cands)
    if not t:
        return None
    no = t.lines[-1]
    return Mutation(
        "drop_bonus", delete_lines(text, [no]), "missed-bonus", "bonus.card", _after(a, t, 1), a.line(no).raw.strip()
    )


def op_extra_bonus(text: str, rng: random.Random) -> Mutation | None:
    """A bonus card placed that was never earned."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        roles = [a.line(n).role for n in t.lines]
        if not any(r.startswith("match-") for r in roles) or "nomatch-draw" in roles:
            continue
        placed, _, allowed = _bonus_counts(a, t)
        if placed < allowed:
            continue  # an optional Single Color Match card left unplaced: one more would be legal
        # after the last bonus card, else after the last refill, else after the last match
        at = None
        for want in ("bonus", "refill"):
            idx = [n for n in t.lines if a.line(n).role == want]
            if idx:
                at = idx[-1]
                break
        if at is None:
            continue
        nxt = _after_line_state(a, a.line(at))
        if nxt is None or not nxt.hands or len(nxt.hands[t.player]) < 2:
            continue
        cands.append((t, at, nxt.hands[t.player]))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, at, hand = pick
    new = f"place {rng.choice(hand)}"
    return Mutation("extra_bonus", insert_after(text, at, new), "missed-bonus", "bonus.card", at + 1, new)


def _after_reshuffle(a, no: int) -> bool:
    return no > 1 and a.line(no - 1).kind == "reshuffle"


def op_drop_dcm_draw(text: str, rng: random.Random) -> Mutation | None:
    """A Double Color Match draw left out (the turn's last line removed)."""
    a = analyse(text)
    # a draw right after its `reshuffle` is left alone: without it the reshuffle is one nobody
    # needed (READINGS R21), an earlier finding as true as the missing draw
    cands = [t for t in a.turns if t.lines and _last_event(a, t).role == "dcm" and not _after_reshuffle(a, t.lines[-1])]
    t = _choose(rng, cands)
    if not t:
        return None
    no = t.lines[-1]
    return Mutation(
        "drop_dcm_draw", delete_lines(text, [no]), "missed-bonus", "bonus.draw", _after(a, t, 1), a.line(no).raw.strip()
    )


def _top_unseen(ln: Line, after: Line | None) -> str | None:
    st = after if after is not None and after.hands else None
    pile = st.pile if st else []
    known = st.pile_known if st else False
    if not pile:
        return None
    return pile[0] if known else sorted(pile)[0]


def op_extra_dcm_draw(text: str, rng: random.Random) -> Mutation | None:
    """One card more than the Double Color Matches owe: a draw with no reason (notation.md, draw-order; READINGS R10)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        if not t.lines or _last_event(a, t).role != "dcm":
            continue
        last = _last_event(a, t)
        nxt = _after_line_state(a, last)
        card = _top_unseen(last, nxt)
        if card:
            cands.append((t, last, card))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, last, card = pick
    new = f"draw {last.player} {card}"
    return Mutation("extra_dcm_draw", insert_after(text, last.no, new), "draw-order", "draw.reason", last.no + 1, new)


# ---- the order of the end of a turn (V7)


def _blocks(a: Analysis, t: TurnInfo) -> list[tuple[str, list[int]]]:
    """The turn's lines grouped in runs of one role (reshuffles break runs)."""
    out: list[tuple[str, list[int]]] = []
    for n in t.lines:
        r = a.line(n).role
        key = r if r != "dcm" else f"dcm:{a.line(n).player}"
        if out and out[-1][0] == key:
            out[-1][1].append(n)
        else:
            out.append((key, [n]))
    return out


def _move_before(text: str, block: list[int], before: int) -> str:
    ls = _lines(text)
    moved = [ls[n - 1] for n in block]
    rest = [ln for i, ln in enumerate(ls, 1) if i not in set(block)]
    pos = before - 1  # `before` precedes the block, so its index is unchanged
    return _join(rest[:pos] + moved + rest[pos:])


def op_swap_refill_bonus(text: str, rng: random.Random) -> Mutation | None:
    """A bonus card placed before the refill."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "refill" and k2 == "bonus":
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_refill_bonus",
        _move_before(text, [b2[0]], b1[0]),
        "draw-order",
        "turn.steps",
        b1[0],
        "bonus before refill",
    )


def op_swap_bonus_penalty(text: str, rng: random.Random) -> Mutation | None:
    """The DOS penalty drawn before the bonus cards (the bonus cards owed are still judged by the
    hand before the penalty, READINGS R51: one finding)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "bonus" and k2 == "penalty-step":
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_bonus_penalty", _move_before(text, b2, b1[-1]), "draw-order", "turn.steps", b1[-1], "penalty before bonus"
    )


def op_swap_penalty_dcm(text: str, rng: random.Random) -> Mutation | None:
    """The others' Double Color Match draw lines written before the DOS penalty lines, each line with
    its own cards (one slip: the lines' order). Handing the pile's top cards to the Double Color Match
    lines instead would give the players other cards than the later lines play: a second mistake
    (READINGS R44)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        for (k1, b1), (k2, b2) in zip(bl, bl[1:], strict=False):
            if k1 == "penalty-step" and k2.startswith("dcm:"):
                cands.append((b1, b2))
    pick = _choose(rng, cands)
    if not pick:
        return None
    b1, b2 = pick
    return Mutation(
        "swap_penalty_dcm", _move_before(text, b2, b1[0]), "draw-order", "turn.steps", b1[0], "DCM draws before penalty"
    )


# ---- draws, refills, reshuffles


def op_draw_not_top(text: str, rng: random.Random) -> Mutation | None:
    """A draw of a card that is not the top of the known pile."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind != "draw" or not ln.pile_known or len(ln.pile) < 2:
            continue
        cards = ln.words[2:] if ln.words[1] in a.players else ln.words[1:]
        if len(cards) != 1:
            continue
        alts = sorted({c for c in ln.pile[1:] if c != ln.pile[0]})
        if alts:
            cands.append((ln, alts))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, alts = pick
    w = list(ln.words)
    w[-1] = rng.choice(alts)
    new = " ".join(w)
    return Mutation("draw_not_top", replace_line(text, ln.no, new), "draw-order", "draw.top", ln.no, new)


def op_missing_refill(text: str, rng: random.Random) -> Mutation | None:
    """The Center Row left with fewer than 2 cards: the refill (the turn's last lines) left out."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        bl = _blocks(a, t)
        if bl and bl[-1][0] == "refill":
            cands.append((t, bl[-1][1]))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, block = pick
    return Mutation(
        "missing_refill",
        delete_lines(text, block),
        "card-accounting",
        "center.refill",
        _after(a, t, len(block)),
        "refill dropped",
    )


def op_missing_reshuffle(text: str, rng: random.Random) -> Mutation | None:
    """A draw or refill from an empty pile without the reshuffle."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind != "reshuffle":
            continue
        nxt = _after_line_state(a, ln)
        if nxt is not None and nxt.kind in ("draw", "refill") and nxt.no == ln.no + 1:
            cands.append(ln)
    ln = _choose(rng, cands)
    if not ln:
        return None
    return Mutation(
        "missing_reshuffle", delete_lines(text, [ln.no]), "draw-order", "reshuffle.when", ln.no, "reshuffle dropped"
    )


# ---- turns and DOS


def op_wrong_turn(text: str, rng: random.Random) -> Mutation | None:
    """The wrong player named on a `turn` line. The turn's lines stay those of the player due,
    whose cards they play (or whose turn the next one follows), so the referee takes the name as
    the slip (READINGS R49): one finding."""
    a = analyse(text)
    t = _choose(rng, a.turns)
    if not t:
        return None
    other = rng.choice([p for p in a.players if p != t.player])
    return Mutation(
        "wrong_turn", replace_line(text, t.start, f"turn {other}"), "turn-order", "turn.order", t.start, f"turn {other}"
    )


def op_bogus_catch(text: str, rng: random.Random) -> Mutation | None:
    """A catch of a player who does not hold 2 cards or already called."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        ln = a.line(t.start)
        if not ln.hands:
            continue
        for q in a.players:
            if len(ln.hands[q]) != 2 or ln.status.get(q) == "called":
                cands.append((t, q))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, q = pick
    by = rng.choice([p for p in a.players if p != q])
    new = f"catch {q} by {by}"
    return Mutation(
        "bogus_catch", insert_after(text, t.start, new, like=None), "dos-call", "dos.catch", t.start + 1, new
    )


def op_drop_penalty(text: str, rng: random.Random) -> Mutation | None:
    """A caught player never draws the 2 penalty cards."""
    a = analyse(text)
    cands: list[tuple[str, Line | None, list[int], TurnInfo | None]] = []
    for ln in a.lines:
        if ln.role == "catch-now":
            nxt = a.line(ln.no + 1) if ln.no < a.nlines else None
            if nxt is not None and nxt.role == "penalty-now" and nxt.player == ln.player and len(nxt.words) == 4:
                cands.append(("now", ln, [nxt.no], None))
    for t in a.turns:
        bl = _blocks(a, t)
        if bl and bl[-1][0] == "penalty-step" and not _after_reshuffle(a, bl[-1][1][0]):  # as in drop_dcm_draw
            cands.append(("step", None, bl[-1][1], t))
    pick = _choose(rng, cands)
    if not pick:
        return None
    how, ln, block, t = pick
    new = delete_lines(text, block)
    if ln is not None:  # how == "now"
        line = ln.no + 1 if ln.no + 1 <= _nlines(new) else _nlines(new) + 1
    else:
        assert t is not None  # a penalty step belongs to its turn
        line = _after(a, t, len(block))
    return Mutation("drop_penalty", new, "dos-call", "dos.penalty", line, f"penalty dropped ({how})")


# ---- score, totals, winner


def op_wrong_score(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "score"])
    if not ln:
        return None
    n = int(ln.words[2])
    m = n + rng.randint(1, 20) if n < 5 or rng.random() < 0.5 else n - rng.randint(1, min(n, 20))
    new = f"score {ln.words[1]} {m}"
    return Mutation("wrong_score", replace_line(text, ln.no, new), "mis-scored", "score.round", ln.no, new)


def op_wrong_totals(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "totals"])
    if not ln:
        return None
    w = list(ln.words)
    i = 2 * rng.randrange((len(w) - 1) // 2) + 2
    w[i] = str(int(w[i]) + rng.randint(1, 30))
    new = " ".join(w)
    return Mutation("wrong_totals", replace_line(text, ln.no, new), "mis-scored", "score.totals", ln.no, new)


def op_wrong_winner(text: str, rng: random.Random) -> Mutation | None:
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "winner"])
    if not ln:
        return None
    new = f"winner {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_winner", replace_line(text, ln.no, new), "mis-scored", "game.winner", ln.no, new)


def op_wrong_dealer(text: str, rng: random.Random) -> Mutation | None:
    """Another player named on a later round's `dealer` line. The rest of the round follows the
    real dealer, so the referee takes the name as the slip (READINGS R48): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "dealer" and x.round >= 2])
    if not ln:
        return None
    new = f"dealer {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_dealer", replace_line(text, ln.no, new), "turn-order", "setup.dealer", ln.no, new)


def op_wrong_first_dealer(text: str, rng: random.Random) -> Mutation | None:
    """Another player named on round 1's `dealer` line, in a round dealt from a `deck` without `hand`
    lines: the deck and the first turn show the real dealer, so the referee takes the name as the slip
    (READINGS R97): one `turn.order` at the first `turn` line."""
    a = analyse(text)
    first = [x for x in a.lines if x.round == 1]
    kinds = {x.kind for x in first}
    ln = next((x for x in first if x.kind == "dealer"), None)
    turn = next((x for x in first if x.kind == "turn"), None)
    if ln is None or turn is None or "deck" not in kinds or "hand" in kinds or "deal-from" in text:
        return None
    new = f"dealer {rng.choice([p for p in a.players if p != ln.words[1]])}"
    return Mutation("wrong_first_dealer", replace_line(text, ln.no, new), "turn-order", "turn.order", turn.no, new)


def op_bad_pass(text: str, rng: random.Random) -> Mutation | None:
    """`pass` instead of the no-match place, where the ruleset does not allow it. The later lines
    still match the card that was placed, so the referee takes the pass as a place of an unnamed
    card (READINGS R50): one finding."""
    a = analyse(text)

    if load_spec().ruleset(a.ruleset).options["no-match-after-draw"] == "pass":
        return None
    ln = _choose(rng, [x for x in a.lines if x.role == "nomatch-place"])
    if not ln:
        return None
    return Mutation("bad_pass", replace_line(text, ln.no, "pass"), "turn-order", "turn.pass", ln.no, "pass")


# ---- cards and syntax


def op_excess_copies(text: str, rng: random.Random) -> Mutation | None:
    """A hand holding more copies of a card than the deck has (logs without `deck`)."""
    a = analyse(text)
    comp = composition()
    cands = []
    for ln in a.lines:
        if ln.kind != "hand":
            continue
        cards = ln.words[2:]
        cnt = Counter(cards)
        for c in sorted(cnt):
            need = comp[c] + 1 - cnt[c]
            if need <= 2:
                cands.append((ln, c, need))
        break  # the round's first hand line: no earlier copies
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, c, need = pick
    cards = list(ln.words[2:])
    others = [i for i, x in enumerate(cards) if x != c]
    for i in rng.sample(others, need):
        cards[i] = c
    new = f"hand {ln.words[1]} " + " ".join(cards)
    return Mutation("excess_copies", replace_line(text, ln.no, new), "card-accounting", "cards.composition", ln.no, new)


def op_glued_words(text: str, rng: random.Random) -> Mutation | None:
    """Two words of an event line written without a space (`drawY5`): reported once, and the line
    read with the space put back (READINGS R52)."""
    a = analyse(text)
    # never glue a 3-word line into 2 words: `drawann B4` has the shape of a free tag line (`TAG VALUE`)
    ln = _choose(
        rng,
        [
            x
            for x in a.lines
            if x.kind in ("draw", "refill", "place", "match") and len(x.words) >= 2 and len(x.words) != 3
        ],
    )
    if not ln:
        return None
    new = ln.words[0] + ln.words[1] + (" " + " ".join(ln.words[2:]) if len(ln.words) > 2 else "")
    return Mutation("glued_words", replace_line(text, ln.no, new), "syntax", "notation.line", ln.no, new)


def op_invalid_card(text: str, rng: random.Random) -> Mutation | None:
    """An invalid card word (R2, W3, G11, B#=11, Y5=3) on a `place` or `refill` line, which the
    referee takes as made with an unknown card (READINGS R54): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind in ("place", "refill")])
    if not ln:
        return None
    w = list(ln.words)
    w[1] = rng.choice(["R2", "W3", "G11", "B#=11", "Y5=3", "G0"])
    new = " ".join(w)
    return Mutation("invalid_card", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)


def op_invalid_match_card(text: str, rng: random.Random) -> Mutation | None:
    """An invalid card word (R11, W3, G0, B#=11) for a hand card of a `match` line, which the referee
    takes as a match of the player's cards, that one unknown (READINGS R93): one finding."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "match" and len(x.words) >= 4 and x.words[2] == "with"])
    if not ln:
        return None
    w = list(ln.words)
    i = rng.choice([i for i in range(3, len(w)) if w[i] != "+"])
    w[i] = rng.choice(["R11", "W3", "G0", "B#=11"])
    new = " ".join(w)
    return Mutation("invalid_match_card", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)


# ---- slips of the pen: one mistake, which the referee must report once (and nothing after it)

NUMBERS = (1, 3, 4, 5, 6, 7, 8, 9, 10)


def _fits(tgt: str, cards: list[str]) -> bool:
    """Plain cards only: whether the numbers cover the target (colour aside)."""
    return sum(_num(c) for c in cards) == _num(tgt)


def op_card_typo(text: str, rng: random.Random) -> Mutation | None:
    """A card of a match written with a wrong number (same colour) that the player does not hold,
    where the card played is the only held card of that colour or number that makes the match."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if not ln.role.startswith("match-") or ln.player is None:  # (a match line names its player)
            continue
        tgt, cards = ln.words[1], [c for c in ln.words[3:] if c != "+"]
        if not (_plain(tgt) and all(_plain(c) for c in cards)):
            continue
        hand = ln.hands[ln.player]
        # a typo naming a card the next player holds reads as that player's missing `turn` line
        # (READINGS R26), a different slip: such typos are not this operator's
        nxt = ln.hands.get(a.players[(a.players.index(ln.player) + 1) % len(a.players)], ())
        for i, c in enumerate(cards):
            rest = cards[:i] + cards[i + 1 :]
            left = list(hand)
            for r in rest:
                left.remove(r)
            typos = [
                f"{c[0]}{n}" for n in NUMBERS if n != _num(c) and f"{c[0]}{n}" not in hand and f"{c[0]}{n}" not in nxt
            ]
            for x in typos:
                meant = {y for y in left if _plain(y) and (y[0] == x[0] or y[1:] == x[1:]) and _fits(tgt, rest + [y])}
                if meant == {c}:
                    cands.append((ln, i, cards, x))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, i, cards, x = pick
    cards = list(cards)
    cards[i] = x
    new = f"match {ln.words[1]} with " + " + ".join(cards)
    return Mutation("card_typo", replace_line(text, ln.no, new), "illegal-match", "match.held", ln.no, new)


def op_lower_codes(text: str, rng: random.Random) -> Mutation | None:
    """A match line with its card codes in lower case (`match b10 with b3 + b7`)."""
    a = analyse(text)
    ln = _choose(rng, [x for x in a.lines if x.kind == "match"])
    if not ln:
        return None
    new = " ".join(w.lower() if i != 0 and w not in ("with", "+") else w for i, w in enumerate(ln.words))
    return Mutation("lower_codes", replace_line(text, ln.no, new), "syntax", "notation.card", ln.no, new)


def _misspell(name: str, rng: random.Random, players: list[str]) -> str | None:
    opts = [name.capitalize() if name != name.capitalize() else name.lower(), name + name[-1], name + "e", name.upper()]
    opts = [o for o in opts if o not in players and o.lower() not in {p.lower() for p in players if p != name}]
    return rng.choice(opts) if opts else None


def op_misspelt_turn(text: str, rng: random.Random) -> Mutation | None:
    """A `turn` line with the player's name misspelt or mis-cased (`turn anne`, `turn Ann`)."""
    a = analyse(text)
    t = _choose(rng, a.turns)
    if not t:
        return None
    bad = _misspell(t.player, rng, a.players)
    if bad is None:
        return None
    new = f"turn {bad}"
    return Mutation("misspelt_turn", replace_line(text, t.start, new), "syntax", "notation.player", t.start, new)


def op_misspelt_name(text: str, rng: random.Random) -> Mutation | None:
    """A name misspelt in a `draw P`, `catch P by Q` or `dos P` line."""
    a = analyse(text)
    cands = [
        ln for ln in a.lines if ln.kind in ("draw", "catch", "dos") and len(ln.words) > 1 and ln.words[1] in a.players
    ]
    ln = _choose(rng, cands)
    if not ln:
        return None
    bad = _misspell(ln.words[1], rng, a.players)
    if bad is None:
        return None
    w = list(ln.words)
    w[1] = bad
    new = " ".join(w)
    return Mutation("misspelt_name", replace_line(text, ln.no, new), "syntax", "notation.player", ln.no, new)


def op_drop_turn_line(text: str, rng: random.Random) -> Mutation | None:
    """A `turn P` line left out: P's lines follow the previous turn's; P's first line is a match
    with a card the previous player does not hold (or a bare-player draw, then such a line)."""
    a = analyse(text)
    cands = []
    for k, t in enumerate(a.turns[1:], 1):
        prev = a.turns[k - 1]
        if prev.round != t.round or prev.ended_round or not t.lines or not prev.lines:
            continue
        first = a.line(t.lines[0])
        hands = first.hands
        if not hands:
            continue
        if first.kind == "match":
            cards = [base_of(c) for c in first.words[3:] if c != "+"]
        elif (
            first.kind == "draw"
            and first.role == "nomatch-draw"
            and first.words[1] not in a.players
            and len(t.lines) > 1
        ):
            nxt = a.line(t.lines[1])
            drawn = [base_of(c) for c in first.words[1:]]
            cards = [
                base_of(c)
                for c in (nxt.words[3:] if nxt.kind == "match" else nxt.words[1:2] if nxt.kind == "place" else [])
                if c != "+" and base_of(c) not in drawn
            ]
        else:
            continue
        if cards and not all(Counter(hands[prev.player])[c] >= n for c, n in Counter(cards).items()):
            cands.append(t)
    t = _choose(rng, cands)
    if not t:
        return None
    return Mutation(
        "drop_turn_line",
        delete_lines(text, [t.start]),
        "turn-order",
        "turn.order",
        t.start,
        f"`turn {t.player}` dropped",
    )


def op_swapped_cards(text: str, rng: random.Random) -> Mutation | None:
    """Two cards of one `draw` or `refill` line from a known pile written in the wrong order."""
    a = analyse(text)
    cands = []
    for ln in a.lines:
        if ln.kind not in ("draw", "refill") or not ln.pile_known:
            continue
        cards = ln.words[2:] if ln.kind == "draw" and len(ln.words) > 1 and ln.words[1] in a.players else ln.words[1:]
        if len(cards) >= 2 and base_of(cards[0]) != base_of(cards[1]):
            cands.append((ln, len(ln.words) - len(cards)))
    pick = _choose(rng, cands)
    if not pick:
        return None
    ln, at = pick
    w = list(ln.words)
    w[at], w[at + 1] = w[at + 1], w[at]
    new = " ".join(w)
    return Mutation("swapped_cards", replace_line(text, ln.no, new), "draw-order", "draw.top", ln.no, new)


def op_swapped_refills(text: str, rng: random.Random) -> Mutation | None:
    """Two `refill` lines of one card each, from a known pile, written in swapped order: one `draw.top` at
    the first, whose card is not the top (READINGS R94)."""
    a = analyse(text)
    cands = [
        (x, y)
        for x, y in zip(a.lines, a.lines[1:], strict=False)
        if x.kind == y.kind == "refill"
        and x.pile_known
        and len(x.words) == len(y.words) == 2
        and base_of(x.words[1]) != base_of(y.words[1])
    ]
    pick = _choose(rng, cands)
    if not pick:
        return None
    x, y = pick
    new = " ".join(y.words)
    out = replace_line(replace_line(text, x.no, new), y.no, " ".join(x.words))
    return Mutation("swapped_refills", out, "draw-order", "draw.top", x.no, new)


def op_drop_nomatch_draw(text: str, rng: random.Random) -> Mutation | None:
    """The draw after no match left out where a `place` follows it (no `reshuffle` before it): one
    `draw.no-match` at the place; the hand holds the card drawn all the same (READINGS R95)."""
    a = analyse(text)
    cands = [
        x
        for w, x, y in zip(a.lines, a.lines[1:], a.lines[2:], strict=False)
        if x.role == "nomatch-draw" and y.role == "nomatch-place" and w.kind == "turn"
    ]
    x = _choose(rng, cands)
    if not x:
        return None
    return Mutation(
        "drop_nomatch_draw",
        delete_lines(text, [x.no]),
        "draw-order",
        "draw.no-match",
        x.no,
        a.line(x.no + 1).raw.strip(),
    )


def op_drop_nomatch_place(text: str, rng: random.Random) -> Mutation | None:
    """The `place` owed after a draw that brought no match left out (no `dos` or catch later in its turn,
    whose hand sizes it would decide): one `place.no-match` where the turn ends; the card placed is an
    unknown card of that hand, which a later match names (READINGS R96)."""
    a = analyse(text)
    cands = []
    for t in a.turns:
        for k, no in enumerate(t.lines):
            if a.line(no).role == "nomatch-place" and not any(
                a.line(n).kind in ("dos", "catch") for n in t.lines[k + 1 :]
            ):
                cands.append((t, no))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, no = pick
    return Mutation(
        "drop_nomatch_place",
        delete_lines(text, [no]),
        "draw-order",
        "place.no-match",
        _after(a, t, 1),
        a.line(no).raw.strip(),
    )


def op_drop_line(text: str, rng: random.Random) -> Mutation | None:
    """One end-of-turn line left out anywhere in its turn: a refill, a bonus card, a DOS penalty
    draw at its step or another player's Double Color Match draw (no call or catch after it that
    the missing cards would decide). A line next to a `reshuffle` is left alone, as in
    drop_dcm_draw: without the draw right after it the reshuffle is one nobody needed, and
    without the draw that emptied the pile right before it the reshuffle comes too early (R21),
    an earlier and equally true finding, so the mutant would hold two mistakes."""
    a = analyse(text)
    want = {
        "refill": ("card-accounting", "center.refill"),
        "bonus": ("missed-bonus", "bonus.card"),
        "penalty-step": ("dos-call", "dos.penalty"),
        "dcm": ("missed-bonus", "bonus.draw"),
    }
    cands = []
    for t in a.turns:
        for k, no in enumerate(t.lines):
            ln = a.line(no)
            if ln.role not in want:
                continue
            if _after_reshuffle(a, no) or (no < a.nlines and a.line(no + 1).kind == "reshuffle"):
                continue
            later = [a.line(n) for n in t.lines[k + 1 :]]
            if any(x.kind in ("dos", "catch") for x in later):
                continue
            if ln.role == "bonus" and _bonus_counts(a, t)[0] > _bonus_counts(a, t)[1]:
                continue  # an optional Single Color Match card: leaving it out is legal
            if ln.role == "refill" and any(x.kind == "match" for x in later):
                continue
            cands.append((t, no, ln.role))
    pick = _choose(rng, cands)
    if not pick:
        return None
    t, no, role = pick
    kind, rule = want[role]
    return Mutation("drop_line", delete_lines(text, [no]), kind, rule, _after(a, t, 1), a.line(no).raw.strip())


OPERATORS: dict[str, Callable[[str, random.Random], Mutation | None]] = {
    "double_sum": op_double_sum,
    "single_number": op_single_number,
    "matched_twice": op_matched_twice,
    "refilled_matched": op_refilled_matched,
    "not_held": op_not_held,
    "drop_bonus": op_drop_bonus,
    "extra_bonus": op_extra_bonus,
    "drop_dcm_draw": op_drop_dcm_draw,
    "extra_dcm_draw": op_extra_dcm_draw,
    "swap_refill_bonus": op_swap_refill_bonus,
    "swap_bonus_penalty": op_swap_bonus_penalty,
    "swap_penalty_dcm": op_swap_penalty_dcm,
    "draw_not_top": op_draw_not_top,
    "missing_refill": op_missing_refill,
    "missing_reshuffle": op_missing_reshuffle,
    "wrong_turn": op_wrong_turn,
    "bogus_catch": op_bogus_catch,
    "drop_penalty": op_drop_penalty,
    "wrong_score": op_wrong_score,
    "wrong_totals": op_wrong_totals,
    "wrong_winner": op_wrong_winner,
    "wrong_dealer": op_wrong_dealer,
    "wrong_first_dealer": op_wrong_first_dealer,
    "bad_pass": op_bad_pass,
    "excess_copies": op_excess_copies,
    "glued_words": op_glued_words,
    "invalid_card": op_invalid_card,
    "invalid_match_card": op_invalid_match_card,
    "card_typo": op_card_typo,
    "lower_codes": op_lower_codes,
    "misspelt_turn": op_misspelt_turn,
    "misspelt_name": op_misspelt_name,
    "drop_turn_line": op_drop_turn_line,
    "swapped_cards": op_swapped_cards,
    "swapped_refills": op_swapped_refills,
    "drop_nomatch_draw": op_drop_nomatch_draw,
    "drop_nomatch_place": op_drop_nomatch_place,
    "drop_line": op_drop_line,
}


def mutate(text: str, operator: str, rng: random.Random) -> Mutation | None:
    """Apply one operator by name."""
    return OPERATORS[operator](text, rng)


# ---- random card-code edits (issue 20, item 7) ---------------------------------------------

_CARD_LINES = ("hand", "center", "deck", "match", "draw", "refill", "place", "show", "reshuffle")


def _code_words(raw: str) -> tuple[list[str], str]:
    """The words of a line before its comment (a word that starts with `#`), and the comment."""
    words = raw.split()
    for i, w in enumerate(words):
        if w.startswith("#"):
            return words[:i], raw[raw.index(" #") :] if " #" in raw else ""
    return words, ""


def card_code_sites(text: str) -> list[tuple[int, int]]:
    """Every (line number, word index) of a card code on a setup or event line."""
    from .cards import is_card

    sites: list[tuple[int, int]] = []
    for no, raw in enumerate(_lines(text), 1):
        words, _ = _code_words(raw)
        if words and words[0] in _CARD_LINES:
            sites.extend((no, i) for i, w in enumerate(words) if i and is_card(w))
    return sites


def card_code_edit(text: str, rng: random.Random) -> tuple[str, int] | None:
    """One card code of the log replaced by another valid code (its base card changed; a
    declaration kept where the new card is a wild of the same kind): the new text and the line."""
    sites = card_code_sites(text)
    if not sites:
        return None
    no, i = rng.choice(sites)
    words, comment = _code_words(_lines(text)[no - 1])
    base, eq, decl = words[i].partition("=")
    new = rng.choice([b for b in sorted(composition()) if b != base])
    if eq and (new == "W2") == (base == "W2") and new.endswith("#") == base.endswith("#"):
        new = f"{new}={decl}"
    words[i] = new
    return replace_line(text, no, " ".join(words) + comment), no
