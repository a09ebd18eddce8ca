"""The table you can ask (issue 33, docs/moves.md): what may come next, why a line may not, and a
game to play on, for any pack with capability ``moves``.

The pack's position lists and plays fast; every judgement here is ``check``'s, on the lines judged
so far plus the tried one: the referee stays the only authority. The lines judged are the source's
own first N lines (as written: comments, other styles) followed by the lines the pack wrote for
each move played since, so a finding's line is the one the caller counts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple

from .model import CHANCE, IllegalMove, ListingError, MalformedLog, Move, NoMoves, NotAPosition, Prefix, Verdict

if TYPE_CHECKING:
    from ..findings import Finding
    from ..games import GamePack
    from ..report import Report
    from .protocol import PackPosition

BAD = ("error", "warning")  # legal means neither (a line that only warns is refused)
#: ``Move.kind`` of the chance move that is a round's whole set-up, listed as its ``round N`` line
#: (issue 33, "What is listed"): judged by the lines it writes (``Table.written``), never alone
DEAL = "deal"
SNAPSHOT = 16  # pop's history keeps a copy of the position every this many moves
#: how many listed moves `explain` tries after an unlisted line check finds nothing wrong in at its own
#: line, to find the finding it earns once a later line arrives (Table._probe); a bound on the cost
PROBES = 24


def moves_pack(pack: GamePack) -> GamePack:
    """`pack` when it has a move generator, else NoMoves naming its game."""
    if "moves" not in pack.capabilities:
        raise NoMoves(f"{pack.title} (`{pack.name}`) has no move generator: its pack does not declare `moves`")
    return pack


def refuse_auto(ruleset: str | None) -> None:
    if ruleset == "auto":
        from ..overrides import OverrideError

        raise OverrideError("`auto` is not a ruleset here: the move API judges under one ruleset; name it", "ruleset")


def _normal(line: str) -> str:
    return " ".join(line.split("#", 1)[0].split())


class Table:
    """A game at one position: ask it what is legal and why not, play on, take back."""

    def __init__(
        self,
        pack: GamePack,
        position: PackPosition,
        judged: list[str],
        *,
        ruleset: str | None,
        options: dict[str, str],
        after: int,
        prefix: Prefix,
        seed: int = 0,
    ) -> None:
        self.pack, self.ruleset, self.options, self.after, self.prefix = pack, ruleset, options, after, prefix
        self._pos = position
        self._judged = judged  # the lines judged up to the position the table was built at
        self._base = len(position.lines())  # the pack's lines then: those after it are appended
        self._history: list[_Step] = []  # one per move played: how to take it back (pop)
        self._listing: list[Move] | None = None
        self._explained: dict[str, Verdict] = {}  # this position's verdicts, by the line tried
        self.rounds = self.turns = 0  # where the prefix ends (check's count), for the answer's head
        self._rng = random.Random(seed)  # the chance moves play_chance picks: the table's own

    # ---- building --------------------------------------------------------------------------
    @classmethod
    def from_log(
        cls,
        source: str | bytes | dict,
        after: int | None = None,
        *,
        ruleset: str | None = None,
        options: dict[str, str] | None = None,
        form: str | None = None,
        name: str = "<input>",
        seed: int = 0,
    ) -> Table:
        """The position after the first `after` physical lines of a text log (a JSON log: its first
        `after` event objects); the whole log when None. NotAPosition names the valid range,
        MalformedLog carries the report of lines that cannot be read, NoMoves names a game without
        a move generator, OverrideError a ruleset or option its game does not have."""
        from ..api import check, game_of
        from ..jsondoc import sniff_json
        from ..overrides import for_game, refuse_unknown

        refuse_auto(ruleset)
        is_json = form == "json" or (form is None and (isinstance(source, dict) or sniff_json(source)))
        try:
            pack = game_of(source)
        except ValueError:  # a game no pack can read: check's report says why
            raise MalformedLog(check(source, name=name)) from None
        opts = for_game(options, pack.name)
        refuse_unknown(pack, ruleset, opts)
        if not is_json and (bad := _unreadable(source, name)) is not None:
            raise MalformedLog(bad)
        moves_pack(pack)
        report: Report | None = None
        try:
            if (read := _read_judged(pack, source, is_json, after, ruleset, opts, name)) is not None:
                position, end, report = read
            else:
                position, end = pack.moves().from_log(source, "json" if is_json else "text", after, ruleset, opts)
        except NotAPosition as exc:  # a position in range whose lines cannot be read: the referee says why
            lines = [] if is_json else _text_lines(source)
            at = len(lines) if after is None else after
            if not exc.valid or any(lo <= at <= hi for lo, hi in exc.valid):
                cut = source if is_json else _joined(lines[:at])
                report = check(cut, name=name, game=pack.name, form="json" if is_json else "text")
                if report.verdict == "malformed":
                    raise MalformedLog(report) from None
            raise
        except Exception as exc:  # the pack cannot replay it: the referee says why, else the position is none
            report = check(source, name=name, ruleset=ruleset, options=opts, form=form)
            if report.verdict == "malformed":
                raise MalformedLog(report) from None
            raise NotAPosition(
                f"the {pack.title} move generator cannot play on from these lines "
                f"({type(exc).__name__}: {exc}); `dosverify check` lists what is wrong with them"
            ) from None
        judged = list(position.lines()) if is_json else _text_lines(source)[:end]
        if report is None:
            report = check(_joined(judged), name=name, ruleset=ruleset, options=opts, game=pack.name, form="text")
        if report.verdict == "malformed":
            raise MalformedLog(report)
        findings = _less_owed(position, report.findings, len(judged))
        verdict = "illegal" if any(f.severity == "error" for f in findings) else "legal"
        table = cls(pack, position, judged, ruleset=ruleset, options=opts, after=end,
                    prefix=Prefix(verdict, findings), seed=seed)  # fmt: skip
        table.rounds, table.turns = report.rounds, report.turns
        return table

    @classmethod
    def new(
        cls,
        game: str,
        players: list[str],
        *,
        ruleset: str = "official",
        options: dict[str, str] | None = None,
        seed: int = 0,
    ) -> Table:
        """A fresh game of `game` for `players`: its decks (and the chance moves play_chance picks)
        fixed by `seed`, no global random state."""
        from ..games import find_game
        from ..overrides import for_game, refuse_unknown

        refuse_auto(ruleset)
        pack = moves_pack(find_game(game))
        opts = for_game(options, pack.name)
        refuse_unknown(pack, ruleset, opts)
        position = pack.moves().new(list(players), ruleset, opts, seed)
        judged = list(position.lines())
        return cls(pack, position, judged, ruleset=ruleset, options=opts, after=len(judged),
                   prefix=Prefix("legal"), seed=seed)  # fmt: skip

    # ---- asking ------------------------------------------------------------------------------
    def legal_moves(self, checked: bool = False) -> list[Move]:
        """Every line that may come next, canonical and sorted; `checked` confirms each with the
        referee (slow: for tests) and raises ListingError at the first it refuses."""
        if self._listing is None:
            self._listing = list(self._pos.legal_moves())
        listing = list(self._listing)
        if checked:
            for move in listing:
                verdict = self.explain(move.line)
                if not verdict.legal:
                    raise ListingError(move, verdict)
        return listing

    def explain(self, line: str) -> Verdict:
        """The referee's verdict on `line` tried here (docs/moves.md, "What try.findings are")."""
        line = line.replace("\r", " ").replace("\n", " ")
        known = self._explained.get(line)
        if known is None:
            known = self._explained[line] = self._explain(line)
        return known

    def _explain(self, line: str) -> Verdict:
        canonical = self._pos.canonical(line)
        try:
            moves: list[Move] | None = self.legal_moves()
        except ValueError:  # a view that cannot list (a table's view of face-down cards)
            moves = None
        listed = None if moves is None else {m.line for m in moves}
        deal = next((m for m in moves or [] if m.kind == DEAL and m.line == canonical == _normal(line)), None)
        written = self.written(deal) if deal is not None else [line]
        lines = [*self.judged_lines(), *written]
        at = len(lines) - len(written) + 1
        report = self._check(lines)
        findings = [f for f in report.findings if f.line is not None and at <= f.line < at + len(written)]
        bad = [f for f in findings if f.severity in BAD]
        legal = not bad and canonical is not None and (listed is None or canonical in listed)
        deferred = False
        if not legal and not bad and len(written) == 1:
            later = self._pos.deferred(line) or _probe(self, lines, at, moves or [])
            for f in later:
                if f.line is None and f.pointer is None:
                    f.line = at
            findings, deferred = findings + later, bool(later)
        return Verdict(line, canonical, legal, findings, deferred)

    def written(self, move: Move) -> list[str]:
        """The lines playing a listed `move` writes: its line, or for the chance move ``deal`` (a
        round's set-up, listed as its ``round N`` line) the whole set-up the position deals. A
        ``deal`` is judged by these lines, as the log it leaves will hold them."""
        probe = self._pos.copy()
        before = len(probe.lines())
        probe.legal_moves()  # a position may play a listed move by what its listing recorded
        probe.push(move)
        return probe.lines()[before:]

    def judged_lines(self) -> list[str]:
        """The lines the referee judges a tried line after: the source's first N as written, then
        the lines of the moves played since."""
        return self._judged + self._pos.lines()[self._base :]

    def _check(self, lines: list[str]) -> Report:
        from ..api import check

        return check(_joined(lines), ruleset=self.ruleset, options=self.options or None, game=self.pack.name,
                     form="text")  # fmt: skip

    # ---- playing -----------------------------------------------------------------------------
    def play(self, move: Move | str) -> Move:
        """Play a listed Move (no referee: the listing is held equal to it by tests), or a written
        line, judged first: IllegalMove carries the verdict when the referee refuses it. Returns
        the move played."""
        if isinstance(move, Move) and move in self.legal_moves():
            self._push(move)
            return move
        text = move.line if isinstance(move, Move) else move
        verdict = self.explain(text)
        if not verdict.legal:
            raise IllegalMove(verdict)
        listed = next(m for m in self.legal_moves() if m.line == verdict.canonical)
        if _normal(text) == verdict.canonical:
            self._push(listed)
            return listed
        # written otherwise (several cards on one line, another style): read as the log reads it
        lines = [*self.judged_lines(), text]
        position, _ = self.pack.moves().from_log(_joined(lines), "text", None, self.ruleset, self.options)
        self._history.append(_Step(None, self._pos, self._judged, self._base))
        self._pos, self._judged, self._base = position, lines, len(position.lines())
        self._listing, self._explained = None, {}
        return listed

    def play_chance(self) -> Move:
        """Play one of the listed chance moves, picked by their probabilities with the table's own
        seeded random source (the bot loop's chance node: docs/moves.md)."""
        chances = [m for m in self.legal_moves() if m.chance]
        if not chances:
            raise ValueError("no chance move is listed here")
        weights = [m.probability if m.probability is not None else 1.0 for m in chances]
        move = self._rng.choices(chances, weights)[0]
        self._push(move)
        return move

    def _push(self, move: Move) -> None:
        # a copy of the position only every SNAPSHOT moves: copying at each one costs a self-play
        # more than its listing does (and grows with the lines), and pop replays from the last copy
        kept = len(self._history) % SNAPSHOT == 0 or self._history[-1].move is None
        self._history.append(_Step(move, self._pos.copy() if kept else None, self._judged, self._base))
        self._pos.push(move)
        self._listing, self._explained = None, {}

    def pop(self) -> None:
        """Take the last move back (IndexError when none was played on this table)."""
        if not self._history:
            raise IndexError("no move was played on this table")
        step = self._history.pop()
        if step.before is not None:
            self._pos = step.before.copy()  # a copied table shares the history: its positions stay as kept
        else:  # replay the moves since the last copy kept, as they were played (chance from the copy's source)
            k = max(i for i, s in enumerate(self._history) if s.before is not None)
            pos = self._history[k].before.copy()  # type: ignore[union-attr]
            for s in self._history[k:]:
                pos.legal_moves()  # a position plays a listed move by what its listing recorded
                pos.push(s.move)  # type: ignore[arg-type]
            self._pos = pos
        self._judged, self._base = step.judged, step.base
        self._listing, self._explained = None, {}

    def copy(self) -> Table:
        new = Table.__new__(Table)
        new.__dict__.update(self.__dict__)
        new._pos, new._history, new._explained = self._pos.copy(), list(self._history), dict(self._explained)
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return self.pack.name == other.pack.name and self._pos.key() == other._pos.key()

    __hash__ = None  # type: ignore[assignment]  # a table changes as it is played

    # ---- the game so far -----------------------------------------------------------------
    def log(self) -> str:
        """The game so far as a log, in the pack's canonical lines (``check`` judges it)."""
        return _joined(self._pos.lines())

    def observation(self, seat: str) -> Any:
        return self._pos.observation(seat)

    @property
    def to_move(self) -> str:
        """The player on turn, or ``chance``, or ``table``."""
        return self._pos.to_move()

    @property
    def round_over(self) -> bool:
        return self._pos.round_over()

    @property
    def game_over(self) -> bool:
        return self._pos.game_over()

    @property
    def scores(self) -> dict[str, int]:
        return self._pos.scores()

    @property
    def game(self) -> str:
        return self.pack.name

    @property
    def position(self) -> PackPosition:
        return self._pos

    def __repr__(self) -> str:
        return f"<Table {self.pack.name} after {len(self.judged_lines())} lines, {self.to_move} to move>"


