"""Renderings: one event log written in every style notation v1 allows.

Real logs are not written the way the simulator writes them: people leave out
`deck` lines or add `hand`/`center` lines beside them, leave declarations out
where the favourable reading is the one played (notation.md, Declarations), write
one card a `draw` line or group them, write bare `draw`/`refill` lines with a
known deck, name the player on turn or not, and add comments, indentation, CRLF
and a byte-order mark. Each :class:`Style` is one such way; :func:`render` writes
a :class:`~dosverify.games.dos.events.Log` in it and keeps, for every line written, the
lines of the canonical text (``notation.write``) it stands for, so that findings
can be compared between styles line for line (:meth:`Rendering.unit`).

A style never changes what a log means, and only drops what the notation lets the
reader infer: a card is written bare only when it is the top of the known pile, a
declaration is left out only when the favourable reading is the one written and
the written one adds up, lines are grouped only when they are the same player's
draws (or refills) with nothing between them, and a line never spans a
`reshuffle`. This holds for a log with a defect too (the mutants of
``dosverify.games.dos.mutate``): where the renderer cannot tell, it writes the line as it is.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field, replace

from . import events as ev
from .notation.writer import _event_line, _value

COLOURS = ("R", "G", "B", "Y")


@dataclass(frozen=True)
class Style:
    """One way of writing a log; every combination of fields is allowed by notation v1."""

    name: str
    deck: bool = True  # keep `deck` lines; False: write the deal as `hand`/`center` lines instead
    setup: bool = False  # with `deck` lines: also write the `hand`/`center` lines the deal gives
    declarations: bool = True  # False: leave them out where the favourable reading is the one played
    lines: str = "as-is"  # draw/refill lines: "as-is", "single" (one card a line) or "grouped"
    bare: bool = False  # with a known deck: a bare `draw`/`refill` line for each card from the top of the pile
    named: bool = False  # write the name of the player on turn in `draw` and `dos` lines
    bare_reshuffle: bool = False  # without a deck: write about half the `reshuffle` lines without their cards
    comments: bool = False  # comment lines, trailing comments and blank lines
    indent: str = "  "  # indentation of turn events, or "mixed" (any white space on any line)
    crlf: bool = False
    bom: bool = False

    def describe(self) -> str:
        """What the style does, in a few words (for `dosverify simulate --help`)."""
        d = self
        parts = []
        if not d.deck:
            parts.append("hand/center lines instead of deck lines")
        if d.setup:
            parts.append("hand/center lines beside the deck")
        if not d.declarations:
            parts.append("declarations left out where the favourable reading is played")
        if d.lines != "as-is":
            parts.append({"single": "one card a draw/refill line", "grouped": "draw/refill lines grouped"}[d.lines])
        if d.bare:
            parts.append("bare draw/refill lines from the known deck")
        if d.named:
            parts.append("the player on turn named in draw/dos lines")
        if d.bare_reshuffle:
            parts.append("some bare reshuffles")
        if d.comments:
            parts.append("comments and blank lines")
        if d.indent == "mixed":
            parts.append("mixed indentation")
        if d.crlf:
            parts.append("CRLF")
        if d.bom:
            parts.append("BOM")
        return ", ".join(parts) or "as the simulator writes it"

    @property
    def lexical_only(self) -> bool:
        """True when the style changes nothing but comments, blank lines, indentation, line ends and BOM."""
        return replace(self, name="", comments=False, indent="  ", crlf=False, bom=False) == Style("")


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("canonical"),
        Style("no-deck", deck=False, bare_reshuffle=True),
        Style("setup-lines", setup=True),
        Style("undeclared", declarations=False),
        Style("single", lines="single", named=True),
        Style("grouped", lines="grouped"),
        Style("bare", bare=True),
        Style("decorated", comments=True, indent="mixed", crlf=True, bom=True),
        Style(
            "everything",
            setup=True,
            declarations=False,
            lines="grouped",
            bare=True,
            named=True,
            comments=True,
            indent="mixed",
            crlf=True,
            bom=True,
        ),
        Style(
            "no-deck-everything",
            deck=False,
            declarations=False,
            lines="single",
            named=True,
            bare_reshuffle=True,
            comments=True,
            indent="mixed",
            crlf=True,
            bom=True,
        ),
    )
}


@dataclass
class Rendering:
    """A log written in one style: its text, and for each of its lines (index 0 = line 1) the
    canonical lines it stands for (empty for comment and blank lines)."""

    text: str
    src: list[tuple[int, ...]]
    canonical_lines: int  # lines of the canonical text; a finding at canonical_lines + 1 is "the end of the file"
    did: Counter = field(default_factory=Counter)  # what the style changed, counted (so a test can tell it is no no-op)

    def unit(self, line: int | None, groups: Groups) -> object:
        """The style-independent place of a finding at `line` of this rendering."""
        if line is None:
            return None
        if line > len(self.src):
            return "end"
        s = self.src[line - 1]
        return groups.find(s[0]) if s else ("no canonical line", line)


class Groups:
    """Canonical lines that some style wrote as one line (a union-find), so that a finding on
    any of them is at the same place."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def join(self, lines: tuple[int, ...]) -> None:
        for y in lines[1:]:
            a, b = self.find(lines[0]), self.find(y)
            if a != b:
                self.parent[max(a, b)] = min(a, b)

    def canonical(self, line: int | None, nlines: int) -> object:
        if line is None:
            return None
        return "end" if line > nlines else self.find(line)


