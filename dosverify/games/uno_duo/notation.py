"""The text notation `uno-duo 1`: the reader (Lark, one line at a time) and the writer.

The reader never raises: every problem is a finding with its line and column, a line that
cannot be read is reported and skipped, and the next line is read as if nothing happened.
Where a line stands (header, set-up, turn, end of round) is checked here, while the lines are
folded into a :class:`Log`; what the lines mean for the game is the referee's.
"""

from __future__ import annotations

import json
import re
import threading
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree, UnexpectedInput

from ...findings import Finding, Reporter
from ...model import Parsed
from .cards import CARD_WORD_RE, card_problem
from .events import (
    Catch,
    Challenge,
    Deck,
    Draft,
    Drafter,
    Draw,
    Hand,
    Log,
    Pass,
    Play,
    Reshuffle,
    Round,
    Score,
    Start,
    Total,
    Totals,
    Turn,
    Uno,
    Winner,
)

KEYWORDS = frozenset(
    [
        "uno-duo",
        "round",
        "drafter",
        "deck",
        "draft",
        "keep",
        "discard",
        "hand",
        "start",
        "turn",
        "play",
        "draw",
        "challenge",
        "uno",
        "catch",
        "by",
        "reshuffle",
        "pass",
        "score",
        "totals",
        "winner",
        "players",
        "ruleset",
        "option",
        "target",
    ]
)
#: first words of DOS lines that UNO Duo does not have: a clear syntax finding, never a crash
DOS_WORDS = frozenset({"dos", "dealer", "center", "match", "refill", "place", "with"})
NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")
TAG_RE = re.compile(r"^[a-z][a-z0-9_-]*$")
_PLAIN_VALUE = re.compile(r'^[^ \t#"]+$')
_local = threading.local()


def _reporter() -> Reporter:
    from .spec import reporter

    return reporter()


def _lark() -> Lark:
    """One parser per thread (Lark's LALR parser holds no per-parse state, but stay safe)."""
    p = getattr(_local, "lark", None)
    if p is None:
        from .spec import data_path

        grammar = data_path("grammars") / "uno-duo.lark"
        text = grammar.read_text(encoding="utf-8")
        p = _local.lark = Lark(text, parser="lalr", lexer="contextual", propagate_positions=True)
    return p


@lru_cache(maxsize=4096)
def _parse_code(code: str) -> Tree | UnexpectedInput:
    """One line's tree, or Lark's error: logs repeat their lines (`  draw`, `turn ann`), and a
    tree depends on the line's text alone (its tokens' columns too), so a read is cached."""
    try:
        return _lark().parse(code)
    except UnexpectedInput as exc:
        return exc


def code_part(line: str) -> str:
    """The line without its comment: `#` at the start or after white space, outside a string."""
    if "#" not in line:  # most lines: no comment to look for, character by character
        return line.rstrip()
    in_str = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
        i += 1
    return line.rstrip()


