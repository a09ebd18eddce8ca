"""UNO Duo cards for the test side (simulator, mutation operators, oracle), from the contract alone.

The contract (design/uno-duo.md, U1 and the option table of section 2) is copied here as a small
table instead of being read from ``spec/uno-duo/``: the simulator is a second implementation of the
rules, meant to check the referee, so it must not share the referee's data. When spec/uno-duo/deck.toml
exists, a test compares the two (tests/uno_duo/test_simulate.py).
"""

from __future__ import annotations

from collections import Counter

COLOURS = ("R", "G", "B", "Y")
SYMBOLS = ("S", "R", "+2")  # Skip, Reverse, Draw 2
WILD = "W"
WD4 = "W+4"

#: The option keys of section 2, each with its values, the default (official) first.
OPTIONS: dict[str, tuple[str, ...]] = {
    "deck": ("112", "108"),
    "start-volley": ("no", "yes"),
    "start-reverse": ("must", "may"),
    "skip-again": ("must", "optional"),
    "reverse-alone": ("none", "skip"),
    "run-reverse": ("opponent", "none"),
    "volley": ("may", "must"),
    "wd4-legal": ("any", "colour"),
    "pile-order": ("turned", "shuffled"),
    "uno-window": ("hand", "next-action"),
    "last-draw": ("no", "yes"),
}
DEFAULTS: dict[str, str] = {k: v[0] for k, v in OPTIONS.items()}
TARGET = 200  # U15
RULESETS = ("official",)


def resolve_options(options: dict[str, str] | None) -> dict[str, str]:
    """The official defaults with `options` over them; an unknown key or value is an error (malformed)."""
    out = dict(DEFAULTS)
    for key, value in (options or {}).items():
        if key not in OPTIONS or value not in OPTIONS[key]:
            raise ValueError(f"unknown UNO Duo option {key} {value}")
        out[key] = value
    return out


def full_deck(size: str = "112") -> list[str]:
    """U1: per colour one 0, two each of 1-9, Skip, Reverse, Draw 2; 4 WD4; 8 Wild (4 under `deck 108`)."""
    cards: list[str] = []
    for c in COLOURS:
        cards.append(f"{c}0")
        for _ in range(2):
            cards += [f"{c}{n}" for n in range(1, 10)]
            cards += [f"{c}{s}" for s in SYMBOLS]
    cards += [WD4] * 4
    cards += [WILD] * (8 if size == "112" else 4)
    return cards


def composition(size: str = "112") -> Counter:
    return Counter(full_deck(size))


def base(code: str) -> str:
    """The physical card of a code: `W=G` -> `W`."""
    return code.split("=", 1)[0]


def is_wild(code: str) -> bool:
    return base(code) in (WILD, WD4)


def colour(code: str) -> str | None:
    """The printed colour; None for a wild."""
    return None if is_wild(code) else code[0]


def face(code: str) -> str:
    """What is printed besides the colour: a digit, `S`, `R`, `+2`; the wild's own code for wilds."""
    b = base(code)
    return b if is_wild(b) else b[1:]


def is_number(code: str) -> bool:
    return not is_wild(code) and face(code).isdigit()


def is_action(code: str) -> bool:
    """Skip, Reverse, Draw 2 and the two wilds (everything that is not a number)."""
    return not is_number(code)


def value(code: str) -> int:
    """PUNCTAJ: numbers face value; Draw 2, Reverse, Skip 10; Wild 15; WD4 20."""
    b = base(code)
    if b == WD4:
        return 20
    if b == WILD:
        return 15
    f = face(b)
    return int(f) if f.isdigit() else 10


def hand_value(cards: list[str]) -> int:
    return sum(value(c) for c in cards)


def declared(code: str) -> str | None:
    """The colour a played wild names (`W+4=B` -> `B`), None if it names none."""
    return code.partition("=")[2] or None


def top_colour(top: str) -> str | None:
    """The colour to match on the top card: its own, or the one its wild named."""
    return declared(top) if is_wild(top) else top[0]


def matches(card: str, top: str) -> bool:
    """An ordinary play of `card` on `top` (RÂNDUL UNUI JUCĂTOR): colour, number or symbol; a wild always.

    On a wild that named no colour (a `wild.colour` finding) anything matches (section 3)."""
    if is_wild(card):
        return True
    if is_wild(top):
        named = declared(top)
        return named is None or card[0] == named
    return card[0] == top[0] or face(card) == face(top)
