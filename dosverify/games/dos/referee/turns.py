"""The lines of one turn in order: the penalty and Double Color Match draws owed on the next lines, a line
after the round ended at once, and the dispatch of each line to its part (a line the reader skipped:
skipped.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ....hints import plural
from ..events import Catch, Dos, Draw, Match, Pass, Place, Refill, Reshuffle, Round, Turn
from .part import Part, enforces
from .table import owed_line
from .turn import TurnState


class Turns(Part):
    """Judges what must come right after a line (V12, V14, V15) before the line's own part judges it."""

    uses = ("calls", "closing", "draws", "matches", "plays", "refills", "steps")

    __slots__ = ("handlers",)

    def bind(self) -> None:
        """The part that judges each kind of line (once every part is built)."""
        parts = self.parts
        self.handlers: dict[str, Callable[[Any], None]] = {
            "match": parts.matches.on_match,
            "draw": parts.draws.on_draw,
            "refill": parts.refills.on_refill,
            "place": parts.plays.on_place,
            "pass": parts.plays.on_pass,
            "dos": parts.calls.on_dos,
            "catch": parts.calls.on_catch,
            "reshuffle": parts.refills.on_reshuffle,
        }

    def start(self, turn: Turn, rnd: Round) -> bool:
        """Begin `turn`: whether its lines are then played (not after the round ended, nor by nobody)."""
        s = self.s
        # once a turn: each check is called only when its cheap condition fails
        if turn.player not in s.seat and not self._player_named(turn):
            return False
        if s.round_over and self._after_round_end(turn, rnd):
            return False
        s.after_end_reported = False
        if s.turn_no == 0:
            s.prev_player = None  # a round's first turn: the dealer's left starts
        s.turn_no += 1
        s.turns_seen += 1
        if s.prev_player is None or turn.player != s.left(s.prev_player):
            self._check_order(turn, rnd)
        s.prev_player = turn.player
        for c in s.table.center:
            c.refilled = c.maybe_gone = False
        s.t = TurnState(turn.player, turn)
        s.split_keep = []
        if turn._damaged:  # a line of this turn could not be read: what it did to any hand or the pile is unknown
            s.doubt.update(s.players)
            s.pile_doubt = True
        return True

    @enforces("notation.player")
    def _player_named(self, turn: Turn) -> bool:
        """A `turn` line naming no player, and no name like it: the player due to play is meant."""
        s = self.s
        if turn.player in s.seat:
            return True
        if s.turn_no and s.prev_player:
            due: str | None = s.left(s.prev_player)
        else:
            due = s.left(s.dealer) if s.dealer else None
        if due is None:
            self.r.known(turn.player, turn)
            s.t = None
            return False
        self.r.report(
            "notation.player",
            f"`{turn.player}` is not a player of this game: {due} plays next and seems meant",
            turn,
            "player",
            player=due,
            expected=f"turn {due}",
            found=f"turn {turn.player}",
        )
        turn.player = due
        return True

    @enforces("round.end")
    def _after_round_end(self, turn: Turn, rnd: Round) -> bool:
        """A turn after a player went out: reported once a round, and not played."""
        s = self.s
        if not s.round_over:
            return False
        if not s.after_end_reported:
            self.r.report(
                "round.end",
                f"{s.round_winner} went out: round {rnd.number} is over, and no turn follows",
                turn,
                "player",
                player=turn.player,
                expected="`score` and a new `round`",
                found=f"turn {turn.player}",
            )
            s.after_end_reported = True
        s.t = None
        return True

    @enforces("turn.order")
    def _check_order(self, turn: Turn, rnd: Round) -> None:
        """The dealer's left starts, then play goes clockwise; a name written wrong is the slip (R49)."""
        s = self.s
        if s.prev_player is None and s.dealer_slip is not None:
            self._dealer_slip(turn, *s.dealer_slip)
            return
        if s.prev_player is None:
            want = s.left(s.dealer) if s.dealer else turn.player
            why = "the dealer's left starts"
        else:
            want = s.left(s.prev_player)
            why = f"play goes clockwise: {want} sits left of {s.prev_player}"
        if turn.player == want:
            return
        meant = want in s.seat and self.parts.plays.turn_meant(turn, rnd, want)
        self.r.report(
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

    @enforces("turn.order")
    def _dealer_slip(self, turn: Turn, dealer_ev: Any, written: str) -> None:
        """R97: the deck was dealt from the left of the dealer this first turn implies, not the one written."""
        s = self.s
        s.dealer_slip = None
        want = s.left(written)
        self.r.report(
            "turn.order",
            f"{turn.player} plays, but the dealer's left starts: {want} sits left of {written}; the cards played show "
            f"a deal starting at {turn.player}, so {s.dealer} seems to have dealt, with the `dealer` line written wrong",
            turn,
            "player",
            player=turn.player,
            expected=f"turn {want}",
            found=f"turn {turn.player}",
            related_to=dealer_ev,
        )

    def draws_go_on(self, ev) -> bool:
        """Whether ev still belongs to the at-once Double Color Match draws of the match that emptied the
        hand (V12 + V15): a draw of a player still owed one, a reshuffle, a call or a catch."""
        t = self.t
        if isinstance(ev, (Reshuffle, Dos, Catch)):
            return True
        if not isinstance(ev, Draw) or (q := ev.player or t.player) == t.player:
            return False
        return t.dcm_owed.get(q, 0) > 0 or q in t.drawing or bool(t.immediate and t.immediate[0] == q)

    @enforces("round.end")
    def event(self, ev) -> None:
        t = self.t
        if t.end_after_draws is not None and not self.draws_go_on(ev):
            # dcm-draws=at-once with round-end=at-once: the draws are made (or left out), the round is over
            t.ended, t.end_after_draws, t.dcm_now, t.ended_with_draws = t.end_after_draws, None, False, True
        if t.ended is not None:  # round-end=at-once (V15): the round ended on the line that emptied the hand
            if not t.after_end_reported:
                t.after_end_reported = True
                self.r.report(
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
            if (later_play or isinstance(ev, Reshuffle)) and not self.parts.steps.refill_possible():
                # V5: both piles were empty (this turn's matched cards are not discarded yet), nothing was
                # drawn (R18); a reshuffle then is a later step's, not the draws' own
                t.dcm_now = False
                t.dcm_owed.clear()
            elif later_play:  # a later play came before the owed draws
                self._late_dcm(ev)
        self._event_rest(ev, t)

    @enforces("bonus.draw-time")
    def _late_dcm(self, ev) -> None:
        """dcm-draws=at-once (V12): a later play came before the owed draws; reported once."""
        t = self.t
        late = [q for q in self.s.dcm_order_of[t.player] if t.dcm_owed.get(q, 0) > 0]
        self.r.report(
            "bonus.draw-time",
            f"{', '.join(late)} must draw for the Double Color Match at once, right after "
            "the match line (dcm-draws=at-once)",
            ev,
            player=late[0],
            expected=owed_line(f"draw {late[0]}", t.dcm_owed[late[0]]),
            found=f"`{type(ev).__name__.lower()}`",
        )
        for q in late:  # still allowed later, no longer owed: one finding for one mistake
            t.dcm_maybe[q] = t.dcm_maybe.get(q, 0) + t.dcm_owed[q]
            t.dcm_owed[q] = 0
        t.dcm_now = False

    @enforces("dos.penalty")
    def _event_rest(self, ev, t: TurnState) -> None:
        if (t.dcm_early or t.dcm_order_reported or t.dcm_order_early is not None) and (
            isinstance(ev, (Match, Place, Pass, Refill))
            or (isinstance(ev, Draw) and (ev.player or t.player) == t.player)
        ):
            # a line of another step: the next Double Color Match draws are another group (V12, V13)
            t.dcm_early = t.dcm_order_reported = False
            t.dcm_order_early = None
        if t.reshuffled is not None and not isinstance(ev, (Draw, Refill)):
            self.parts.closing.unneeded_reshuffle()
        t.reshuffled = None
        if t.immediate and not (isinstance(ev, Draw) and (ev.player or t.player) == t.immediate[0]):
            if isinstance(ev, Reshuffle):
                pass  # a reshuffle the notation requires never breaks "at once"
            elif not self.parts.steps.refill_possible():
                # V5: both piles are empty (this turn's matches are not discarded yet): nothing more is drawn,
                # and the cards drawn for the penalty, if any, are all in
                t.drawing.discard(t.immediate[0])
                t.immediate = None
            else:
                q, n = t.immediate
                self.r.report(
                    "dos.penalty",
                    f"{q} was caught and must draw the {plural(n, 'penalty card')} at once, on the next line",
                    ev,
                    player=q,
                    expected=owed_line(f"draw {q}", n),
                    found=f"`{type(ev).__name__.lower()}`",
                )
                t.immediate = None
                # left out, or never drawn? From a known pile the next card drawn tells (R27); a late
                # penalty line is a consequence, not judged
                self.s.lazy_skip = None
                if self.s.table.pile_order:
                    self.s.lazy_skip = (q, n)
                else:
                    self.parts.steps.draw_left_out(q, n)  # unknown cards: q's hand may hold them
                t.penalty_maybe[q] = t.penalty_maybe.get(q, 0) + n
                self.s.doubt.add(q)
        self.handlers[ev.type](ev)
