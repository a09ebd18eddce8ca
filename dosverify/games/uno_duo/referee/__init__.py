"""The UNO Duo referee: replays a log against a ruleset and collects findings, never raises.

Composition, not one object: the state is declared in state.py, a :class:`~.judge.Judge` holds it
with the reporter and the spec's follow-on policy, and each part (setup, turns, plays, draws,
calls, scoring, the pile) is a module of functions handed the judge. After a finding the referee
applies the line as written where it can and goes on (contract, "After a finding"); a line gets
at most one finding, the first that applies in the contract's precedence order.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ....findings import Finding
from ....spec import Ruleset, Spec
from ..events import Catch, Challenge, Draw, Log, Pass, Play, Reshuffle, Round, Turn, Uno
from . import calls, draws, plays, scoring, turns
from .judge import Judge
from .state import RoundState, TurnState

__all__ = ["Referee"]

#: the part that reads each kind of turn event (a draw also gets the catch that did not stand)
_EVENTS: dict[type, Any] = {
    Play: plays.play,
    Pass: draws.pass_line,
    Challenge: calls.challenge,
    Uno: calls.uno,
    Catch: calls.catch,
    Reshuffle: draws.reshuffle,
}


class Referee:
    """Replays one log; `run()` returns the findings. The steps (`round_line`, `turn_line`,
    `event`, `round_close`) are public so that a replay can read the state between turns."""

    def __init__(self, log: Log, ruleset: Ruleset, spec: Spec) -> None:
        self.judge = Judge(log, ruleset, spec)
        self.log = log
        self.rs = ruleset

    # ---- what the report and the replay read ----------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.judge.players

    @property
    def findings(self) -> list[Finding]:
        return self.judge.findings

    @property
    def totals(self) -> dict[str, int]:
        return self.judge.game.totals

    @property
    def rounds_seen(self) -> int:
        return self.judge.game.rounds_seen

    @property
    def turns_seen(self) -> int:
        return self.judge.game.turns_seen

    @property
    def game_over(self) -> bool:
        return self.judge.game.game_over

    @property
    def st(self) -> RoundState | None:
        return self.judge.game.round

    @property
    def t(self) -> TurnState | None:
        return self.judge.game.turn

    def mark_reported(self, findings: Iterable[Finding]) -> None:
        """Lines the reader reported already: the referee does not report them again (READINGS R17)."""
        self.judge.reported.update((f.line, None if f.line is not None else f.pointer) for f in findings)

    # ---- the replay ------------------------------------------------------------------------
    def run(self, rounds: Iterable[Round] | None = None) -> list[Finding]:
        """Referee the log's rounds (or `rounds`, each as it comes); the findings made."""
        j = self.judge
        for rnd in self.log.rounds if rounds is None else rounds:
            self.round_line(rnd)
            for i, turn in enumerate(rnd.turns):
                j.game.next_turn = rnd.turns[i + 1] if i + 1 < len(rnd.turns) else None
                self.turn_line(turn)
                for ev in turn.events:
                    self.event(ev)
            self.round_close(rnd)
        if self.log.winner is not None:
            scoring.winner_line(j, self.log.winner)
        scoring.end_of_log(j)
        return j.findings

    def round_line(self, rnd: Round) -> None:
        scoring.round_line(self.judge, rnd)

    def turn_line(self, turn: Turn) -> None:
        turns.turn_line(self.judge, turn)

    def round_close(self, rnd: Round) -> None:
        scoring.round_close(self.judge, rnd)

    def event(self, ev: Any) -> None:
        """One line of a turn: owed draws first, round.end after the round's end, then its part."""
        j = self.judge
        st = j.st
        if st.dead or j.t is None:
            return
        if turns.owed_blocks(j, ev):
            return
        if st.over and not isinstance(ev, Draw):
            j.after_end(ev)
            return
        bad_catch, st.bad_catch = st.bad_catch, None
        if isinstance(ev, Draw):
            draws.draw(j, ev, bad_catch)
        else:
            _EVENTS[type(ev)](j, ev)
        if isinstance(ev, (Play, Draw, Pass)) and j.opt.get("uno-window") == "next-action":
            calls.close_windows(j, ev)
