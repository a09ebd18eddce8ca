"""A UNO Duo position for the move API (dosverify.moves.protocol.PackPosition): the game between
two lines, what may come next (moves.listing) and how a listed move changes it (moves.apply)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from ....moves.model import CHANCE, TABLE, Move
from . import apply, listing
from .lines import canonical
from .state import UNSEEN_CARD, GameState, copy_round, round_key

if TYPE_CHECKING:
    from ....findings import Finding


class UnoPosition(GameState):
    """A UNO Duo position for the move API: the game's state (GameState) with what may come next
    and how a listed move changes it."""

    # ---- listing and playing -------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        return listing.legal_moves(self)

    def push(self, move: Move) -> None:
        apply.push(self, move.line, move.kind)

    def canonical(self, line: str) -> str | None:
        return canonical(self, line)

    def to_move(self) -> str:
        """The player whose choice it is (the turn's player while their action or its drawn card's
        play is open), else ``chance`` (a draw, a reshuffle, a deal), else ``table``."""
        moves = self.legal_moves()
        st = self.st
        if st is not None and st.turn is not None and any(m.actor == st.turn.player for m in moves):
            return st.turn.player
        if any(m.chance for m in moves):
            return CHANCE
        return next((m.actor for m in moves if m.actor != TABLE), TABLE)

    def deferred(self, line: str) -> list[Finding]:
        """UNO Duo's referee reports an unlisted line at that line: nothing is deferred (a repeated
        `uno` by a player who has called already changes nothing and earns no finding)."""
        return []

    def owed(self, findings: list[Finding]) -> list[Finding]:
        """The steps a prefix ending inside a turn still owes: the findings at its end (line + 1)."""
        if not self.end_line:
            return []
        return [f for f in findings if f.line == self.end_line + 1 or (f.line is None and f.pointer is not None)]

    # ---- values ---------------------------------------------------------------------------
    def copy(self) -> UnoPosition:
        new = UnoPosition.__new__(UnoPosition)
        new.__dict__.update(self.__dict__)
        new.totals = dict(self.totals)
        new.body = list(self.body)
        new.st = None if self.st is None else copy_round(self.st)
        return new

    def key(self) -> Hashable:
        st = None if self.st is None else round_key(self.st)
        return (tuple(self.players), tuple(sorted(self.totals.items())), self.over_target, self.winner_done, st)

    def lines(self) -> list[str]:
        return list(self.body)

    def observation(self, seat: str) -> dict[str, Any]:
        """What `seat` sees: their hand, the other's card count, the top card, the piles' sizes,
        the totals and the lines so far (UNO Duo has no face-down notation)."""
        if seat not in self.players:
            raise ValueError(f"{seat} is not a player of this game ({', '.join(self.players)})")
        st, opp = self.st, self.other(seat)
        hand = sorted((+st.hands[seat]).elements()) if st else []
        return {
            "seat": seat,
            "round": self.number,
            "hand": hand,
            "opponent": opp,
            "opponent_cards": sum(st.hands[opp].values()) if st else 0,
            "top": st.discards[-1] if st and st.discards else None,
            "top_colour": st.top_colour if st else None,
            "draw_pile": len(st.pile.slots) if st else 0,
            "discard_pile": len(st.discards) if st else 0,
            "to_move": self.to_move(),
            "totals": dict(self.totals),
            "lines": self.lines(),
        }

    def round_over(self) -> bool:
        return self.st is not None and self.st.over

    def game_over(self) -> bool:
        return self.winner_done or self.over_target

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    def hand(self, seat: str) -> list[str]:
        st = self.st
        return sorted(c for c in (+st.hands[seat]).elements() if c != UNSEEN_CARD) if st else []
