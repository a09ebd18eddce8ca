"""Writing a simulated UNO Duo game: every rendering `uno-duo 1` allows, and the JSON form.

A rendering never changes what a log means (section 3): with or without a `deck` line (one line or
several), draft lines or `hand` lines (the latter only without a deck), a player's draws for one
reason on one line or one card a line (never across a reshuffle, never two reasons on a line), a
bare `draw` only where the pile's order is known, reshuffles listed or bare (bare leaves the order
unknown under `pile-order shuffled`), the player on turn named or not in `draw` and `uno` lines,
free tags, a `ruleset` line, comments, blank lines, any indentation, CRLF and a byte-order mark.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .table import MAIN, UNDER, Event, GameLog, RoundLog


@dataclass(frozen=True)
class Style:
    """One way of writing a log; every combination of fields is allowed by the notation."""

    name: str
    deck: bool = True  # a `deck` line (the picks then are required)
    deck_lines: int = 1  # the deck written over this many `deck` lines
    hands: bool = False  # `hand` lines instead of `draft` lines (only without a deck)
    draws: str = "grouped"  # "grouped": one line a reason and stretch; "single": one card a line; "mixed"
    bare: bool = False  # a bare `draw` for each card from a pile whose order is known
    named: bool = False  # name the player on turn in `draw` and `uno` lines
    reshuffle: str = "listed"  # "listed", "bare", "mixed"
    header: bool = False  # tags and a `ruleset official` line
    totals: bool = True  # `totals` after each score, `winner` at the end
    comments: bool = False  # comment lines, trailing comments and blank lines
    indent: str = "  "  # indentation of turn events, or "mixed" (any white space on any line)
    crlf: bool = False
    bom: bool = False

    def __post_init__(self) -> None:
        if self.deck and self.hands:
            raise ValueError("with a deck the picks are required and hand lines not allowed")


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("canonical"),
        Style("no-deck", deck=False, reshuffle="mixed"),
        Style("hands", deck=False, hands=True),
        Style("single", draws="single", named=True),
        Style("bare", bare=True, draws="single"),
        Style("mixed-draws", deck=False, draws="mixed", bare=True, reshuffle="bare"),
        Style("decorated", deck_lines=3, header=True, comments=True, indent="mixed", crlf=True, bom=True),
        Style("no-totals", totals=False, indent=""),
        Style(
            "everything",
            deck_lines=4,
            draws="mixed",
            bare=True,
            named=True,
            reshuffle="mixed",
            header=True,
            comments=True,
            indent="mixed",
            crlf=True,
            bom=True,
        ),
        Style(
            "hands-everything",
            deck=False,
            hands=True,
            draws="single",
            bare=True,
            named=True,
            reshuffle="mixed",
            header=True,
            comments=True,
            indent="mixed",
            crlf=True,
            bom=True,
        ),
    )
}

_NOTES = ("note", "as seen at the table", "UNO!", "checked", "turn over", "W+4 is a card, this is a comment")
_PADS = ("", "  ", "\t", "    ", " \t ")


class _Writer:
    """Lines of one rendering, and what the reader of it knows of the pile's order."""

    def __init__(self, game: GameLog, style: Style, rng: random.Random):
        self.game = game
        self.style = style
        self.rng = rng
        self.lines: list[str] = []
        self.listed: set[str] = set()  # the reshuffles written with their cards
        self.shuffled = game.options.get("pile-order") == "shuffled"

    def add(self, text: str, event: bool = False) -> None:
        st = self.style
        if st.indent == "mixed":
            pad = self.rng.choice(_PADS)
        else:
            pad = st.indent if event else ""
        if st.comments and self.rng.random() < 0.08:
            self.lines.append(self.rng.choice(_PADS[:2]) + "# " + self.rng.choice(_NOTES))
        if st.comments and self.rng.random() < 0.06:
            self.lines.append(self.rng.choice(("", "  ", "\t")))
        if st.comments and self.rng.random() < 0.1:
            text += self.rng.choice(("  ", " ", "\t")) + "# " + self.rng.choice(_NOTES)
        self.lines.append(pad + text)

    def known(self, source: str) -> bool:
        """Whether the reader of this rendering knows the order of the pile a card came from (section 3)."""
        if source == MAIN:
            return self.style.deck
        if source == UNDER:
            return not self.style.hands and not self.shuffled
        return not self.shuffled or source in self.listed

    def text(self) -> str:
        end = "\r\n" if self.style.crlf else "\n"
        return ("\ufeff" if self.style.bom else "") + end.join(self.lines) + end


def render_text(game: GameLog, style: Style, seed: int = 0) -> str:
    """The game as `uno-duo 1` text in `style`; `seed` drives the style's free choices."""
    w = _Writer(game, style, random.Random(f"{seed}:{style.name}"))
    _header(w)
    for rnd in game.rounds:
        _round(w, rnd)
    if game.winner and style.totals:
        w.add(f"winner {game.winner}")
    return w.text()


def _header(w: _Writer) -> None:
    g = w.game
    w.add("uno-duo 1")
    if w.style.header:
        w.add('event "Simulated game"')
        w.add("site dosverify")
        w.add("ruleset official")
    w.add(f"players {' '.join(g.players)}")
    for key, value in g.options.items():
        w.add(f"option {key} {value}")
    if g.target is not None:
        w.add(f"target {g.target}")


