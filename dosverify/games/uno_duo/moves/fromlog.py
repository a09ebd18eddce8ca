"""A UNO Duo position read from a log: where a position may be (docs/moves.md, "Positions"), and
the referee's state after the prefix, which a table plays on from (a prefix with mistakes: the
state the referee recovers to).

Positions count physical lines (comments and blank lines too); a comment or blank line is the
position after the last event line before it. There is none before the header is complete nor
inside a round's set-up (from its `round` line to the line before its first `turn`). A JSON log
counts its event objects in document order (a round, its set-up entries, each turn and then its
events, the score, the totals, the winner), which are the lines of its text form."""

from __future__ import annotations

from collections import Counter

from ....moves.model import NotAPosition
from ..notation import code_part
from .position import UnoPosition
from .state import Calls, Owed, Pile, RoundState, TurnState

HEADER = frozenset({"uno-duo", "players", "ruleset", "option", "target"})


def _first_word(raw: str) -> str:
    words = code_part(raw.rstrip("\r")).split()
    return words[0] if words else ""


def valid_ranges(lines: list[str]) -> list[tuple[int, int]]:
    """The physical line numbers (1-based, inclusive) a position may end at."""
    words = [_first_word(raw) for raw in lines]
    rounds = [i + 1 for i, w in enumerate(words) if w == "round"]
    head_end = max((i + 1 for i, w in enumerate(words[: (rounds[0] - 1 if rounds else len(words))]) if w), default=0)
    if not any(w == "players" for w in words[:head_end]):
        return []
    ranges = [(head_end, (rounds[0] - 1) if rounds else len(lines))]
    for k, r in enumerate(rounds):
        stop = rounds[k + 1] - 1 if k + 1 < len(rounds) else len(lines)
        first_turn = next((i for i in range(r, stop + 1) if words[i - 1] == "turn"), None)
        if first_turn is not None:
            ranges.append((first_turn, stop))
    return [(a, b) for a, b in ranges if a <= b]


def _say(ranges: list[tuple[int, int]]) -> str:
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges) or "none"


def check_position(lines: list[str], after: int, unit: str = "line") -> None:
    ranges = valid_ranges(lines)
    if any(a <= after <= b for a, b in ranges):
        return
    if after > len(lines) or after < 1:
        why = f"the log has {len(lines)} {unit}s"
    elif ranges and after < ranges[0][0]:
        why = "the header is not complete"
    else:
        why = "it is inside a round's set-up (from `round` to the line before its first `turn`)"
    raise NotAPosition(f"no position after {unit} {after}: {why}; positions: {unit}s {_say(ranges)}", ranges)


def text_lines(text: str) -> list[str]:
    """The physical lines as the reader splits them (at LF; CR and a byte-order mark dropped)."""
    lines = [raw.rstrip("\r") for raw in text.removeprefix("\ufeff").split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def replay(log, rs, spec):
    """The referee after the log's lines, its end not closed (steps still owed are owed)."""
    from ..referee import Referee, scoring

    ref = Referee(log, rs, spec)
    j = ref.judge
    for rnd in log.rounds:
        ref.round_line(rnd)
        for i, turn in enumerate(rnd.turns):
            j.game.next_turn = rnd.turns[i + 1] if i + 1 < len(rnd.turns) else None
            ref.turn_line(turn)
            for ev in turn.events:
                ref.event(ev)
        ref.round_close(rnd)
    if log.winner is not None:
        scoring.winner_line(j, log.winner)
    return ref


def position_of(ref, log, rs, lines: list[str], seed: int = 0) -> UnoPosition:
    """The referee's state as a position, with the prefix's lines as its own."""
    j = ref.judge
    game = j.game
    pos = UnoPosition(list(log.players), dict(rs.options), rs.target, seed)
    pos.totals = dict(game.totals)
    pos.over_target = game.game_over
    pos.winner_done = log.winner is not None
    pos.body = list(lines)
    pos.end_line = len(lines)
    st = game.round
    if st is None:
        return pos
    pos.number = st.number
    pos.st = _round_of(st, game.turn, log.rounds[-1] if log.rounds else None, log.players)
    return pos


def _round_of(st, t, rnd, players) -> RoundState:
    turn = None
    if t is not None:
        turn = TurnState(t.player, t.index, t.need, t.done, t.drawn, t.facing)
    owed = None if st.owed is None else Owed(st.owed.player, st.owed.n, st.owed.rule)
    hands = {p: Counter({c: n for c, n in st.hands.get(p, Counter()).items() if n > 0}) for p in players}
    return RoundState(
        number=st.number,
        drafter=st.drafter or players[0],
        hands=hands,
        pile=Pile(list(st.pile.slots), st.pile.loose, st.pile.under_rule),
        pool=Counter(+st.pool),
        discards=list(st.discards),
        top_colour=st.top_colour,
        top_rank=st.top_rank,
        first=st.first,
        facing=st.facing,
        owed=owed,
        calls={p: Calls(c.called, c.caught, c.open) for p, c in st.calls.items()},
        turn=turn,
        last_turn=st.last_turn,
        turns=st.turns,
        over=st.over,
        out=st.out,
        scored=st.scored,
        totals_written=rnd is not None and rnd.totals is not None,
    )