# ---- declarations ---------------------------------------------------------------------------


def _readings(code: str) -> list[tuple[int, str]]:
    """Every (number, colour) a card may stand for, written as it is (declared or not)."""
    base, _, decl = code.partition("=")
    if base == "W2":
        return [(2, decl)] if decl else [(2, c) for c in COLOURS]
    if base.endswith("#"):
        return [(int(decl), base[0])] if decl else [(n, base[0]) for n in range(1, 11)]
    return [(int(base[1:]), base[0])]


def _outcomes(target: str, cards: list[str]) -> set[bool]:
    """Brute force: for each reading that adds up, whether it is a colour match."""
    out = set()
    for t, *hs in itertools.product(_readings(target), *(_readings(c) for c in cards)):
        if (sum(n for n, _ in hs) if len(hs) == 2 else hs[0][0]) == t[0]:
            out.add(all(c == t[1] for _, c in hs))
    return out


def undeclared(target: str, cards: list[str]) -> tuple[str, list[str]] | None:
    """The match without its declarations, when the favourable reading (a colour match where
    one is possible) is the one written and the written one adds up; else None."""
    codes = [target, *cards]
    if len(cards) not in (1, 2) or not any("=" in c for c in codes):
        return None
    if any(c.split("=")[0] in ("W2",) or c.split("=")[0].endswith("#") for c in codes if "=" not in c):
        return None  # a wild already undeclared: leave the line as it is
    played = _outcomes(target, cards)
    if len(played) != 1:
        return None
    best = _outcomes(*_bases(codes))
    if max(best, default=False) != next(iter(played)):
        return None
    t, hs = _bases(codes)
    return t, hs


def _declare(code: str, number: int, colour: str) -> str:
    if "=" in code:
        return code
    base = code
    if base == "W2":
        return f"W2={colour}"
    if base.endswith("#"):
        return f"{base}={number}"
    return code


def declared(target: str, cards: list[str]) -> tuple[str, list[str]] | None:
    """The match with every undeclared wild declared as the favourable reading (notation.md,
    Declarations: the colour match, where one is possible), by brute force over the readings;
    None when no wild is undeclared or no reading adds up (an illegal match is left as written)."""
    codes = [target, *cards]
    if len(cards) not in (1, 2) or not any("=" not in c and (c == "W2" or c.endswith("#")) for c in codes):
        return None
    best = None
    for t, *hs in itertools.product(*(_readings(c) for c in codes)):
        if (sum(n for n, _ in hs) if len(hs) == 2 else hs[0][0]) != t[0]:
            continue
        colour = all(c == t[1] for _, c in hs)
        if best is None or (colour and not best[0]):
            best = (colour, [t, *hs])
            if colour:
                break
    if best is None:
        return None
    out = [_declare(code, n, c) for code, (n, c) in zip(codes, best[1], strict=False)]
    return out[0], out[1:]


