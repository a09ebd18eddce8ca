"""Where every face-down card (`?`) of a round came from, and the copies of each card code
per epoch: the state :class:`~dosverify.games.dos.referee.hidden.Provenance` replays the log
into, and Hall's condition over it (the method: referee/hidden.py). The exact searches
(hidden_search.py) and the witness (hidden_witness.py) read and relabel the same state."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import composition


@dataclass(slots=True, eq=False)
class Token:
    """One `?`: who holds it, when it was drawn, and (once chosen) which card it is."""

    player: str
    drawn: int
    epoch: int
    label: str | None = None
    reveal_at: int | None = None
    ref: tuple | None = None  # where it was written: (event, index), for the witness


class Ledger:
    """The `?` of one round (who holds each, when it was drawn, which are revealed) and the
    copies of each code, K_X and L_X per epoch; ``feasible`` is Hall's condition over them."""

    #: the most steps the exact search may take before it gives up (the verdict is then
    #: left open: the referee lists the rule as unverified rather than guess)
    SEARCH_BUDGET = 20000
    #: the most work the round's searches that find no choice may do together, in steps times epochs
    #: (each step checks Hall's condition over every epoch): a log whose reveals keep failing (an edited
    #: view of a long round) would search in vain at every line; past this, each search is undecided at once (R33)
    ROUND_BUDGET = 200000

    def __init__(self, comp=None) -> None:
        comp = comp if comp is not None else composition()
        self.now = 0
        self.epoch = 0
        self.kend: dict[str, list[int]] = {b: [n] for b, n in comp.items()}  # K_X at the end of each epoch (last: now)
        self.nlab: dict[str, list[int]] = {b: [0] for b in comp}  # `?` made X by a reveal, per draw epoch
        self.ntok: list[int] = [0]  # `?` drawn per epoch
        self.tokens: list[Token] = []
        self.pool: dict[str, list[Token]] = {}  # unrevealed `?` per player, in draw order
        self.revealed: dict[str, list[Token]] = {}
        self.spent = 0  # the work the round's searches did (ROUND_BUDGET)
        #: draws under decline-match=forbidden over a hand with `?` (player, moment, Center Row, written
        #: hand): the witness gives the `?` held then cards that match nothing there (READINGS R34)
        self.declines: list[tuple[str, int, tuple[str, ...], tuple[str, ...]]] = []

    # ---- the condition -------------------------------------------------------------------

    def feasible(self) -> bool:
        """Hall's condition for matching every `?` to a copy free when it was drawn."""
        E = self.epoch
        if E == 0:  # no reshuffle (most rounds): every R_X <= K_X, and T <= sum_X K_X
            copies = 0
            for base, kend in self.kend.items():
                if self.nlab[base][0] > kend[0]:
                    return False
                copies += kend[0]
            return self.ntok[0] <= copies
        total = [0] * (E + 1)  # sum_X R_X[e]
        bonus = [0] * (E + 1)  # sum_X max_{f >= e} (R_X[f] - K*_X[f])
        for base, kend in self.kend.items():
            lab = self.nlab[base]
            kstar = kend[:]
            for f in range(E - 1, -1, -1):
                if kstar[f + 1] < kstar[f]:
                    kstar[f] = kstar[f + 1]
            if not any(lab):  # no reveal of X: R_X = 0, and K*_X is a suffix minimum (its max is -K*_X[e])
                if kstar[0] < 0:
                    return False
                for e in range(E + 1):
                    bonus[e] -= kstar[e]
                continue
            r = 0
            rs = []
            for f in range(E + 1):
                r += lab[f]
                if r > kstar[f]:
                    return False
                rs.append(r)
            m = None
            for e in range(E, -1, -1):
                v = rs[e] - kstar[e]
                m = v if m is None or v > m else m
                bonus[e] += m
                total[e] += rs[e]
        t = 0
        for e in range(E + 1):
            t += self.ntok[e]
            if t - total[e] + bonus[e] > 0:
                return False
        return True

    # ---- what the log adds to it ------------------------------------------------------------

    def token(self, player: str, ref=None) -> Token:
        """A `?` is dealt to or drawn by `player`."""
        self.now += 1
        tok = Token(player, self.now, self.epoch, ref=ref)
        self.tokens.append(tok)
        self.ntok[self.epoch] += 1
        self.pool.setdefault(player, []).append(tok)
        return tok

    def reshuffle(self, returned) -> None:
        """The discard pile (a Counter of codes) becomes the draw pile: a new epoch."""
        self.now += 1
        self.epoch += 1
        self.ntok.append(0)
        for base, kend in self.kend.items():
            kend.append(kend[-1] + returned.get(base, 0))
            self.nlab[base].append(0)

    def held(self, player: str) -> int:
        return len(self.pool.get(player, []))
