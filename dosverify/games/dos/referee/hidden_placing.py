"""The witness's search for where one player's revealed cards were held (``check --witness``
under decline-match=forbidden, READINGS R34): which `?` carries each revealed card, each card the
score chose, and which are left free for label_rest's safe codes (hidden_witness.py).

A revealed card stays within its (player, epoch): Hall's condition counts copies per epoch only,
so any such placement keeps the choice fitting. The search goes over the player's `?` in draw
order (all epochs), the greedy's choice first (so that what it finds is found first), and prunes
a card that, with the cards already placed, makes the known hand match at a declined draw
(`adds_match`: more cards only add matches, so a hand that matched stays matched) or that leaves
the group's later reveals without a `?` drawn before them (`_Group.lacks_room`); where every card
of a `?` fails, it goes back to the latest `?` the failures rest on (``_Search``), not to the one
before: a card dealt at the start may be what a hand a hundred lines later matches with.
``placements`` yields the ways that pass, within a node budget.
"""

from __future__ import annotations

from bisect import bisect_left
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Generator

    from .hidden_ledger import Token

#: the most cards the search tries for one player's `?` before it gives up (a generated game's
#: player takes a few hundred; a witness must stay interactive)
NODE_BUDGET = 4000

FREE = None  # a `?` left for label_rest: no card placed on it yet
Card = tuple[str, int | None]  # a card placed on a `?`: (code, its reveal moment or None: kept to the end)


class _Group:
    """The cards of one (player, epoch) still to place, and where its `?` are in draw order."""

    __slots__ = ("drawn", "free", "kept", "reveals")

    def __init__(self, toks: list[Token]) -> None:
        self.drawn = [t.drawn for t in toks]  # ascending
        self.reveals: list[tuple[str, int]] = sorted(
            ((t.label, t.reveal_at) for t in toks if t.reveal_at is not None and t.label is not None),
            key=lambda r: r[1],
        )
        self.kept = [t.label for t in toks if t.reveal_at is None and t.label is not None]
        self.free = len(toks) - len(self.reveals) - len(self.kept)

    def lacks_room(self, after: int) -> int | None:
        """A moment by which more reveals are left than `?` drawn after `after` and before it, if any."""
        k = bisect_left(self.drawn, after + 1)
        for n, (_, at) in enumerate(self.reveals):
            if k + n >= len(self.drawn) or self.drawn[k + n] >= at:
                return at
        return None

    def options(self, tok: Token, first: Card | None) -> list[Card | None]:
        """The cards `tok` may carry: the greedy's first, then a free `?`, the reveals soonest first, the kept."""
        opts: list[Card | None] = []
        if self.free:
            opts.append(FREE)
        opts += dict.fromkeys(r for r in self.reveals if r[1] > tok.drawn)
        opts += dict.fromkeys((b, None) for b in self.kept)
        if first in opts:
            opts.remove(first)
            opts.insert(0, first)
        return opts

    def take(self, card: Card | None) -> None:
        if card is FREE:
            self.free -= 1
        elif card[1] is None:
            self.kept.remove(card[0])
        else:
            self.reveals.remove(card)  # type: ignore[arg-type]

    def give_back(self, card: Card | None) -> None:
        if card is FREE:
            self.free += 1
        elif card[1] is None:
            self.kept.append(card[0])
        else:
            self.reveals.append(card)  # type: ignore[arg-type]
            self.reveals.sort(key=lambda r: r[1])


class _Declines:
    """One player's declined draws (moment, Center Row, written hand) and the cards placed held at
    each, with the `?` (their index in draw order) that carry them."""

    def __init__(self, points: list, adds_match) -> None:
        points = sorted(points, key=lambda d: d[1])
        self.now = [d[1] for d in points]
        self.center = [d[2] for d in points]
        self.hand = [list(d[3]) for d in points]  # the written cards, then the cards placed held there
        self.holders: list[list[int]] = [[] for _ in points]
        self.adds_match = adds_match

    def span(self, tok: Token, card: Card | None) -> range:
        """The declines at which `card`, on `tok`, is in the hand."""
        end = card[1] if card is not FREE else None
        lo = bisect_left(self.now, tok.drawn)
        hi = len(self.now) if end is None else bisect_left(self.now, end)
        return range(lo, hi)

    def clash(self, span: range, code: str) -> int | None:
        """The first decline of `span` at which `code` joining the hand makes it match, if any."""
        return next((d for d in span if self.adds_match(self.center[d], self.hand[d], code)), None)

    def hold(self, span: range, code: str, i: int) -> None:
        for d in span:
            self.hand[d].append(code)
            self.holders[d].append(i)

    def release(self, span: range) -> None:
        for d in span:
            self.hand[d].pop()
            self.holders[d].pop()


class _Budget(Enum):
    SPENT = "spent"  # what the walk returns once NODE_BUDGET cards were tried


# what a failed subtree returns: the `?` (indices) whose cards made it fail, for the walk to jump
# back over the `?` not among them (conflict-directed backjumping); None when a way was found in it
Conflict = set[int] | None


