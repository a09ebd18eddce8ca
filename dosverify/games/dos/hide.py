"""Views of an open log: what an observer at the table (`table`) or one player (`seat:P`)
saw of the game, written with face-down cards `?` (notation.md, "Face-down cards").

`hide(log, view)` keeps every line and replaces the cards the viewer did not see with `?`:
in a table view every card of a `hand` and `draw` line; in a seat view those of the other
players. Reshuffles become bare (nobody sees the new pile's order), a round's `deck` line
becomes the `hand` and `center` lines of its deal, and each round that ends gets a `show`
line for every player left holding cards (hands are turned face up for scoring). Lines
that the view cannot judge never change: a legal open log stays legal in every view.

`witness(log, referee)` is the converse for a checked log: the same log with every `?`
replaced by a card the referee's provenance chose.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict

from .. import ViewError as BaseViewError
from .cards import parse_card
from .events import FACE_DOWN, Center, Deck, Draw, FaceDown, Hand, Log, Match, Place, Refill, Reshuffle, Show, seen

__all__ = ["hide", "parse_view", "witness", "ViewError"]


class ViewError(BaseViewError):
    """A view that names no player of the log, or is not `table` / `seat:P`."""


def parse_view(view: str, players: list[str]) -> str | None:
    """The seat a view shows (None for the table view)."""
    if view == "table":
        return None
    if view.startswith("seat:") and view[5:] in players:
        return view[5:]
    if view.startswith("seat:"):
        raise ViewError(f"`{view[5:]}` is not a player of this log (players: {', '.join(players)})")
    raise ViewError(f"unknown view `{view}`: `table` or `seat:P`")


def _base(code: str) -> str:
    return parse_card(code).base


def hide(log: Log, view: str = "table") -> Log:
    """The log as `view` saw it (a new log; `log` is not changed)."""
    seat = parse_view(view, list(log.players))
    out = copy.deepcopy(log)
    for rnd in out.rounds:
        _hide_round(out, rnd, seat)
    return out


def _deal(log: Log, rnd, deck: list[str]) -> tuple[dict, list[str], list[str]]:
    """V9: one card at a time from the dealer's left until each holds 7, then 2 to the
    Center Row. Returns the hands, the Center Row and the rest of the pile (top last)."""
    dealer = next((ev.player for ev in rnd.setup if ev.type == "dealer"), log.players[-1])
    seats = list(log.players)
    start = (seats.index(dealer) + 1) % len(seats) if dealer in seats else 0
    order = list(reversed(deck))
    hands: dict[str, list[str]] = {p: [] for p in seats}
    for _ in range(7):
        for k in range(len(seats)):
            if order:
                hands[seats[(start + k) % len(seats)]].append(order.pop())
    center = [order.pop() for _ in range(2) if order]
    return hands, center, order


def _hide_round(log: Log, rnd, seat: str | None) -> None:
    deck = [c for ev in rnd.setup if isinstance(ev, Deck) for c in ev.cards]
    pile = None  # the known pile order (top last), in a round with a deck line
    if deck:
        hands, center, pile = _deal(log, rnd, [_base(c) for c in deck])
        setup = [ev for ev in rnd.setup if not isinstance(ev, (Deck, Hand, Center))]
        setup += [Hand(player=p, cards=list(hands[p])) for p in log.players]
        setup.append(Center(cards=center))
        rnd.setup[:] = setup
    held: dict[str, Counter] = defaultdict(Counter)  # a name that is no player (a slip) is hidden like any other
    for ev in rnd.setup:
        if isinstance(ev, Hand):
            held.setdefault(ev.player, Counter()).update(_base(c) for c in seen(ev.cards))
            if ev.player != seat:
                ev.cards = [FACE_DOWN] * len(ev.cards)
    for turn in rnd.turns:
        for ev in turn.events:
            if isinstance(ev, Draw):
                q = ev.player or turn.player
                cards: list[str | FaceDown] = [c if isinstance(c, FaceDown) else _base(c) for c in ev.cards]
                if not cards and pile is not None:
                    cards = [pile.pop()] if pile else []
                elif pile is not None:
                    for c in cards:
                        if c in pile:
                            pile.remove(c)
                held.setdefault(q, Counter()).update(seen(cards))  # (a view of a view: `?` stays `?`)
                ev.cards = cards if q == seat else [FACE_DOWN] * len(cards)
            elif isinstance(ev, Refill):
                if not ev.cards and pile is not None:
                    ev.cards = [pile.pop()] if pile else []
                elif pile is not None:
                    for c in ev.cards:
                        if _base(c) in pile:
                            pile.remove(_base(c))
            elif isinstance(ev, Match):
                for c in ev.cards:
                    held[turn.player][_base(c)] -= 1
            elif isinstance(ev, Place):
                held[turn.player][_base(ev.card)] -= 1
            elif isinstance(ev, Reshuffle):
                if ev.cards and pile is not None:
                    pile = [_base(c) for c in reversed(ev.cards)]
                elif pile is not None:  # a bare reshuffle in a deck round: the order is lost
                    pile = None
                ev.cards = []
    left = {p: sorted((+h).elements()) for p, h in held.items() if +h}
    if rnd.score is not None and not rnd.shows:
        winner = rnd.score.player
        rnd.shows = [Show(player=p, cards=[c for c in left[p]]) for p in log.players if p != winner and p in left]


def _clash(center, hand) -> bool:
    """Whether some of `hand` match a card of `center` (the witness's choice under decline-match=forbidden)."""
    from .referee.matching import any_match

    return any_match(list(center), list(hand), parse_card)


def _adds_match(center, hand, code: str) -> bool:
    """Whether `code` joining `hand`, which matches nothing in `center`, makes it match: alone or with
    one of its cards (the witness's search, per card tried: the kinds of the hand, not their pairs)."""
    from .referee.matching import judge_codes

    kinds = set(hand)
    for t in set(center):
        if judge_codes(t, (code,)).ok or any(judge_codes(t, (code, h)).ok for h in kinds):
            return True
    return False


def witness(referee) -> bool:
    """Replace, in the log `referee` has run on, every `?` by the card its provenance chose
    (the `?` never revealed get any card that fits). False when some `?` found no card."""
    from .referee.hidden_witness import hold_and_label, label_rest

    ok = True
    for prov in referee.provs:
        if prov is None:
            continue
        ok = (hold_and_label(prov, _clash, _adds_match) if prov.declines else label_rest(prov)) and ok
        for tok in prov.tokens:
            if tok.ref is None or tok.label is None:
                ok = False
                continue
            ev, i = tok.ref
            ev.cards[i] = tok.label
    return ok
