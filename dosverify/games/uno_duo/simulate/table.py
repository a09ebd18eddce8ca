"""The simulator's table: the piles and hands of one UNO Duo round, and the log it writes.

Kept apart from the agents (who decide) and the emitter (who writes text or JSON) so that each
piece says one thing. The table knows where every card of the draw pile came from (its *source*:
the shuffled deck above the draft discards, the draft discards, or the n-th reshuffle), because
whether a pile's order is known depends on the rendering (a `deck` line, `hand` lines, a listed
or bare reshuffle under `pile-order shuffled`), and the emitter must know it to write a bare `draw`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import base, full_deck

MAIN = "main"  # the deck above the draft discards
UNDER = "under"  # the draft discards, under the pile (U11)

#: An event of a turn, as the emitter reads it:
#: ("play", [codes]) | ("draw", player, [(card, source)], reason) | ("challenge",) | ("uno", player)
#: | ("catch", q, by) | ("reshuffle", [cards], source) | ("pass",)
Event = tuple


@dataclass
class RoundLog:
    """One round as it happened (every card known), before any rendering."""

    number: int
    drafter: str
    deck: list[str]
    picks: list[tuple[str, str, str, str]] = field(default_factory=list)  # (player, first word, keep, discard)
    hands: dict[str, list[str]] = field(default_factory=dict)  # after the draft
    start: str = ""
    turns: list[tuple[str, list[Event]]] = field(default_factory=list)
    after_end: list[Event] = field(default_factory=list)  # `last-draw yes`: the draws after the last play
    score: tuple[str, int] | None = None
    totals: dict[str, int] | None = None


@dataclass
class GameLog:
    players: list[str]
    options: dict[str, str]  # as given (written as `option` lines)
    target: int | None  # as given (a `target` line), None: the default
    rounds: list[RoundLog] = field(default_factory=list)
    winner: str | None = None
    tags: dict[str, str] = field(default_factory=dict)


class Table:
    """The piles and hands of one round. Draws go through :meth:`draw`, which reshuffles (U11, U12)
    when the pile is empty, and writes the draw and reshuffle events where they happen."""

    def __init__(self, rng: random.Random, opts: dict[str, str], players: list[str]):
        self.rng = rng
        self.opts = opts
        self.deck = full_deck(opts["deck"])
        rng.shuffle(self.deck)
        self.pile: list[tuple[str, str]] = [(c, MAIN) for c in self.deck]  # top first
        self.discard: list[str] = []  # bottom first; wilds with their named colour
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.reshuffles = 0
        self.eager = 0.0  # the chance that a reshuffle is made as soon as the pile is empty

    # ---- set-up
    def draft(self, order: list[str], keep_top) -> list[tuple[str, str, str, str]]:
        """The 14 picks (U2), alternating from the drafter; `keep_top(player, card)` decides each."""
        picks, discards = [], []
        for i in range(14):
            p = order[i % 2]
            (a, _), (b, _) = self.pile[0], self.pile[1]
            del self.pile[:2]
            if keep_top(p, a):
                picks.append((p, "keep", a, b))
                self.hands[p].append(a)
                discards.append(b)
            else:
                picks.append((p, "discard", b, a))
                self.hands[p].append(b)
                discards.append(a)
        if self.opts["pile-order"] == "shuffled":
            self.rng.shuffle(discards)
        self.pile += [(c, UNDER) for c in discards]  # turned over: the first discarded on top
        return picks

    def turn_up(self) -> str:
        card, _ = self.pile.pop(0)
        self.discard.append(card)
        return card

    # ---- the discard pile
    @property
    def top(self) -> str:
        return self.discard[-1]

    def lay(self, player: str, codes: list[str]) -> None:
        for code in codes:
            self.hands[player].remove(base(code))
            self.discard.append(code)

    # ---- drawing
    def drawable(self) -> int:
        """How many cards could be drawn now, reshuffling as needed."""
        return len(self.pile) + max(0, len(self.discard) - 1)

    def reshuffle(self, events: list[Event]) -> None:
        """U11: the discards less the top, the oldest on top (shuffled under `pile-order shuffled`)."""
        assert not self.pile and len(self.discard) >= 2
        self.reshuffles += 1
        cards = [base(c) for c in self.discard[:-1]]
        if self.opts["pile-order"] == "shuffled":
            self.rng.shuffle(cards)
        src = f"re{self.reshuffles}"
        self.pile = [(c, src) for c in cards]
        self.discard = self.discard[-1:]
        events.append(("reshuffle", cards, src))

    def draw(self, player: str, n: int, reason: str, events: list[Event]) -> int:
        """`player` draws up to n cards for one reason: one `draw` event a stretch between reshuffles.
        Returns how many were drawn (fewer only when nothing is left to draw)."""
        got: list[tuple[str, str]] = []
        done = 0
        while done < n:
            if not self.pile:
                if len(self.discard) < 2:
                    break
                if got:
                    events.append(("draw", player, got, reason))
                    got = []
                self.reshuffle(events)
            card = self.pile.pop(0)
            self.hands[player].append(card[0])
            got.append(card)
            done += 1
        if got:
            events.append(("draw", player, got, reason))
        return done

    def maybe_reshuffle(self, events: list[Event]) -> None:
        """U12: a reshuffle may be made at any moment while the pile is empty, not only before a draw
        (the driver offers it at the end of a turn)."""
        if not self.pile and len(self.discard) >= 2 and self.rng.random() < self.eager:
            self.reshuffle(events)
