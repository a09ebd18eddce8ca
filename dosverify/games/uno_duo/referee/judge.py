"""What every part of the referee is handed: the log, the ruleset, the state (state.py) and the
reporter, with the follow-on policy read from the spec (each rule's `follow_on` and
`puts_in_doubt`, spec/uno-duo/rules/*.toml; contract, "After a finding"; READINGS R4, R5, R17).

A line gets at most one finding: :meth:`Judge.report` keeps the first a line gets, so each part
runs its checks in the contract's precedence order."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from ....findings import Finding, Reporter
from ....spec import Ruleset, Spec, load_spec
from ..events import Log
from .state import UNSEEN, GameState, RoundState, TurnState


@dataclass(frozen=True)
class FollowOns:
    """The spec's follow-on policy: rules not reported for a hand in doubt or in a turn with a
    skipped line, and the card rules that put a hand in doubt."""

    hand_in_doubt: frozenset[str]
    skipped_line: frozenset[str]
    puts_in_doubt: frozenset[str]


@cache
def follow_ons(game: str) -> FollowOns:
    rules = load_spec(game).rules.values()  # `follow_on` names are checked against [follow_ons] on load

    def marked(circumstance: str) -> frozenset[str]:
        return frozenset(r.id for r in rules if circumstance in r.follow_on)

    return FollowOns(marked("hand-in-doubt"), marked("skipped-line"), frozenset(r.id for r in rules if r.puts_in_doubt))


class Judge:
    """The referee's context: state, options and the reporter, passed to every part explicitly."""

    def __init__(self, log: Log, ruleset: Ruleset, spec: Spec) -> None:
        self.log = log
        self.rs = ruleset
        self.opt: dict[str, Any] = ruleset.options
        self.r = Reporter(spec)
        self.policy = follow_ons(spec.game)
        self.game = GameState(players=list(log.players))
        self.findings: list[Finding] = []
        self.reported: set = set()

    # ---- the state -----------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.game.players

    @property
    def st(self) -> RoundState:
        """The round being read (parts run only inside a round)."""
        assert self.game.round is not None, "no round yet"
        return self.game.round

    @property
    def t(self) -> TurnState | None:
        return self.game.turn

    @t.setter
    def t(self, turn: TurnState | None) -> None:
        self.game.turn = turn

    @property
    def turn(self) -> TurnState:
        """The turn being read (the events of a turn run only inside one)."""
        assert self.game.turn is not None, "no turn open"
        return self.game.turn

    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]

    def hand(self, p: str) -> Counter:
        return self.st.hands.setdefault(p, Counter())

    def hand_size(self, p: str) -> int:
        return sum(self.hand(p).values())

    def in_doubt(self, p: str) -> bool:
        return p in self.st.doubt or self.hand(p)[UNSEEN] > 0

    # ---- findings ------------------------------------------------------------------------
    def report(
        self,
        rule: str,
        message: str,
        at: Any = None,
        *,
        index: int | None = None,
        field: str = "cards",
        player: str | None = None,
        line: int | None = None,
        pointer: str | None = None,
        **kw: Any,
    ) -> None:
        """Report `rule` at a model (its card `index` for the column), unless its line has a finding
        already or the spec's follow-on policy says it follows from an earlier one."""
        st, t = self.game.round, self.game.turn
        if st is not None and st.dead:
            return
        if rule in self.policy.hand_in_doubt and st is not None and player in st.doubt:
            return
        if rule in self.policy.skipped_line and t is not None and t.damaged:
            return
        if at is not None:
            line = at._line if line is None else line
            pointer = at._pointer if pointer is None else pointer
        key = (line, pointer)
        if key in self.reported:
            return
        self.reported.add(key)
        col = at.col(field, index) if at is not None and hasattr(at, "col") else None
        self.findings.append(
            self.r(
                rule,
                message,
                line=line,
                column=col,
                pointer=pointer if line is None else None,
                round=st.number if st else None,
                turn=t.index if t else None,
                player=player or (t.player if t else None),
                **kw,
            )
        )
        if rule in self.policy.puts_in_doubt and st is not None and player is not None:
            st.doubt.add(player)

    def seen(self, at: Any) -> bool:
        """The line `at` has a finding already (so what it does is applied without judging)."""
        return (at._line, at._pointer) in self.reported

    def end_at(self) -> dict:
        """Where a missing thing at the end of the log is reported: the last line + 1, or for JSON
        the last round's pointer."""
        if self.log._end_line is not None:
            return {"line": self.log._end_line}
        return {"pointer": f"/rounds/{len(self.log.rounds) - 1}" if self.log.rounds else "/rounds"}

    def after_end(self, at: Any) -> None:
        """round.end: a line of a turn after the play that emptied a hand; the first is reported,
        the rest of the round is not refereed."""
        self.report("round.end", f"{self.st.out} went out: the round is over, only `score` follows", at)
        self.st.dead = True
