"""`play` lines: one card, a run, a start run; matching, volleys, wilds, and what the last card
does (contract, "Turns"; S2 RÂNDUL UNUI JUCĂTOR, Draw 2, SKIP, INVERSARE, SĂLBATICI, WILD DRAW 4).

The checks of a line run in section 4's order for `play`; each is one function named for its rule."""

from __future__ import annotations

from ..cards import Card, parse_card
from ..events import Play
from . import turns
from .judge import Judge
from .state import UNSEEN, Calls, Facing, Owed


def matches(j: Judge, card: Card) -> bool:
    st = j.st
    return card.wild or st.top_colour is None or card.colour == st.top_colour or card.rank == st.top_rank


def play(j: Judge, ev: Play) -> None:
    cards = [parse_card(c) for c in ev.cards]
    _missing_turn_line(j, ev, cards)
    t = j.turn
    p = t.player
    facing_total = t.need == "total" and not t.done
    stack_ok = _check_answer(j, ev, cards)
    check_play_held(j, ev, cards)
    if _is_start_run(j, cards):
        check_start_run(j, ev, cards)
    else:
        _check_ordinary(j, ev, cards)
    legit = wd4_legit(j, cards)
    _apply(j, ev, cards)
    _act(j, cards, stack_ok and facing_total, legit)
    if j.hand_size(p) == 1:
        j.st.calls[p] = Calls(open=True)
    if j.hand_size(p) == 0:
        _out(j, p)


def _missing_turn_line(j: Judge, ev: Play, cards: list[Card]) -> None:
    """turn.order: a play after the action, of cards the opponent holds and the player on turn does
    not: the opponent's `turn` line is missing (READINGS R25); their turn starts here."""
    st, t = j.st, j.turn
    if not t.done or t.drawn is not None or st.owed is not None:
        return
    q = j.other(t.player)
    mine, theirs = j.hand(t.player).copy(), j.hand(q).copy()
    theirs.subtract(c.base for c in cards)
    mine.subtract(c.base for c in cards)
    if any(n < 0 for n in theirs.values()) or not any(n < 0 for n in mine.values()):
        return
    why = f"`turn {q}` seems to be missing: {q} holds these cards, {t.player} does not"
    j.report("turn.order", why, ev, player=q, expected=f"turn {q}")
    turns.close_turn(j, ev)
    turns.begin_turn(j, q, t.model, judged=False)


# ---- checks, in the contract's precedence ---------------------------------------------------


def check_turn_end(j: Judge, ev: Play) -> bool:
    """turn.end: after the action (but the drawn card's play) no play belongs to the turn."""
    t = j.turn
    if t.done and t.drawn is None:
        j.report("turn.end", f"{t.player}'s turn had its action: a second play belongs to no turn", ev)
        return False
    return True


def check_volley_stack(j: Judge, ev: Play, cards: list[Card]) -> bool:
    """volley.stack: facing a total only one Draw 2 (none on a turned-up one under U3)."""
    f = j.turn.faced
    if f.turned and j.opt.get("start-volley") == "no":
        said = j.r.spec.option_ref("start-volley", "no")
        j.report("volley.stack", f"a turned-up Draw 2 cannot be stacked ({said}): draw 2, turn over", ev)
        return False
    if len(cards) != 1 or cards[0].rank != "+2":
        msg = f"facing a total of {f.total}: only one Draw 2 continues the volley"
        j.report("volley.stack", msg, ev, expected="one Draw 2, or the total drawn")
        return False
    return True


def check_wd4_answer(j: Judge, ev: Play) -> None:
    """wd4.answer: facing a Wild Draw 4, no play."""
    j.report("wd4.answer", "facing a Wild Draw 4: draw 4 or challenge, no play", ev)


def _check_answer(j: Judge, ev: Play, cards: list[Card]) -> bool:
    """Whether this line may be a play at all; True when it is a legal stack on a total."""
    if not check_turn_end(j, ev):
        return False
    need = j.turn.need
    if need == "total":
        return check_volley_stack(j, ev, cards)
    if need == "wd4":
        check_wd4_answer(j, ev)
    return False


def check_play_held(j: Judge, ev: Play, cards: list[Card]) -> None:
    """play.held: played cards are in hand (an unseen card may stand for any)."""
    p = j.turn.player
    left = j.hand(p).copy()
    for i, c in enumerate(cards):
        if left[c.base] > 0:
            left[c.base] -= 1
        elif left[UNSEEN] > 0:
            left[UNSEEN] -= 1
        else:
            j.report("play.held", f"{p} does not hold {c.base}", ev, index=i, player=p, found=c.code)
            return


def _is_start_run(j: Judge, cards: list[Card]) -> bool:
    t = j.turn
    if t.need == "run":
        return True
    if t.need == "run-may":  # start-reverse may: a line of several cards not starting with a Reverse
        return len(cards) > 1 and cards[0].rank != "R"
    return False


def check_start_run(j: Judge, ev: Play, cards: list[Card]) -> None:
    """start.reverse: owing a start run, the line holds only its colour (under `start-reverse may`
    the line chose to be the start run: another colour is reverse.colour, R21); then reverse.all."""
    t = j.turn
    colour = t.faced.colour
    assert colour is not None  # a run is owed of a Reverse's colour
    for i, c in enumerate(cards):
        if c.wild or c.colour != colour:
            rule = "start.reverse" if t.need == "run" else "reverse.colour"
            msg = f"{t.player} owes a start run: every {colour} card held, nothing else"
            j.report(rule, msg, ev, index=i, found=c.code)
            return
    check_reverse_all(j, ev, cards, colour)


