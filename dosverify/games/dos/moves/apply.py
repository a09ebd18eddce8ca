"""Playing one line on the generator's table: the state change each kind of line makes (V1-V11).

No judgement here (the listing decides what is legal, the referee judges what is tried): a line is
applied as written, as the referee applies a line after a finding (READINGS R12), so that a table
read from an illegal prefix plays on.
"""

from __future__ import annotations

from collections import Counter

from ..cards import composition
from .state import FACE_DOWN, Game, Table, TurnState


def new_round(g: Game, tb: Table, number: int) -> None:
    """`round N`: nothing dealt yet, no call owed, nothing carried from the last round."""
    tb.phase = "setup"
    tb.round_no = number  # the last round's dealer and winner stay until the deal (setup.dealer, V4)
    tb.hands = {p: [] for p in g.players}
    tb.cr, tb.pending, tb.deck = [], [], []
    tb.discard = Counter()
    tb.pile, tb.pile_n = None, 0
    tb.unseen = composition().copy()
    tb.called = dict.fromkeys(g.players, False)
    tb.caught = dict.fromkeys(g.players, False)
    tb.t, tb.prev = None, None


def deal_order(g: Game, dealer: str) -> list[str]:
    """Who is dealt first (V9, deal-from V16): from the dealer's left, or from the first seat."""
    if g.opt.get("deal-from") == "first-seat":
        return list(g.players)
    i = g.players.index(dealer)
    return g.players[i + 1 :] + g.players[: i + 1]


def deal(g: Game, tb: Table, dealer: str, deck: list[str], hands: dict, center: list[str] | None) -> None:
    """The round's set-up (setup.deal): from a known `deck`, or the written `hand` and `center` lines (R3:
    written ones are what the players held)."""
    tb.dealer, tb.went_out = dealer, None
    pile = list(deck)
    dealt: dict[str, list[str]] = {p: [] for p in g.players}
    row: list[str] = []
    if deck:
        for _ in range(7):
            for p in deal_order(g, dealer):
                if pile:
                    dealt[p].append(pile.pop(0))
        row = [pile.pop(0) for _ in range(2) if pile]
    for p, cards in hands.items():
        if p in dealt:
            dealt[p] = list(cards)
    if center is not None:
        row = list(center)
    tb.hands = dealt
    tb.cr = row
    for cards in [*dealt.values(), row]:
        for c in cards:
            if c != FACE_DOWN and tb.unseen[c] > 0:
                tb.unseen[c] -= 1
    written = sum(len(h) for h in dealt.values()) + len(row)
    if deck and not hands and center is None:
        tb.pile = list(reversed(pile))
        tb.pile_n = len(pile)
    else:
        tb.pile = None
        tb.pile_n = max(0, sum(composition().values()) - written)
    tb.phase = "dealt"


def take(tb: Table, card: str | None) -> str:
    """A card off the draw pile: `card` as written, None for the top of a known pile (else face down)."""
    pile = tb.pile
    if pile:
        if card is None or card == pile[-1]:
            card = pile.pop()
        elif card != FACE_DOWN and card in pile:  # not the top (draw.top): the top takes its place (R2)
            i = len(pile) - 1 - pile[::-1].index(card)
            del pile[i]
        else:
            pile.pop()
    elif card is None:
        card = FACE_DOWN
    tb.pile_n = max(0, tb.pile_n - 1)
    if card != FACE_DOWN and tb.unseen[card] > 0:
        tb.unseen[card] -= 1
    return card


def changed(tb: Table, p: str) -> None:
    """p's hand changed: a call or catch made before no longer stands (V6)."""
    tb.called[p] = False
    tb.caught[p] = False


def remove(tb: Table, p: str, card: str) -> None:
    """A card leaves p's hand: the one written, else a face-down one, else (not held) an unseen one (R12)."""
    hand = tb.hands[p]
    if card in hand:
        hand.remove(card)
        return
    if FACE_DOWN in hand:
        hand.remove(FACE_DOWN)
    if tb.unseen[card] > 0:
        tb.unseen[card] -= 1