def _bases(codes: list[str]) -> tuple:
    bs = [c.split("=")[0] for c in codes]
    return bs[0], bs[1:]


# ---- the deal and the pile ------------------------------------------------------------------


def deal(players: list[str], dealer: str, deck: list[str]) -> tuple[dict, list[str], list[str]]:
    """Hands, Center Row and the rest of the pile dealt from `deck` (notation.md, `deck`): one card
    at a time from the dealer's left until each holds 7, then the 2 Center Row cards."""
    i = players.index(dealer)
    order = players[i + 1 :] + players[: i + 1]
    pile = list(deck)
    hands: dict = {p: [] for p in order}
    for _ in range(7):
        for p in order:
            if pile:
                hands[p].append(pile.pop(0))
    center = [pile.pop(0) for _ in range(2) if pile]
    return hands, center, pile


class _Pile:
    """The known draw pile, followed card by card; `known` turns False for the rest of the round
    at the first card that is not its top (or after a bare `reshuffle`)."""

    def __init__(self, cards: list[str] | None):
        self.cards = cards
        self.known = cards is not None

    def take(self, cards: list[str]) -> bool:
        """Take the cards of one line; True when each was the top of the known pile."""
        if not self.known or not cards:
            self.known = False
            return False
        for c in cards:
            if not self.cards or self.cards[0] != c:
                self.known = False
                return False
            self.cards.pop(0)
        return True

    def reshuffle(self, cards: list[str]) -> None:
        self.cards = list(cards) if cards else None
        self.known = bool(cards)


# ---- rendering ------------------------------------------------------------------------------


@dataclass
class _Out:
    text: str
    src: tuple[int, ...]
    indent: str = ""


@dataclass
class _Writer:
    style: Style
    rng: random.Random
    out: list[_Out] = field(default_factory=list)
    did: Counter = field(default_factory=Counter)
    n: int = 0  # canonical line counter
    known_until: int | None = None

    def canon(self) -> int:
        self.n += 1
        return self.n

    def put(self, text: str, src: tuple[int, ...], indent: str = "") -> None:
        self.out.append(_Out(text, src, indent))


def render(log: ev.Log, style: Style | str, seed: int = 0, known_until: int | None = None) -> Rendering:
    """`log` written in `style` (a :class:`Style` or a name of :data:`STYLES`); deterministic for
    `seed`. With the canonical style the text is exactly ``notation.write(log)``.

    `known_until`: from this canonical line on, no card and no `reshuffle` is written bare, and
    the player on turn is not named (after a wrong `turn` line, who is on turn is the referee's
    recovery).
    After a defect the referee's piles are its own recovery, so "the top of the pile" is no
    longer a fact both writings share, and a listed reshuffle says something a bare one does
    not (the mutants of ``dosverify.games.dos.mutate`` pass their first changed line)."""
    style = STYLES[style] if isinstance(style, str) else style
    w = _Writer(style, random.Random(seed), known_until=known_until)
    w.put("dos 1", (w.canon(),))
    w.put("players " + " ".join(log.players), (w.canon(),))
    if log.ruleset is not None:
        w.put(f"ruleset {_value(log.ruleset)}", (w.canon(),))
    for k, v in log.options.items():
        w.put(f"option {k} {_value(v)}", (w.canon(),))
    if log.target is not None:
        w.put(f"target {log.target}", (w.canon(),))
    for k, v in log.tags.items():
        w.put(f"{k} {_value(v)}", (w.canon(),))
    for rnd in log.rounds:
        w.put("", (w.canon(),))
        w.put(f"round {rnd.number}", (w.canon(),))
        pile = _setup(w, log, rnd)
        for turn in rnd.turns:
            w.put(f"turn {turn.player}", (w.canon(),))
            _turn(w, turn, pile)
        for sh in getattr(rnd, "shows", ()):
            w.put("show " + " ".join([sh.player] + list(sh.cards)), (w.canon(),))
        if rnd.score is not None:
            w.put(f"score {rnd.score.player} {rnd.score.points}", (w.canon(),))
        if rnd.totals is not None:
            w.put("totals " + " ".join(f"{e.player} {e.points}" for e in rnd.totals.entries), (w.canon(),))
    if log.winner is not None:
        w.put(f"winner {log.winner.player}", (w.canon(),))
    return _finish(w)


