"""The witness's cards for the `?` of a round (``check --witness``, issue 20): after the referee's
replay, every `?` gets a card that fits (referee/hidden.py), so that the open log written with
them is legal. Under decline-match=forbidden a `?` held at a declined draw takes, where one fits,
a card that matches nothing there (READINGS R34), and the revealed cards are moved, within their
epoch, to the `?` that keep them in the hand at the fewest declined draws.

`clash(center, hand)` says whether some cards of `hand` match a card of `center`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hidden_ledger import Ledger, Token


def label_rest(prov: Ledger, clash=None) -> bool:
    """Give every `?` never revealed a card: in draw order, a code whose copies still fit. False if
    some `?` found none. A `?` the score chose (choose_sum) keeps its card. With `clash`, a `?` held
    at a draw in `prov.declines` takes, when one fits, a card that leaves the hand there without a match."""
    ok = True
    rest = sorted((t for pool in prov.pool.values() for t in pool if t.label is None), key=lambda t: t.drawn)
    codes = list(prov.kend)
    for tok in rest:
        safe = _safe_codes(prov, tok, codes, clash) if clash is not None and prov.declines else codes
        for base in [*safe, *(b for b in codes if b not in safe)]:
            prov.nlab[base][tok.epoch] += 1
            if prov.feasible():
                tok.label = base
                break
            prov.nlab[base][tok.epoch] -= 1
        else:
            ok = False
    return ok


def hold_briefly(prov: Ledger, clash) -> None:
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
        _hold_group(toks, [d for d in prov.declines if d[0] == p], clash)
    for p in {q for q, _ in groups}:
        members = [t for (q, _), ts in groups.items() if q == p for t in ts]
        prov.revealed[p] = [t for t in members if t.reveal_at is not None]
        prov.pool[p] = sorted((t for t in members if t.reveal_at is None), key=lambda t: t.drawn)


def _hold_group(toks: list, points: list, clash) -> None:
    """hold_briefly within the `?` of one player and epoch (`toks`), over that player's declined draws."""
    reveals = [(t.label, t.reveal_at) for t in toks if t.reveal_at is not None]
    kept = [t.label for t in toks if t.reveal_at is None and t.label is not None]
    free = sorted(toks, key=lambda t: t.drawn)
    for t in toks:
        t.label = t.reveal_at = None
    clashes = {
        r: [now for _, now, center, hand in points if now < r[1] and clash(center, [*hand, r[0]])] for r in reveals
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


def _safe_codes(prov: Ledger, tok: Token, codes: list[str], clash) -> list[str]:
    """The codes (numbers first, highest first: a 10 adds up with nothing) that, given the cards
    already chosen, leave every hand `tok` is in at a declined draw without a match."""
    points = [d for d in prov.declines if d[0] == tok.player and tok.drawn <= d[1]]
    if not points:
        return codes
    held = [
        [
            t.label
            for t in prov.tokens
            if t.player == p
            and t is not tok
            and t.label is not None
            and t.drawn <= now
            and (t.reveal_at is None or now < t.reveal_at)
        ]
        for p, now, _, _ in points
    ]
    order = sorted(codes, key=lambda b: (b[-1] == "#" or b.startswith("W"), -int(b[1:]) if b[1:].isdigit() else 0))
    return [
        b
        for b in order
        if not any(clash(center, [*hand, *h, b]) for (_, _, center, hand), h in zip(points, held, strict=True))
    ]


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