class _Step(NamedTuple):
    """One move played, as pop takes it back: the move (None: a line re-read, its old position kept
    whole), the position before it when a copy was kept, the judged lines and base then."""

    move: Move | None
    before: PackPosition | None
    judged: list[str]
    base: int


def _probe(table: Table, lines: list[str], at: int, moves: list[Move]) -> list[Finding]:
    """The finding an unlisted line earns once a later line arrives (READINGS such as DOS's R9: a
    step that came too early is reported when the step it jumped comes): the tried line followed
    by each move listed at the table (those the player may write first, then the table's and chance
    lines), judged by ``check``, until one shows an error or warning at the tried line."""
    ordered = sorted(moves, key=lambda m: (m.chance, m.actor == "table", m.kind == DEAL))
    for move in ordered[:PROBES]:
        if move.kind == DEAL:
            continue
        report = table._check([*lines, *table.written(move)])
        got = [f for f in report.findings if f.line == at and f.severity in BAD]
        if got:
            return got
    return []


def _read_judged(
    pack: GamePack,
    source: str | bytes | dict,
    is_json: bool,
    after: int | None,
    ruleset: str | None,
    opts: dict[str, str],
    name: str,
) -> tuple[PackPosition, int, Report] | None:
    """A text log's position and check's report on its first N lines from one reading, when the
    pack's move generator can seed its position from the referee's (the optional hook
    ``PackMoves.from_judged``); else None. The report is the one the table would make: the same
    lines, judged once."""
    hook = getattr(pack.moves(), "from_judged", None)
    if is_json or hook is None:
        return None
    from ..api import check

    lines = _text_lines(source)

    def judge(end: int) -> Report:
        return check(_joined(lines[:end]), name=name, ruleset=ruleset, options=opts, game=pack.name, form="text",
                     whole=True)  # fmt: skip

    return hook(source, after, ruleset, opts, judge)


def _text_lines(source: str | bytes | dict) -> list[str]:
    text = bytes(source).decode("utf-8") if isinstance(source, (bytes, bytearray)) else str(source)
    return text.removeprefix("\ufeff").splitlines()


def _joined(lines: list[str]) -> str:
    return "\n".join(lines) + "\n" if lines else ""


def _unreadable(source: str | bytes | dict, name: str) -> Report | None:
    """check's report of a text log that is not UTF-8 (else None)."""
    if isinstance(source, (bytes, bytearray)):
        try:
            bytes(source).decode("utf-8")
        except UnicodeDecodeError:
            from ..api import check

            return check(source, name=name)
    return None


def _less_owed(position: PackPosition, findings: list[Finding], last: int) -> list[Finding]:
    """The prefix's findings less the steps it still owes: a finding placed after its last line is
    what the cut left unwritten (a turn's draws, a refill, a score), owed, not missing; and whatever
    the pack's ``owed`` names besides."""
    drop = {id(f) for f in position.owed(findings)}
    return [f for f in findings if id(f) not in drop and not (f.line is not None and f.line > last)]


__all__ = ["CHANCE", "Table"]
