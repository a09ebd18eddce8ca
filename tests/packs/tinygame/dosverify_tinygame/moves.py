"""Tiny's move generator (capability ``moves``, dosverify.moves.protocol): the position between two
lines, what may come next (README sections 2 to 4), and how a listed move changes it.

Separate from the referee on purpose: the core's table lists from here and judges with ``check``,
and the tests hold the two equal. A prefix with mistakes is replayed as the referee recovers from
them (a card not held is played all the same, the turn passes to the other player)."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from dosverify.findings import Finding, make_finding
from dosverify.jsondoc import sniff_json as is_json
from dosverify.moves.model import CHANCE, TABLE, Move, NotAPosition

from .log import CARDS, TinyLog, parse_json, parse_text
from .referee import follows
from .spec import spec

HEADER_WORDS = ("tiny", "players", "ruleset", "option", "target")


class TinyPosition:
    """A Tiny game between two lines: hands, the top card, who is on turn, the round's scores."""

    def __init__(self, header: list[str], players: list[str], target: int, forced: bool, seed: int) -> None:
        self.header, self.players, self.target, self.forced, self.seed = header, players, target, forced, seed
        self.body: list[str] = []
        self.totals = dict.fromkeys(players, 0)
        self.number = 0  # the round being played (0: before round 1)
        self.hands: dict[str, list[str]] = {p: [] for p in players}
        self.seen: set[str] = set()
        self.top = ""
        self.on_turn = players[0]
        self.scored: dict[str, int] = {}
        self.ended = False  # the round's play is over (scores owed or written)
        self.finished = False  # the game ended (by the totals)
        self.winner: str | None = None

    # ---- what the referee does, line by line (referee.Referee, recovery included) ----------
    def start_round(self, number: int, deal: dict[str, list[str]], start: str) -> None:
        self.number, self.scored, self.ended = number, {}, False
        self.body.append(f"round {number}")
        self.seen = set()
        for p in self.players:
            cards = deal.get(p, [])
            self.body.append(f"deal {p} {' '.join(cards)}".rstrip())
            self.hands[p] = []
            for c in cards:
                if c not in self.seen:
                    self.seen.add(c)
                    self.hands[p].append(c)
        self.body.append(f"start {start}")
        self.top = start
        self.seen.add(start)
        self.on_turn = self.players[(number - 1) % 2]
        self._settle()

    def turn(self, player: str, action: str, card: str) -> None:
        self.body.append(f"{player} {action} {card}")
        if self.ended:
            return  # the referee says so, and skips it
        hand = self.hands[player]
        if action == "play":
            if card in hand:
                hand.remove(card)
            self.top = card
        else:
            hand.append(card)
        self.seen.add(card)
        self.on_turn = self.other(player)
        self._settle()

    def score(self, player: str, points: int) -> None:
        self.body.append(f"score {player} {points}")
        self.scored[player] = points

    def set_winner(self, player: str) -> None:
        self.body.append(f"winner {player}")
        self.winner = player

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def _over(self) -> bool:
        if any(not h for h in self.hands.values()):
            return True
        stuck = not any(follows(c, self.top) for c in self.hands[self.on_turn])
        return stuck and len(self.seen) >= len(CARDS)

    def _settle(self) -> None:
        if self.number and not self.ended and self._over():
            self.ended = True
            for p in self.players:
                self.totals[p] += sum(int(c[1:]) for c in self.hands[p])
            a, b = self.totals.values()
            self.finished = max(a, b) >= self.target and a != b

    # ---- PackPosition -----------------------------------------------------------------
    def owed_scores(self) -> list[str]:
        return [p for p in self.players if self.hands[p] and p not in self.scored] if self.ended else []

    def legal_moves(self) -> list[Move]:
        if self.winner is not None:
            return []
        if self.number == 0:
            return [Move("round 1", CHANCE, "deal", True, 1.0)]
        if not self.ended:
            return self._turn_moves()
        owed = self.owed_scores()
        if owed:
            scores = [Move(f"score {p} {sum(int(c[1:]) for c in self.hands[p])}", TABLE, "score") for p in owed]
            return sorted(scores, key=lambda m: m.line)
        if self.finished:
            best = min(self.players, key=lambda p: self.totals[p])
            return [Move(f"winner {best}", TABLE, "winner")]
        return [Move(f"round {self.number + 1}", CHANCE, "deal", True, 1.0)]

    def _turn_moves(self) -> list[Move]:
        p = self.on_turn
        plays = [Move(f"{p} play {c}", p, "play") for c in self.hands[p] if follows(c, self.top)]
        unseen = [c for c in CARDS if c not in self.seen]
        draws = []
        if unseen and (not plays or not self.forced):
            draws = [Move(f"{p} draw {c}", CHANCE, "draw", True, 1 / len(unseen)) for c in unseen]
        return sorted(plays + draws, key=lambda m: m.line)

    def to_move(self) -> str:
        moves = self.legal_moves()
        if not moves:
            return TABLE
        players = [m.actor for m in moves if m.actor not in (CHANCE, TABLE)]
        return players[0] if players else moves[0].actor

    def push(self, move: Move) -> None:
        words = move.line.split()
        if move.kind == "deal":
            self._deal(int(words[1]))
        elif move.kind in ("play", "draw"):
            self.turn(words[0], words[1], words[2])
        elif move.kind == "score":
            self.score(words[1], int(words[2]))
        elif move.kind == "winner":
            self.set_winner(words[1])
        else:
            raise ValueError(f"not a Tiny move: {move.line!r}")

    def _deal(self, number: int) -> None:
        """The round's set-up, from the seed alone (no global random state)."""
        deck = list(CARDS)
        random.Random(f"tiny:{self.seed}:{number}").shuffle(deck)
        deal = {p: sorted(deck[5 * i : 5 * i + 5]) for i, p in enumerate(self.players)}
        self.start_round(number, deal, deck[10])

    def canonical(self, line: str) -> str | None:
        from lark import UnexpectedInput

        from .log import _lark

        code = line.split("#", 1)[0]
        try:
            tree = _lark().parse(code).children[0]
        except UnexpectedInput:
            return None
        if tree.data in ("version", "players", "ruleset", "option", "target", "deal", "start_card"):
            return None  # not a line that comes next within a game
        return " ".join(code.split())

    def copy(self) -> TinyPosition:
        new = TinyPosition.__new__(TinyPosition)
        new.__dict__.update(self.__dict__)
        new.header, new.body = list(self.header), list(self.body)
        new.totals, new.scored = dict(self.totals), dict(self.scored)
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.seen = set(self.seen)
        return new

    def key(self) -> Hashable:
        hands = tuple(tuple(sorted(self.hands[p])) for p in self.players)
        scored = tuple(sorted(self.scored.items()))
        return (tuple(self.header), self.number, hands, frozenset(self.seen), self.top, self.on_turn, scored,
                tuple(self.totals.values()), self.ended, self.winner)  # fmt: skip

    def lines(self) -> list[str]:
        return self.header + self.body

    def observation(self, seat: str) -> Any:
        if seat not in self.players:
            raise ValueError(f"`{seat}` is not a player of this game ({' and '.join(self.players)})")
        return {
            "hand": sorted(self.hands[seat]),
            "other_count": len(self.hands[self.other(seat)]),
            "top": self.top,
            "pile": len(CARDS) - len(self.seen),
            "lines": self.lines(),
        }

    def round_over(self) -> bool:
        return self.ended

    def game_over(self) -> bool:
        return self.winner is not None or (self.finished and not self.owed_scores())

    def scores(self) -> dict[str, int]:
        return dict(self.totals)

    def owed(self, findings: list[Finding]) -> list[Finding]:
        """The findings of a prefix that are steps it still owes: the scores of a round whose play
        ended on its last line (the core's optional hook, docs/moves.md)."""
        owed = {f"score {p} {sum(int(c[1:]) for c in self.hands[p])}" for p in self.owed_scores()}
        return [f for f in findings if f.rule == "score.round" and f.expected in owed and self.winner is None]

    def deferred(self, line: str) -> list[Finding]:
        """A `score`, `round` or `winner` line the referee finds wrong at the round's line, not its own."""
        word = (self.canonical(line) or "").split(" ", 1)[0]
        if self.number and word in ("score", "round") and not self.ended:
            why = f"round {self.number} stops before it ended: {self.on_turn} is on turn and can play or draw"
            return [make_finding(spec(), "turn.order", why, round=self.number)]
        if word in ("round", "winner") and self.owed_scores():
            p = self.owed_scores()[0]
            return [make_finding(spec(), "score.round", f"{p} has no score in round {self.number}", player=p)]
        return []