def check_reverse_all(j: Judge, ev: Play, cards: list[Card], colour: str) -> None:
    """reverse.all: a run (a start run too) holds every card of its colour held."""
    p = j.turn.player
    left = j.hand(p).copy()
    left.subtract(c.base for c in cards)
    kept = sorted(c for c, n in left.items() if n > 0 and c != UNSEEN and c[0] == colour)
    if kept:
        msg = f"all or nothing: {p} still holds {' '.join(kept)} of that colour"
        j.report("reverse.all", msg, ev, player=p, index=len(cards) - 1)


def check_wild_colour(j: Judge, ev: Play, cards: list[Card]) -> None:
    """wild.colour: a played wild names a colour."""
    for i, c in enumerate(cards):
        if c.wild and c.colour is None:
            j.report("wild.colour", f"the {c.base} played names a colour (`{c.base}=G`)", ev, index=i)
            return


def check_drawn_only(j: Judge, ev: Play, cards: list[Card]) -> None:
    """draw.drawn-only: the play after an ordinary draw starts with the drawn card (R11: an unknown one
    may stand for it)."""
    drawn = j.turn.drawn
    if drawn not in (None, UNSEEN) and cards[0].base != drawn:
        msg = f"after the draw only the drawn card ({drawn}) may be played"
        j.report("draw.drawn-only", msg, ev, index=0, found=cards[0].code, expected=drawn)


def check_play_match(j: Judge, ev: Play, cards: list[Card]) -> None:
    """play.match: the first card matches colour, number or symbol; a wild always matches."""
    if matches(j, cards[0]):
        return
    st = j.st
    what = "number" if (st.top_rank or "").isdigit() else "symbol"
    msg = f"{cards[0].code} matches neither the colour ({st.top_colour}) nor the {what} ({st.top_rank}) of the top card"
    j.report("play.match", msg, ev, index=0, found=cards[0].code)


def check_run(j: Judge, ev: Play, cards: list[Card]) -> None:
    """play.one (several cards: only a run, a Reverse first), reverse.colour, then reverse.all."""
    if len(cards) == 1:
        return
    if cards[0].rank != "R":
        j.report("play.one", "several cards on one line: only a run, a Reverse first, may", ev, index=1)
        return
    colour = cards[0].colour
    assert colour is not None  # a Reverse has its colour
    for i, c in enumerate(cards[1:], 1):
        if c.wild or c.colour != colour:
            j.report("reverse.colour", f"a run holds only the Reverse's colour ({colour})", ev, index=i, found=c.code)
            return
    check_reverse_all(j, ev, cards, colour)


def _check_ordinary(j: Judge, ev: Play, cards: list[Card]) -> None:
    check_wild_colour(j, ev, cards)
    check_drawn_only(j, ev, cards)
    check_play_match(j, ev, cards)
    check_run(j, ev, cards)


def wd4_legit(j: Judge, cards: list[Card]) -> bool | None:
    """U9, judged now, before the card leaves the hand: used only if it is challenged (wd4.outcome)."""
    st, t = j.st, j.turn
    if len(cards) != 1 or cards[0].base != "W+4" or t.drawn == "W+4":
        return True
    if j.in_doubt(t.player) or st.top_rank is None:
        return None  # unknowable: a challenge's outcome is taken as the log gives it (READINGS R6)
    others = [c for c, n in j.hand(t.player).items() if n and c not in ("W+4", UNSEEN)]
    if j.opt.get("wd4-legal") == "colour":
        return not any(c[0] == st.top_colour for c in others if c != "W")
    return not any(matches(j, parse_card(c)) for c in others)


# ---- applying ----------------------------------------------------------------------------------


def _apply(j: Judge, ev: Play, cards: list[Card]) -> None:
    """As written: the cards leave the hand (from the unseen cards if not held); the last is the top."""
    st, p = j.st, j.turn.player
    hand = j.hand(p)
    for c in cards:
        if hand[c.base] > 0:
            hand[c.base] -= 1
        elif hand[UNSEEN] > 0:
            hand[UNSEEN] -= 1
        else:  # not held (play.held): from the unseen cards, and the hand is one card short all the same
            if st.pool[c.base] > 0:
                st.pool[c.base] -= 1
            some = next((k for k, n in hand.items() if n > 0), None)
            if some is not None:
                hand[some] -= 1
            st.doubt.add(p)
        st.discards.append(c.base)
    last = cards[-1]
    st.top_colour, st.top_rank = last.colour, last.rank


def _act(j: Judge, cards: list[Card], stacked: bool, legit: bool | None) -> None:
    """The line is the action; only its last card acts (U7)."""
    st, t = j.st, j.turn
    p, q = t.player, j.other(t.player)
    t.done, t.drawn = True, None
    t.need = "ordinary"
    last = cards[-1]
    if last.rank == "+2":
        total = (t.faced.total if stacked else 0) + 2
        st.facing = Facing("total", q, total=total)
    elif last.rank == "W+4":
        st.facing = Facing("wd4", q, by=p, legit=legit)
    elif last.rank == "S" or (last.rank == "R" and len(cards) == 1 and j.opt.get("reverse-alone") == "skip"):
        t.done, t.need = False, "again"
    elif last.rank == "R" and len(cards) > 1 and j.opt.get("run-reverse") == "opponent":
        st.facing = Facing("run", q, colour=last.colour)


def _out(j: Judge, p: str) -> None:
    """A hand emptied: the round is over (U14: under `last-draw yes` the opponent draws first)."""
    st = j.st
    st.over, st.out = True, p
    f, st.facing = st.facing, None
    if j.opt.get("last-draw") == "yes" and f is not None and f.kind in ("total", "wd4"):
        n = f.total if f.kind == "total" else 4
        st.owed = Owed(f.player, n, "volley.draw" if f.kind == "total" else "wd4.draw")
