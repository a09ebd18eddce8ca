"""A round's set-up: the drafter, the deck, the draft or the hands, the turned-up card, and what
the first player faces (contract, "Set-up"; S2 DRAFTING, TERMINAȚI CONFIGURAREA, JOCUL)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import composition, parse_card
from ..events import Deck, Draft, Drafter, Hand, Start
from .judge import Judge
from .pile import draw_from_pile
from .state import Facing, Pile, SetupStage


def setup(j: Judge, rnd) -> None:
    st = j.st
    st.composition = composition(j.opt.get("deck", "112"))
    st.pool = Counter(st.composition)
    for p in j.players:
        st.hands[p] = Counter()
    stage = SetupStage()
    stage.shown = _drafter_shown(j, rnd)
    stage.picks = [e for e in rnd.setup if isinstance(e, Draft)]
    for ev in rnd.setup:
        _setup_line(j, ev, stage)
    first_turn = rnd.turns[0] if rnd.turns else None
    if stage.start is None:
        at = first_turn or rnd
        if stage.drafter is None:
            _assume_drafter(j, at)
        if not st.started:
            _finish_draft(j, stage, at)
        j.report("notation.placement", "the set-up ends with `start C`, the card turned up", at)


def _setup_line(j: Judge, ev, stage: SetupStage) -> None:
    st = j.st
    if isinstance(ev, Drafter):
        if stage.drafter is not None or st.started or stage.drafts or stage.hands or stage.deck:
            return j.report("notation.placement", "`drafter` is the set-up's first line, once", ev)
        stage.drafter = ev
        return _drafter(j, ev, stage.shown)
    if stage.drafter is None:
        _assume_drafter(j, ev)
        stage.drafter = ev
        j.report("notation.placement", "the set-up starts with `drafter P`", ev)
    if st.started:
        return j.report("notation.placement", "`start` is the set-up's last line", ev)
    if isinstance(ev, Deck):
        if stage.drafts or stage.hands:
            return j.report("notation.placement", "`deck` lines come before the picks", ev)
        stage.deck.append(ev)
    elif isinstance(ev, Draft):
        _draft(j, ev, stage)
    elif isinstance(ev, Hand):
        _hand(j, ev, stage)
    elif isinstance(ev, Start):
        _finish_draft(j, stage, ev)
        _start(j, ev)
        stage.start = ev


def _assume_drafter(j: Judge, at) -> None:
    st = j.st
    if st.drafter is None:
        st.drafter = j.other(j.game.prev_drafter) if j.game.prev_drafter else j.players[0]
        st.second = j.other(st.drafter)


def _drafter_shown(j: Judge, rnd) -> tuple[str, str] | None:
    """Round 1: the drafter the round's picks (or, with `hand` lines, its first turn) show, where they
    contradict the `drafter` line (READINGS R29), with what shows it; None where they do not."""
    if j.game.prev_drafter is not None:
        return None
    written = next((e.player for e in rnd.setup if isinstance(e, Drafter)), None)
    if written not in j.players:
        return None
    other = j.other(written)
    picks = [e.player for e in rnd.setup if isinstance(e, Draft)]
    if picks:

        def fits(d: str) -> int:
            return sum(p == (d if i % 2 == 0 else j.other(d)) for i, p in enumerate(picks))

        return (other, "the picks alternate from " + other) if fits(other) > fits(written) else None
    # with `hand` lines the first turn tells, once the next round's drafter line (the roles swapped from
    # the drafter as played) agrees; alone it is the first turn that is judged (start.first)
    nxt = next((r for r in j.log.rounds if r is not rnd and r.number == rnd.number + 1), None)
    nxt_drafter = nxt and next((e.player for e in nxt.setup if isinstance(e, Drafter)), None)
    start = next((e for e in rnd.setup if isinstance(e, Start)), None)
    if start is None or not rnd.turns or nxt_drafter != written:
        return None
    try:
        skip = parse_card(start.card).rank == "S"  # a turned-up Skip: the drafter plays first
    except ValueError:
        return None
    if rnd.turns[0].player == (other if skip else written):
        return other, f"the first turn is {rnd.turns[0].player}'s"
    return None


def _drafter(j: Judge, ev: Drafter, shown: tuple[str, str] | None = None) -> None:
    st = j.st
    if shown is not None and ev.player != shown[0]:
        # R29: round 1's drafter is free (U16), but the picks or the first turn show who it was: the
        # `drafter` line named the other player
        j.report(
            "setup.drafter",
            f"{shown[1]}: {shown[0]} drafted first, not {ev.player}",
            ev,
            field="player",
            expected=f"drafter {shown[0]}",
        )
        st.drafter, st.second = shown[0], ev.player
        return
    if j.game.prev_drafter is not None and ev.player == j.game.prev_drafter:
        j.report(
            "setup.drafter",
            f"{ev.player} drafted first last round: the roles swap, {j.other(ev.player)} drafts first",
            ev,
            field="player",
            expected=f"drafter {j.other(ev.player)}",
        )
    drafter = ev.player if ev.player != j.game.prev_drafter else j.other(ev.player)  # READINGS R1
    st.drafter, st.second = drafter, j.other(drafter)


def _deck_pile(j: Judge, stage: SetupStage) -> None:
    """The `deck` lines, once the first pick comes: the ruleset's whole deck (cards.composition)."""
    st = j.st
    if st.has_deck or not stage.deck:
        return
    cards = [c for ev in stage.deck for c in ev.cards]
    st.has_deck = True
    if Counter(cards) != st.composition:
        extra = Counter(cards) - st.composition
        short = st.composition - Counter(cards)
        what = ", ".join(f"{c} +{n}" for c, n in extra.items()) or ", ".join(f"{c} -{n}" for c, n in short.items())
        j.report(
            "cards.composition",
            f"the deck is not the ruleset's {sum(st.composition.values())} cards ({len(cards)} written; {what})",
            stage.deck[0],
            player=None,
        )
    st.pile = Pile(slots=list(cards), under_rule="draw.top")
    st.pool = Counter()


