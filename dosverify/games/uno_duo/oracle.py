"""A brute-force play-legality oracle for UNO Duo, written from the contract's sentences one by one.

Its job is to be compared with the referee over every card x top card x state: so it is written
the dull way, each rule of design/uno-duo.md (sections 1 and 3, and the `play` precedence of section 4)
as its own literal test over an explicit list of cards, never sharing code with the simulator's
matching helper. :func:`judge` answers for one one-card `play` line (the first line of an action):
None when it is legal, else the rule id the referee must report at that line (the first that applies,
in the contract's order).
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("R", "G", "B", "Y")


def every_card() -> list[str]:
    """Every card code a `play` line may carry: plain cards and each wild with each colour or none."""
    out = [f"{c}{n}" for c in COLOURS for n in range(10)]
    out += [f"{c}{s}" for c in COLOURS for s in ("S", "R", "+2")]
    for w in ("W", "W+4"):
        out.append(w)
        out += [f"{w}={c}" for c in COLOURS]
    return out


def every_top() -> list[str]:
    """Every top card: plain cards, and wilds with the colour named (a top wild always names one here)."""
    return [c for c in every_card() if c not in ("W", "W+4")]


@dataclass(frozen=True)
class State:
    """The state of the player on turn before the line (section 3, Turns).

    total: the Draw 2 total faced (0: none); total_turned_up: it is the turned-up Draw 2's (U3);
    wd4: a WD4 is faced; owed_run: the colour of a start run owed (U4, U7), None if none, and
    run_cards: how many cards of that colour the player holds; the rest: the `option` lines."""

    total: int = 0
    total_turned_up: bool = False
    wd4: bool = False
    owed_run: str | None = None
    run_cards: int = 1
    start_volley: str = "no"
    start_reverse: str = "must"


def _printed_colour(card: str) -> str | None:
    if card.startswith("W"):
        return None
    return card[0]


def _printed_face(card: str) -> str:
    return card[1:]


def _is_draw_two(card: str) -> bool:
    return not card.startswith("W") and card[1:] == "+2"


def _is_wild(card: str) -> bool:
    return card.split("=")[0] in ("W", "W+4")


def _names_colour(card: str) -> bool:
    return "=" in card


def _top_colour(top: str) -> str:
    if top.startswith("W"):
        return top.split("=")[1]
    return top[0]


def matching_cards(top: str) -> set[str]:
    """play.match, literally: the cards that match `top` by colour, by number or symbol, and the wilds."""
    out: set[str] = set()
    for card in every_card():
        if _is_wild(card):  # "a Wild or WD4 may always be played, whatever the hand"
            out.add(card)
            continue
        if _printed_colour(card) == _top_colour(top):  # the top's colour (after a wild: the named one)
            out.add(card)
            continue
        if not top.startswith("W") and _printed_face(card) == _printed_face(top):  # number or symbol
            out.add(card)
    return out


def judge(card: str, top: str, state: State = State()) -> str | None:
    """The rule a one-card `play CARD` line breaks as the player's action with `top` on the pile, or None.

    The order is section 4's for a `play` line: facing a total anything but one Draw 2 is
    `volley.stack` (and none at all on a turned-up Draw 2 under `start-volley no`); facing a WD4,
    `wd4.answer`; owing a start run (and holding a card of its colour), a card of another colour
    `start.reverse`, one of its colour while holding more of it `reverse.all` (`start-reverse may`:
    a one-card line is an ordinary play); `wild.colour`; `play.match`."""
    if state.total > 0:
        if not _is_draw_two(card):
            return "volley.stack"
        if state.total_turned_up and state.start_volley == "no":
            return "volley.stack"
        return None
    if state.wd4:
        return "wd4.answer"
    if state.owed_run is not None and state.run_cards > 0 and state.start_reverse == "must":
        if _printed_colour(card) != state.owed_run:
            return "start.reverse"
        if state.run_cards > 1:
            return "reverse.all"
    if _is_wild(card) and not _names_colour(card):
        return "wild.colour"
    if card not in matching_cards(top):
        return "play.match"
    return None


def legal_set(top: str, state: State = State()) -> set[str]:
    """Every one-card play that is legal in `state` with `top` on the pile (by asking :func:`judge` of each card)."""
    return {c for c in every_card() if judge(c, top, state) is None}


def table() -> list[tuple[str, str, State, str | None]]:
    """Every card x top x state the oracle knows, with its answer: the comparison with the referee walks this."""
    states = [
        State(),
        State(total=2),
        State(total=4),
        State(total=2, total_turned_up=True),
        State(total=2, total_turned_up=True, start_volley="yes"),
        State(wd4=True),
    ]
    out = []
    for c in COLOURS:  # a start run is owed only on a Reverse of its colour (turned up, or last of a run)
        for n in (0, 1, 2):
            for mode in ("must", "may"):
                st = State(owed_run=c, run_cards=n, start_reverse=mode)
                out += [(card, f"{c}R", st, judge(card, f"{c}R", st)) for card in every_card()]
    for st in states:
        for top in every_top():
            for card in every_card():
                out.append((card, top, st, judge(card, top, st)))
    return out