def _round(w: _Writer, rnd: RoundLog) -> None:
    st = w.style
    w.listed = set()  # reshuffle sources are numbered within a round
    if st.comments:
        w.lines.append("")
    w.add(f"round {rnd.number}")
    w.add(f"drafter {rnd.drafter}")
    if st.deck:
        n = max(1, st.deck_lines)
        size = -(-len(rnd.deck) // n)
        for i in range(0, len(rnd.deck), size):
            w.add("deck " + " ".join(rnd.deck[i : i + size]))
    if st.hands:
        order = [rnd.drafter] + [p for p in rnd.hands if p != rnd.drafter]
        for p in order:
            w.add(f"hand {p} " + " ".join(_shuffled(w.rng, rnd.hands[p])))
    else:
        for p, first, keep, discard in rnd.picks:
            tail = f"keep {keep} discard {discard}" if first == "keep" else f"discard {discard} keep {keep}"
            w.add(f"draft {p} {tail}")
    w.add(f"start {rnd.start}")
    for player, events in rnd.turns:
        w.add(f"turn {player}")
        for e in events:
            for line in _event_lines(w, e, player):
                w.add(line, event=True)
    if rnd.score is not None:
        w.add(f"score {rnd.score[0]} {rnd.score[1]}")
        if rnd.totals is not None and st.totals:
            w.add("totals " + " ".join(f"{p} {n}" for p, n in rnd.totals.items()))


def _shuffled(rng: random.Random, cards: list[str]) -> list[str]:
    out = list(cards)
    rng.shuffle(out)
    return out


def _event_lines(w: _Writer, e: Event, on_turn: str) -> list[str]:
    kind = e[0]
    if kind == "play":
        return ["play " + " ".join(e[1])]
    if kind == "draw":
        return _draw_lines(w, e[1], e[2], on_turn)
    if kind == "uno":
        return ["uno" if e[1] == on_turn and not w.style.named else f"uno {e[1]}"]
    if kind == "catch":
        return [f"catch {e[1]} by {e[2]}"]
    if kind == "reshuffle":
        how = w.style.reshuffle
        bare = how == "bare" or (how == "mixed" and w.rng.random() < 0.5)
        if bare:
            return ["reshuffle"]
        w.listed.add(e[2])
        return ["reshuffle " + " ".join(e[1])]
    return [kind]  # challenge, pass


def _draw_lines(w: _Writer, player: str, cards: list[tuple[str, str]], on_turn: str) -> list[str]:
    st = w.style
    who = f"draw {player}" if (player != on_turn or st.named) else "draw"
    chunks: list[list[tuple[str, str]]] = []
    for card in cards:
        if not chunks or _alone(w, card) or _alone(w, chunks[-1][0]) or (st.draws == "mixed" and w.rng.random() < 0.4):
            chunks.append([card])
        else:
            chunks[-1].append(card)
    out = []
    for chunk in chunks:
        if len(chunk) == 1 and st.bare and w.known(chunk[0][1]):
            out.append(who)
        else:
            out.append(who + " " + " ".join(c for c, _ in chunk))
    return out


def _alone(w: _Writer, card: tuple[str, str]) -> bool:
    """A card written on a line of its own: one card a line, or a bare draw from a known pile."""
    return w.style.draws == "single" or (w.style.bare and w.known(card[1]))


def render_json(game: GameLog, deck: bool = True) -> dict:
    """The JSON form of section 3: the `"uno-duo": 1` key first, then the header, rounds and winner."""
    out: dict = {"uno-duo": 1, "players": list(game.players), "ruleset": "official", "options": dict(game.options)}
    if game.target is not None:
        out["target"] = game.target
    out["tags"] = {}
    out["rounds"] = [_json_round(r, deck) for r in game.rounds]
    if game.winner:
        out["winner"] = {"player": game.winner}
    return out


def _json_round(rnd: RoundLog, deck: bool) -> dict:
    setup: list[dict] = [{"type": "drafter", "player": rnd.drafter}]
    if deck:
        setup.append({"type": "deck", "cards": list(rnd.deck)})
    for p, first, keep, discard in rnd.picks:
        setup.append({"type": "draft", "player": p, "first": first, "keep": keep, "discard": discard})
    setup.append({"type": "start", "card": rnd.start})
    turns = [{"player": p, "events": [_json_event(e, p) for e in evs]} for p, evs in rnd.turns]
    out: dict = {"number": rnd.number, "setup": setup, "turns": turns}
    if rnd.score is not None:
        out["score"] = {"player": rnd.score[0], "points": rnd.score[1]}
    if rnd.totals is not None:
        out["totals"] = {"entries": [{"player": p, "points": n} for p, n in rnd.totals.items()]}
    return out


def _json_event(e: Event, on_turn: str) -> dict:
    kind = e[0]
    if kind == "play":
        return {"type": "play", "cards": list(e[1])}
    if kind == "draw":
        d: dict = {"type": "draw", "cards": [c for c, _ in e[2]]}
        if e[1] != on_turn:
            d["player"] = e[1]
        return d
    if kind == "uno":
        return {"type": "uno", "player": e[1]}
    if kind == "catch":
        return {"type": "catch", "player": e[1], "by": e[2]}
    if kind == "reshuffle":
        return {"type": "reshuffle", "cards": list(e[1])}
    return {"type": kind}
