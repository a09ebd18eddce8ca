"""What may come next at a UNO Duo position (docs/moves.md, "What is listed"), as the referee
judges it: each function names the rule ids that decide what it lists (spec/uno-duo/rules/).

Canonical lines: `play` with every wild's colour named and a run in play order (every distinct
order listed: the last card acts and the discards' order is the next pile's, U11); `draw P C`
one card a line, naming the drawer; `uno P`; `catch Q by R`; the bare `reshuffle`; `turn P`,
`score P N`, `totals P N Q M`, `winner P` (actor ``table``); `round N`, the next round's set-up
(one chance move ``deal``)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ....moves.model import CHANCE, TABLE, Move
from ..cards import COLOURS, value
from .state import UNSEEN_CARD, RoundState

if TYPE_CHECKING:
    from .state import GameState


RANKS = {r: i for i, r in enumerate(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"])}


def deck_order(card: str) -> tuple[int, int]:
    """A card's place in the deck's order: colour R, G, B, Y, then 0-9, Skip, Reverse, Draw 2."""
    return (COLOURS.index(card[0]) if card[0] in COLOURS else 4, RANKS.get(card[1:], 13))


def run_line(first: str, middle: list[str], last: str | None) -> str:
    """A run's canonical line: its first and last card as played (the first is matched, the last
    acts), the cards between in deck order (their order changes only the discards' order)."""
    cards = [first, *sorted(middle, key=deck_order)] + ([last] if last is not None else [])
    return "play " + " ".join(cards)


def _runs(first: str, rest: Counter, player: str) -> list[Move]:
    """The runs starting with `first` then holding every card of `rest`: one per last card."""
    out = []
    for last in sorted(c for c, n in rest.items() if n > 0):
        middle = rest.copy()
        middle[last] -= 1
        out.append(Move(run_line(first, list(middle.elements()), last), player, "play"))
    return out


def can_draw(st: RoundState) -> bool:
    return bool(st.pile.slots) or len(st.discards) >= 2


def matches(st: RoundState, card: str) -> bool:
    """play.match: colour, number or symbol; a wild always matches (a top naming no colour: any)."""
    if card[0] == "W" or st.top_colour is None:
        return True
    return card[0] == st.top_colour or card[1:] == st.top_rank


def draw_cards(st: RoundState) -> list[tuple[str, float]]:
    """The cards the next draw may take (cards.unseen, draw.top, draft.under), with their chance:
    the top where the pile's order is known, else each unseen or loose card by its share."""
    pile = st.pile
    slots = pile.slots
    if not slots:
        return []
    if len(slots) > pile.loose:
        top = slots[0]
        if top is not None:
            return [(top, 1.0)]
        unseen = sum(st.pool.values())
        return [(c, n / unseen) for c, n in st.pool.items() if n > 0]
    known = Counter(c for c in slots if c is not None)
    blanks = len(slots) - sum(known.values())
    unseen = sum(st.pool.values())
    share: dict[str, float] = {c: n / len(slots) for c, n in known.items()}
    if blanks and unseen:
        for c, n in st.pool.items():
            if n > 0:
                share[c] = share.get(c, 0.0) + blanks / len(slots) * n / unseen
    return list(share.items())


def draws(st: RoundState, player: str) -> list[Move]:
    return [Move(f"draw {player} {c}", CHANCE, "draw", True, p) for c, p in draw_cards(st)]


def plays(st: RoundState, player: str, only: str | None = None) -> list[Move]:
    """An ordinary action's `play` lines (play.match, wild.colour, play.one, reverse.colour,
    reverse.all; `only`: draw.drawn-only, the drawn card first)."""
    hand = st.hands[player]
    out: list[Move] = []
    for card in sorted(c for c, n in hand.items() if n > 0 and c != UNSEEN_CARD):
        if (only is not None and card != only) or not matches(st, card):
            continue
        if card[0] == "W":
            out += [Move(f"play {card}={c}", player, "play") for c in COLOURS]
            continue
        out.append(Move(f"play {card}", player, "play"))
        if card[1:] == "R":
            others = Counter({c: n for c, n in hand.items() if n > 0 and c[0] == card[0]})
            others[card] -= 1
            out += _runs(card, others, player)
    return out


def start_runs(st: RoundState, player: str, colour: str, chosen: bool) -> list[Move]:
    """start.reverse (U4, U7): every card of `colour` held, in any order; under `start-reverse may`
    (`chosen`) only lines of several cards not starting with a Reverse are the start run."""
    held = Counter({c: n for c, n in st.hands[player].items() if n > 0 and c[0] == colour})
    out = []
    for first in sorted(c for c, n in held.items() if n > 0):
        if chosen and first[1:] == "R":
            continue
        rest = held.copy()
        rest[first] -= 1
        if sum(rest.values()):
            out += _runs(first, rest, player)
        elif not chosen:
            out.append(Move(f"play {first}", player, "play"))
    return out


def calls(pos: GameState, st: RoundState) -> list[Move]:
    """uno.call (a call owed: one card, not called yet) and uno.catch (one per catcher)."""
    out = []
    for q in pos.players:
        if sum(st.hands[q].values()) != 1:
            continue
        c = st.calls.get(q)
        if c is not None and (c.called or c.caught):
            continue
        out.append(Move(f"uno {q}", q, "uno"))
        if pos.opts.get("uno-window") == "next-action" and (c is None or not c.open):
            continue
        r = pos.other(q)
        out.append(Move(f"catch {q} by {r}", r, "catch"))
    return out


def _action(pos: GameState, st: RoundState) -> list[Move]:
    """The turn's action by what it needs (start.reverse, volley.stack, volley.draw, wd4.answer,
    wd4.challenge, wd4.draw, draw.one, turn.pass)."""
    t = st.turn
    assert t is not None
    p, need = t.player, t.need
    if need == "run":
        return start_runs(st, p, t.faced.colour or "", False)
    out: list[Move] = []
    stuck = not can_draw(st)
    if need == "total":
        stackable = not (t.faced.turned and pos.opts.get("start-volley") == "no")
        d2 = sorted(c for c, n in st.hands[p].items() if n > 0 and c.endswith("+2")) if stackable else []
        out += [Move(f"play {c}", p, "play") for c in d2]
        if not (d2 and pos.opts.get("volley") == "must"):
            out += draws(st, p)
    elif need == "wd4":
        if t.faced.by is not None:
            out.append(Move("challenge", p, "challenge"))
        out += draws(st, p)
    else:
        if need == "run-may":
            out += start_runs(st, p, t.faced.colour or "", True)
        out += plays(st, p)
        out += draws(st, p)
    if stuck:
        out.append(Move("pass", p, "pass"))
    return out


def turn_moves(pos: GameState, st: RoundState) -> list[Move]:
    t = st.turn
    if t is None:
        return [Move(f"turn {st.first}", TABLE, "turn")] if st.first else []
    o = st.owed
    if o is not None and can_draw(st):  # owed draws come at once (uno.penalty, volley.draw, wd4.draw, wd4.outcome)
        if not st.pile.slots:
            return [Move("reshuffle", CHANCE, "reshuffle", True, 1.0)]
        return draws(st, o.player)
    out = calls(pos, st)
    if not st.pile.slots and len(st.discards) >= 2:  # reshuffle.when
        out.append(Move("reshuffle", CHANCE, "reshuffle", True, 1.0))
    if not t.done:
        out += _action(pos, st)
    elif t.drawn is not None:
        out += plays(st, t.player, only=t.drawn)
    if t.done or (t.need == "again" and pos.opts.get("skip-again") == "optional"):
        out.append(Move(f"turn {pos.other(t.player)}", TABLE, "turn"))  # turn.order
    return out


def end_moves(pos: GameState, st: RoundState) -> list[Move]:
    """After the play emptying a hand: `last-draw yes` draws, then score.round / score.values,
    score.totals, game.winner, and the next round (round.sequence, game.end)."""
    if pos.winner_done:
        return []
    if st.owed is not None and st.pile.slots:
        return draws(st, st.owed.player)
    if not st.scored:
        loser = pos.other(st.out or pos.players[0])
        points = sum(value(c) * n for c, n in st.hands[loser].items() if n > 0 and c != UNSEEN_CARD)
        return [Move(f"score {loser} {points}", TABLE, "score")]
    out = []
    if not st.totals_written:
        out.append(Move("totals " + " ".join(f"{p} {pos.totals[p]}" for p in pos.players), TABLE, "totals"))
    return out + after_round(pos)


def after_round(pos: GameState) -> list[Move]:
    if pos.winner_done:
        return []
    if pos.over_target:
        low = min(pos.totals.values())
        return [Move(f"winner {p}", TABLE, "winner") for p in pos.players if pos.totals[p] == low]
    return [Move(f"round {pos.number + 1}", CHANCE, "deal", True, 1.0)]


def legal_moves(pos: GameState) -> list[Move]:
    st = pos.st
    if st is None:
        return [] if pos.winner_done else after_round(pos)
    moves = end_moves(pos, st) if st.over else turn_moves(pos, st)
    return sorted(moves, key=lambda m: m.line)
