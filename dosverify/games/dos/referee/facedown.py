"""Face-down cards in the referee: `?` dealt and drawn, reveals, `show` lines, and scores
that rest on hands nobody saw (notation.md, "Face-down cards").

A part of :class:`dosverify.games.dos.referee.Referee`. A `?` sits in its hand as the table's
UNKNOWN card, so every rule that does not depend on the choice (hand sizes, and so every
DOS call and catch, counts, step order) is judged as in an open log; which card each `?`
can be is :class:`~dosverify.games.dos.referee.hidden.Provenance`'s business, one per round."""

from __future__ import annotations

from collections import Counter

from ....findings import Position
from ....hints import plural
from ..cards import composition, value
from ..events import FACE_DOWN, Draw, Hand, Round
from .hidden import Provenance
from .hidden_search import choose_sum
from .part import Part, enforces
from .table import UNKNOWN


def has_face_down(rnd: Round) -> bool:
    if any(isinstance(ev, Hand) and FACE_DOWN in ev.cards for ev in rnd.setup):
        return True
    for turn in rnd.turns:  # loops, not one generator over every line: this runs over every round
        for ev in turn.events:
            if isinstance(ev, Draw) and FACE_DOWN in ev.cards:
                return True
    return False


def _sums(k: int, caps: dict[str, int]) -> int:
    """Every total k cards can score, at most caps[X] copies of each code X, as a bit set (bit t: the
    total t): a bounded knapsack over the card values (the copies of one value score alike)."""
    per_value: Counter = Counter()
    for b, n in caps.items():
        per_value[value(b)] += max(0, n)
    reach = [1] + [0] * k  # reach[j]: the totals j cards can make
    for v, n in per_value.items():
        for j in range(k, 0, -1):
            for m in range(1, min(n, j) + 1):
                reach[j] |= reach[j - m] << (m * v)
    return reach[k]


