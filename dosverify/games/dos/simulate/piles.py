"""The piles: taking cards from the draw pile, and reshuffling the discards when it runs out (V5)."""

from __future__ import annotations

from collections import Counter

from .agents import Agents


class Piles(Agents):
    """Draws and refills that never span a reshuffle, and what a reshuffle means to `official` (V17)."""

    def reshuffle(self) -> None:
        """The discards become the draw pile, written with their cards (or, without a deck, now and then not)."""
        cards = self.discard
        self.rng.shuffle(cards)
        self.pile, self.discard = cards, []
        listed = self.with_deck or self.rng.random() < 0.75
        self.taken_in = None
        if self.matched_in_discard and not self.discarded:  # V17: this turn's matched cards taken in
            # a departure where `official` takes the reshuffle for one in mid-turn (judge_turn decides)
            self.v17_shuffles.append((len(self.turn_events), listed))
            if not listed:  # `official` sees it at the first draw its own pile (without them) cannot pay
                mine = Counter(self.matched_now)
                self.taken_in = (
                    ("turn", len(self.rounds) - 1, len(self.rounds[-1]["turns"]), len(self.turn_events)),
                    Counter(cards) - mine,
                )
        if listed and not self.discarded and (self.covered or self.used) and self.step_cls in (4, 5):
            # drawn at once (V12, V14) before this turn's matched cards are discarded: if nothing of an earlier
            # step follows, `official` takes the draw for an end-of-turn step, and so misses them here
            self.reshuffles_mid.append(len(self.turn_events))
        self.matched_in_discard = 0
        self.emit("reshuffle", list(cards) if listed else [])
        if self.covered and not self.discarded:
            self.moments["reshuffle before this turn's matched cards are discarded"] += 1

    def take(self, n: int, kind: str, player: str | None = None, reason: str = "") -> list[str]:
        """Take n cards from the top of the pile (reshuffling when it runs out), emitting
        `draw`/`refill` lines that never span a reshuffle; returns the cards taken.
        `reason` (no-match, penalty-now, penalty-step, dcm, refill) only names the moments."""
        got: list[str] = []
        reason = reason or kind
        cur: list[str] = []

        def flush() -> None:
            if not cur:
                return
            if len(cur) > 1 and self.rng.random() < 0.25:  # one reason, several lines: same meaning
                for c in cur:
                    self.emit(kind, player, [c]) if kind == "draw" else self.emit(kind, [c])
            else:
                self.emit(kind, player, list(cur)) if kind == "draw" else self.emit(kind, list(cur))
            cur.clear()

        for _ in range(n):
            if not self.pile:
                self.draining = False
                if not self.discard:
                    self.moments["both piles empty"] += 1
                    break  # V5: both piles empty, nothing is drawn
                flush()
                self.reshuffle()
                self.moments[f"reshuffle inside {reason}" if got else f"reshuffle before {reason}"] += 1
            c = self.pile.pop(0)
            if self.taken_in is not None:  # V17, unlisted: does this draw show the matched cards taken in?
                at, theirs = self.taken_in
                if theirs[c] > 0:
                    theirs[c] -= 1
                else:
                    self.departures.append((at, "card-accounting", "reshuffle.cards"))
                    self.taken_in = None
            cur.append(c)
            got.append(c)
            if kind == "draw":
                self.hands[player or self.on_turn].append(c)
        flush()
        return got
