"""Logs of n lines of one kind, for both games: what bench/linear.py times and
tests/core/test_linear_lines.py counts, to show that a check's work is linear in the log's lines
whatever the lines are (issue 31, item 1).

A shape is a game's set-up (a header, a round dealt) and then n lines of one kind, good or bad:
junk, repeated headers, set-up lines, turns in and out of order, every event line many times in
one turn (repeated calls, catches, reshuffles, draws from an empty pile), shows, scores, totals,
winners, rounds, and a long legal game cut to n lines. Every keyword of a game's notation, read
from its grammar (grammars/*/*.lark) and its reader's KEYWORDS (DOS: notation/words.py), must be a word of
some shape's n lines (:func:`uncovered`), so that a keyword added to the notation without a
case here fails the test."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Shape:
    game: str  # "dos" or "uno-duo"
    name: str
    prefix: bytes  # the set-up before the n lines
    body: Callable[[int], bytes]  # n lines of the kind

    def make(self, n: int) -> bytes:
        return self.prefix + self.body(n)


def _rep(*lines: str) -> Callable[[int], bytes]:
    """n lines: the given lines over and over (a `%d` in a line is the line's number)."""
    unit = [ln.encode() for ln in lines]

    def body(n: int) -> bytes:
        return b"".join(
            (unit[i % len(unit)] % i if b"%d" in unit[i % len(unit)] else unit[i % len(unit)]) + b"\n" for i in range(n)
        )

    return body


# ---- DOS --------------------------------------------------------------------------------

DOS_HEAD = b"dos 1\nplayers ann bob cy\n"
DOS_DEAL = b"round 1\ndealer cy\nhand ann R1 B3 G4 Y5 R6 B7 G8\nhand bob Y1 R3 B4 G5 Y6 R7 B8\nhand cy G1 Y3 R4 B5 G6 Y7 R8\ncenter G7 Y8\n"
DOS_TURN = DOS_HEAD + DOS_DEAL + b"turn ann\n"  # ann plays: cy dealt


@cache
def _legal_game(game: str, lines: int) -> list[bytes]:
    """A generated legal game of at least `lines` lines (more rounds for more lines), as lines;
    cached in bench/out/ by size, since a large one takes a while to play."""
    cache_dir = ROOT / "bench" / "out" / "linear"
    path = cache_dir / f"{game}-{lines}.log"
    if path.exists():
        return path.read_bytes().splitlines(keepends=True)
    target = 50
    while True:
        if game == "dos":
            from dosverify.games.dos.simulate import simulate_text

            text = simulate_text(2, 1, "official", game=True, target=target)
        else:
            from dosverify.games.uno_duo.simulate import logs as sim

            cap = sim.GAME_ROUND_CAP
            sim.GAME_ROUND_CAP = 1 << 30  # its cap on rounds (a guard for the tests' games) lifted here
            try:
                text = sim.simulate(seed=1, whole_game=True, target=target)
            finally:
                sim.GAME_ROUND_CAP = cap
        if text.count("\n") >= lines + 10:
            break
        if target > 1 << 40:
            raise RuntimeError(f"no {game} game of {lines} lines")
        target *= 2
    cache_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return text.encode().splitlines(keepends=True)


def _legal(game: str) -> Callable[[int], bytes]:
    """The first n lines of a long legal game (header included): one game up to 20,000 lines,
    another beyond, so that the small sizes cost a small game."""

    def body(n: int) -> bytes:
        return b"".join(_legal_game(game, 20_000 if n <= 20_000 else 200_000)[:n])

    return body


DOS = [
    # text that is no line of the notation
    Shape("dos", "junk lines", DOS_HEAD, _rep("X%d = not a line")),
    Shape("dos", "bad lines", DOS_HEAD, _rep("x")),  # a tag's word: Lark reads each
    Shape("dos", "junk in a turn", DOS_TURN, _rep("match", "draw draw", "R1 B2")),
    # header lines again
    Shape("dos", "version lines", DOS_HEAD, _rep("dos 1")),
    Shape("dos", "players lines", DOS_HEAD, _rep("players ann bob cy")),
    Shape("dos", "ruleset lines", DOS_HEAD, _rep("ruleset official")),
    Shape("dos", "option lines", DOS_HEAD, _rep("option dcm-draws at-once")),
    Shape("dos", "target lines", DOS_HEAD, _rep("target 200")),
    Shape("dos", "tag lines", DOS_HEAD, _rep('event "x%d"')),
    # rounds and their set-up
    Shape("dos", "empty rounds", DOS_HEAD, _rep("round %d")),
    Shape(
        "dos",
        "dealt rounds",
        DOS_HEAD,
        _rep(
            "round %d",
            "dealer cy",
            "hand ann R1",
            "hand bob B3",
            "hand cy G4",
            "center G7 Y8",
            "turn ann",
            "match R1 with R1",
            "score ann 0",
            "totals ann 0 bob 0 cy 0",
        ),
    ),
    Shape("dos", "dealer lines", DOS_HEAD + b"round 1\n", _rep("dealer ann")),
    Shape("dos", "deck lines", DOS_HEAD + b"round 1\ndealer cy\n", _rep("deck R1 B3 G4")),
    Shape("dos", "hand lines", DOS_HEAD + b"round 1\ndealer cy\n", _rep("hand ann R1 B3 G4")),
    Shape("dos", "center lines", DOS_HEAD + b"round 1\ndealer cy\n", _rep("center R1 B3")),
    # turns
    Shape("dos", "turns in order", DOS_HEAD + DOS_DEAL, _rep("turn ann", "turn bob", "turn cy")),
    Shape("dos", "turns out of order", DOS_HEAD + DOS_DEAL, _rep("turn bob")),  # issue 31: R49 each
    Shape("dos", "one player's turns", b"dos 1\nplayers ann bob\nround 1\ndealer bob\n", _rep("turn ann")),
    Shape("dos", "turns without a player", DOS_HEAD + DOS_DEAL, _rep("turn")),
    Shape("dos", "turns of nobody", DOS_HEAD + DOS_DEAL, _rep("turn zed")),
    Shape(
        "dos",
        "turns drawing and placing",
        DOS_HEAD + DOS_DEAL,
        _rep("turn ann", "draw", "place R1", "turn bob", "draw Y9", "pass", "turn cy", "match G1 with G7"),
    ),
    # a match of the next player's card after a match (READINGS R98): two readings, each played to the round's
    # end; one fork a round, in one long round and in many short ones
    Shape("dos", "forks in one round", DOS_TURN + b"match G7 with B7\n", _rep("match G7 with R7")),
    Shape(
        "dos",
        "forks in many rounds",
        DOS_HEAD,
        _rep(
            "round %d",
            "dealer cy",
            "hand ann R1 B7",
            "hand bob R7",
            "hand cy G4",
            "center G7 Y8",
            "turn ann",
            "match G7 with B7",
            "match Y8 with R7",
            "refill",
            "turn bob",
            "score ann 0",
        ),
    ),
    # every event line many times in one turn
    Shape("dos", "matches", DOS_TURN, _rep("match R1 with G7")),
    Shape("dos", "matches of two", DOS_TURN, _rep("match G7 with R1 + B3")),
    Shape("dos", "draws", DOS_TURN, _rep("draw")),  # the pile empties, then draws from an empty pile
    Shape("dos", "draws of cards", DOS_TURN, _rep("draw R1 B3")),
    Shape("dos", "draws of others", DOS_TURN, _rep("draw bob")),
    Shape("dos", "refills", DOS_TURN, _rep("refill")),
    Shape("dos", "refills of cards", DOS_TURN, _rep("refill R1 B3")),
    Shape("dos", "places", DOS_TURN, _rep("place R1")),
    Shape("dos", "passes", DOS_TURN, _rep("pass")),
    Shape("dos", "calls", DOS_TURN, _rep("dos")),
    Shape("dos", "calls of others", DOS_TURN, _rep("dos bob")),
    Shape("dos", "catches", DOS_TURN, _rep("catch bob by ann")),
    Shape("dos", "catches and penalties", DOS_TURN, _rep("catch bob by ann", "draw bob")),
    Shape("dos", "reshuffles", DOS_TURN, _rep("reshuffle")),
    Shape("dos", "reshuffles of cards", DOS_TURN, _rep("reshuffle R1 B3")),
    Shape("dos", "reshuffles and draws", DOS_TURN, _rep("reshuffle", "draw")),
    Shape("dos", "face-down draws", DOS_TURN, _rep("draw ?")),
    # the end of a round and of the game
    Shape("dos", "shows", DOS_TURN, _rep("show bob Y1 R3")),
    Shape("dos", "scores", DOS_TURN, _rep("score ann 10")),
    Shape("dos", "totals", DOS_TURN + b"score ann 10\n", _rep("totals ann 10 bob 0 cy 0")),
    Shape("dos", "winners", DOS_TURN, _rep("winner ann")),
]

# ---- UNO Duo ----------------------------------------------------------------------------

UNO_HEAD = b"uno-duo 1\nplayers ann bob\n"
UNO_DEAL = b"round 1\ndrafter bob\nhand ann R1 R2 R3 G4 G5 Y6 B7\nhand bob Y1 Y2 Y3 B4 B5 R6 G7\nstart R5\n"
UNO_TURN = UNO_HEAD + UNO_DEAL + b"turn ann\n"

UNO = [
    Shape("uno-duo", "junk lines", UNO_HEAD, _rep("X%d = not a line")),
    Shape("uno-duo", "bad lines", UNO_HEAD, _rep("x")),
    Shape("uno-duo", "junk in a turn", UNO_TURN, _rep("play", "draw draw", "R1 B2", "match R1 with R2")),
    Shape("uno-duo", "version lines", UNO_HEAD, _rep("uno-duo 1")),
    Shape("uno-duo", "players lines", UNO_HEAD, _rep("players ann bob")),
    Shape("uno-duo", "ruleset lines", UNO_HEAD, _rep("ruleset official")),
    Shape("uno-duo", "option lines", UNO_HEAD, _rep("option stacking on")),
    Shape("uno-duo", "target lines", UNO_HEAD, _rep("target 200")),
    Shape("uno-duo", "tag lines", UNO_HEAD, _rep('event "x%d"')),
    Shape("uno-duo", "empty rounds", UNO_HEAD, _rep("round %d")),
    Shape(
        "uno-duo",
        "dealt rounds",
        UNO_HEAD,
        _rep(
            "round %d",
            "drafter bob",
            "hand ann R1",
            "hand bob Y1",
            "start R5",
            "turn ann",
            "play R1",
            "score ann 0",
            "totals ann 0 bob 0",
        ),
    ),
    Shape("uno-duo", "drafter lines", UNO_HEAD + b"round 1\n", _rep("drafter ann")),
    Shape("uno-duo", "deck lines", UNO_HEAD + b"round 1\ndrafter bob\n", _rep("deck R1 B2 G3")),
    Shape(
        "uno-duo",
        "draft lines",
        UNO_HEAD + b"round 1\ndrafter bob\n",
        _rep("draft ann keep R1 discard R2", "draft bob discard B3 keep B4"),
    ),
    Shape("uno-duo", "hand lines", UNO_HEAD + b"round 1\ndrafter bob\n", _rep("hand ann R1 R2")),
    Shape("uno-duo", "start lines", UNO_HEAD + UNO_DEAL, _rep("start R5")),
    Shape("uno-duo", "turns in order", UNO_HEAD + UNO_DEAL, _rep("turn ann", "turn bob")),
    Shape("uno-duo", "turns out of order", UNO_HEAD + UNO_DEAL, _rep("turn bob")),
    Shape("uno-duo", "turns of nobody", UNO_HEAD + UNO_DEAL, _rep("turn zed")),
    Shape(
        "uno-duo",
        "turns drawing and playing",
        UNO_HEAD + UNO_DEAL,
        _rep("turn ann", "play R1", "turn bob", "draw", "pass", "turn ann", "draw G9", "play G9"),
    ),
    Shape("uno-duo", "plays", UNO_TURN, _rep("play R1")),
    Shape("uno-duo", "runs", UNO_TURN, _rep("play R1 R2 R3")),
    Shape("uno-duo", "draws", UNO_TURN, _rep("draw")),  # the pile empties, then draws from an empty pile
    Shape("uno-duo", "draws of cards", UNO_TURN, _rep("draw R9")),
    Shape("uno-duo", "draws of others", UNO_TURN, _rep("draw bob")),
    Shape("uno-duo", "challenges", UNO_TURN, _rep("challenge")),
    Shape("uno-duo", "calls", UNO_TURN, _rep("uno")),
    Shape("uno-duo", "calls of others", UNO_TURN, _rep("uno bob")),
    Shape("uno-duo", "catches", UNO_TURN, _rep("catch bob by ann")),
    Shape("uno-duo", "reshuffles", UNO_TURN, _rep("reshuffle")),
    Shape("uno-duo", "reshuffles of cards", UNO_TURN, _rep("reshuffle R1 B2")),
    Shape("uno-duo", "passes", UNO_TURN, _rep("pass")),
    Shape("uno-duo", "scores", UNO_TURN, _rep("score ann 10")),
    Shape("uno-duo", "totals", UNO_TURN + b"score ann 10\n", _rep("totals ann 10 bob 0")),
    Shape("uno-duo", "winners", UNO_TURN, _rep("winner ann")),
]


LEGAL = [Shape("dos", "a legal game", b"", _legal("dos")), Shape("uno-duo", "a legal game", b"", _legal("uno-duo"))]

SHAPES: dict[str, Shape] = {f"{s.game}: {s.name}": s for s in DOS + UNO + LEGAL}


# ---- the keywords of each game's notation -----------------------------------------------

GRAMMARS = {"dos": ROOT / "grammars" / "dos" / "dos.lark", "uno-duo": ROOT / "grammars" / "uno-duo" / "uno-duo.lark"}
_KEYWORD_TERMINAL = re.compile(r"(?m)^_?[A-Z_]+\.\d+:\s*/([a-z][a-z-]*)\(\?=")


def keywords(game: str) -> set[str]:
    """Every keyword of the game's notation: its grammar's keyword terminals (`TURN.3:
    /turn(?=...)/`) and its reader's KEYWORDS."""
    if game == "dos":
        from dosverify.games.dos.notation import KEYWORDS
    else:
        from dosverify.games.uno_duo.notation import KEYWORDS
    return set(_KEYWORD_TERMINAL.findall(GRAMMARS[game].read_text(encoding="utf-8"))) | set(KEYWORDS)


def uncovered(game: str) -> set[str]:
    """The game's keywords that no shape's n lines use."""
    used: set[str] = set()
    for s in SHAPES.values():
        if s.game == game and s.name != "a legal game":
            used.update(s.body(12).decode().split())
    return keywords(game) - used