class TinyMoves:
    """Tiny's entry to the move API (``TinyPack.moves()``)."""

    def from_log(self, source, form, after, ruleset, options) -> tuple[TinyPosition, int]:
        if form == "json" or (form is None and is_json(source)):
            return _from_json(source, after, ruleset, options)
        text = source.decode("utf-8") if isinstance(source, (bytes, bytearray)) else str(source)
        raw = text.removeprefix("\ufeff").splitlines()
        end = len(raw) if after is None else after
        ranges = positions(raw)
        if not any(lo <= end <= hi for lo, hi in ranges):
            said = ", ".join(f"{lo}-{hi}" if lo != hi else str(lo) for lo, hi in ranges) or "none"
            raise NotAPosition(f"line {end} is no position of this log (positions: lines {said})", ranges)
        parsed = parse_text("\n".join(raw[:end]) + "\n")
        if parsed.log is None:
            raise NotAPosition(f"the first {end} lines cannot be read", ranges)
        return replay(parsed.log, ruleset, options), end

    def new(self, players, ruleset, options, seed) -> TinyPosition:
        if len(players) != 2 or len(set(players)) != 2:
            raise ValueError("Tiny is a game of two distinct players")
        log = TinyLog(1, list(players), ruleset=None if ruleset == "official" else ruleset, options=dict(options))
        return start(log, None, {}, seed)