def _setup(w: _Writer, log: ev.Log, rnd: ev.Round) -> _Pile:
    """The round's set-up lines; returns the known pile after the deal (or an unknown one)."""
    st = w.style
    dealer = next((e.player for e in rnd.setup if e.type == "dealer"), None)
    deck_events = [e for e in rnd.setup if e.type == "deck"]
    cards = [c for e in deck_events for c in e.cards]
    has_setup = any(e.type in ("hand", "center") for e in rnd.setup)
    dealt = None
    if deck_events and len(cards) == 108 and dealer in log.players and "?" not in cards:
        dealt = deal(log.players, dealer, cards)
    last_deck = deck_events[-1] if deck_events else None
    for e in rnd.setup:
        n = w.canon()
        if e.type == "deck" and dealt is not None and not st.deck:
            if e is last_deck and not has_setup:
                _deal_lines(w, dealt, n, shuffle=True)
                w.did["deck written as hand/center lines"] += 1
            continue
        w.put(_event_line(e), (n,))
        if e is last_deck and dealt is not None and st.deck and st.setup and not has_setup:
            _deal_lines(w, dealt, n, shuffle=False)
            w.did["hand/center lines beside the deck"] += 1
    if dealt is None or not st.deck:
        return _Pile(None)
    return _Pile(list(dealt[2]))


def _deal_lines(w: _Writer, dealt, src: int, shuffle: bool) -> None:
    hands, center, _ = dealt
    for p, h in hands.items():
        h = list(h)
        if shuffle:
            w.rng.shuffle(h)  # a hand line is in any order
        w.put(" ".join(["hand", p] + h), (src,))
    w.put(" ".join(["center"] + center), (src,))


def _turn(w: _Writer, turn: ev.Turn, pile: _Pile) -> None:
    st = w.style
    items = [(e, (w.canon(),)) for e in turn.events]
    if st.lines == "grouped":
        items = _grouped(items, turn.player, w.did)
    for e, src in items:
        ind = "  "
        if e.type in ("draw", "refill"):
            if not _before(w, src):
                pile.known = False
            for text in _draw_lines(w, e, turn.player, pile, named=st.named and _before(w, src)):
                w.put(text, src, ind)
            continue
        if e.type == "reshuffle":
            pile.reshuffle(list(e.cards))
            # after a defect the listed cards are judged: never bare then
            if not st.deck and st.bare_reshuffle and e.cards and _before(w, src) and w.rng.random() < 0.5:
                w.put("reshuffle", src, ind)
                w.did["bare reshuffle"] += 1
                continue
        elif e.type == "match" and not st.declarations:
            plain = undeclared(e.target, list(e.cards))
            if plain is not None:
                w.put(f"match {plain[0]} with " + " + ".join(plain[1]), src, ind)
                w.did["declarations left out"] += 1
                if not _outcomes(e.target, list(e.cards)) == {True}:
                    w.did["declarations left out, no colour match"] += 1
                continue
        elif e.type == "dos" and st.named and e.player is None and _before(w, src):
            w.put(f"dos {turn.player}", src, ind)
            w.did["player on turn named"] += 1
            continue
        w.put(_event_line(e), src, ind)


def _before(w: _Writer, src: tuple[int, ...]) -> bool:
    """Whether the line comes before `known_until` (see :func:`render`)."""
    return w.known_until is None or src[-1] < w.known_until


def _who(e, on_turn: str) -> str:
    return e.player or on_turn


