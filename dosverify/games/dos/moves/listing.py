"""What may come next at a DOS position (issue 33, "What is listed"): each decision names the rule
it follows, so that the listing reads as the referee's rules from the other side.

Each entry is (Move, op): the op is what :func:`.apply.apply` plays, kept so that pushing a listed
move parses nothing.
"""

from __future__ import annotations

from ....moves.model import CHANCE, TABLE, Move
from ...dos.cards import value
from .apply import draw_reason
from .matchgen import deck_key, match_moves
from .state import FACE_DOWN, Game, Table, TurnState

Entry = tuple[Move, tuple]


class FaceDownView(ValueError):
    """The position's next choice depends on cards this view does not show (a table view, or another
    seat's hand in a seat view): its lines can be explained, not listed."""


def _m(line: str, actor: str, kind: str, op: tuple, p: float | None = None) -> Entry:
    return Move(line, actor, kind, p is not None, p), op


def listing(g: Game, tb: Table) -> list[Entry]:
    """Every line that may come next, canonical, sorted by line."""
    if g.view == "table":
        raise FaceDownView("a table view shows no hand: its next lines can be explained, not listed")
    ph = tb.phase
    if ph == "turn":
        out = _turn(g, tb)
    elif ph == "header":
        out = [_next_round(1)]
    elif ph == "setup":  # only after a bare `round N` pushed as written: its set-up still to deal
        out = [_m("deal", CHANCE, "deal", ("deal",), 1.0)]
    elif ph == "dealt":
        assert tb.dealer is not None
        first = g.left[tb.dealer]  # the dealer's left starts (turn.order)
        out = [_m(f"turn {first}", TABLE, "turn", ("turn", first))]
    else:
        out = _between_rounds(g, tb)
    out.sort(key=lambda e: e[0].line)
    return out


def _between_rounds(g: Game, tb: Table) -> list[Entry]:
    """After `score`: `totals` (optional), then `round N+1`, or `winner` once the game is over (game.end)."""
    ph = tb.phase
    out: list[Entry] = []
    if ph == "over":
        return out
    if ph == "scored":
        line = "totals " + " ".join(f"{p} {tb.totals[p]}" for p in g.players)  # score.totals
        out.append(_m(line, TABLE, "totals", ("totals",)))
    if tb.game_over:  # game.winner: the highest total
        top = max(tb.totals.values())
        out += [_m(f"winner {p}", TABLE, "winner", ("winner", p)) for p in g.players if tb.totals[p] == top]
    else:  # round.sequence
        out.append(_next_round(tb.round_no + 1))
    return out


def _next_round(number: int) -> Entry:
    """`round N` and its whole set-up as one chance move `deal` (issue 33, "What is listed"): not
    enumerated; pushed, the position deals it from its own random source (setup.dealer, setup.deal)."""
    return _m(f"round {number}", CHANCE, "deal", ("round", number, "deal"), 1.0)


def _score(g: Game, tb: Table, p: str) -> Entry:
    """`score P N` (score.round): the cards left in the other hands."""
    held = [c for q in g.players if q != p for c in tb.hands[q]]
    if FACE_DOWN in held:
        raise FaceDownView("the score counts hands this view does not show")
    n = sum(value(c) for c in held)
    return _m(f"score {p} {n}", TABLE, "score", ("score", p, n))


def _draws(g: Game, tb: Table, q: str, with_matched: bool, kind: str = "draw") -> list[Entry]:
    """One card drawn by q (or refilled), as chance: the top of a known pile, else each unseen code with
    its share (cards.unseen, draw.top); `reshuffle` first when the pile is empty (reshuffle.when)."""
    if tb.pile_n <= 0:
        if tb.discard or (with_matched and tb.pending):
            return [_m("reshuffle", CHANCE, "reshuffle", ("reshuffle", None, with_matched), 1.0)]
        return []  # both piles empty: the draw lapses (V5, R18)
    head = f"draw {q}" if kind == "draw" else "refill"
    if kind == "draw" and g.view is not None and q != g.view:
        return [_m(f"{head} ?", CHANCE, kind, (kind, q, FACE_DOWN), 1.0)]
    if tb.pile:
        c = tb.pile[-1]
        return [_m(f"{head} {c}", CHANCE, kind, _card_op(kind, q, c), 1.0)]
    total = sum(n for n in tb.unseen.values() if n > 0)
    if total <= 0:
        return [_m(f"{head} ?", CHANCE, kind, _card_op(kind, q, FACE_DOWN), 1.0)]
    return [
        _m(f"{head} {c}", CHANCE, kind, _card_op(kind, q, c), n / total)
        for c, n in sorted(tb.unseen.items(), key=lambda kv: deck_key(kv[0]))
        if n > 0
    ]