def placements(toks: list[Token], points: list, adds_match, first: dict) -> Generator[dict, int | None, None]:
    """The ways (token -> card, or FREE) to place one player's cards on their `?` (`toks`) that no
    decline of `points` rules out, the greedy's (`first`) first; at most NODE_BUDGET cards tried.
    Sent a moment (the hand held then matched, with label_rest's codes), the next way differs
    in a `?` drawn by then."""
    yield from _Search(sorted(toks, key=lambda t: t.drawn), _Declines(points, adds_match), first).walk(0)


class _Search:
    """The depth-first walk of ``placements`` over one player's `?` in draw order. A `?` all of whose
    cards fail returns the `?` before it that the failures rest on (the holders of the cards at the
    declines that matched, the `?` of its epoch when the reveals lacked room), and the walk goes back
    to the latest of them: the `?` in between, changed, would fail the same way."""

    def __init__(self, toks: list[Token], declines: _Declines, first: dict) -> None:
        self.toks = toks
        self.groups = {e: _Group([t for t in toks if t.epoch == e]) for e in {t.epoch for t in toks}}
        self.declines = declines
        self.twin = _twins(toks, self.groups, declines.now)
        self.first = _in_order(toks, self.twin, first)
        self.choice: dict = {}
        self.nodes = 0
        self.failed: int | None = None  # a moment the last way failed at: vary only the `?` drawn by then

    def walk(self, i: int) -> Generator[dict, int | None, Conflict | _Budget]:
        if i == len(self.toks):
            self.failed = yield dict(self.choice)
            return None
        tok, declines = self.toks[i], self.declines
        g = self.groups[tok.epoch]
        floor = _key(self.choice[self.toks[i - 1]]) if self.twin[i] else None
        conflict: Conflict = set()
        for card in g.options(tok, self.first.get(tok)):
            if floor is not None and _key(card) < floor:  # the same cards on twin `?` in another order
                conflict = _join(conflict, {i - 1})
                continue
            self.nodes += 1
            if self.nodes > NODE_BUDGET:
                return _Budget.SPENT
            span = declines.span(tok, card)
            bad = declines.clash(span, card[0]) if card is not FREE else None
            if bad is not None:
                conflict = _join(conflict, set(declines.holders[bad]))
                continue
            g.take(card)
            short = g.lacks_room(tok.drawn)
            if short is not None:
                g.give_back(card)
                conflict = _join(conflict, self._took_room(i, short))
                continue
            if card is not FREE:
                declines.hold(span, card[0], i)
            self.choice[tok] = card
            below = yield from self.walk(i + 1)
            if card is not FREE:
                declines.release(span)
            g.give_back(card)
            if below is _Budget.SPENT:
                return _Budget.SPENT
            if below is None:  # ways were found below this card
                if self.failed is not None:
                    if tok.drawn > self.failed:
                        return None  # the `?` drawn later are not in the hand that matched
                    self.failed = None
                conflict = None
            elif i not in below:
                return below  # this `?`'s card is not what failed below: another would fail alike
            else:
                conflict = _join(conflict, below - {i})
        return conflict

    def _took_room(self, i: int, by: int) -> set[int]:
        """The `?` before the i-th, of its epoch, that could have taken a reveal due by `by` but carry another card."""
        epoch = self.toks[i].epoch
        out = set()
        for j in range(i):
            t = self.toks[j]
            if t.epoch == epoch and t.drawn < by:
                card = self.choice[t]
                if card is FREE or card[1] is None or card[1] > by:
                    out.add(j)
        return out


def _join(conflict: Conflict, more: set[int]) -> Conflict:
    return None if conflict is None else conflict | more


def _key(card: Card | None) -> tuple:
    """An order of the cards, for the cards on twin `?` (free first, then reveals by moment, the kept by code)."""
    if card is FREE:
        return (0, 0, "")
    return (1, card[1], "") if card[1] is not None else (2, 0, card[0])


def _twins(toks: list[Token], groups: dict[int, _Group], declines: list[int]) -> list[bool]:
    """For each `?`, whether it is the twin of the one before: same epoch, and no declined draw nor reveal
    of the epoch between their draws, so that which of the two carries which card changes nothing."""
    twin = [False] * len(toks)
    for i in range(1, len(toks)):
        a, b = toks[i - 1], toks[i]
        if a.epoch != b.epoch:
            continue
        if any(a.drawn <= now < b.drawn for now in declines):
            continue
        twin[i] = not any(a.drawn < at <= b.drawn for _, at in groups[b.epoch].reveals)
    return twin


def _in_order(toks: list[Token], twin: list[bool], first: dict) -> dict:
    """The greedy's way with the cards on each run of twin `?` put in `_key` order (the same way)."""
    out = dict(first)
    i = 0
    while i < len(toks):
        j = i + 1
        while j < len(toks) and twin[j]:
            j += 1
        run = toks[i:j]
        for tok, card in zip(run, sorted((first.get(t) for t in run), key=_key), strict=True):
            out[tok] = card
        i = j
    return out