class FaceDown(Part):
    """Face-down cards: their provenance, reveals, `show` lines, and the rules the choice decides."""

    def hidden_start_round(self, rnd: Round) -> None:
        self.s.prov = Provenance() if has_face_down(rnd) else None
        if self.s.provs is not None:  # None: rounds judged as they are read keep no provenance (no witness)
            self.s.provs.append(self.s.prov)

    def hidden_token(self, p: str, ev, index: int) -> None:
        self.s.face_down += 1
        if self.s.prov is not None:
            self.s.last_token = self.s.prov.token(p, ref=(ev, index))

    @enforces("cards.unseen")
    def hidden_out(self, base: str, ev, index: int | None, what: str) -> None:
        """A written card left the pile; with face-down cards about, a copy must be left for it."""
        ok = self.s.prov.out(base) if self.s.prov is not None else True
        if ok is None:
            self.unverify("cards.unseen")
        elif not ok:
            self.r.report(
                "cards.unseen",
                f"{what} {base}, but whatever the face-down cards are, no {base} is unseen: "
                f"the copies not written elsewhere are behind face-down cards dealt or drawn before "
                f"(written: {self.s.table.where(base)})",
                ev,
                "cards" if index is not None else None,
                index,
                expected="a card still in the draw pile",
                found=base,
                related=self._token_lines(None),
            )

    def hidden_reshuffle(self) -> None:
        if self.s.prov is not None:
            self.s.prov.reshuffle(self.s.table.discard)

    def hidden_reveal(self, p: str, base: str, ev, field: str, index: int | None, rule: str) -> None:
        """`p` matched or placed `base` from a `?` (no written card of that code in hand)."""
        if self.s.prov is None:
            return
        related = self._token_lines(p)
        t = self.s.t
        prefer = None
        if (
            t is not None
            and t.drew
            and t.drawn_card == UNKNOWN
            and t.matches_after_draw == 0
            and self.s.rs.opt("after-draw-match") == "drawn-only"
        ):
            prefer = t.drawn_token
        ok = self.s.prov.reveal(p, base, prefer)
        if ok is None:
            self.unverify(rule)
        elif not ok:
            n = composition()[base]
            where = self.s.table.where(base)
            self.r.report(
                rule,
                f"{p} holds no {base}: no face-down card of {p} can be one (each time {p} drew face "
                f"down, the deck's {n} {base} were in hands, the Center Row or the discard pile, or are taken "
                f"by other face-down cards; now: {'the draw pile' if where == 'nowhere seen' else where})",
                ev,
                field,
                index,
                expected=f"a card {p} can hold",
                found=base,
                related=related,
            )

    def _token_lines(self, p: str | None) -> list[Position]:
        """The lines that dealt or drew the face-down cards in question (at most five)."""
        if self.s.prov is None:
            return []
        toks = [t for t in self.s.prov.tokens if p is None or t.player == p]
        out, seen = [], set()
        for t in reversed(toks):
            ev = t.ref[0] if t.ref else None
            if ev is None or id(ev) in seen:
                continue
            seen.add(id(ev))
            out.append(Position(line=ev._line, column=ev._column, pointer=ev._pointer))
            if len(out) == 5:
                break
        return sorted(out, key=lambda r: r.line or 0)

    def unverify(self, rule: str) -> None:
        if rule not in self.s.unverified:
            self.s.unverified.append(rule)

    # ---- the end of a round --------------------------------------------------------------

    @enforces("cards.held", "notation.placement")
    def check_shows(self, rnd: Round) -> None:
        from ..cards import parse_card

        tb = self.s.table
        self.s.t = None
        for sh in rnd.shows:
            if not self.r.known(sh.player, sh):
                continue
            p = sh.player
            if not self.s.round_over:
                self.r.report(
                    "notation.placement",
                    "a `show` line, but no player went out this round: `show` stands "
                    "between the turn that ended the round and its `score`",
                    sh,
                    player=p,
                    expected="no show",
                    found=f"show {p}",
                )
                continue
            if p == self.s.round_winner:
                self.r.report(
                    "notation.placement",
                    f"{p} went out and holds no card to show",
                    sh,
                    "player",
                    player=p,
                    expected="a `show` for another player",
                    found=f"show {p}",
                )
                continue
            hand = tb.hands[p]
            bases = [parse_card(c).base for c in sh.cards]
            size = sum(hand.values())
            if len(bases) != size:
                self.r.report(
                    "cards.held",
                    f"{p} holds {plural(size, 'card')}, but the show lists {len(bases)}",
                    sh,
                    "player",
                    player=p,
                    expected=f"{size} cards",
                    found=f"{len(bases)} cards",
                )
                continue
            written = Counter({b: n for b, n in hand.items() if b != UNKNOWN})
            shown = Counter(bases)
            missing = written - shown
            if missing:
                self.r.report(
                    "cards.held",
                    f"the show leaves out {' '.join(sorted(missing.elements()))}, which {p} holds",
                    sh,
                    "player",
                    player=p,
                    expected=" ".join(sorted(written.elements())) + " and the rest",
                    found=" ".join(sh.cards),
                )
                continue
            rest = list(bases)
            for b in written.elements():
                rest.remove(b)
            for b in rest:
                i = len(bases) - 1 - bases[::-1].index(b)
                self.hidden_reveal(p, b, sh, "cards", i, "cards.held")
            tb.hands[p] = shown

    def unseen_copies(self) -> dict[str, int]:
        """For each card code, the copies the face-down cards left in the hands can still be at the end of
        the round: the deck's copies less those seen elsewhere (the Center Row, the discard pile, this
        turn's matched cards, every card written in a hand)."""
        tb = self.s.table
        seen_now = Counter(c.base for c in tb.center)
        seen_now.update(tb.discard)
        seen_now.update(tb.pending)
        for h in tb.hands.values():
            seen_now.update(h)
        return {b: n - seen_now.get(b, 0) for b, n in composition().items()}

    def score_choice(self, target: int, hidden: int) -> bool | None:
        """Whether some choice of the `hidden` face-down cards left in the other hands scores `target`:
        over the copies not seen elsewhere, and, where each `?` is known (provenance), over what each can
        still be (READINGS R32). None: the search gave up undecided."""
        caps = self.unseen_copies()
        if target < 0 or not _sums(hidden, caps) >> target & 1:
            return False
        prov = self.s.prov
        toks = [t for q, pool in (prov.pool.items() if prov else ()) if q != self.s.round_winner for t in pool]
        if prov is None or len(toks) != hidden:  # unknown cards no `?` stands for (a bare draw, R27): copies only
            return True
        return choose_sum(prov, toks, caps, value, target)

    @enforces("score.hidden", "score.round")
    def score_over_choices(self, s, pts_known: int, hidden: int) -> None:
        """A score that rests on `hidden` face-down cards nobody showed: an error when no
        choice gives it, else a warning that it could not be confirmed."""
        ok = self.score_choice(s.points - pts_known, hidden)
        if ok is None:
            self.unverify("score.round")
        if ok is False:
            self.r.report(
                "score.round",
                f"no choice of the {plural(hidden, 'face-down card')} left in the other hands gives "
                f"{s.points}: the written cards are worth {pts_known}, and the face-down cards are of the "
                "copies not seen elsewhere",
                s,
                "points",
                player=s.player,
                expected=f"{pts_known} plus what {plural(hidden, 'card')} of the unseen copies can score",
                found=str(s.points),
            )
        else:
            unseen = [q for q, h in self.s.table.hands.items() if h.get(UNKNOWN) and q != self.s.round_winner]
            if unseen and all(q in self.s.doubt for q in unseen):
                return  # the unknown cards are those of a draw left out of the log, already reported (R28)
            self.r.report(
                "score.hidden",
                f"the score could not be confirmed: {', '.join(unseen)} never showed "
                f"{'their hands' if len(unseen) > 1 else 'their hand'} ({plural(hidden, 'face-down card')})",
                s,
                "points",
                player=s.player,
                expected="`show` lines for " + ", ".join(unseen),
                found=str(s.points),
            )
