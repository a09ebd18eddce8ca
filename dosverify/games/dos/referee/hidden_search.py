"""The exact searches over the choices of card for the `?` of a round (referee/hidden.py).

Both are depth-first searches pruned by Hall's condition (``Ledger.feasible``), within
``Ledger.SEARCH_BUDGET`` steps: ``search_reveals`` is what the greedy falls back on when
no reveal it tries fits, ``choose_sum`` finds cards for the unrevealed `?` a score rests on.
True: a choice is found (and adopted); False: none fits; None: the search gave up undecided
(the referee then lists the rule as unverified rather than guess).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hidden_ledger import Ledger, Token


def search_reveals(prov: Ledger, extra: tuple[str, str] | None) -> bool | None:
    """Give every reveal of the round (and `extra`, a new reveal (player, code)) an epoch, in
    reveal order, pruned by Hall's condition. A search that finds nothing spends the round's
    budget (ROUND_BUDGET): a legal log's searches succeed."""
    reveals: list[tuple[str, str, int]] = []  # (player, code, moment)
    for ts in prov.revealed.values():
        for t in ts:
            assert t.label is not None and t.reveal_at is not None  # a revealed `?` has both
            reveals.append((t.player, t.label, t.reveal_at))
    if extra is not None:
        reveals.append((extra[0], extra[1], prov.now))
    reveals.sort(key=lambda r: r[2])
    drawn: dict = {}  # (player, epoch) -> draw moments of its `?`, ascending
    for t in prov.tokens:
        if t.label is not None or t in prov.pool.get(t.player, ()):
            drawn.setdefault((t.player, t.epoch), []).append(t.drawn)
    saved = prov.nlab
    prov.nlab = {b: [0] * len(v) for b, v in saved.items()}
    used: dict = {}
    choice: list = []
    steps = [0]

    budget = min(prov.SEARCH_BUDGET, (prov.ROUND_BUDGET - prov.spent) // (prov.epoch + 1))

    def dfs(i: int):
        if i == len(reveals):
            return True
        steps[0] += 1
        if steps[0] > budget:
            return None
        p, x, r = reveals[i]
        undecided = False
        for e in range(prov.epoch + 1):
            times = drawn.get((p, e), [])
            k = used.get((p, e), 0)
            if k >= len(times) or times[k] >= r:  # the (k+1)-th `?` of that epoch came too late
                continue
            used[(p, e)] = k + 1
            prov.nlab[x][e] += 1
            choice.append(e)
            if prov.feasible():
                got = dfs(i + 1)
                if got:
                    return True
                undecided = undecided or got is None
            choice.pop()
            prov.nlab[x][e] -= 1
            used[(p, e)] = k
        return None if undecided else False

    got = dfs(0) if prov.feasible() else False
    if not got:
        prov.spent += steps[0] * (prov.epoch + 1)
        prov.nlab = saved
        return got
    _adopt(prov, reveals, choice)
    return True


def _adopt(prov: Ledger, reveals, choice) -> None:
    """Relabel every `?` by the search's epochs: in reveal order, each reveal takes the
    earliest-drawn free `?` of its player and epoch (any one drawn before it will do)."""
    free: dict = {}
    for t in sorted(prov.tokens, key=lambda t: t.drawn):
        if t.label is not None or t in prov.pool.get(t.player, ()):
            free.setdefault((t.player, t.epoch), []).append(t)
            t.label = t.reveal_at = None
    prov.revealed = {}
    for (p, x, r), e in zip(reveals, choice, strict=False):
        tok = free[(p, e)].pop(0)
        tok.label, tok.reveal_at = x, r
        prov.revealed.setdefault(p, []).append(tok)
    for p in prov.pool:
        prov.pool[p] = sorted((t for ts in free.values() for t in ts if t.player == p), key=lambda t: t.drawn)


def choose_sum(prov: Ledger, tokens: list[Token], caps: dict[str, int], value, target: int) -> bool | None:
    """Give the unrevealed `tokens` cards worth `target` in all, at most caps[X] of each code X
    (the copies not seen elsewhere at the end of the round), that keep every `?` of the round
    fitting (Hall's condition). True: the cards are chosen (their labels stay, for the witness);
    False: no choice gives the target; None: the search gave up undecided (SEARCH_BUDGET).

    A depth-first search over the tokens, in draw-epoch order: the `?` of one epoch are
    interchangeable, so each takes a code no earlier than the one before it (one multiset
    once), dearest first; a branch ends when the cards left cannot make the rest of the sum."""
    codes = sorted((b for b in caps if caps[b] > 0 and b in prov.kend), key=lambda b: (-value(b), b))
    toks = sorted(tokens, key=lambda t: (t.epoch, t.drawn))
    left = dict(caps)

    def bounds(r: int, need: int) -> bool:
        """Whether `need` lies between the r cheapest and the r dearest copies left."""
        copies = sorted((value(b), left[b]) for b in codes if left[b] > 0)
        lo = hi = 0
        k = r
        for v, n in copies:
            take = min(n, k)
            lo, k = lo + take * v, k - take
        k = r
        for v, n in reversed(copies):
            take = min(n, k)
            hi, k = hi + take * v, k - take
        return k == 0 and lo <= need <= hi

    chosen: list[str] = []
    steps = [0]

    def dfs(i: int, need: int, start: int):
        if i == len(toks):
            return need == 0
        r = len(toks) - i
        if not bounds(r, need):
            return False
        steps[0] += 1
        if steps[0] > budget:
            return None
        tok = toks[i]
        if i and toks[i - 1].epoch != tok.epoch:
            start = 0
        undecided = False
        for k in range(start, len(codes)):
            b = codes[k]
            v = value(b)
            if left[b] <= 0 or v > need:
                continue
            left[b] -= 1
            prov.nlab[b][tok.epoch] += 1
            if prov.feasible():
                chosen.append(b)
                got = dfs(i + 1, need - v, k)
                if got:
                    return True
                undecided = undecided or got is None
                chosen.pop()
            prov.nlab[b][tok.epoch] -= 1
            left[b] += 1
        return None if undecided else False

    budget = prov.SEARCH_BUDGET
    got = dfs(0, target, 0)
    if got:
        for tok, b in zip(toks, chosen, strict=True):
            tok.label = b  # still unrevealed (in its pool); counted in nlab, so later labels respect it
    return got