def _card_op(kind: str, q: str, c: str) -> tuple:
    return ("draw", q, c) if kind == "draw" else ("refill", c)


def settle(g: Game, tb: Table, t: TurnState) -> None:
    """Draws owed that neither pile can pay lapse (V5, READINGS R18)."""
    if t.immediate is not None and not tb.can_draw(False):
        t.immediate = None
        t.drawing = None
    if t.now_dcm and not tb.can_draw(False):
        t.now_dcm = []
    if (t.penalty_owed or t.dcm_owed) and not tb.can_draw(True):
        t.penalty_owed = 0
        t.dcm_owed = {}
        t.drawing = None


def _turn(g: Game, tb: Table) -> list[Entry]:
    t = tb.t
    assert t is not None
    settle(g, tb, t)
    p = t.player
    if t.immediate is not None:  # dos.penalty: "the next event line is `draw Q C C`"
        return _draws(g, tb, t.immediate[0], False)
    if t.now_dcm:  # bonus.draw-time (V12): the others draw on the lines right after the match
        return _draws(g, tb, t.now_dcm[0], False)
    if t.drawing is not None:  # dos.catch (R20): a reason's cards are drawn together
        return _draws(g, tb, t.drawing, True)
    if t.ended:  # round.end (V15): the line that emptied the hand ended the round
        return [_score(g, tb, p)]
    hand = tb.hands[p]
    if g.view is not None and p != g.view and FACE_DOWN in hand and t.step == 0 and not t.action_done:
        raise FaceDownView(f"{p}'s hand is face down in {g.view}'s view: their choices can be explained, not listed")
    out = _action(g, tb, t, hand) if t.step == 0 and not t.action_done else []
    if _action_complete(g, tb, t, hand):
        out += _steps(g, tb, t, hand)
    if t.reshuffled:  # reshuffle.when: right before the draw or refill that found the pile empty (R21)
        return [e for e in out if e[0].kind in ("draw", "refill")]
    return out + _calls(g, tb, t)


def _row(tb: Table, t: TurnState) -> list[str]:
    """The Center Row cards a match may cover: not refilled this turn (match.refilled)."""
    if not t.refilled_cards:
        return tb.cr
    row = list(tb.cr)
    for c in t.refilled_cards:
        if c in row:
            row.remove(c)
    return row


def _matches(g: Game, tb: Table, t: TurnState, hand: list[str], only: str | None = None) -> list[Entry]:
    p = t.player
    return [
        _m(line, p, "match", ("match", target, cards, colour))
        for line, target, cards, colour in match_moves(_row(tb, t), hand, only=only)
    ]


def _places(p: str, hand: list[str]) -> list[Entry]:
    return [_m(f"place {c}", p, "place", ("place", c)) for c in dict.fromkeys(hand) if c != FACE_DOWN]


def _action(g: Game, tb: Table, t: TurnState, hand: list[str]) -> list[Entry]:
    """The choices of the player on turn before the end of the turn's steps."""
    p, opt = t.player, g.opt
    if t.matches:  # more matches; after the draw under drawn-only, one single match only (match.after-draw)
        if t.drew and opt.get("after-draw-match") == "drawn-only":
            return []
        return _matches(g, tb, t, hand)
    if not t.drew:
        out = _matches(g, tb, t, hand)
        # match.decline: under decline-match=forbidden the draw only when no match is possible
        if not out or opt.get("decline-match") != "forbidden":
            if tb.can_draw(False):
                out += _draws(g, tb, p, False)
            else:  # both piles empty: no draw (R18); the card for no match, or a pass, without it
                out += _no_match_end(g, p, hand)
        return out
    if opt.get("after-draw-match") == "drawn-only":  # match.after-draw: the drawn card alone, one single match
        out = _matches(g, tb, t, hand, only=t.drawn) if t.drawn in hand else []
    else:
        out = _matches(g, tb, t, hand)
    return out + _no_match_end(g, p, hand)


