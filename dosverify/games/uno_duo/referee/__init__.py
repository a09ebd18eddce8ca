"""The UNO Duo referee: replays a log against a ruleset and collects findings, never raises.

After a finding the referee applies the line as written where it can and goes on (contract,
"After a finding"). A line gets at most one finding, the first that applies in the contract's
precedence order: the checks of a line run in that order, and :meth:`Referee.report` keeps the
first finding a line gets. The rules live in the mixins, each check naming its rule id.
"""

from __future__ import annotations

from collections import Counter

from ....findings import Finding, Reporter
from ....spec import Ruleset, Spec
from ..events import Catch, Challenge, Draw, Log, Pass, Play, Reshuffle, Uno
from .calls import CallsMixin
from .draws import DrawsMixin
from .plays import PlaysMixin
from .scoring import ScoringMixin
from .setup import SetupMixin
from .state import UNSEEN, RoundState, TurnState
from .turns import TurnsMixin

__all__ = ["Referee"]

# Findings that would follow from a hand in doubt (an earlier card finding of that player).
DOUBT_FOLLOW_ONS = frozenset(
    {
        "play.held",
        "cards.unseen",
        "draw.top",
        "draft.under",
        "reverse.all",
        "uno.call",
        "uno.catch",
        "cards.known",
    }
)
# Findings about what a skipped (unreadable) line might have done: not reported in that turn.
NEEDS_WHOLE_TURN = frozenset(
    {
        "draw.reason",
        "draw.one",
        "volley.draw",
        "wd4.draw",
        "wd4.outcome",
        "uno.penalty",
        "uno.catch",
        "uno.call",
        "turn.end",
        "turn.pass",
        "skip.again",
        "start.reverse",
        "reshuffle.when",
    }
)
# Findings a hand in doubt is put in doubt by.
CARD_MISTAKES = frozenset({"play.held", "cards.unseen", "draw.top", "draft.under", "cards.known"})


class Referee(SetupMixin, TurnsMixin, PlaysMixin, DrawsMixin, CallsMixin, ScoringMixin):
    """Replays one log; `run()` returns the findings."""

    def __init__(self, log: Log, ruleset: Ruleset, spec: Spec) -> None:
        self.log = log
        self.rs = ruleset
        self.opt = ruleset.options
        self.r = Reporter(spec)
        self.players = list(log.players)
        self.findings: list[Finding] = []
        self.totals = {p: 0 for p in self.players}
        self.scored_totals = dict(self.totals)  # the written scores' sums, no `totals` line followed (R26)
        self.rounds_seen = 0
        self.next_turn = None  # the round's `turn` after the one being read (READINGS R8)
        self.turns_seen = 0
        self.game_over = False
        self.prev_drafter: str | None = None
        self.prev_number = 0
        self.st: RoundState | None = None
        self.t: TurnState | None = None
        self._reported: set = set()

    # ---- findings ------------------------------------------------------------------------
    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]

    def report(
        self,
        rule: str,
        message: str,
        at=None,
        *,
        index: int | None = None,
        field: str = "cards",
        player: str | None = None,
        line: int | None = None,
        pointer: str | None = None,
        **kw,
    ) -> None:
        """Report `rule` at a model (its card `index` for the column), unless its line has a finding
        already, it follows from a hand in doubt, or the turn has a skipped line."""
        st, t = self.st, self.t
        if st is not None and st.dead:
            return
        if rule in DOUBT_FOLLOW_ONS and st is not None and player in st.doubt:
            return
        if rule in NEEDS_WHOLE_TURN and t is not None and t.damaged:
            return
        if at is not None:
            line = at._line if line is None else line
            pointer = at._pointer if pointer is None else pointer
        key = (line, pointer)
        if key in self._reported:
            return
        self._reported.add(key)
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
        if rule in CARD_MISTAKES and st is not None and player is not None:
            st.doubt.add(player)

    def seen(self, at) -> bool:
        """The line `at` has a finding already (so what it does is applied without judging)."""
        return (at._line, at._pointer) in self._reported

    def end_at(self) -> dict:
        """Where a missing thing at the end of the log is reported: the last line + 1, or for JSON
        the last round's pointer."""
        if self.log._end_line is not None:
            return {"line": self.log._end_line}
        return {"pointer": f"/rounds/{len(self.log.rounds) - 1}" if self.log.rounds else "/rounds"}

    # ---- the replay ----------------------------------------------------------------------
    def run(self) -> list[Finding]:
        for rnd in self.log.rounds:
            self.round_line(rnd)
            for i, turn in enumerate(rnd.turns):
                self.next_turn = rnd.turns[i + 1] if i + 1 < len(rnd.turns) else None
                self.turn_line(turn)
                for ev in turn.events:
                    self.event(ev)
            self.round_close(rnd)
        if self.log.winner is not None:
            self.winner_line(self.log.winner)
        self.end_of_log()
        return self.findings

    def event(self, ev) -> None:
        st = self.st
        if st.dead or self.t is None:
            return
        if self.owed_blocks(ev):
            return
        if st.over and not isinstance(ev, Draw):
            self.after_end(ev)
            return
        bad_catch, st.bad_catch = st.bad_catch, None
        if isinstance(ev, Play):
            self.play(ev)
        elif isinstance(ev, Draw):
            self.draw(ev, bad_catch)
        elif isinstance(ev, Pass):
            self.pass_line(ev)
        elif isinstance(ev, Challenge):
            self.challenge(ev)
        elif isinstance(ev, Uno):
            self.uno(ev)
        elif isinstance(ev, Catch):
            self.catch(ev)
        elif isinstance(ev, Reshuffle):
            self.reshuffle(ev)
        if isinstance(ev, (Play, Draw, Pass)) and self.opt.get("uno-window") == "next-action":
            self.close_windows(ev)

    def after_end(self, at) -> None:
        """A line of a turn after the play that emptied a hand (round.end): the first is reported,
        the rest of the round is not refereed."""
        self.report("round.end", f"{self.st.out} went out: the round is over, only `score` follows", at)
        self.st.dead = True

    # ---- hands ---------------------------------------------------------------------------
    def hand(self, p: str) -> Counter:
        return self.st.hands.setdefault(p, Counter())

    def hand_size(self, p: str) -> int:
        return sum(self.hand(p).values())

    def in_doubt(self, p: str) -> bool:
        return p in self.st.doubt or self.hand(p)[UNSEEN] > 0
