"""A DOS position for the move API (``dosverify.moves.protocol.PackPosition``): the generator's table,
the lines so far, and the listing of what may come next."""

from __future__ import annotations

import random
from collections.abc import Hashable

from ....findings import Finding
from ....moves.model import CHANCE, TABLE, Move
from ..cards import full_deck
from ..referee.closing import UNNEEDED_RESHUFFLE
from .apply import apply
from .lines import read
from .listing import Entry, listing
from .state import Game, Table


class DosPosition:
    """The state between two lines of a DOS game, as its move generator keeps it."""

    __slots__ = ("g", "tb", "_lines", "seed", "deals", "_entries", "_shuffles")

    def __init__(self, g: Game, tb: Table, lines: list[str], seed: object, deals: bool, shuffles: int = 0) -> None:
        self.g = g
        self.tb = tb
        self._lines = lines
        self.seed = seed  # each round's deal, and (`deals`) each reshuffle's order: see rng_for
        self.deals = deals  # a new() game: every round's deck and every reshuffle are written out
        self._entries: dict[str, tuple] | None = None
        self._shuffles = shuffles  # reshuffles ordered so far (each its own source)

    def rng_for(self, what: str) -> random.Random:
        """A random source of its own for each chance event (`deal3`: round 3's set-up, `re2`: the
        game's third reshuffle), from the seed alone: a round is dealt the same whatever was played
        before it, so two agents playing one seed see the same deals (issue 34), as UNO Duo's."""
        return random.Random(f"dos:{self.seed}:{what}")

    # -- listing and playing
    def _listed(self) -> list[Entry]:
        entries = listing(self.g, self.tb)
        self._entries = {m.line: op for m, op in entries}
        return entries

    def legal_moves(self) -> list[Move]:
        return [m for m, _ in self._listed()]

    def to_move(self) -> str:
        """The player on turn when they have a choice, else `chance` or `table` (else who acts)."""
        entries = self._listed()
        t = self.tb.t
        actors = {m.actor for m, _ in entries}
        if t is not None and t.player in actors:
            return t.player
        for who in (CHANCE, TABLE):
            if who in actors:
                return who
        return next(iter(sorted(actors)), TABLE)

    def push(self, move: Move) -> None:
        op = self._entries.get(move.line) if self._entries is not None else None
        if op is None:
            got = read(self.g, self.tb, move.line)
            if got is None or got[1] is None:
                raise ValueError(f"`{move.line}` is not a DOS move")
            op = got[1]
            if move.kind == "deal" and op[0] == "round" and len(op) == 2:  # the listed chance move, not a bare line
                op = (*op, "deal")
        self._play(move.line, op)

    def _play(self, line: str, op: tuple) -> None:
        self._entries = None
        kind = op[0]
        if kind == "round" and op[2:] == ("deal",):  # the listed `round N`: the round and its set-up
            self._lines.append(line)
            apply(self.g, self.tb, op[:2])
            op, written = self._deal()
            self._lines.extend(written)
        elif kind == "deal":
            op, written = self._deal()
            self._lines.extend(written)
        elif kind == "reshuffle" and self.deals and op[1] is None:
            with_matched = op[2]
            cards = [*self.tb.discard.elements()]
            if with_matched and self.tb.t is not None and self.tb.t.matches and not self.tb.t.discarded:
                cards += self.tb.pending
            cards.sort()
            self.rng_for(f"re{self._shuffles}").shuffle(cards)
            self._shuffles += 1
            op = ("reshuffle", cards, with_matched)
            self._lines.append("reshuffle " + " ".join(cards))
        else:
            self._lines.append(line)
        apply(self.g, self.tb, op)

    def _deal(self) -> tuple[tuple, list[str]]:
        """The next round's set-up from this table's random source: its dealer (setup.dealer: round 1 drawn,
        then the last winner or the dealer's left, V4) and its shuffled `deck` (setup.deal)."""
        g, tb = self.g, self.tb
        rng = self.rng_for(f"deal{tb.round_no}")
        if tb.round_no <= 1 or tb.dealer is None:
            dealer = rng.choice(g.players)
        elif g.opt.get("next-dealer") == "left":
            dealer = g.left[tb.dealer]
        else:
            dealer = tb.went_out or g.left[tb.dealer]
        deck = full_deck()
        rng.shuffle(deck)
        return ("deal", dealer, deck, {}, None), [f"dealer {dealer}", "deck " + " ".join(deck)]

    # -- reading lines
    def canonical(self, line: str) -> str | None:
        """The move `line` is, canonical; None when it reads as no move (no DOS line at all, a match
        that does not add up, a set-up line: the protocol's "reads as none")."""
        got = read(self.g, self.tb, line)
        return None if got is None or got[1] is None else got[0]

    def deferred(self, line: str) -> list[Finding]:
        return []  # the table finds it by asking the referee with each listed line after it (Table._probe)

    def owed(self, findings: list[Finding]) -> list[Finding]:
        """DOS places every step a cut owes after the cut (the core drops those), but one: a cut right
        after a `reshuffle` owes the draw or refill it is for, which the referee, closing the turn,
        reports at the reshuffle itself (reshuffle.when), the last of that rule's findings."""
        t = self.tb.t
        if t is None or not t.reshuffled:
            return []
        at_end = [f for f in findings if f.rule == "reshuffle.when" and f.expected == UNNEEDED_RESHUFFLE]
        return at_end[-1:]

    # -- the rest of the protocol
    def copy(self) -> DosPosition:
        return DosPosition(self.g, self.tb.copy(), list(self._lines), self.seed, self.deals, self._shuffles)

    def key(self) -> Hashable:
        return self.tb.key()

    def lines(self) -> list[str]:
        return list(self._lines)

    def observation(self, seat: str) -> str:
        """What `seat` saw (the seat view log, notation.md Face-down cards)."""
        from ..hide import hide
        from ..notation.textstream import parse
        from ..notation.writer import write

        parsed = parse("\n".join(self._lines) + "\n")
        if parsed.log is None:
            raise ValueError("the game so far does not read as a log")
        return write(hide(parsed.log, f"seat:{seat}"))

    def round_over(self) -> bool:
        return self.tb.phase in ("scored", "totalled", "over")

    def game_over(self) -> bool:
        return self.tb.game_over

    def scores(self) -> dict[str, int]:
        return dict(self.tb.totals)
