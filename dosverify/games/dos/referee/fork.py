"""Two readings of one line, each played to the end of its round (READINGS R98): the referee's state saved
at the line and put back for each, so that the reading leaving fewer findings is the one taken.

A match line of cards the next player holds and the player on turn lacks, while that player is still
matching, is either the next player's turn begun, its `turn` line left out (R26), or the player's own slip
(R42). What follows tells them apart, and only what follows: so each is played on to the end of the round,
silently (its findings kept aside, no visitor told), and the one with fewer findings is then played for
real. At most one such fork a round: the round's rest is played at most three times, so the work stays
linear in the lines."""

from __future__ import annotations

import copy
from typing import Any

from ....findings import Finding
from ..events import Round
from .state import RefereeState

# what a fork never copies: the log and the ruleset, the seats (fixed for the game), the findings and the
# visitor (kept aside by the fork itself), and every round's provenance (the current one is `prov`)
_SHARED = frozenset({"log", "rs", "players", "seat", "from_left", "dcm_order_of", "watch", "findings", "provs"})


def _round_objects(rnd: Round) -> list[Any]:
    """The round's events, shared by every reading (only a turn's player is ever changed on them)."""
    out: list[Any] = [rnd, *rnd.setup, *rnd.shows, rnd.score, rnd.totals]
    for turn in rnd.turns:
        out.append(turn)
        out.extend(turn.events)
    return out


class Saved:
    """The state at the line of a fork: each field that a reading may change, and the turns' players."""

    __slots__ = ("fields", "shared", "players", "prov_at")

    def __init__(self, s: RefereeState, rnd: Round, k: int) -> None:
        self.shared = [s.log, s.rs, *_round_objects(rnd), *s.split_keep]
        self.fields = copy.deepcopy({f: v for f, v in vars(s).items() if f not in _SHARED}, self._memo())
        self.players = [(turn, turn.player) for turn in rnd.turns[k:]]
        # the round's provenance stands last in `provs` too: put back there as well
        self.prov_at = len(s.provs) - 1 if s.provs and s.prov is not None and s.provs[-1] is s.prov else None

    def _memo(self) -> dict[int, Any]:
        return {id(x): x for x in self.shared if x is not None}

    def restore(self, s: RefereeState) -> None:
        """Put the state back as it was at the line (a fresh copy: the saved one serves every reading)."""
        for f, v in copy.deepcopy(self.fields, self._memo()).items():
            setattr(s, f, v)
        for turn, p in self.players:
            turn.player = p
        if self.prov_at is not None and s.provs is not None:
            s.provs[self.prov_at] = s.prov


def weight(findings: list[Finding]) -> tuple[int, int]:
    """How much a reading leaves to report: its errors, then all its findings."""
    return sum(1 for f in findings if f.severity == "error"), len(findings)
