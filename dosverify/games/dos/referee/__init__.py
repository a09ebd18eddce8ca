"""The referee: replays a log's events against a ruleset and collects findings.

Like python-chess's game errors, findings are collected, never raised: after a
finding the referee applies the event as written where it can and goes on, and
does not report the consequences of a problem already reported.
"""

from __future__ import annotations

from collections import Counter

from ....findings import Finding, Position, finding
from ....hints import did_you_mean, near_player, plural
from ....spec import Ruleset
from ..events import Catch, Dos, Draw, Log, Match, Pass, Place, Refill, Reshuffle, Round, Turn
from .calls import CallsMixin
from .draws import DrawsMixin
from .engine import EngineMixin
from .facedown import FaceDownMixin
from .plays import PlaysMixin
from .scoring import ScoringMixin
from .setup import SetupMixin
from .steps import StepsMixin
from .table import UNKNOWN, CenterCard, Table
from .turn import TurnState

__all__ = ["Referee"]

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
# Findings that would only follow from a hand (or the pile) in doubt: not reported then.
FOLLOW_ONS = frozenset(
    {
        "match.held",
        "cards.held",
        "cards.unseen",
        "draw.top",
        "dos.catch",
        "dos.call",
        "match.decline",
        "match.center",
    }
)
PILE_FOLLOW_ONS = frozenset({"draw.top", "cards.unseen"})
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