def decode(source: str | bytes) -> tuple[str | None, Finding | None]:
    """The text of a log (BOM dropped), or the encoding finding."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            return None, _reporter()("notation.encoding", "the log is UTF-16 text, not UTF-8", line=1, column=1)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data.count(b"\n", 0, e.start) + 1
            return None, _reporter()(
                "notation.encoding",
                f"byte 0x{data[e.start]:02x} at offset {e.start} is not UTF-8",
                line=line,
                column=1,
                expected="UTF-8 text",
            )
    else:
        text = str(source)
    return (text.removeprefix("\ufeff")), None


class _LineError(Exception):
    """A line that is read but cannot stand (a bad card word or name): its finding."""

    def __init__(self, finding: Finding) -> None:
        self.finding = finding


class _HeaderLines:
    """The header's lines (a base of _Reader, which sets the state declared here)."""

    r: Reporter
    findings: list[Finding]
    log: Log | None
    players: list[str]
    phase: str
    malformed: bool
    header_at: dict
    round: Round | None

    @property
    def the_log(self) -> Log:
        """The log being read, once its header's first line started it (a line handler runs only then)."""
        assert self.log is not None, "a line was read before the log's first line"
        return self.log

    @property
    def the_round(self) -> Round:
        """The round being read (a handler of a round's lines runs only in one: the phase says so)."""
        assert self.round is not None, "a round's line was read outside a round"
        return self.round

    def _skip(self, f: Finding) -> None:
        raise NotImplementedError  # the reader's

    # ---- header --------------------------------------------------------------------------
    def _header(self, no: int, col: int, key: str) -> bool:
        if self.phase != "header":
            self._skip(
                self.r("notation.placement", "a header line stands before the first `round`", line=no, column=col)
            )
            return False
        if key in self.header_at:
            self._skip(
                self.r(
                    "notation.repeated",
                    f"`{key.split(':')[-1]}` was written on line {self.header_at[key][0]} already",
                    line=no,
                    column=col,
                )
            )
            return False
        self.header_at[key] = (no, col)
        return True

    def version_line(self, no, col, toks):
        self._skip(self.r("notation.placement", "`uno-duo 1` is the first line only", line=no, column=col))

    def players_line(self, no, col, toks):
        if not self._header(no, col, "players"):
            return
        names = [str(t) for t in toks[1:]]
        problem = None
        if len(names) != 2:
            problem = f"UNO Duo is for exactly 2 players; this line names {len(names)}"
        for t in toks[1:]:
            if not NAME_RE.match(str(t)) or str(t) in KEYWORDS or str(t) in DOS_WORDS or str(t) == "show":
                problem = f"`{t}` cannot be a player name (a keyword, or not [A-Za-z][A-Za-z0-9_-]{{0,31}})"
        if len({n.lower() for n in names}) != len(names):
            problem = "the two players need different names (ignoring case)"
        if problem:
            self.findings.append(self.r("notation.players", problem, line=no, column=col))
            self.malformed = True
            self.phase = "dead"
            return
        self.players = names
        self.the_log.players = names

    def _value(self, no: int, tok: Token) -> str:
        if tok.type == "STRING":
            try:
                return json.loads(str(tok))
            except ValueError:
                raise _LineError(self.r("notation.line", "a bad string escape", line=no, column=tok.column)) from None
        return str(tok)

    def ruleset_line(self, no, col, toks):
        if self._header(no, col, "ruleset"):
            self.the_log.ruleset = self._value(no, toks[1])

    def option_line(self, no, col, toks):
        if self._header(no, col, f"option:{toks[1]}"):
            self.the_log.options[str(toks[1])] = self._value(no, toks[2])

    def target_line(self, no, col, toks):
        if int(toks[1]) < 1:
            raise _LineError(self.r("notation.line", "the target is at least 1", line=no, column=toks[1].column))
        if self._header(no, col, "target"):
            self.the_log.target = int(toks[1])

    def tag_line(self, no, col, toks):
        if self._header(no, col, f"tag:{toks[0]}"):
            self.the_log.tags[str(toks[0])] = self._value(no, toks[1])


