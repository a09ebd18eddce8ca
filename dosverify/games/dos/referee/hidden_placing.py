"""The witness's search for where one player's revealed cards were held (``check --witness``
under decline-match=forbidden, READINGS R34): which `?` carries each revealed card, each card the
score chose, and which are left free for label_rest's safe codes (hidden_witness.py).

A revealed card stays within its (player, epoch): Hall's condition counts copies per epoch only,
so any such placement keeps the choice fitting. The search goes over the player's `?` in draw
order (all epochs), the greedy's choice first (so that what it finds is found first), and prunes
a card that, with the cards already placed, makes the known hand match at a declined draw
(`adds_match`: more cards only add matches, so a hand that matched stays matched) or that leaves
the group's later reveals without a `?` drawn before them (`_Group.room`). ``placements`` yields
the ways that pass, within a node budget.
"""

from __future__ import annotations

from bisect import bisect_left
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

    def room(self, after: int) -> bool:
        """Whether each reveal left, in moment order, can still take its own `?` drawn after `after`."""
        k = bisect_left(self.drawn, after + 1)
        for n, (_, at) in enumerate(self.reveals):
            if k + n >= len(self.drawn) or self.drawn[k + n] >= at:
                return False
        return True

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
    """One player's declined draws (moment, Center Row, written hand) and the cards placed held at each."""

    def __init__(self, points: list, adds_match) -> None:
        points = sorted(points, key=lambda d: d[1])
        self.now = [d[1] for d in points]
        self.center = [d[2] for d in points]
        self.hand = [list(d[3]) for d in points]  # the written cards, then the cards placed held there
        self.adds_match = adds_match

    def span(self, tok: Token, card: Card | None) -> range:
        """The declines at which `card`, on `tok`, is in the hand."""
        end = card[1] if card is not FREE else None
        lo = bisect_left(self.now, tok.drawn)
        hi = len(self.now) if end is None else bisect_left(self.now, end)
        return range(lo, hi)

    def fits(self, span: range, code: str) -> bool:
        """Whether `code` joins the hand at every decline of `span` without making it match."""
        return not any(self.adds_match(self.center[i], self.hand[i], code) for i in span)


def placements(toks: list[Token], points: list, adds_match, first: dict) -> Generator[dict, int | None, None]:
    """The ways (token -> card, or FREE) to place one player's cards on their `?` (`toks`) that no
    decline of `points` rules out, the greedy's (`first`) first; at most NODE_BUDGET cards tried.
    Sent a moment (the hand held then matched, with label_rest's codes), the next way differs
    in a `?` drawn by then."""
    toks = sorted(toks, key=lambda t: t.drawn)
    groups: dict[int, _Group] = {}
    for e in {t.epoch for t in toks}:
        groups[e] = _Group([t for t in toks if t.epoch == e])
    declines = _Declines(points, adds_match)
    twin = _twins(toks, groups, declines.now)
    first = _in_order(toks, twin, first)
    choice: dict = {}
    nodes = [0]
    failed: list[int | None] = [None]  # a moment the last way failed at: vary only the `?` drawn by then

    def walk(i: int) -> Generator[dict, int | None, None]:
        if i == len(toks):
            failed[0] = yield dict(choice)
            return
        tok = toks[i]
        g = groups[tok.epoch]
        floor = _key(choice[toks[i - 1]]) if twin[i] else None
        for card in g.options(tok, first.get(tok)):
            if floor is not None and _key(card) < floor:
                continue  # the same cards on twin `?` in another order: tried already
            if failed[0] is not None:
                if tok.drawn > failed[0]:
                    return  # the `?` drawn later are not in the hand that matched
                failed[0] = None
            nodes[0] += 1
            if nodes[0] > NODE_BUDGET:
                return
            span = declines.span(tok, card)
            if card is not FREE and not declines.fits(span, card[0]):
                continue
            g.take(card)
            if g.room(tok.drawn):
                if card is not FREE:
                    for d in span:
                        declines.hand[d].append(card[0])
                choice[tok] = card
                yield from walk(i + 1)
                if card is not FREE:
                    for d in span:
                        declines.hand[d].pop()
            g.give_back(card)

    yield from walk(0)


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