def _no_match_end(g: Game, p: str, hand: list[str]) -> list[Entry]:
    """place.no-match (V1): a card into the Center Row; or turn.pass under no-match-after-draw=pass."""
    if g.opt.get("no-match-after-draw") == "pass":
        return [_m("pass", p, "pass", ("pass",))]
    return _places(p, hand)


def _action_complete(g: Game, tb: Table, t: TurnState, hand: list[str]) -> bool:
    """Whether the end of the turn may begin: a match made, or the card for no match placed (place.no-match;
    optional under `pass`, R5), or no draw possible at all (draw.no-match, R18)."""
    if t.matches or t.action_done or t.step:
        return True
    if t.drew:
        # under `pass` the line is optional (R5), but not before a DOS penalty owed at the step: the
        # draws after no match and at the step read as the penalty drawn at once (turn.steps, V14)
        return not hand or (g.opt.get("no-match-after-draw") == "pass" and not t.penalty_owed)
    return not tb.can_draw(False)


def _steps(g: Game, tb: Table, t: TurnState, hand: list[str]) -> list[Entry]:
    """The next end-of-turn step in V7's order (turn.steps), or the turn's end when none is owed."""
    p = t.player
    if t.matches:  # center.refill: the Center Row back to 2 cards after the discard
        owed = t.refill_owed if t.discarded else max(0, 2 - len(tb.cr))
        if owed > t.refilled and tb.can_draw(True):
            return _draws(g, tb, p, True, kind="refill")
    if hand and t.bonus_owed > 0:  # bonus.card (a bonus lapses with the hand, V10)
        return _places(p, hand)
    out = _places(p, hand) if hand and t.bonus_may > 0 else []  # single-color-bonus=optional
    if t.penalty_owed > 0 and tb.can_draw(True):  # dos.penalty at step 4
        return out + _draws(g, tb, p, True)
    for q in g.dcm_order[p]:  # bonus.draw at step 5, seat order (V13)
        if t.dcm_owed.get(q, 0) > 0 and tb.can_draw(True):
            return out + _draws(g, tb, q, True)
    if not hand:  # round.end: the turn that emptied the hand ends the round
        return out + [_score(g, tb, p)]
    nxt = g.left[p]  # turn.order
    return out + [_m(f"turn {nxt}", TABLE, "turn", ("turn", nxt))]


def _calls(g: Game, tb: Table, t: TurnState) -> list[Entry]:
    """dos.call when a hand holds 2 cards and has not called; dos.catch by each other player (V6)."""
    if g.opt.get("dos-call") == "off":
        return []
    out: list[Entry] = []
    for q in g.players:
        if len(tb.hands[q]) != 2 or tb.called[q] or tb.caught[q]:
            continue
        line = "dos" if q == t.player else f"dos {q}"
        out.append(_m(line, q, "dos", ("dos", q)))
        out += [_m(f"catch {q} by {r}", r, "catch", ("catch", q, r)) for r in g.players if r != q]
    return out


def reshuffle_serves_a_step(g: Game, tb: Table, listed: int | None) -> bool:
    """For a log cut right after its `reshuffle` (the draw it serves not yet written): whether that draw is
    a step's, so this turn's matched cards were turned over too (R22). Listed cards more than the discard
    pile holds say so; otherwise the draw the position owes does, as its listing offers the reshuffle."""
    if listed is not None and listed > sum(tb.discard.values()):
        return bool(tb.pending)
    try:
        owed = [op for e, op in listing(g, tb) if e.kind == "reshuffle"]
    except FaceDownView:  # the owed draw is not listed in this view: a step's once the turn has matched
        t = tb.t
        return t is not None and bool(t.matches) and t.immediate is None and not t.now_dcm
    return bool(owed) and bool(owed[0][2])


def reason_of(g: Game, tb: Table, q: str) -> str:
    """Why q would draw now (for reading a log's reshuffle: is the draw it serves a step's?)."""
    return "none" if tb.t is None else draw_reason(g, tb.t, q)