class Referee(SetupMixin, PlaysMixin, DrawsMixin, CallsMixin, StepsMixin, ScoringMixin, FaceDownMixin, EngineMixin):
    """Replays one log; `run()` returns the findings. The parts of the rules live in the mixins."""

    def __init__(self, log: Log, ruleset: Ruleset, visitor=None, sink=None) -> None:
        """`visitor`, if given, is called as `visitor(referee)` after every turn (and after the
        score of a round): a way to watch the replayed state, like python-chess's visitors.
        `sink`, if given (a check's :class:`~dosverify.findings.Kept`), takes the findings as
        they are made, so that only those kept for output are held (`run()` then gives none)."""
        self.visitor = visitor
        self._sink = sink
        self._places = None  # (turn, where each of its lines stands): see turn_index
        self.log = log
        self.rs = ruleset
        self.players = list(log.players)
        self.seat = {p: i for i, p in enumerate(self.players)}
        k = len(self.players)
        self._from_left = {p: [self.players[(i + j) % k] for j in range(1, k)] for i, p in enumerate(self.players)}
        # the order of the others' Double Color Match draws (V13, option dcm-order)
        if ruleset.options.get("dcm-order") == "first-seat":
            self._dcm_order = {p: [q for q in self.players if q != p] for p in self.players}
        else:
            self._dcm_order = self._from_left
        self.table = Table(self.players)
        self.findings: list[Finding] = [] if sink is None else sink.view(3)
        self.totals = {p: 0 for p in self.players}
        # the running totals over the scores as written and over the scores the replay gives (R65)
        self.totals_written = {p: 0 for p in self.players}
        self.totals_replayed = {p: 0 for p in self.players}
        self.follow_written = False
        self.rounds_seen = 0
        self.turns_seen = 0
        self.game_over = False
        self.game_winner: str | None = None
        # per round
        self.round_no: int | None = None
        self.turn_no = 0
        self.dealer: str | None = None
        self.round_winner: str | None = None  # who went out
        self.round_over = False
        self.scored = False
        self.called: dict[str, bool] = {}
        self.caught: dict[str, bool] = {}
        self.t: TurnState | None = None
        self.prev_player: str | None = None  # who played the turn before (turn.order)
        self._after_end_reported = False  # a turn after the round ended was reported (once a round)
        self._closing_round: Round | None = None  # the round whose score end_round still checks
        self.prev_round_over = True  # whether the round before the current one ended
        # one mistake, one finding: after a finding about a player's cards, what that hand holds is
        # in doubt for the rest of the round, and so is the pile after an unreadable line; the
        # findings that would only follow from it (FOLLOW_ONS) are not reported
        self.doubt: set[str] = set()
        self.slips: Counter = Counter()  # per player: the findings about their cards this round
        self.deck_alias: tuple[str, str] | None = None  # (card over the deck, card missing): R66
        self._split_keep: list = []  # the parts of draw lines carrying two reasons (draws.split_draw)
        self.pile_doubt = False
        self.taken_in = (
            None  # (reshuffle, cards): a bare mid-turn reshuffle that may have taken this turn's matches (V17)
        )
        self.score_written: int | None = None  # the written score, taken when the hands are in doubt
        self.lazy_skip: tuple | None = None  # (player, n): a penalty not drawn at once, perhaps left out (R27)
        # face-down cards (facedown.py): the round's provenance (None in an open round), every
        # round's, the number of `?` and the rules the choice of cards decides
        self.prov = None
        self.provs: list = []
        self.face_down = 0
        self.unverified: list[str] = []
        self._match_lines_found: set[int] = set()  # lines with a finding of ONE_A_MATCH_LINE

    def left(self, p: str) -> str:
        return self.players[(self.seat[p] + 1) % len(self.players)]

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
        if ev is not None:
            if field is not None:
                col = ev._cols.get(field) if ev._cols else None
                if isinstance(col, list):
                    col = col[index] if index is not None and index < len(col) else (col[0] if col else None)
                column = column if column is not None else col
                if pointer is None and ev._pointer is not None:
                    pointer = f"{ev._pointer}/{field}" + (f"/{index}" if index is not None else "")
        if self.t is not None:
            if rule in NEEDS_WHOLE_TURN and self.t.turn._damaged:
                return
            if player is None:
                player = self.t.player
        who = player if player is not None else (self.t.player if self.t is not None else None)
        if self.follow_on(rule, who) or self._second_at_line(rule, ev, line):
            return
        if rule in CARD_MISTAKES and who is not None:
            self.doubt.add(who)
            self.slips[who] += 1
        if related_to is not None:
            kw["related"] = [Position(line=related_to._line, column=related_to._column, pointer=related_to._pointer)]
        self.findings.append(
            finding(
                rule,
                message,
                at=ev,
                line=line,
                column=column,
                pointer=pointer,
                round=self.round_no,
                turn=self.turn_no or None,
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
        if at in self._match_lines_found:
            return True
        self._match_lines_found.add(at)
        return False

    def follow_on(self, rule: str, who: str | None) -> bool:
        """Whether a finding of `rule` about `who` would only follow from one already made (and is
        not reported): a caller asks first when its message is costly to build."""
        return rule in FOLLOW_ONS and (who in self.doubt or (rule in PILE_FOLLOW_ONS and self.pile_doubt))

    def known(self, p: str | None, ev, field: str = "player") -> bool:
        if p is None or p in self.seat:
            return True
        self.report(
            "notation.player",
            f"`{p}` is not a player of this game{near_player(p, self.players)}",
            ev,
            field,
            expected="one of " + ", ".join(self.players),
            found=p,
        )
        return False

    def hand_changed(self, p: str) -> None:
        self.called[p] = False
        self.caught[p] = False

    def likely_player(self, name: str) -> str | None:
        """The player a misspelt or mis-cased name most likely means (`Ann`, `anne` for ann)."""
        import difflib

        same = [p for p in self.players if p.lower() == name.lower()]
        if same:
            return same[0]
        near = difflib.get_close_matches(name.lower(), [p.lower() for p in self.players], n=2, cutoff=0.75)
        if len(near) == 1 or (
            len(near) == 2
            and difflib.SequenceMatcher(None, name.lower(), near[0]).ratio()
            > difflib.SequenceMatcher(None, name.lower(), near[1]).ratio()
        ):
            return next(p for p in self.players if p.lower() == near[0])
        return None

    def resolve_names(self) -> None:
        """A name that is not a player but plainly means one (`Ann`, `anne`) is reported once, at
        its line (notation.player), and read as that player, so that the line still counts and
        its consequences are not reported again: in every round of the log, and the winner."""
        for rnd in self.log.rounds:
            self.resolve_round(rnd)
        self.resolve_winner()

    def _fix_name(self, ev, attr: str, rnd=None) -> None:
        name = getattr(ev, attr, None)
        if name is None or name in self.seat:
            return
        p = self.likely_player(name)
        if p is None:
            return
        self.findings.append(
            finding(
                "notation.player",
                f"`{name}` is not a player of this game{did_you_mean(name, p)}",
                at=ev,
                column=(ev._cols or {}).get(attr) if isinstance((ev._cols or {}).get(attr), int) else None,
                pointer=f"{ev._pointer}/{attr}" if ev._pointer is not None else None,
                round=rnd.number if rnd is not None else None,
                player=p,
                expected=p,
                found=name,
            )
        )
        setattr(ev, attr, p)

    def resolve_round(self, rnd: Round) -> None:
        """resolve_names for one round."""
        fix = self._fix_name
        for ev in rnd.setup:
            fix(ev, "player", rnd)
        seat = self.seat
        for turn in rnd.turns:
            if turn.player not in seat:
                fix(turn, "player", rnd)
            for ev in turn.events:  # most events name a player of the game, or none: no call for them
                if (q := getattr(ev, "player", None)) is not None and q not in seat:
                    fix(ev, "player", rnd)
                if (q := getattr(ev, "by", None)) is not None and q not in seat:
                    fix(ev, "by", rnd)
        if rnd.score is not None:
            fix(rnd.score, "player", rnd)
        if rnd.totals is not None:
            for e in rnd.totals.entries:
                if e.player not in self.seat and (p := self.likely_player(e.player)) is not None:
                    self.findings.append(
                        finding(
                            "notation.player",
                            f"`{e.player}` is not a player of this game{did_you_mean(e.player, p)}",
                            at=rnd.totals,
                            round=rnd.number,
                            player=p,
                            expected=p,
                            found=e.player,
                        )
                    )
                    e.player = p

    def resolve_winner(self) -> None:
        if self.log.winner is not None:
            self._fix_name(self.log.winner, "player")

    def run(self, rounds=None) -> list[Finding]:
        """Referee the log's rounds; or, given `rounds` (an iterable handing on each round as it
        is read, the log's own list left empty), each round as it comes: then no more than the
        round being judged and the next need be held, and the log's `winner` is read once the
        rounds are exhausted. Either way, the same findings."""
        log = self.log
        if rounds is None:
            self.resolve_names()
            for i, rnd in enumerate(log.rounds):
                self.play_round(rnd, log.rounds[i + 1] if i + 1 < len(log.rounds) else None)
        else:
            # the names resolved come first, as when every round is resolved before play (what
            # orders the findings of a JSON log, which have no line to be sorted by)
            main = self.findings
            names = [] if self._sink is None else self._sink.view(2)  # a sink ranks them first
            it = iter(rounds)
            rnd = next(it, None)
            while rnd is not None:
                nxt = next(it, None)  # the next round's line places a step missing from this round's last turn
                self.findings = names
                try:
                    self.resolve_round(rnd)
                finally:
                    self.findings = main
                self.play_round(rnd, nxt)
                rnd = nxt
            self.findings = names
            try:
                self.resolve_winner()
            finally:
                self.findings = main
            if isinstance(main, list):
                main[:0] = names
        self.end_round(None)
        if log.winner is not None:
            w = log.winner
            if self.known(w.player, w):
                if not self.game_over:
                    self.report(
                        "game.winner",
                        f"`winner` before the game ended: no total has reached the target {self.rs.target}",
                        w,
                        "player",
                        player=w.player,
                        expected=f"a total of at least {self.rs.target}",
                        found=self._totals_text(),
                    )
                elif w.player != self.game_winner:
                    self.report(
                        "game.winner",
                        f"the winner is {self.game_winner}, not {w.player}",
                        w,
                        "player",
                        player=w.player,
                        expected=self.game_winner,
                        found=w.player,
                    )
        return self.findings if self._sink is None else []

    def play_round(self, rnd: Round, next_round: Round | None = None) -> None:
        prev_no, prev_dealer, prev_winner = self.round_no, self.dealer, self.round_winner
        self.end_round(rnd)
        self.t = None
        self.rounds_seen += 1
        expect_no = (prev_no or 0) + 1
        self.round_no = rnd.number
        self.turn_no = 0
        if rnd.number != expect_no:
            self.report(
                "round.sequence",
                f"round {rnd.number} follows round {prev_no or 0}",
                rnd,
                "number",
                expected=f"round {expect_no}",
                found=f"round {rnd.number}",
            )
        elif prev_no is not None and not self.prev_round_over:
            self.report(
                "round.sequence",
                f"round {prev_no} has not ended: nobody went out",
                rnd,
                expected=f"more turns of round {prev_no} until a player goes out",
                found=f"round {rnd.number}",
            )
        if self.game_over:
            self.report(
                "game.end",
                f"the game ended after round {prev_no}: {self.game_winner} reached the target "
                f"{self.rs.target}; this round is refereed but not scored",
                rnd,
                expected="no further round",
                found=f"round {rnd.number}",
            )
        self.round_winner = None
        self.round_over = False
        self.scored = False
        self.doubt = set()
        self.slips = Counter()
        self.deck_alias = None
        self.pile_doubt = False
        self.taken_in = None
        self.score_written = None
        self.lazy_skip = None
        self.called = {p: False for p in self.players}
        self.caught = {p: False for p in self.players}
        self.hidden_start_round(rnd)
        self.setup(rnd, prev_no, prev_dealer, prev_winner)
        for turn in rnd.turns:
            self.play_turn(turn, rnd)
        # a step missing from the last turn is reported at the first event line after it (notation.md):
        # the first `show` line, the score, the totals or the next round
        self.close_turn((rnd.shows[0] if rnd.shows else None) or rnd.score or rnd.totals or next_round)
        if rnd.shows:
            self.check_shows(rnd)
        if rnd.score is not None:
            self.check_score(rnd)
        if rnd.totals is not None:
            self.check_totals(rnd)
        self._closing_round = rnd

    def end_round(self, next_round: Round | None) -> None:
        """Called when a new round starts (or the log ends): a round that ended needs its score."""
        rnd = self._closing_round
        if rnd is None:
            return
        self._closing_round = None
        self.prev_round_over = self.round_over
        if self.round_over and rnd.score is None:
            line = next_round._line if next_round is not None else self.log._end_line
            ptr = (
                next_round._pointer
                if next_round is not None
                else (f"{rnd._pointer}/score" if rnd._pointer is not None else None)
            )
            pts = self.round_points()
            self.report(
                "score.round",
                f"round {rnd.number} ended ({self.round_winner} went out) but has no `score` line",
                line=line,
                pointer=ptr,
                player=self.round_winner,
                expected=f"score {self.round_winner} {pts}" if pts is not None else f"score {self.round_winner} N",
                found="no score line",
            )
            self.apply_score()

    def play_turn(self, turn: Turn, rnd: Round) -> None:
        self.close_turn(turn)
        if turn.player not in self.seat:  # no name is like it: the player due to play is meant
            due = (
                self.left(self.prev_player)
                if self.turn_no and self.prev_player
                else self.left(self.dealer)
                if self.dealer
                else None
            )
            if due is None:
                self.known(turn.player, turn)
                self.t = None
                return
            self.report(
                "notation.player",
                f"`{turn.player}` is not a player of this game: {due} plays next and seems meant",
                turn,
                "player",
                player=due,
                expected=f"turn {due}",
                found=f"turn {turn.player}",
            )
            turn.player = due
        if self.round_over:
            if not self._after_end_reported:
                self.report(
                    "round.end",
                    f"{self.round_winner} went out: round {rnd.number} is over, and no turn follows",
                    turn,
                    "player",
                    player=turn.player,
                    expected="`score` and a new `round`",
                    found=f"turn {turn.player}",
                )
                self._after_end_reported = True
            self.t = None
            return
        self._after_end_reported = False
        if self.turn_no == 0:
            self.prev_player = None  # a round's first turn: the dealer's left starts
        self.turn_no += 1
        self.turns_seen += 1
        if self.prev_player is None:
            want = self.left(self.dealer) if self.dealer else turn.player
            why = "the dealer's left starts"
        else:
            want = self.left(self.prev_player)
            why = f"play goes clockwise: {want} sits left of {self.prev_player}"
        if turn.player != want:
            meant = want in self.seat and self.turn_meant(turn, rnd, want)
            self.report(
                "turn.order",
                f"{turn.player} plays, but {why}"
                + (f"; this seems to be {want}'s turn, with the name written wrong" if meant else ""),
                turn,
                "player",
                player=turn.player,
                expected=f"turn {want}",
                found=f"turn {turn.player}",
            )
            if meant:  # R49: the name is the slip; the turn is judged as want's
                turn.player = want
        self.prev_player = turn.player
        for c in self.table.center:
            c.refilled = c.maybe_gone = False
        self.t = TurnState(turn.player, turn)
        self._split_keep = []
        if turn._damaged:  # a line of this turn could not be read: what it did to any hand or the pile is unknown
            self.doubt.update(self.players)
            self.pile_doubt = True
        skips = list(turn._skips)
        for i, ev in enumerate(turn.events):
            while skips and skips[0][0] == i:
                self.skipped_line(*skips.pop(0)[1:])
            if self.t is None:
                return
            self.event(ev)
        for _, kw, n in skips:
            if self.t is not None:
                self.skipped_line(kw, n)

    def skipped_line(self, kw: str, n: int) -> None:
        """R54: a `place` or `refill` line skipped for an unreadable card is taken as made: a card
        of the hand into the Center Row (unnamed, as a bonus card left out, R27), or n cards off the pile."""
        t, tb = self.t, self.table
        if kw == "place":
            if t.bonus_owed() > 0:
                t.bonus_placed += 1
            elif t.bonus_maybe > 0:
                t.bonus_maybe -= 1
            elif t.drew and t.matches == 0:
                t.action_done = True
            tb.center.append(CenterCard(UNKNOWN, src=t.player))
            self.doubt.add(t.player)
        else:
            self.flush()
            t.step = max(t.step, 2)
            got = tb.take_owed(max(1, n))
            tb.center.extend(CenterCard(b, refilled=True) for b in got)
            t.refilled += len(got)

    def draws_go_on(self, ev) -> bool:
        """Whether ev still belongs to the at-once Double Color Match draws of the match that emptied the
        hand (V12 + V15): a draw of a player still owed one, a reshuffle, a call or a catch."""
        t = self.t
        if isinstance(ev, (Reshuffle, Dos, Catch)):
            return True
        if not isinstance(ev, Draw) or (q := ev.player or t.player) == t.player:
            return False
        return t.dcm_owed.get(q, 0) > 0 or q in t.drawing or bool(t.immediate and t.immediate[0] == q)

    def event(self, ev) -> None:
        t = self.t
        if t.end_after_draws is not None and not self.draws_go_on(ev):
            # dcm-draws=at-once with round-end=at-once: the draws are made (or left out), the round is over
            t.ended, t.end_after_draws, t.dcm_now, t.ended_with_draws = t.end_after_draws, None, False, True
        if t.ended is not None:  # round-end=at-once (V15): the round ended on the line that emptied the hand
            if not t.after_end_reported:
                t.after_end_reported = True
                self.report(
                    "round.end",
                    f"{t.player}'s hand was emptied on line {t.ended._line}: under round-end=at-once "
                    + (
                        "the round ends once the others have drawn for its Double Color Match, "
                        "with no refill and no later step"
                        if t.ended_with_draws
                        else "the round ends there, with no refill and no later step"
                    ),
                    ev,
                    expected="`score` right after the line that empties the hand",
                    found=f"`{type(ev).__name__.lower()}`",
                    related_to=t.ended,
                )
            return
        if t.dcm_now:  # dcm-draws=at-once (V12): the draws were owed right after the match line
            later_play = isinstance(ev, (Match, Place, Refill, Pass)) or (
                isinstance(ev, Draw)
                and not t.dcm_owed.get(q := ev.player or t.player, 0)
                and not (t.immediate and t.immediate[0] == q)
            )
            if (later_play or isinstance(ev, Reshuffle)) and not self.refill_possible():
                # V5: both piles were empty (this turn's matched cards are not discarded yet), nothing was
                # drawn (R18); a reshuffle then is a later step's, not the draws' own
                t.dcm_now = False
                t.dcm_owed.clear()
            elif later_play:  # a later play came before the owed draws
                self._late_dcm(ev)
        self._event_rest(ev)

    def _late_dcm(self, ev) -> None:
        """dcm-draws=at-once (V12): a later play came before the owed draws; reported once."""
        t = self.t
        late = [q for q in self._dcm_order[t.player] if t.dcm_owed.get(q, 0) > 0]
        self.report(
            "bonus.draw-time",
            f"{', '.join(late)} must draw for the Double Color Match at once, right after "
            "the match line (dcm-draws=at-once)",
            ev,
            player=late[0],
            expected=f"draw {late[0]} " + " ".join(["C"] * t.dcm_owed[late[0]]),
            found=f"`{type(ev).__name__.lower()}`",
        )
        for q in late:  # still allowed later, no longer owed: one finding for one mistake
            t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + t.dcm_owed[q]
            t.dcm_owed[q] = 0
        t.dcm_now = False

    def _event_rest(self, ev) -> None:
        t = self.t
        if isinstance(ev, (Match, Place, Pass, Refill)) or (
            isinstance(ev, Draw) and (ev.player or t.player) == t.player
        ):
            # a line of another step: the next Double Color Match draws are another group (V12, V13)
            t.dcm_early = t.dcm_order_reported = False
            t.dcm_order_early = None
        if t.reshuffled is not None and not isinstance(ev, (Draw, Refill)):
            self.unneeded_reshuffle()
        t.reshuffled = None
        if t.immediate and not (isinstance(ev, Draw) and (ev.player or t.player) == t.immediate[0]):
            if isinstance(ev, Reshuffle):
                pass  # a reshuffle the notation requires never breaks "at once"
            elif not self.refill_possible():
                # V5: both piles are empty (this turn's matches are not discarded yet): nothing more is drawn,
                # and the cards drawn for the penalty, if any, are all in
                t.drawing.discard(t.immediate[0])
                t.immediate = None
            else:
                q, n = t.immediate
                self.report(
                    "dos.penalty",
                    f"{q} was caught and must draw the {plural(n, 'penalty card')} at once, on the next line",
                    ev,
                    player=q,
                    expected=f"draw {q} " + " ".join(["C"] * n),
                    found=f"`{type(ev).__name__.lower()}`",
                )
                t.immediate = None
                # left out, or never drawn? From a known pile the next card drawn tells (R27); a late
                # penalty line is a consequence, not judged
                self.lazy_skip = None
                if self.table.pile_order:
                    self.lazy_skip = (q, n)
                else:
                    self.draw_left_out(q, n)  # unknown cards: q's hand may hold them
                t.penalty_maybe[q] = t.penalty_maybe.get(q, 0) + n
                self.doubt.add(q)
        self._handlers[ev.type](self, ev)

    def dcm_order(self, p: str) -> list[str]:
        """The others in the order they draw for p's Double Color Match (V13)."""
        return self._dcm_order[p]

    def _seats_from_left(self, p: str) -> list[str]:
        """The other players in seat order, starting at p's left."""
        return self._from_left[p]


Referee._handlers = {
    "match": Referee.on_match,
    "draw": Referee.on_draw,
    "refill": Referee.on_refill,
    "place": Referee.on_place,
    "pass": Referee.on_pass,
    "dos": Referee.on_dos,
    "catch": Referee.on_catch,
    "reshuffle": Referee.on_reshuffle,
}