def _grouped(items: list, on_turn: str, did: Counter) -> list:
    """Consecutive draw lines of one player (or refill lines) as one line: one reason, one line."""
    out: list = []
    for e, src in items:
        if out and e.type in ("draw", "refill") and e.cards and ev.FACE_DOWN not in e.cards:
            prev, psrc = out[-1]
            if (
                prev.type == e.type
                and prev.cards
                and ev.FACE_DOWN not in prev.cards
                and (e.type == "refill" or _who(prev, on_turn) == _who(e, on_turn))
            ):
                merged = (
                    ev.Refill(cards=prev.cards + e.cards)
                    if e.type == "refill"
                    else ev.Draw(player=prev.player, cards=prev.cards + e.cards)
                )
                out[-1] = (merged, psrc + src)
                did["lines grouped"] += 1
                continue
        out.append((e, src))
    return out


def _draw_lines(w: _Writer, e, on_turn: str, pile: _Pile, named: bool) -> list[str]:
    st = w.style
    cards = [ev.word(c) for c in e.cards]  # a face-down card is written `?`
    head = ["draw"] + ([e.player] if e.player else ([on_turn] if named else [])) if e.type == "draw" else ["refill"]
    on_top = pile.take(cards)
    if e.type == "draw" and named and not e.player:
        w.did["player on turn named"] += 1
    if st.bare and st.deck and on_top:
        w.did["bare " + e.type] += len(cards)
        return [" ".join(head)] * len(cards)
    if st.lines == "single" and len(cards) > 1:
        w.did["lines split"] += 1
        return [" ".join(head + [c]) for c in cards]
    return [" ".join(head + cards)]


# ---- the lexical layer ----------------------------------------------------------------------

_INDENTS = ("", "  ", "\t", "    ", " \t ")
_NOTES = ("note", "as seen at the table", "R# is a card, this is a comment", "checked", "turn over", "dos!")


def _finish(w: _Writer) -> Rendering:
    lines: list[str] = []
    src: list[tuple[int, ...]] = []
    decorate(w.out, w.style, w.rng, lines, src)
    r = _joined(lines, src, w.style, w.n)
    r.did = w.did
    return r


def decorate(outs: list[_Out], style: Style, rng: random.Random, lines: list[str], src: list) -> None:
    """Comments, blank lines and indentation, as the style says, appended to `lines` and `src`."""
    for o in outs:
        if style.comments and rng.random() < 0.06:
            lines.append(_pad(style, rng, "") + "# " + rng.choice(_NOTES))
            src.append(())
        if style.comments and rng.random() < 0.03:
            lines.append(rng.choice(("", "   ", "\t")))
            src.append(())
        text = o.text
        if text and style.comments and rng.random() < 0.12:
            text += rng.choice((" ", "  ", "\t")) + "# " + rng.choice(_NOTES)
        if text:
            text = _pad(style, rng, o.indent) + text
        lines.append(text)
        src.append(o.src)


def _pad(style: Style, rng: random.Random, indent: str) -> str:
    if style.indent == "mixed":
        return rng.choice(_INDENTS)
    return indent


def _joined(lines: list[str], src: list, style: Style, n: int) -> Rendering:
    nl = "\r\n" if style.crlf else "\n"
    text = ("\ufeff" if style.bom else "") + nl.join(lines) + nl
    return Rendering(text, src, n)


def decorate_text(text: str, style: Style | str, seed: int = 0) -> Rendering:
    """The lexical layer of `style` (comments, blank lines, indentation, line ends, BOM) over a
    text as it is, line for line: for logs that are not read into events (a syntax defect)."""
    style = STYLES[style] if isinstance(style, str) else style
    raw = text.split("\n")
    if text.endswith("\n"):
        raw = raw[:-1]
    outs = [_Out(r.strip(), (i,), "  " if r.startswith(" ") else "") for i, r in enumerate(raw, 1)]
    lines: list[str] = []
    src: list = []
    decorate(outs, style, random.Random(seed), lines, src)
    return _joined(lines, src, style, len(raw))
