"""The referee: replays a log's events against a ruleset and collects findings.

Like python-chess's game errors, findings are collected, never raised: after a
finding the referee applies the event as written where it can and goes on, and
does not report the consequences of a problem already reported.

The referee is made of parts (one module each, by part of the rules), composed here: each is handed
the one :class:`~.state.RefereeState`, the :class:`~.reporter.Reporter` and the parts below it that it
uses (part.ORDER: the calls go one way); this class owns them all and dispatches the log's rounds, turns
and lines to them.
"""

from __future__ import annotations

from typing import Any

from ....findings import Finding
from ....spec import Ruleset
from ..events import Log, Match, Round, Turn
from . import fork
from .calls import Calls
from .closing import Closing
from .deal import Deal
from .draws import Draws
from .engine import Engine
from .facedown import FaceDown
from .handcards import HandCards
from .matches import Matches
from .meant import Meant
from .names import Names
from .part import ENFORCED, ORDER, Part, Parts, below
from .pile import Pile
from .plays import Plays
from .refills import Refills
from .reporter import Reporter
from .rounds import Rounds
from .scoring import Scoring
from .setup import Setup
from .skipped import Skipped
from .state import RefereeState, new_state
from .steps import Steps
from .turns import Turns

__all__ = ["ENFORCED", "PART_CLASSES", "Referee"]

#: each part's class by its name in ORDER
PART_CLASSES: dict[str, type[Part]] = {
    "calls": Calls,
    "closing": Closing,
    "deal": Deal,
    "draws": Draws,
    "engine": Engine,
    "facedown": FaceDown,
    "handcards": HandCards,
    "matches": Matches,
    "meant": Meant,
    "names": Names,
    "pile": Pile,
    "plays": Plays,
    "refills": Refills,
    "rounds": Rounds,
    "scoring": Scoring,
    "setup": Setup,
    "skipped": Skipped,
    "steps": Steps,
    "turns": Turns,
}


