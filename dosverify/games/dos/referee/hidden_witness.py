"""The witness's cards for the `?` of a round (``check --witness``, issue 20): after the referee's
replay, every `?` gets a card that fits (referee/hidden.py), so that the open log written with
them is legal. Under decline-match=forbidden a `?` held at a declined draw takes, where one fits,
a card that matches nothing there (READINGS R34), and the revealed cards are moved, within their
epoch, to `?` that leave no hand with a match at a declined draw: the greedy's choice first (the
fewest declined draws each card is held at), then a search's (hidden_placing.py).

`clash(center, hand)` says whether some cards of `hand` match a card of `center`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hidden_placing import FREE, placements

#: how many of the search's placements the witness gives label_rest's codes before it gives up
TRIES = 20

if TYPE_CHECKING:
    from .hidden_ledger import Ledger, Token


def label_rest(prov: Ledger, clash=None, given: list | None = None, adds_match=None) -> bool:
    """Give every `?` never revealed a card: in draw order, a code whose copies still fit. False if
    some `?` found none. A `?` the score chose (choose_sum) keeps its card. With `clash` and
    `adds_match` (hold_and_label's), a `?` held at a draw in `prov.declines` takes, when one fits, a
    card that leaves the hand there without a match. The `?` labelled are appended to `given` (for
    ``unlabel``)."""
    ok = True
    rest = sorted((t for pool in prov.pool.values() for t in pool if t.label is None), key=lambda t: t.drawn)
    codes = list(prov.kend)
    for tok in rest:
        safe = _safe_codes(prov, tok, codes, clash, adds_match) if adds_match is not None and prov.declines else codes
        for base in [*safe, *(b for b in codes if b not in safe)]:
            prov.nlab[base][tok.epoch] += 1
            if prov.feasible():
                tok.label = base
                if given is not None:
                    given.append(tok)
                break
            prov.nlab[base][tok.epoch] -= 1
        else:
            ok = False
    return ok


def hold_and_label(prov: Ledger, clash, adds_match) -> bool:
    """The witness's cards under decline-match=forbidden: the greedy's placement of each player's
    revealed cards (hold_briefly) first, then the search's (hidden_placing), a player's next one
    while label_rest's codes leave a hand with a match at one of their declined draws; at most
    TRIES times. False if some `?` found no card. `adds_match(center, hand, code)`: whether `code`
    makes a hand that matches nothing match (hidden_placing)."""
    hold_briefly(prov, adds_match)
    searches = {}
    for p, toks in _members(prov).items():
        points = [d for d in prov.declines if d[0] == p]
        first = {t: (t.label, t.reveal_at) if t.label is not None else FREE for t in toks}
        search = placements(toks, points, adds_match, first)
        searches[p] = (toks, search)
        _place(prov, p, toks, next(search, first))
    for _ in range(TRIES):
        given: list = []
        ok = label_rest(prov, clash, given, adds_match)
        ways = {p: _next_way(searches[p][1], now) for p, now in _matched(prov, clash).items()}
        if all(way is None for way in ways.values()):
            return ok
        _unlabel(prov, given)
        for p, way in ways.items():
            if way is not None:
                _place(prov, p, searches[p][0], way)
    return label_rest(prov, clash, None, adds_match)


def _next_way(search, now: int):
    """The search's next way that differs in a `?` drawn by `now`; None when it has none left."""
    try:
        return search.send(now)
    except StopIteration:
        return None


def _members(prov: Ledger) -> dict[str, list[Token]]:
    """Each player with a declined draw, and their `?` that have (or will get) a card."""
    players = {d[0] for d in prov.declines}
    out: dict[str, list[Token]] = {}
    for t in prov.tokens:
        if t.player in players and (t.label is not None or t in prov.pool.get(t.player, ())):
            out.setdefault(t.player, []).append(t)
    return out


def _place(prov: Ledger, player: str, toks: list[Token], way: dict) -> None:
    """Put a way of the search on the player's `?`: the card each carries, FREE for label_rest."""
    for t in toks:
        card = way[t]
        t.label, t.reveal_at = (None, None) if card is FREE else card
    prov.revealed[player] = [t for t in toks if t.reveal_at is not None]
    prov.pool[player] = sorted((t for t in toks if t.reveal_at is None), key=lambda t: t.drawn)


def _unlabel(prov: Ledger, given: list[Token]) -> None:
    """Take back label_rest's cards."""
    for t in given:
        assert t.label is not None
        prov.nlab[t.label][t.epoch] -= 1
        t.label = None


def _matched(prov: Ledger, clash) -> dict[str, int]:
    """Each player whose hand, with the cards chosen, matches at a declined draw: the first such moment."""
    out: dict[str, int] = {}
    for p, now, center, hand in sorted(prov.declines, key=lambda d: d[1]):
        if p in out:
            continue
        if clash(center, [*hand, *_held(prov, p, now)]):
            out[p] = now
    return out


def hold_briefly(prov: Ledger, adds_match) -> None:
    """Before a witness under decline-match=forbidden: within each player's `?` of one epoch (which
    Hall's condition does not tell apart), the revealed cards that would match at more of the player's
    declined draws take the later `?` (drawn as late before their reveal as the others leave room
    for), and the cards the score chose the latest of the rest: a card is in the hand at as few
    declined draws as it can be; the earliest `?` are left for label_rest's safe cards."""
    groups: dict = {}
    for t in prov.tokens:
        if t.label is not None or t in prov.pool.get(t.player, ()):
            groups.setdefault((t.player, t.epoch), []).append(t)
    for (p, _), toks in groups.items():
        _hold_group(toks, [d for d in prov.declines if d[0] == p], adds_match)
    for p in {q for q, _ in groups}:
        members = [t for (q, _), ts in groups.items() if q == p for t in ts]
        prov.revealed[p] = [t for t in members if t.reveal_at is not None]
        prov.pool[p] = sorted((t for t in members if t.reveal_at is None), key=lambda t: t.drawn)


def _hold_group(toks: list, points: list, adds_match) -> None:
    """hold_briefly within the `?` of one player and epoch (`toks`), over that player's declined draws."""
    reveals = [(t.label, t.reveal_at) for t in toks if t.reveal_at is not None]
    kept = [t.label for t in toks if t.reveal_at is None and t.label is not None]
    free = sorted(toks, key=lambda t: t.drawn)
    for t in toks:
        t.label = t.reveal_at = None
    clashes = {
        r: [now for _, now, center, hand in points if now < r[1] and adds_match(center, hand, r[0])] for r in reveals
    }
    pending = sorted(reveals, key=lambda r: r[1])
    for label, at in sorted(reveals, key=lambda r: (-len(clashes[r]), r[1])):
        pending.remove((label, at))
        fits = [t for t in reversed(free) if t.drawn < at and _room(pending, [u for u in free if u is not t])]
        fits = fits or [t for t in reversed(free) if t.drawn < at]
        # the `?` whose stay in the hand holds the fewest declined draws this card would match
        tok = min(fits, key=lambda t: sum(t.drawn <= now for now in clashes[(label, at)]))
        free.remove(tok)
        tok.label, tok.reveal_at = label, at
    for label, tok in zip(kept, reversed(free), strict=False):
        tok.label = label


def _held(prov: Ledger, player: str, now: int) -> list[str]:
    """The cards chosen so far that `player` holds at moment `now` (drawn by then, not yet revealed)."""
    return [
        t.label
        for t in prov.tokens
        if t.player == player and t.label is not None and t.drawn <= now and (t.reveal_at is None or now < t.reveal_at)
    ]


def _safe_codes(prov: Ledger, tok: Token, codes: list[str], clash, adds_match) -> list[str]:
    """The codes (numbers first, highest first: a 10 adds up with nothing) that, given the cards
    already chosen, leave every hand `tok` is in at a declined draw without a match. Each hand is
    judged once and each code only as it joins it: none is safe where the hand matches already (a
    long round's search had re-judged whole hands for every code of every `?` at every retry: 8 s of
    one view's witness, 0.9 s before the search)."""
    points = [d for d in prov.declines if d[0] == tok.player and tok.drawn <= d[1]]
    if not points:
        return codes
    # (`tok` itself is not among the cards held: it has no card yet)
    hands = [(center, [*hand, *_held(prov, p, now)]) for p, now, center, hand in points]
    if any(clash(center, whole) for center, whole in hands):
        return []
    order = sorted(codes, key=lambda b: (b[-1] == "#" or b.startswith("W"), -int(b[1:]) if b[1:].isdigit() else 0))
    return [b for b in order if not any(adds_match(center, whole, b) for center, whole in hands)]


def _room(reveals: list[tuple[str, int]], toks: list[Token]) -> bool:
    """Whether each reveal (card, moment), in moment order, can still take its own `?` drawn before it."""
    drawn = sorted(t.drawn for t in toks)
    k = 0
    for n, (_, at) in enumerate(sorted(reveals, key=lambda r: r[1]), 1):
        while k < len(drawn) and drawn[k] < at:
            k += 1
        if k < n:
            return False
    return True