class _Reader(_HeaderLines):
    """Folds the lines into a Log; holds where the reading stands (header, set-up, turns, end)."""

    def __init__(self) -> None:
        self.r = _reporter()
        self.findings: list[Finding] = []
        self.log: Log | None = None
        self.players: list[str] = []
        self.phase = "version"  # version, header, setup, turns, end, over
        self.round: Round | None = None
        self.turn: Turn | None = None
        self.malformed = False
        self.header_at: dict = {}

    # ---- one line ------------------------------------------------------------------------
    def line(self, no: int, raw: str) -> None:
        code = code_part(raw)
        if not code.strip():
            return
        first = code.split()[0]
        col = len(code) - len(code.lstrip()) + 1
        if self.phase == "version":
            return self._version(no, code, first, col)
        if first in DOS_WORDS or first == "show":
            what = (
                "a `show` line: UNO Duo hands are never shown"
                if first == "show"
                else (f"`{first}` is DOS notation, not UNO Duo (`uno-duo 1`)")
            )
            return self._skip(self.r("notation.line", what, line=no, column=col, found=first))
        tree = _parse_code(code)
        if isinstance(tree, UnexpectedInput):
            return self._skip(self._syntax(no, code, tree))
        sentence: Tree = tree.children[0]
        try:
            getattr(self, sentence.data)(no, col, [t for t in sentence.children if isinstance(t, Token)])
        except _LineError as err:
            self._skip(err.finding)

    def _skip(self, f: Finding) -> None:
        self.findings.append(f)
        if self.turn is not None and self.phase == "turns":
            self.turn._damaged = True
        elif self.round is not None and self.phase == "setup":
            self.round._setup_damaged = True

    def _syntax(self, no: int, code: str, exc: UnexpectedInput) -> Finding:
        column = getattr(exc, "column", None)
        column = column if isinstance(column, int) and column > 0 else len(code) + 1
        word = code[column - 1 :].split()[0] if code[column - 1 :].strip() else ""
        exp = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
        expected = ", ".join(e.lower() for e in exp[:8]) if exp else None
        problem = card_problem(word, named=True) if word.startswith("?") or CARD_WORD_RE.match(word) else None
        if word and problem:
            return self.r("notation.card", problem, line=no, column=column, found=word)
        msg = f"this line is not a sentence of `uno-duo 1` (at `{word}`)" if word else "this line ends too soon"
        return self.r("notation.line", msg, line=no, column=column, found=word or None, expected=expected)

    def _version(self, no: int, code: str, first: str, col: int) -> None:
        words = code.split()
        if words == ["uno-duo", "1"]:
            self.phase = "header"
            self.log = Log(players=[]).at(no, col)
            return
        if first == "dos":
            msg = "this is a DOS log (`dos 1`), not a UNO Duo log (`uno-duo 1`)"
        elif first == "uno-duo":
            msg = f"`{code.strip()}`: only `uno-duo 1` exists"
        else:
            msg = "a UNO Duo log starts with the line `uno-duo 1`"
        self.findings.append(self.r("notation.version", msg, line=no, column=col, expected="uno-duo 1"))
        self.malformed = True
        self.phase = "dead"

    # ---- words ---------------------------------------------------------------------------
    def _cards(self, no: int, toks: list[Token], *, named: bool) -> tuple[list[str], list[int]]:
        for t in toks:
            problem = card_problem(str(t), named=named)
            if problem:
                raise _LineError(self.r("notation.card", problem, line=no, column=t.column, found=str(t)))
        return [str(t) for t in toks], [t.column or 0 for t in toks]

    def _name(self, no: int, tok: Token) -> str:
        name = str(tok)
        if name in self.players:
            return name
        same = [p for p in self.players if p.lower() == name.lower()]
        if same:  # the same letters in another case: the line counts for that player
            self.findings.append(
                self.r(
                    "notation.player",
                    f"`{name}` is written `{same[0]}` in the players line",
                    line=no,
                    column=tok.column,
                    found=name,
                    expected=same[0],
                )
            )
            return same[0]
        raise _LineError(
            self.r(
                "notation.player",
                f"`{name}` is not a player (players: {', '.join(self.players)})",
                line=no,
                column=tok.column,
                found=name,
            )
        )

    # ---- rounds and set-up ---------------------------------------------------------------
    def _need_players(self, no: int, col: int) -> bool:
        if not self.players and not self.malformed:
            self.findings.append(self.r("notation.players", "the header has no `players` line", line=no, column=col))
            self.malformed = True
        return not self.malformed

    def round_line(self, no, col, toks):
        if self.phase == "over":
            return self._skip(self.r("notation.placement", "nothing follows `winner`", line=no, column=col))
        if not self._need_players(no, col):
            return
        self.round = Round(number=int(toks[1])).at(no, col)
        self.the_log.rounds.append(self.round)
        self.phase, self.turn = "setup", None

    def _setup(self, no: int, col: int, ev) -> None:
        if self.phase != "setup":
            return self._skip(
                self.r(
                    "notation.placement",
                    "a set-up line stands after `round` and before the first `turn`",
                    line=no,
                    column=col,
                )
            )
        assert self.round is not None  # the phase is "setup" only after a `round` line
        self.round.setup.append(ev.at(no, col, ev._cols))

    def drafter_line(self, no, col, toks):
        self._setup(no, col, Drafter(player=self._name(no, toks[1])))

    def deck_line(self, no, col, toks):
        cards, cols = self._cards(no, toks[1:], named=False)
        ev = Deck(cards=cards)
        ev._cols = {"cards": cols}
        self._setup(no, col, ev)

    def _draft(self, no, col, toks, first):
        p = self._name(no, toks[1])
        (a, b), cols = self._cards(no, [toks[3], toks[5]], named=False)
        keep, discard = (a, b) if first == "keep" else (b, a)
        ev = Draft(player=p, first=first, keep=keep, discard=discard)
        ev._cols = {
            "player": toks[1].column,
            "keep": cols[0 if first == "keep" else 1],
            "discard": cols[1 if first == "keep" else 0],
        }
        self._setup(no, col, ev)

    def draft_keep(self, no, col, toks):
        self._draft(no, col, toks, "keep")

    def draft_discard(self, no, col, toks):
        self._draft(no, col, toks, "discard")

    def hand_line(self, no, col, toks):
        p = self._name(no, toks[1])
        cards, cols = self._cards(no, toks[2:], named=False)
        ev = Hand(player=p, cards=cards)
        ev._cols = {"player": toks[1].column, "cards": cols}
        self._setup(no, col, ev)

    def start_line(self, no, col, toks):
        cards, cols = self._cards(no, toks[1:], named=True)
        ev = Start(card=cards[0])
        ev._cols = {"card": cols[0]}
        self._setup(no, col, ev)

    # ---- turns ---------------------------------------------------------------------------
    def turn_line(self, no, col, toks):
        if self.phase not in ("setup", "turns"):
            return self._skip(
                self.r("notation.placement", "a `turn` stands in a round, before its `score`", line=no, column=col)
            )
        p = self._name(no, toks[1])
        self.turn = Turn(player=p).at(no, col, {"player": toks[1].column})
        self.the_round.turns.append(self.turn)
        self.phase = "turns"

    def _event(self, no: int, col: int, ev) -> None:
        if self.phase != "turns":
            return self._skip(self.r("notation.placement", "a turn's line follows a `turn` line", line=no, column=col))
        assert self.turn is not None  # the phase is "turns" only after a `turn` line
        self.turn.events.append(ev.at(no, col, ev._cols))

    def play_line(self, no, col, toks):
        cards, cols = self._cards(no, toks[1:], named=True)
        ev = Play(cards=cards)
        ev._cols = {"cards": cols}
        self._event(no, col, ev)

    def draw_line(self, no, col, toks):
        rest = toks[1:]
        player = None
        ev_cols: dict[str, Any] = {}
        if rest and rest[0].type == "NAME":
            player, ev_cols["player"] = self._name(no, rest[0]), rest[0].column
            rest = rest[1:]
        cards, ev_cols["cards"] = self._cards(no, rest, named=False)
        ev = Draw(player=player, cards=cards)
        ev._cols = ev_cols
        self._event(no, col, ev)

    def challenge_line(self, no, col, toks):
        self._event(no, col, Challenge())

    def uno_line(self, no, col, toks):
        ev = Uno(player=self._name(no, toks[1]) if len(toks) > 1 else None)
        ev._cols = {"player": toks[1].column} if len(toks) > 1 else {}
        self._event(no, col, ev)

    def catch_line(self, no, col, toks):
        ev = Catch(player=self._name(no, toks[1]), by=self._name(no, toks[3]))
        ev._cols = {"player": toks[1].column, "by": toks[3].column}
        self._event(no, col, ev)

    def reshuffle_line(self, no, col, toks):
        cards, cols = self._cards(no, toks[1:], named=False)
        ev = Reshuffle(cards=cards)
        ev._cols = {"cards": cols}
        self._event(no, col, ev)

    def pass_line(self, no, col, toks):
        self._event(no, col, Pass())

    # ---- end of a round and of the game --------------------------------------------------
    def score_line(self, no, col, toks):
        if self.phase not in ("setup", "turns") or self.the_round.score is not None:
            return self._skip(self.r("notation.placement", "a `score` ends a round's turns, once", line=no, column=col))
        self.the_round.score = Score(player=self._name(no, toks[1]), points=int(toks[2])).at(
            no, col, {"player": toks[1].column, "points": toks[2].column}
        )
        self.phase = "end"

    def totals_line(self, no, col, toks):
        if self.phase not in ("setup", "turns", "end") or self.the_round.totals is not None:
            return self._skip(
                self.r("notation.placement", "a `totals` follows a round's `score`, once", line=no, column=col)
            )
        entries = [Total(player=self._name(no, toks[i]), points=int(toks[i + 1])) for i in range(1, len(toks), 2)]
        self.the_round.totals = Totals(entries=entries).at(no, col)
        self.phase = "end"

    def winner_line(self, no, col, toks):
        if self.phase in ("header", "over"):
            return self._skip(
                self.r("notation.placement", "`winner` is the last line, after the rounds", line=no, column=col)
            )
        self.the_log.winner = Winner(player=self._name(no, toks[1])).at(no, col, {"player": toks[1].column})
        self.phase = "over"


