"""How the referee's parts report: one mistake, one finding.

A finding is made here and nowhere else, so the policy that keeps consequences of an earlier finding
out of the report is applied in one place: which rules are follow-ons of a hand or of the pile in
doubt is read from each rule's `follow_on` field in `spec/dos/rules/`.
"""

from __future__ import annotations

from ....findings import Position, finding
from ....hints import near_player
from ....spec import Spec, load_spec
from .state import RefereeState

# Findings that need every line of a turn to be known: in a turn with a line the parser
# skipped (a syntax finding), they would be guesses about what that line did (READINGS R17).
NEEDS_WHOLE_TURN = frozenset(
    {
        "draw.reason",
        "draw.no-match",
        "place.no-match",
        "turn.steps",
        "turn.pass",
        "center.refill",
        "bonus.card",
        "bonus.draw",
        "dos.penalty",
        "dos.catch",
        "dos.call",
        "reshuffle.when",
        "match.once",
        "match.refilled",
    }
)
# Findings about a player's cards: after one, the hand is in doubt for the rest of the round.
CARD_MISTAKES = frozenset(
    {
        "match.held",
        "cards.held",
        "match.single",
        "match.double",
        "match.two-cards",
        "cards.unseen",
        "draw.top",
        "match.center",
        "match.once",
        "match.refilled",
        "wild.declaration",
        "cards.composition",
        "match.decline",  # the match it sees is likelier a card tracked wrongly than a player declining again and again
    }
)
# What one match line can be found to break: the first of them at a line is the slip; the others
# judge the line by a card that was not meant (READINGS R62), so they are not reported.
ONE_A_MATCH_LINE = frozenset(
    {
        "match.held",
        "match.center",
        "match.single",
        "match.double",
        "match.two-cards",
        "match.after-draw",
        "match.once",
        "match.refilled",
        "wild.declaration",
        "cards.held",
    }
)


def follow_ons(spec: Spec) -> tuple[frozenset[str], frozenset[str]]:
    """The rules whose findings follow from a hand in doubt, and those that follow from the pile in doubt."""
    hand = frozenset(r.id for r in spec.rules.values() if "hand" in r.follow_on)
    pile = frozenset(r.id for r in spec.rules.values() if "pile" in r.follow_on)
    return hand, pile


class Reporter:
    """Makes the referee's findings, placed in the round and turn being replayed, and leaves out those
    that would only follow from one already made."""

    __slots__ = ("s", "hand_follow_ons", "pile_follow_ons")

    def __init__(self, state: RefereeState, spec: Spec | None = None) -> None:
        self.s = state
        self.hand_follow_ons, self.pile_follow_ons = follow_ons(spec or load_spec("dos"))

    def report(
        self,
        rule: str,
        message: str,
        ev=None,
        field: str | None = None,
        index: int | None = None,
        *,
        line: int | None = None,
        player: str | None = None,
        column: int | None = None,
        pointer: str | None = None,
        related_to=None,
        **kw,
    ) -> None:
        """Report `rule` at `ev` (its `field`, the `index`-th item of it), unless it is a follow-on."""
        s = self.s
        if ev is not None:
            if field is not None:
                col = ev._cols.get(field) if ev._cols else None
                if isinstance(col, list):
                    col = col[index] if index is not None and index < len(col) else (col[0] if col else None)
                column = column if column is not None else col
                if pointer is None and ev._pointer is not None:
                    pointer = f"{ev._pointer}/{field}" + (f"/{index}" if index is not None else "")
        if s.t is not None:
            if rule in NEEDS_WHOLE_TURN and s.t.turn._damaged:
                return
            if player is None:
                player = s.t.player
        who = player if player is not None else (s.t.player if s.t is not None else None)
        if self.follow_on(rule, who) or self._second_at_line(rule, ev, line):
            return
        if rule in CARD_MISTAKES and who is not None:
            s.doubt.add(who)
            s.slips[who] += 1
        if related_to is not None:
            kw["related"] = [Position(line=related_to._line, column=related_to._column, pointer=related_to._pointer)]
        s.findings.append(
            finding(
                rule,
                message,
                at=ev,
                line=line,
                column=column,
                pointer=pointer,
                round=s.round_no,
                turn=s.turn_no or None,
                player=player,
                **kw,
            )
        )

    def _second_at_line(self, rule: str, ev, line: int | None) -> bool:
        """Whether `rule` is one more finding about a match line already found wrong (R62)."""
        if rule not in ONE_A_MATCH_LINE:
            return False
        at = line if line is not None else getattr(ev, "_line", None)
        if at is None:
            return False
        if at in self.s.match_lines_found:
            return True
        self.s.match_lines_found.add(at)
        return False

    def follow_on(self, rule: str, who: str | None) -> bool:
        """Whether a finding of `rule` about `who` would only follow from one already made (and is
        not reported): a caller asks first when its message is costly to build."""
        return (rule in self.hand_follow_ons and who in self.s.doubt) or (
            rule in self.pile_follow_ons and self.s.pile_doubt
        )

    def known(self, p: str | None, ev, field: str = "player") -> bool:
        """Whether p is a player of the game (or no player is named); if not, that is reported."""
        s = self.s
        if p is None or p in s.seat:
            return True
        self.report(
            "notation.player",
            f"`{p}` is not a player of this game{near_player(p, s.players)}",
            ev,
            field,
            expected="one of " + ", ".join(s.players),
            found=p,
        )
        return False
