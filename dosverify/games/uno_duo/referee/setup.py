"""A round's set-up: the drafter, the deck, the draft or the hands, the turned-up card, and what
the first player faces (contract, "Set-up"; S2 DRAFTING, TERMINAȚI CONFIGURAREA, JOCUL)."""

from __future__ import annotations

from collections import Counter

from ..cards import composition, parse_card
from ..events import Deck, Draft, Drafter, Hand, Start
from .state import Facing, Pile


class SetupMixin:
    def setup(self, rnd) -> None:
        st = self.st
        st.composition = composition(self.opt.get("deck", "112"))
        st.pool = Counter(st.composition)
        for p in self.players:
            st.hands[p] = Counter()
        stage = {"drafter": None, "deck": [], "drafts": [], "hands": [], "start": None}
        for ev in rnd.setup:
            self._setup_line(ev, stage)
        first_turn = rnd.turns[0] if rnd.turns else None
        if stage["start"] is None:
            at = first_turn or rnd
            if stage["drafter"] is None:
                self._assume_drafter(at)
            if not st.started:
                self._finish_draft(stage, at)
            self.report("notation.placement", "the set-up ends with `start C`, the card turned up", at)

    def _setup_line(self, ev, stage: dict) -> None:
        st = self.st
        if isinstance(ev, Drafter):
            if stage["drafter"] is not None or st.started or stage["drafts"] or stage["hands"] or stage["deck"]:
                return self.report("notation.placement", "`drafter` is the set-up's first line, once", ev)
            stage["drafter"] = ev
            return self._drafter(ev)
        if stage["drafter"] is None:
            self._assume_drafter(ev)
            stage["drafter"] = ev
            self.report("notation.placement", "the set-up starts with `drafter P`", ev)
        if st.started:
            return self.report("notation.placement", "`start` is the set-up's last line", ev)
        if isinstance(ev, Deck):
            if stage["drafts"] or stage["hands"]:
                return self.report("notation.placement", "`deck` lines come before the picks", ev)
            stage["deck"].append(ev)
        elif isinstance(ev, Draft):
            self._draft(ev, stage)
        elif isinstance(ev, Hand):
            self._hand(ev, stage)
        elif isinstance(ev, Start):
            self._finish_draft(stage, ev)
            self._start(ev)
            stage["start"] = ev

    def _assume_drafter(self, at) -> None:
        st = self.st
        if st.drafter is None:
            st.drafter = self.other(self.prev_drafter) if self.prev_drafter else self.players[0]
            st.second = self.other(st.drafter)

    def _drafter(self, ev: Drafter) -> None:
        st = self.st
        if self.prev_drafter is not None and ev.player == self.prev_drafter:
            self.report(
                "setup.drafter",
                f"{ev.player} drafted first last round: the roles swap, {self.other(ev.player)} drafts first",
                ev,
                field="player",
                expected=f"drafter {self.other(ev.player)}",
            )
        drafter = ev.player if ev.player != self.prev_drafter else self.other(ev.player)  # READINGS R1
        st.drafter, st.second = drafter, self.other(drafter)

    def _deck_pile(self, stage: dict) -> None:
        """The `deck` lines, once the first pick comes: the ruleset's whole deck (cards.composition)."""
        st = self.st
        if st.has_deck or not stage["deck"]:
            return
        cards = [c for ev in stage["deck"] for c in ev.cards]
        st.has_deck = True
        if Counter(cards) != st.composition:
            extra = Counter(cards) - st.composition
            short = st.composition - Counter(cards)
            what = ", ".join(f"{c} +{n}" for c, n in extra.items()) or ", ".join(f"{c} -{n}" for c, n in short.items())
            self.report(
                "cards.composition",
                f"the deck is not the ruleset's {sum(st.composition.values())} cards ({len(cards)} written; {what})",
                stage["deck"][0],
                player=None,
            )
        st.pile = Pile(slots=list(cards), under_rule="draw.top")
        st.pool = Counter()

    def _draft(self, ev: Draft, stage: dict) -> None:
        st = self.st
        if stage["hands"]:
            return self.report("notation.placement", "`hand` lines and picks: write one or the other", ev)
        self._deck_pile(stage)
        n = len(stage["drafts"])
        stage["drafts"].append(ev)
        # the picks alternate from the last one as written (READINGS R2)
        want = st.drafter if n == 0 else self.other(stage["drafts"][-2].player)
        if n >= 14:
            self.report("draft.order", "the draft is 14 picks; this is one more", ev)
        elif ev.player != want:
            self.report(
                "draft.order",
                f"pick {n + 1} is {want}'s: the picks alternate from the drafter",
                ev,
                field="player",
                expected=f"draft {want} ...",
            )
        for card in ev.in_pile_order:
            self._draw_from_pile(card, ev, "keep" if card == ev.keep else "discard", None, "draft.pick")
        self.hand(ev.player)[ev.keep] += 1
        stage.setdefault("discards", []).append(ev.discard)

    def _hand(self, ev: Hand, stage: dict) -> None:
        st = self.st
        if stage["drafts"] or stage["deck"]:
            why = "picks" if stage["drafts"] else "a `deck`: with one the picks are written"
            return self.report("notation.placement", f"`hand` lines and {why}: not both", ev)
        if any(h.player == ev.player for h in stage["hands"]):
            return self.report("notation.placement", f"{ev.player}'s `hand` line is written twice", ev)
        stage["hands"].append(ev)
        if len(ev.cards) != 7:
            self.report(
                "draft.hands",
                f"a drafted hand holds 7 cards, not {len(ev.cards)}",
                ev,
                field="player",
                player=ev.player,
            )
        for i, card in enumerate(ev.cards):
            if st.pool[card] > 0:
                st.pool[card] -= 1
            else:
                self.report("cards.unseen", f"{card}: no copy of it is left in the deck", ev, index=i, player=ev.player)
            self.hand(ev.player)[card] += 1

    def _finish_draft(self, stage: dict, at) -> None:
        """The draft is over: 14 picks (or both hands); the discards go under the pile (U11)."""
        st = self.st
        if st.started:
            return
        st.started = True
        drafts, hands = stage["drafts"], stage["hands"]
        if stage["deck"] and not drafts:
            self._deck_pile(stage)
            self.report("notation.placement", "with a `deck` the 14 picks are written", at)
        elif hands:
            if len(hands) < 2:
                self.report("notation.placement", "both players' `hand` lines are written", at)
        elif not drafts:
            self.report("notation.placement", "the set-up has the 14 picks or both players' `hand` lines", at)
        elif len(drafts) < 14:
            self.report("draft.order", f"the draft is 14 picks, 7 each; {len(drafts)} are written", at)
        discards = stage.get("discards", [])
        loose = len(discards) if self.opt.get("pile-order") == "shuffled" else 0
        if st.has_deck:
            st.pile.slots.extend(discards)
            st.pile.loose = loose
        else:
            st.pile = Pile(
                slots=[None] * sum(st.pool.values()) + list(discards),
                loose=loose,
                under_rule="draft.under" if discards else "draw.top",
            )

    def _start(self, ev: Start) -> None:
        st = self.st
        card = parse_card(ev.card)
        self._draw_from_pile(card.base, ev, "card", None, "setup.start" if st.has_deck else None)
        st.discards.append(card.base)
        st.top_colour, st.top_rank = card.colour, card.rank
        if card.wild and card.colour is None:
            self.report(
                "wild.colour",
                f"the turned-up {card.base} names the colour {st.drafter} chose (`{card.base}=G`)",
                ev,
                field="card",
            )
        st.first = st.second
        if card.rank == "+2":
            st.facing = Facing("total", st.second, total=2, turned=True)
        elif card.rank == "W+4":
            st.facing = Facing("wd4", st.second, turned=True)
        elif card.rank == "S":
            st.first = st.drafter
        elif card.rank == "R":
            st.facing = Facing("run", st.second, colour=card.colour, turned=True)
