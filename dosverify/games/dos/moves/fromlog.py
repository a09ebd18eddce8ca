"""DOS's entry to the move API (``PackMoves``): a position read from a log's first lines, or a new game
dealt from a seed.

A position is read by replaying the prefix's events on the generator's table (one card per op, as
the canonical form writes them). Which lines name a position is the issue's rule: not before the
header is complete, not inside a round's set-up; a comment or blank line stands for the event line
before it; a prefix that ends inside a turn is a position, its owed steps still owed.
"""

from __future__ import annotations

import copy

from ....moves.model import NotAPosition
from ....spec import load_spec
from ..events import FACE_DOWN as FD
from ..events import Catch, Dos, Draw, Log, Match, Pass, Place, Refill, Reshuffle, Round
from ..referee.matching import judge_codes
from .apply import apply, deal
from .listing import reason_of, reshuffle_serves_a_step
from .matchgen import deck_key
from .position import DosPosition
from .state import FACE_DOWN, Game, Table

HEADER_WORDS = frozenset({"dos", "players", "ruleset", "option", "target"})


def _base(code: str) -> str:
    return code.split("=", 1)[0]


def _keyword(raw: str) -> str | None:
    s = raw.strip()
    if not s or s.startswith("#"):
        return None
    return s.split()[0]


def _ranges(kinds: list[str | None]) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]]:
    """The valid positions (1-based line ranges) and the set-ups (round number, first line, last line)."""
    events = [i + 1 for i, k in enumerate(kinds) if k is not None]
    if not events:
        return [], []
    rounds = [i + 1 for i, k in enumerate(kinds) if k == "round"]
    header_end = max((n for n in events if not rounds or n < rounds[0]), default=1)
    total = len(kinds)
    setups = []
    for j, start in enumerate(rounds):
        nxt = rounds[j + 1] if j + 1 < len(rounds) else total + 1
        first_turn = next((n for n in range(start + 1, nxt) if kinds[n - 1] == "turn"), None)
        setups.append((j + 1, start, (first_turn - 1) if first_turn else nxt - 1))
    valid, at = [], header_end
    for _, start, end in setups:
        if at <= start - 1:
            valid.append((at, start - 1))
        at = end + 1
    if at <= total:
        valid.append((at, total))
    return valid, setups


def text_prefix(text: str, after: int | None) -> tuple[str, int]:
    """The first lines of a text log that name the position `after` (all of it when None), and the
    line it ends at; NotAPosition naming the valid ranges otherwise."""
    lines = text.splitlines()
    kinds = [_keyword(raw) for raw in lines]
    valid, setups = _ranges(kinds)
    shown = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in valid) or "none"
    n = len(lines) if after is None else after
    if n < 0 or n > len(lines):
        raise NotAPosition(f"line {n} is past the log's end ({len(lines)} lines); positions: {shown}", valid)
    at = n
    while at > 0 and kinds[at - 1] is None:  # a comment or blank line: the position after the event before it
        at -= 1
    if any(a <= at <= b for a, b in valid):
        return "\n".join(lines[:at]) + "\n", at
    where = next((f"inside round {r}'s set-up (lines {a}-{b})" for r, a, b in setups if a <= at <= b), None)
    raise NotAPosition(
        f"line {n} is not a position: {where or 'the header is not complete'}; positions: {shown}", valid
    )