def step(g: Game, tb: Table, t: TurnState, n: int) -> None:
    """An end-of-turn step's line (V7): step 1 (the discard) comes with the first one."""
    flush(g, tb, t)
    if n > 3:  # past the bonus step: a bonus card may no longer come (turn.steps); one owed with no card lapsed (V10)
        t.bonus_may = 0
        if not tb.hands[t.player]:
            t.bonus_owed = 0
    if n > t.step:
        t.step = n


def flush(g: Game, tb: Table, t: TurnState) -> None:
    """Step 1: this turn's matched cards go to the discard pile; the refill owed is fixed now (center.refill)."""
    if t.discarded or not t.matches:
        return
    t.discarded = True
    if tb.pending:
        tb.discard.update(tb.pending)
        tb.pending.clear()
    t.refill_owed = max(0, 2 - len(tb.cr))


def reshuffle(g: Game, tb: Table, order: list[str] | None, with_matched: bool) -> None:
    """The discard pile becomes the draw pile (V5); `order` top first when listed. `with_matched`: the
    draw it is for is a step's, so this turn's matched cards were discarded first (R22)."""
    if with_matched and tb.t is not None:
        flush(g, tb, tb.t)
    cards = tb.discard
    tb.unseen.update(cards)
    tb.pile_n = sum(cards.values())
    tb.discard = Counter()
    tb.pile = list(reversed(order)) if order is not None else None


def draw_reason(g: Game, t: TurnState, q: str) -> str:
    """Why q draws now (notation.md, `draw Q`): at once for a catch or a Double Color Match, the draw after
    no match, the penalty step, the Double Color Match step; "none" when nobody owes it (draw.reason)."""
    if t.immediate is not None and t.immediate[0] == q:
        return "immediate"
    if t.now_dcm and t.now_dcm[0] == q:
        return "now-dcm"
    if q == t.player and not t.matches and not t.drew and not t.action_done and t.step == 0:
        return "no-match"
    if q == t.player and t.penalty_owed > 0:
        return "penalty"
    if t.dcm_owed.get(q, 0) > 0:
        return "dcm"
    return "none"


def apply_draw(g: Game, tb: Table, q: str, card: str | None) -> None:
    """One card drawn by q (`draw Q C`)."""
    t = tb.t
    why = "none" if t is None else draw_reason(g, t, q)
    if why == "penalty" or why == "dcm":  # the step comes before the card does (V10: a bonus lapsed)
        assert t is not None
        step(g, tb, t, 4 if why == "penalty" else 5)
    got = take(tb, card)
    tb.hands.setdefault(q, []).append(got)
    changed(tb, q)
    if t is None:
        return
    t.drawing = None
    if why == "immediate":
        assert t.immediate is not None
        left = t.immediate[1] - 1
        t.immediate = (q, left) if left > 0 else None
        t.drawing = q if left > 0 else None
    elif why == "now-dcm":
        t.now_dcm.pop(0)
    elif why == "no-match":
        t.drew, t.drawn = True, got
    elif why == "penalty":
        t.penalty_owed -= 1
        t.drawing = q if t.penalty_owed > 0 else None
    elif why == "dcm":
        t.dcm_owed[q] -= 1
        t.drawing = q if t.dcm_owed[q] > 0 else None


def apply_match(g: Game, tb: Table, target: str, cards: tuple[str, ...], colour: bool) -> None:
    """`match T with A [+ B]` (V2, the colour bonuses V10, Double Color Match draws V12, V13)."""
    t = tb.t
    assert t is not None
    p = t.player
    t.matches += 1
    if target in tb.cr:
        tb.cr.remove(target)
    elif FACE_DOWN in tb.cr:
        tb.cr.remove(FACE_DOWN)
    for c in cards:
        remove(tb, p, c)
    matched = [target, *cards]
    if g.opt.get("discard-matched") == "at-once":  # V17
        tb.discard.update(matched)
    else:
        tb.pending.extend(matched)
    if colour:
        if len(cards) == 2:
            t.bonus_owed += 1
            if g.opt.get("dcm-draws") == "at-once":  # V12: the others draw on the next lines
                t.now_dcm = list(g.dcm_order[p])
            else:
                for q in g.dcm_order[p]:
                    t.dcm_owed[q] = t.dcm_owed.get(q, 0) + 1
        elif g.opt.get("single-color-bonus") == "optional":
            t.bonus_may += 1
        else:
            t.bonus_owed += 1
    changed(tb, p)
    if not tb.hands[p] and g.opt.get("round-end") == "at-once":
        t.ended = True  # V15 (after the at-once draws of this match, when it owes them)


