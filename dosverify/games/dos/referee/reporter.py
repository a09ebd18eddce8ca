"""How the referee's parts report: one mistake, one finding.

A finding is made here and nowhere else, so the policy that keeps consequences of an earlier finding
out of the report is applied in one place: which rules are follow-ons of a hand or of the pile in
doubt, in a turn with a skipped line, or at a match line already found wrong, and which findings put a
hand in doubt, is read from each rule's `follow_on` and `puts_in_doubt` fields in `spec/dos/rules/`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ....findings import Position
from ....hints import near_player
from ....spec import Spec, load_spec
from ..findings import finding
from .state import RefereeState


@dataclass(frozen=True)
class FollowOns:
    """The spec's follow-on policy (spec/dos/rules/*.toml `follow_on` and `puts_in_doubt`,
    spec.toml [follow_ons]; READINGS R17, R28, R41, R62), as sets of rule ids."""

    hand: frozenset[str]  # not reported while the player's hand is in doubt
    pile: frozenset[str]  # not reported while the draw pile is in doubt
    skipped_line: frozenset[str]  # not reported in a turn with a line the reader skipped
    match_line: frozenset[str]  # one finding of these per match line: the first is the slip
    puts_in_doubt: frozenset[str]  # card findings that put the player's hand in doubt


_POLICIES: dict[int, tuple[Spec, FollowOns]] = {}  # by id(spec): a spec is read once per process


def follow_ons(spec: Spec) -> FollowOns:
    kept = _POLICIES.get(id(spec))
    if kept is not None and kept[0] is spec:
        return kept[1]

    def marked(circumstance: str) -> frozenset[str]:
        return frozenset(r.id for r in spec.rules.values() if circumstance in r.follow_on)

    policy = FollowOns(
        hand=marked("hand"),
        pile=marked("pile"),
        skipped_line=marked("skipped-line"),
        match_line=marked("match-line"),
        puts_in_doubt=frozenset(r.id for r in spec.rules.values() if r.puts_in_doubt),
    )
    _POLICIES[id(spec)] = (spec, policy)
    return policy


class Reporter:
    """Makes the referee's findings, placed in the round and turn being replayed, and leaves out those
    that would only follow from one already made."""

    __slots__ = ("s", "policy", "spec")

    def __init__(self, state: RefereeState, spec: Spec | None = None) -> None:
        self.s = state
        self.spec = spec or load_spec("dos")  # its messages cite options by name (Spec.option_ref)
        self.policy = follow_ons(self.spec)

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
    ) -> bool:
        """Report `rule` at `ev` (its `field`, the `index`-th item of it), unless it is a follow-on;
        whether it was reported."""
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
            if s.t.turn._damaged and rule in self.policy.skipped_line:
                return False
            if player is None:
                player = s.t.player
        who = player if player is not None else (s.t.player if s.t is not None else None)
        if self.follow_on(rule, who) or self._second_at_line(rule, ev, line):
            return False
        if who is not None and rule in self.policy.puts_in_doubt:
            s.doubt.add(who)
            s.slips[who] += 1
        if related_to is not None:
            kw["related"] = [Position(line=related_to._line, column=related_to._column, pointer=related_to._pointer)]
        made = finding(
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
        s.findings.append(made)
        if who is not None:
            s.found_at.setdefault(who, (made.line, made.pointer))
        return True

    def _second_at_line(self, rule: str, ev, line: int | None) -> bool:
        """Whether `rule` is one more finding about a match line already found wrong (R62)."""
        if rule not in self.policy.match_line:
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
        return (rule in self.policy.hand and who in self.s.doubt) or (rule in self.policy.pile and self.s.pile_doubt)

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