def json_prefix(log: Log, after: int | None) -> tuple[Log, int]:
    """The first `after` event objects of a JSON log, in document order (a round counts as its `round`
    line, a turn as its `turn` line); NotAPosition inside a set-up."""
    seq: list[tuple[str, int, int]] = []  # (what, round index, detail) in document order
    for ri, rnd in enumerate(log.rounds):
        seq.append(("round", ri, 0))
        seq += [("setup", ri, i) for i in range(len(rnd.setup))]
        for ti, turn in enumerate(rnd.turns):
            seq.append(("turn", ri, ti))
            seq += [("event", ri, ti * 10_000 + i) for i in range(len(turn.events))]
        seq += [("show", ri, i) for i in range(len(rnd.shows))]
        seq += [(w, ri, 0) for w in ("score", "totals") if getattr(rnd, w) is not None]
    if log.winner is not None:
        seq.append(("winner", -1, 0))
    n = len(seq) if after is None else after
    kinds = [w if w in ("round", "turn") else "x" for w, _, _ in seq]
    valid, _ = _ranges(["dos", *kinds])  # index 0: the header
    valid = [(a - 1, b - 1) for a, b in valid]
    shown = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in valid) or "none"
    if not any(a <= n <= b for a, b in valid):
        raise NotAPosition(
            f"event {n} is not a position (a round's set-up, or past the end); positions: {shown}", valid
        )
    out = copy.copy(log)
    out.rounds, out.winner = [], None
    for what, ri, d in seq[:n]:
        if what == "round":
            r = copy.copy(log.rounds[ri])
            r.setup, r.turns, r.shows, r.score, r.totals = [], [], [], None, None
            out.rounds.append(r)
        elif what == "setup":
            out.rounds[-1].setup.append(log.rounds[ri].setup[d])
        elif what == "turn":
            t = copy.copy(log.rounds[ri].turns[d])
            t.events = []
            out.rounds[-1].turns.append(t)
        elif what == "event":
            out.rounds[-1].turns[-1].events.append(log.rounds[ri].turns[d // 10_000].events[d % 10_000])
        elif what == "show":
            out.rounds[-1].shows.append(log.rounds[ri].shows[d])
        elif what in ("score", "totals"):
            setattr(out.rounds[-1], what, getattr(log.rounds[ri], what))
        else:
            out.winner = log.winner
    return out, n


def view_of(log: Log) -> str | None:
    """None for an open log; the seat a seat view shows; "table" for a table view (notation.md Face-down)."""
    hidden: set[str] = set()
    written: set[str] = set()
    for rnd in log.rounds:
        for sev in rnd.setup:
            if sev.type == "hand":
                (hidden if any(c is FD for c in sev.cards) else written).add(sev.player)
        for turn in rnd.turns:
            for tev in turn.events:
                if isinstance(tev, Draw) and any(c is FD for c in tev.cards):
                    hidden.add(tev.player or turn.player)
    if not hidden:
        return None
    seats = [p for p in log.players if p not in hidden]
    return seats[0] if len(seats) == 1 else "table"


def game_of(log: Log, ruleset: str | None, options: dict[str, str]) -> Game:
    name = ruleset or log.ruleset or "official"
    rs = load_spec("dos").ruleset(name, {**log.options, **options}, log.target)
    return Game(list(log.players), rs, name, [], view=view_of(log))


def replay(g: Game, log: Log) -> Table:
    """The table after every event of `log` (a prefix), one card per op."""
    tb = Table(g.players)
    for rnd in log.rounds:
        _round(g, tb, rnd)
    if log.winner is not None:
        apply(g, tb, ("winner", log.winner.player))
    return tb


def _round(g: Game, tb: Table, rnd: Round) -> None:
    apply(g, tb, ("round", rnd.number))
    dealer, deck, hands, center = g.players[-1], [], {}, None
    for ev in rnd.setup:
        if ev.type == "dealer":
            dealer = ev.player
        elif ev.type == "deck":
            deck += [_base(c) for c in ev.cards]
        elif ev.type == "hand":
            hands[ev.player] = [_base(c) if isinstance(c, str) else FACE_DOWN for c in ev.cards]
        elif ev.type == "center":
            center = [_base(c) for c in ev.cards]
    if rnd.turns or rnd.score:
        deal(g, tb, dealer, deck, hands, center)
    else:
        tb.dealer = dealer
    for turn in rnd.turns:
        apply(g, tb, ("turn", turn.player))
        evs = turn.events
        for i, tev in enumerate(evs):
            for op in event_ops(g, tb, tev, evs[i + 1] if i + 1 < len(evs) else None, turn.player):
                apply(g, tb, op)
    for sh in rnd.shows:
        apply(g, tb, ("show", sh.player, [_base(c) for c in sh.cards]))
    if rnd.score is not None:
        apply(g, tb, ("score", rnd.score.player, rnd.score.points))
    if rnd.totals is not None:
        apply(g, tb, ("totals",))


def event_ops(g: Game, tb: Table, ev, nxt, p: str) -> list[tuple]:
    """The ops of one turn event: one per card of a `draw` or `refill` line."""
    if isinstance(ev, Match):
        j = judge_codes(ev.target, tuple(ev.cards))
        cards = tuple(sorted((_base(c) for c in ev.cards), key=deck_key))
        return [("match", _base(ev.target), cards, j.ok and j.colour)]
    if isinstance(ev, Draw):
        q = ev.player or p
        if not ev.cards:
            return [("draw", q, None)]
        return [
            ("draw", q, c if isinstance(c, str) and c == FACE_DOWN else _base(c) if isinstance(c, str) else FACE_DOWN)
            for c in ev.cards
        ]
    if isinstance(ev, Refill):
        return [("refill", _base(c)) for c in ev.cards] if ev.cards else [("refill", None)]
    if isinstance(ev, Place):
        return [("place", _base(ev.card))]
    if isinstance(ev, Pass):
        return [("pass",)]
    if isinstance(ev, Dos):
        return [("dos", ev.player or p)]
    if isinstance(ev, Catch):
        return [("catch", ev.player, ev.by)]
    if isinstance(ev, Reshuffle):
        if nxt is None:  # the position is cut right after it: the draw it serves is the one owed
            step_draw = reshuffle_serves_a_step(g, tb, len(ev.cards) if ev.cards else None)
        else:
            step_draw = isinstance(nxt, Refill) or (
                isinstance(nxt, Draw) and reason_of(g, tb, nxt.player or p) in ("penalty", "dcm")
            )
        return [("reshuffle", [_base(c) for c in ev.cards] if ev.cards else None, step_draw)]
    return []


def from_log(source, form, after, ruleset, options) -> tuple[DosPosition, int]:
    from ..check import parse

    if form == "text" and (quick := _text_position(source, after, ruleset, options)) is not None:
        return quick
    whole = parse(source, form)
    if whole.malformed or whole.log is None:
        first = whole.findings[0].message if whole.findings else "it does not read"
        raise NotAPosition(f"the log is malformed: {first}")
    log: Log = whole.log
    g = game_of(log, ruleset, options)
    if log._pointer is None and isinstance(whole.text, str):  # the text form: physical lines
        text, at = text_prefix(whole.text, after)
        prefix = parse(text, "text").log
        lines = text.splitlines()
    else:
        from ..notation.writer import write

        prefix, at = json_prefix(log, after)
        lines = write(prefix).splitlines()
    assert prefix is not None
    tb = replay(g, prefix)
    return DosPosition(g, tb, lines, at, deals=False), at


def _text_position(source, after, ruleset, options) -> tuple[DosPosition, int] | None:
    """A text log's position read from its first lines only (later lines are not the position's:
    the move API ignores them, and reading them too made `moves --after` cost a parse of the whole
    log more than `check` of the prefix); None when the text itself is in doubt (not UTF-8 text,
    lines ended by a lone carriage return) or the prefix does not read: the whole reading says why."""
    from ..check import parse
    from ..notation.textstream import _decode

    text, problem = _decode(source)
    if text is None or problem is not None:
        return None
    cut, at = text_prefix(text, after)
    parsed = parse(cut, "text")
    if parsed.malformed or parsed.log is None:
        return None
    log: Log = parsed.log
    if not log.rounds:  # the header alone: whether it is a view is said by its rounds' cards, later
        return None
    g = game_of(log, ruleset, options)
    return DosPosition(g, replay(g, log), cut.splitlines(), at, deals=False), at


def judged_position(source, after, ruleset, options, judge) -> tuple[DosPosition, int, object] | None:
    """A text log's position and the referee's report on its lines, from one reading: `judge(end)`
    is check's report on the first `end` lines read whole, and the position is replayed from the
    log its referee read (names it resolved included: the state the referee recovers to). None when
    the text is in doubt, or the referee kept no log (a malformed prefix): from_log then says why."""
    from ..notation.textstream import _decode

    text, problem = _decode(source)
    if text is None or problem is not None:
        return None
    cut, at = text_prefix(text, after)
    report = judge(at)
    ref = getattr(report, "referee", None)
    if report.verdict == "malformed" or ref is None or not ref.log.rounds:
        return None  # (the header alone: whether it is a view is said by its rounds' cards, later)
    g = game_of(ref.log, ruleset, options)
    return DosPosition(g, replay(g, ref.log), cut.splitlines(), at, deals=False), at, report


def new_game(players: list[str], ruleset: str, options: dict[str, str], seed: int) -> DosPosition:
    rs = load_spec("dos").ruleset(ruleset, options)
    header = ["dos 1", "players " + " ".join(players), f"ruleset {ruleset}"]
    header += [f"option {k} {v}" for k, v in options.items()]
    g = Game(list(players), rs, ruleset, header)
    return DosPosition(g, Table(g.players), list(header), seed, deals=True)