def parse(source: str | bytes) -> Parsed:
    """Read a text log whole. Never raises: every problem is a finding."""
    text, problem = decode(source)
    if problem is not None:
        return Parsed(None, [problem], True, None)
    assert text is not None  # decode gives the text or the problem
    reader = _Reader()
    lines = text.split("\n")
    for no, raw in enumerate(lines, 1):
        if reader.phase == "dead":
            break
        reader.line(no, raw.rstrip("\r"))
    n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if reader.phase == "version" and not reader.malformed:
        reader.findings.append(
            _reporter()(
                "notation.version", "the log is empty: no `uno-duo 1` line", line=1, column=1, expected="uno-duo 1"
            )
        )
        reader.malformed = True
    if reader.log is not None and not reader.players and not reader.malformed:
        reader._need_players(n_lines + 1, 1)
    log = reader.log
    if log is not None:
        log._header_at = reader.header_at
        log._end_line = n_lines + 1
    if reader.malformed:
        return Parsed(None, reader.findings, True, text)
    return Parsed(log, reader.findings, False, text)


# ---- the writer ------------------------------------------------------------------------------


def _value(v: str) -> str:
    return v if _PLAIN_VALUE.match(v) and v else json.dumps(v, ensure_ascii=False)


def write(log: Log) -> str:
    """The log as text notation: without loss, comments and layout aside."""
    out = ["uno-duo 1"]
    out += [f"{k} {_value(v)}" for k, v in log.tags.items()]
    out.append("players " + " ".join(log.players))
    if log.ruleset is not None:
        out.append(f"ruleset {_value(log.ruleset)}")
    out += [f"option {k} {_value(v)}" for k, v in log.options.items()]
    if log.target is not None:
        out.append(f"target {log.target}")
    for rnd in log.rounds:
        out += ["", f"round {rnd.number}"]
        out += [_setup_text(ev) for ev in rnd.setup]
        for turn in rnd.turns:
            out.append(f"turn {turn.player}")
            out += ["  " + _event_text(ev) for ev in turn.events]
        if rnd.score is not None:
            out.append(f"score {rnd.score.player} {rnd.score.points}")
        if rnd.totals is not None:
            out.append("totals " + " ".join(f"{e.player} {e.points}" for e in rnd.totals.entries))
    if log.winner is not None:
        out.append(f"winner {log.winner.player}")
    return "\n".join(out) + "\n"


def _words(*parts) -> str:
    return " ".join(str(p) for p in parts if p not in (None, ""))


def _setup_text(ev) -> str:
    if isinstance(ev, Drafter):
        return f"drafter {ev.player}"
    if isinstance(ev, Deck):
        return _words("deck", *ev.cards)
    if isinstance(ev, Draft):
        if ev.first == "keep":
            return f"draft {ev.player} keep {ev.keep} discard {ev.discard}"
        return f"draft {ev.player} discard {ev.discard} keep {ev.keep}"
    if isinstance(ev, Hand):
        return _words("hand", ev.player, *ev.cards)
    return f"start {ev.card}"


def _event_text(ev) -> str:
    if isinstance(ev, Play):
        return _words("play", *ev.cards)
    if isinstance(ev, Draw):
        return _words("draw", ev.player, *ev.cards)
    if isinstance(ev, Uno):
        return _words("uno", ev.player)
    if isinstance(ev, Catch):
        return f"catch {ev.player} by {ev.by}"
    if isinstance(ev, Reshuffle):
        return _words("reshuffle", *ev.cards)
    return ev.type  # challenge, pass