def apply_place(g: Game, tb: Table, card: str) -> None:
    """`place C`: the card for no match (V1), or a bonus card (step 3)."""
    t = tb.t
    assert t is not None
    if not t.matches and not t.action_done and t.step == 0:
        t.action_done = True
    else:
        step(g, tb, t, 3)
        if t.bonus_owed > 0:
            t.bonus_owed -= 1
        elif t.bonus_may > 0:
            t.bonus_may -= 1
    remove(tb, t.player, card)
    tb.cr.append(card)
    changed(tb, t.player)
    if not tb.hands[t.player] and g.opt.get("round-end") == "at-once":
        t.ended = True


def apply_refill(g: Game, tb: Table, card: str | None) -> None:
    t = tb.t
    assert t is not None
    step(g, tb, t, 2)
    got = take(tb, card)
    t.refilled += 1
    tb.cr.append(got)
    t.refilled_cards.append(got)


def apply_catch(g: Game, tb: Table, q: str) -> None:
    """`catch Q by R` (V6): the penalty at the step for the player on turn before it (V14), else at once."""
    t = tb.t
    tb.caught[q] = True
    if t is None:
        return
    if q == t.player and t.step < 4 and g.opt.get("own-penalty", "penalty-step") == "penalty-step":
        t.penalty_owed += 2
    else:
        t.immediate = (q, 2)


def close_turn(g: Game, tb: Table) -> None:
    if tb.t is not None:
        tb.t.drawing = None
        flush(g, tb, tb.t)
        if tb.pending:  # a turn with no match line left cards pending only after a finding
            tb.discard.update(tb.pending)
            tb.pending.clear()


def apply_turn(g: Game, tb: Table, p: str) -> None:
    close_turn(g, tb)
    tb.phase = "turn"
    tb.t = TurnState(p)
    tb.prev = p


def apply_score(g: Game, tb: Table, p: str, points: int) -> None:
    close_turn(g, tb)
    tb.t = None
    tb.phase = "scored"
    tb.went_out = p
    tb.totals[p] = tb.totals.get(p, 0) + points
    if max(tb.totals.values()) >= g.target:
        tb.game_over = True


def apply(g: Game, tb: Table, op: tuple) -> None:
    """Play one line, given as an op tuple (kind first; see :mod:`.lines`)."""
    kind = op[0]
    if tb.t is not None:
        tb.t.reshuffled = kind == "reshuffle"
    if kind == "match":
        apply_match(g, tb, op[1], op[2], op[3])
    elif kind == "draw":
        apply_draw(g, tb, op[1], op[2])
    elif kind == "refill":
        apply_refill(g, tb, op[1])
    elif kind == "place":
        apply_place(g, tb, op[1])
    elif kind == "pass":
        if tb.t is not None:
            tb.t.action_done = True
    elif kind == "dos":
        if not tb.caught.get(op[1]):
            tb.called[op[1]] = True
    elif kind == "catch":
        apply_catch(g, tb, op[1])
    elif kind == "reshuffle":
        reshuffle(g, tb, op[1], op[2])
    elif kind == "turn":
        apply_turn(g, tb, op[1])
    elif kind == "score":
        apply_score(g, tb, op[1], op[2])
    elif kind == "totals":
        tb.phase = "totalled"
    elif kind == "winner":
        tb.phase = "over"
    elif kind == "round":
        new_round(g, tb, op[1])
    elif kind == "deal":
        deal(g, tb, op[1], op[2], op[3], op[4])
    elif kind == "show":
        show(tb, op[1], op[2])


def show(tb: Table, p: str, cards: list[str]) -> None:
    """`show P C ...`: P's hand turned face up for scoring; its face-down cards are now seen."""
    known = Counter(c for c in tb.hands.get(p, []) if c != FACE_DOWN)
    for c in cards:
        if known[c] > 0:
            known[c] -= 1
        elif tb.unseen[c] > 0:
            tb.unseen[c] -= 1
    tb.hands[p] = list(cards)