class Referee:
    """Replays one log; `run()` returns the findings. The parts of the rules live in the parts."""

    def __init__(self, log: Log, ruleset: Ruleset, visitor=None, sink=None) -> None:
        """`visitor`, if given, is called as `visitor(referee)` after every turn (and after the
        score of a round): a way to watch the replayed state, like python-chess's visitors.
        `sink`, if given (a check's :class:`~dosverify.findings.Kept`), takes the findings as
        they are made, so that only those kept for output are held (`run()` then gives none)."""
        self.visitor = visitor
        self._sink = sink
        findings: Any = [] if sink is None else sink.view(3)
        self.s: RefereeState = new_state(log, ruleset, findings)
        if visitor is not None:
            self.s.watch = lambda: visitor(self)
        self.r = Reporter(self.s)
        built = self.parts = Parts()  # every part, for the Referee; each part gets only those it uses
        for name in ORDER:
            cls = PART_CLASSES[name]
            setattr(built, name, cls(self.s, self.r, below(built, cls.uses)))
        built.turns.bind()

    # what the replayed state shows to visitors and callers (views, replay, the check's report)
    @property
    def log(self) -> Log:
        return self.s.log

    @property
    def players(self) -> list[str]:
        return self.s.players

    @property
    def totals(self) -> dict[str, int]:
        return self.s.totals

    @property
    def called(self) -> dict[str, bool]:
        return self.s.called

    @property
    def caught(self) -> dict[str, bool]:
        return self.s.caught

    @property
    def rounds_seen(self) -> int:
        return self.s.rounds_seen

    @property
    def turns_seen(self) -> int:
        return self.s.turns_seen

    @property
    def face_down(self) -> int:
        return self.s.face_down

    @property
    def unverified(self) -> list[str]:
        return self.s.unverified

    @property
    def provs(self) -> list | None:
        """Every round's provenance of face-down cards; set to None to keep none (no witness asked)."""
        return self.s.provs

    @provs.setter
    def provs(self, value: list | None) -> None:
        self.s.provs = value

    @property
    def findings(self) -> list[Finding]:
        return self.s.findings

    def snapshot(self) -> dict:
        """The replayed state now: hands, Center Row, pile sizes and running totals."""
        return self.parts.scoring.snapshot()

    def run(self, rounds=None) -> list[Finding]:
        """Referee the log's rounds; or, given `rounds` (an iterable handing on each round as it
        is read, the log's own list left empty), each round as it comes: then no more than the
        round being judged and the next need be held, and the log's `winner` is read once the
        rounds are exhausted. Either way, the same findings."""
        s, names = self.s, self.parts.names
        if rounds is None:
            names.resolve_names()
            for i, whole in enumerate(s.log.rounds):
                self.play_round(whole, s.log.rounds[i + 1] if i + 1 < len(s.log.rounds) else None)
        else:
            # the names resolved come first, as when every round is resolved before play (what
            # orders the findings of a JSON log, which have no line to be sorted by)
            main = s.findings
            early: Any = [] if self._sink is None else self._sink.view(2)  # a sink ranks them first
            it = iter(rounds)
            rnd: Round | None = next(it, None)
            while rnd is not None:
                nxt: Round | None = next(
                    it, None
                )  # the next round's line places a step missing from this round's last turn
                s.findings = early
                try:
                    names.resolve_round(rnd)
                finally:
                    s.findings = main
                self.play_round(rnd, nxt)
                rnd = nxt
            s.findings = early
            try:
                names.resolve_winner()
            finally:
                s.findings = main
            if isinstance(main, list):
                main[:0] = early
        self.parts.rounds.end(None)
        self.parts.rounds.check_winner()
        return s.findings if self._sink is None else []

    def play_round(self, rnd: Round, next_round: Round | None = None) -> None:
        prev_no, prev_dealer, prev_winner = self.parts.rounds.start(rnd)
        self.parts.facedown.hidden_start_round(rnd)
        self.parts.setup.setup(rnd, prev_no, prev_dealer, prev_winner)
        s = self.s
        for i, turn in enumerate(rnd.turns):
            s.turn_at = i  # the turn's place, known here without a search (R49 looks at the next turn)
            self.play_turn(turn, rnd)
            if s.fork_at is not None:  # the turn stopped at a line of two readings (R98)
                j, s.fork_at = s.fork_at, None
                self._fork(rnd, i, j, next_round)
                return
        self._end_round(rnd, next_round)

    def _end_round(self, rnd: Round, next_round: Round | None) -> None:
        # a step missing from the last turn is reported at the first event line after it (notation.md):
        # the first `show` line, the score, the totals or the next round
        self.close_turn((rnd.shows[0] if rnd.shows else None) or rnd.score or rnd.totals or next_round)
        self.parts.rounds.finish(rnd)

    def _fork(self, rnd: Round, k: int, j: int, next_round: Round | None) -> None:
        """R98: line j of turn k reads as the next player's turn begun (R26) or as the player's slip (R42):
        each is played silently to the end of the round, then the one of fewer findings (a tie: R26) for real."""
        s = self.s
        s.fork_line = rnd.turns[k].events[j]  # the round's one fork
        saved = fork.Saved(s, rnd, k)
        main, watch = s.findings, s.watch
        left = {}
        for reading in ("R26", "R42"):
            saved.restore(s)
            s.findings, s.watch, s.fork_take = [], None, reading
            self._play_rest(rnd, k, j, next_round)
            left[reading] = fork.weight(s.findings)
        saved.restore(s)
        s.findings, s.watch = main, watch
        s.fork_take = "R42" if left["R42"] < left["R26"] else "R26"
        self._play_rest(rnd, k, j, next_round)

    def _play_rest(self, rnd: Round, k: int, j: int, next_round: Round | None) -> None:
        """The round from line j of turn k on (the turn already begun)."""
        s, event = self.s, self.parts.turns.event
        s.turn_at = k
        for ev in rnd.turns[k].events[j:]:
            if s.t is None:
                break
            event(ev)
        for i in range(k + 1, len(rnd.turns)):
            s.turn_at = i
            self.play_turn(rnd.turns[i], rnd)
        self._end_round(rnd, next_round)

    def _opens_fork(self, ev: Match) -> bool:
        """Whether a match line reads both as the next player's turn begun (R26) and as the slip of the player
        on turn, who is still matching (R42), where no card they hold settles it (R98)."""
        t, parts = self.s.t, self.parts
        return (
            t is not None
            and bool(t.matches)
            and t.step < 2
            and not t.action_done
            and parts.engine.turn_seems_missing(ev, ev.cards) is not None
            and not parts.meant.slip_in_turn(ev)
        )

    def play_turn(self, turn: Turn, rnd: Round) -> None:
        self.parts.closing.close_turn(turn)
        turns = self.parts.turns
        if not turns.start(turn, rnd):
            return
        s = self.s
        event = turns.event  # each line of the turn, without a hop through self.event (hot: one per line)
        if not turn._skips:  # the reader skipped no line of this turn (nearly every turn): no skips to interleave
            if s.fork_line is None:  # no fork yet this round: a match line may open one (R98)
                for j, ev in enumerate(turn.events):
                    if s.t is None:
                        return
                    if ev.type == "match" and self._opens_fork(ev):
                        s.fork_at = j
                        return
                    event(ev)
                return
            for ev in turn.events:
                if s.t is None:
                    return
                event(ev)
            return
        skips: list = list(turn._skips)
        skipped = self.parts.skipped.skipped_line
        for i, ev in enumerate(turn.events):
            while skips and skips[0][0] == i:
                skipped(*skips.pop(0)[1:])
            if s.t is None:
                return
            event(ev)
        for _, kw, n, words in skips:
            if s.t is not None:
                skipped(kw, n, words)

    def event(self, ev) -> None:
        """One line of the turn being played."""
        self.parts.turns.event(ev)

    def close_turn(self, closing) -> None:
        """The turn being played ends at `closing` (the next turn, score, round), or at the end of the log."""
        self.parts.closing.close_turn(closing)