def check_draft_order(j: Judge, ev: Draft, stage: SetupStage) -> None:
    """draft.order: 14 picks, alternating from the drafter. A pick by the wrong player is one finding: when
    the next pick is the player's due here, the two were written in swapped order, and the next one is not
    reported; otherwise the name was written wrong and the pick is the due player's (READINGS R2)."""
    n = len(stage.drafts) - 1
    if n >= 14:
        j.report("draft.order", "the draft is 14 picks; this is one more", ev)
        return
    want = j.st.drafter if n == 0 else stage.due
    assert want is not None  # the drafter line (or the one assumed) set the roles
    if stage.swapped:  # the second pick of a pair written in swapped order (R2): reported at the first
        stage.swapped, stage.due = False, want
        return
    stage.due = j.other(want)
    if ev.player == want or ev.player not in j.players:
        return
    later = stage.picks[n + 1] if n + 1 < len(stage.picks) else None
    swapped = later is not None and later.player == want
    how = "the next pick is theirs: the two seem written in swapped order" if swapped else "the name seems wrong"
    msg = f"pick {n + 1} is {want}'s: the picks alternate from the drafter; {how}"
    j.report("draft.order", msg, ev, field="player", expected=f"draft {want} ...")
    if swapped:
        stage.swapped, stage.due = True, want
    else:
        ev.player = want  # the name is the slip: the pick is the due player's (R2)


def _draft(j: Judge, ev: Draft, stage: SetupStage) -> None:
    if stage.hands:
        return j.report("notation.placement", "`hand` lines and picks: write one or the other", ev)
    _deck_pile(j, stage)
    stage.drafts.append(ev)
    check_draft_order(j, ev, stage)
    for card in ev.in_pile_order:
        draw_from_pile(j, card, ev, "keep" if card == ev.keep else "discard", None, "draft.pick")
    j.hand(ev.player)[ev.keep] += 1
    stage.discards.append(ev.discard)


def _hand(j: Judge, ev: Hand, stage: SetupStage) -> None:
    st = j.st
    if stage.drafts or stage.deck:
        why = "picks" if stage.drafts else "a `deck`: with one the picks are written"
        return j.report("notation.placement", f"`hand` lines and {why}: not both", ev)
    if any(h.player == ev.player for h in stage.hands):
        return j.report("notation.placement", f"{ev.player}'s `hand` line is written twice", ev)
    stage.hands.append(ev)
    if len(ev.cards) != 7:
        j.report(
            "draft.hands",
            f"a drafted hand holds 7 cards, not {len(ev.cards)}",
            ev,
            field="player",
            player=ev.player,
        )
    for i, card in enumerate(ev.cards):
        if st.pool[card] > 0:
            st.pool[card] -= 1
        else:
            j.report("cards.unseen", f"{card}: no copy of it is left in the deck", ev, index=i, player=ev.player)
        j.hand(ev.player)[card] += 1


def _finish_draft(j: Judge, stage: SetupStage, at) -> None:
    """The draft is over: 14 picks (or both hands); the discards go under the pile (U11)."""
    st = j.st
    if st.started:
        return
    st.started = True
    drafts, hands = stage.drafts, stage.hands
    if stage.deck and not drafts:
        _deck_pile(j, stage)
        j.report("notation.placement", "with a `deck` the 14 picks are written", at)
    elif hands:
        if len(hands) < 2:
            j.report("notation.placement", "both players' `hand` lines are written", at)
    elif not drafts:
        j.report("notation.placement", "the set-up has the 14 picks or both players' `hand` lines", at)
    elif len(drafts) < 14:
        j.report("draft.order", f"the draft is 14 picks, 7 each; {len(drafts)} are written", at)
    discards = stage.discards
    loose = len(discards) if j.opt.get("pile-order") == "shuffled" else 0
    if st.has_deck:
        st.pile.slots.extend(discards)
        st.pile.loose = loose
    else:
        st.pile = Pile(
            slots=[None] * sum(st.pool.values()) + list(discards),
            loose=loose,
            under_rule="draft.under" if discards else "draw.top",
        )


def _start(j: Judge, ev: Start) -> None:
    st = j.st
    card = parse_card(ev.card)
    draw_from_pile(j, card.base, ev, "card", None, "setup.start" if st.has_deck else None)
    st.discards.append(card.base)
    st.top_colour, st.top_rank = card.colour, card.rank
    if card.wild and card.colour is None:
        j.report(
            "wild.colour",
            f"the turned-up {card.base} names the colour {st.drafter} chose (`{card.base}=G`)",
            ev,
            field="card",
        )
    second = st.second
    assert second is not None  # the drafter line (or the one assumed) set the roles
    turned_up(st, card, st.drafter, second)


def turned_up(st: Any, card: Any, drafter: str | None, second: str) -> None:
    """Who plays first and what they face after the card turned up (start.first: P2, P1 after a Skip;
    U3 a Draw 2's total, a WD4, U4 a Reverse's start run): the referee's round and the move
    generator's (moves/deal.py) alike."""
    st.first = second
    if card.rank == "+2":
        st.facing = Facing("total", second, total=2, turned=True)
    elif card.rank == "W+4":
        st.facing = Facing("wd4", second, turned=True)
    elif card.rank == "S":
        st.first = drafter
    elif card.rank == "R":
        st.facing = Facing("run", second, colour=card.colour, turned=True)