def start(log: TinyLog, ruleset: str | None, options: dict[str, str], seed: int = 0) -> TinyPosition:
    """The position after the header of `log`, under the ruleset and options `check` would use."""
    rs = spec().ruleset(ruleset or log.ruleset or "official", {**log.options, **options}, log.target)
    header = ["tiny 1", f"players {' '.join(log.players)}"]
    header += [f"ruleset {log.ruleset}"] if log.ruleset is not None else []
    header += [f"option {k} {v}" for k, v in log.options.items()]
    header += [f"target {log.target}"] if log.target is not None else []
    return TinyPosition(header, list(log.players), rs.target, rs.opt("forced-play") == "must", seed)


def replay(log: TinyLog, ruleset: str | None, options: dict[str, str]) -> TinyPosition:
    pos = start(log, ruleset, options)
    for rnd in log.rounds:
        pos.start_round(rnd.number, rnd.deal, rnd.start)
        for t in rnd.turns:
            pos.turn(t.player, t.action, t.card)
        for p, n in rnd.score.items():
            pos.score(p, n)
    if log.winner is not None:
        pos.set_winner(log.winner)
    return pos


def positions(raw: list[str]) -> list[tuple[int, int]]:
    """The lines a text log may be cut after (docs/moves.md, "Positions"): from the header's last
    line, and from each round's `start` line, to the line before the next `round`."""
    words = [(n, ln.split("#", 1)[0].split()) for n, ln in enumerate(raw, 1)]
    words = [(n, w[0]) for n, w in words if w]
    if not words or words[0][1] != "tiny":
        return []
    rounds = [n for n, w in words if w == "round"]
    before = rounds[0] if rounds else len(raw) + 1
    lo: int | None = max((n for n, w in words if w in HEADER_WORDS and n < before), default=words[0][0])
    out = []
    for r in rounds:
        if lo is not None:
            out.append((lo, r - 1))
        lo = next((n for n, w in words if n > r and w == "start"), None)
    if lo is not None:
        out.append((lo, len(raw)))
    return out


def _from_json(source, after, ruleset, options) -> tuple[TinyPosition, int]:
    """A JSON log: `after` counts its event objects (each round's set-up, each turn) in order."""
    parsed = parse_json(source)
    if parsed.log is None:
        raise NotAPosition("the JSON log cannot be read")
    log = parsed.log
    total = sum(1 + len(r.turns) for r in log.rounds)
    end = total if after is None else after
    if not 0 <= end <= total:
        raise NotAPosition(f"event {end} is no position of this log (positions: events 0-{total})", [(0, total)])
    pos, k = start(log, ruleset, options), 0
    for i, rnd in enumerate(log.rounds):
        if k >= end:
            break
        pos.start_round(rnd.number, rnd.deal, rnd.start)
        k += 1
        for t in rnd.turns:
            if k >= end:
                break
            pos.turn(t.player, t.action, t.card)
            k += 1
        if k < end or (after is None and i == len(log.rounds) - 1):
            for p, n in rnd.score.items():
                pos.score(p, n)
    if after is None and log.winner is not None:
        pos.set_winner(log.winner)
    return pos, end
