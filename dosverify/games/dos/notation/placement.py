"""Where each line of a log may stand: the fold that places the line items in the log's parts, apart
from the reading, since placement is the notation's grammar above the line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Protocol

from ....findings import Finding
from ..events import Log, Round, Turn
from ..findings import finding
from .facedown import _no_hidden_with_deck
from .items import _mk


class _Stream(Protocol):
    """What the fold reads and sets of the stream it folds for (textstream.TextStream)."""

    text: str | None
    findings: list[Finding]
    _hidden: list[Finding]
    malformed: bool
    log: Log | None


class _HeaderFold:
    """The part of :class:`_Fold` that reads the header (`dos`, `players`, `ruleset`, `target`,
    `option` and free tags, each once, before the first round) and the state the two share."""

    def __init__(self, stream: _Stream, first) -> None:
        self.stream = stream
        self.text = text = stream.text or ""
        self.findings = stream.findings
        self.first = first
        self.end_line = text.count("\n") + (0 if text.endswith("\n") or not text else 1) + 1
        self.header_at: dict = {"dos": (first[1], first[2])}
        self.players: list[str] | None = None
        self.ruleset: str | None = None
        self.target: int | None = None
        self.players_bad = False
        self.options: dict = {}
        self.tags: dict = {}
        self.rnd: Round | None = None
        self.state = "header"  # header | setup | turns | show | score | totals | end

    def place(self, line: int, col: int, msg: str, found: str | None = None) -> None:
        self.findings.append(
            finding(
                "notation.placement",
                msg,
                line=line,
                column=col,
                found=found,
                round=self.rnd.number if self.rnd is not None else None,
            )
        )

    def read_header(self) -> None:
        """The header is read (a first `round`, or the end): the log's header, or malformed."""
        stream = self.stream
        if self.players is None:
            stream.malformed = True
            return
        log = stream.log = Log(
            dos=1,
            players=self.players,
            ruleset=self.ruleset,
            options=self.options,
            target=self.target,
            tags=self.tags,
            rounds=[],
            winner=None,
        )
        log.at(self.first[1], self.first[2])
        log._header_at = self.header_at
        log._end_line = self.end_line

    def header_line(self, kind: str, line: int, col: int, payload) -> None:
        """`dos`, `players`, `ruleset`, `target`, `option` or a free tag: once each, before the first round."""
        word = kind if kind != "tag" else payload[0]
        if self.state != "header":
            if kind == "tag":
                msg = (
                    f"`{payload[0]}` is not a keyword of the notation; as a free tag it belongs in the "
                    "header, before the first `round`"
                )
            else:
                msg = f"a header line (`{word}`) after the first `round`: header lines come before it"
            self.place(line, col, msg, found=word)
            return
        key = f"{kind}:{payload[0]}" if kind in ("option", "tag") else kind
        if key in self.header_at:
            what = {"option": f"option `{payload[0]}`", "tag": f"tag `{payload[0]}`"}.get(kind, f"`{kind}` line")
            pl, _pc = self.header_at[key]
            self.findings.append(
                finding(
                    "notation.repeated",
                    f"a second {what} (the first is at line {pl})",
                    line=line,
                    column=col,
                    found=word,
                )
            )
            return
        self.header_at[key] = (line, col)
        if kind == "players":
            self.players_line(line, col, payload)
        elif kind == "ruleset":
            self.ruleset = payload[0]
        elif kind == "target":
            self.target = payload[0]
        elif kind == "option":
            self.options[payload[0]] = payload[1]
        elif kind == "tag":
            self.tags[payload[0]] = payload[1]
        # "dos" again is caught as repeated above

    def players_line(self, line: int, col: int, payload) -> None:
        names, cols = payload
        problem = None
        if not 2 <= len(names) <= 4:
            problem = f"a game has 2 to 4 players; this line names {len(names)}"
        else:
            seen: dict = {}
            for nm, _nc in zip(names, cols, strict=False):
                if nm.lower() in seen:
                    problem = f"`{nm}` and `{seen[nm.lower()]}` are the same name, ignoring case"
                    break
                seen[nm.lower()] = nm
        if problem:
            self.players_bad = True
            self.findings.append(
                finding("notation.players", problem, line=line, column=col, expected="2 to 4 distinct player names")
            )
        else:
            self.players = names


class _Fold(_HeaderFold):
    """Where each line of a log may stand (`notation.placement`, `notation.repeated`): a state
    machine over the line items after `dos 1`, in the part of the log being read (`state`:
    header, setup, turns, show, score, totals, end), with one method per kind of line saying
    what it does in each part. `round_line` and `finish` yield what the stream hands on."""

    def __init__(self, stream: _Stream, first) -> None:
        super().__init__(stream, first)
        self.cursor = [1, 0]  # a line number and where it starts: items come in line order, so finding a line is linear
        self.winner = None
        self.turn: Turn | None = None
        self.first_round_line: int | None = None
        self.header_read = False

    @property
    def round_now(self) -> Round:
        """The round being read: every part of the log but the header has one."""
        assert self.rnd is not None
        return self.rnd

    @property
    def turn_now(self) -> Turn:
        """The turn being read, in the `turns` part."""
        assert self.turn is not None
        return self.turn

    def line(self, kind: str, line: int, col: int, payload) -> None:
        """A line item other than a `round` (and a turn's event in a turn, which the loop appends)."""
        if kind == "note":  # a finding about a line that was read all the same
            self.findings.extend(payload)
        elif kind == "bad":
            self.bad_line(line, payload)
        elif self.state == "end":
            what = payload.type if kind in ("event", "setup") else payload[0] if kind == "tag" else kind
            self.place(line, col, "nothing may follow the `winner` line", found=what)
        else:
            _LINE_KINDS.get(kind, _HeaderFold.header_line)(self, kind, line, col, payload)

    def finish(self) -> Iterator[Round | None]:
        """The text has ended: the header if no round came, the last round; then what the header lacked,
        and the winner (set once every round was judged)."""
        if not self.header_read:
            self.read_header()
            yield None
        if self.rnd is not None:
            _no_hidden_with_deck(self.rnd, self.stream._hidden)
            yield self.rnd
        if self.players is None and not self.players_bad:
            self.findings.append(
                finding(
                    "notation.players",
                    "the header has no valid `players` line (2 to 4 names)",
                    line=self.first_round_line or self.end_line,
                    column=1,
                    expected="`players P Q ...`",
                )
            )
        if self.stream.log is not None:
            self.stream.log.winner = self.winner

    def line_text(self, n: int) -> str:
        text = self.text
        ln, at = self.cursor if n >= self.cursor[0] else (1, 0)
        while ln < n:
            j = text.find("\n", at)
            if j < 0:
                return ""
            ln, at = ln + 1, j + 1
        self.cursor[:] = [ln, at]
        j = text.find("\n", at)
        return text[at:] if j < 0 else text[at:j]

    def bad_line(self, line: int, payload: list) -> None:
        """A line that could not be read: its findings; a turn it stood in is damaged."""
        self.findings.extend(payload)
        if payload[0].rule == "notation.players":
            self.players_bad = True
        turn = self.turn
        if self.state == "turns" and turn is not None:
            turn._damaged = True  # the referee does not judge what the skipped line may have done
            if payload[0].rule == "notation.card":
                words = re.split(r"[ \t]#", self.line_text(line), maxsplit=1)[0].split()
                if words and words[0] in ("place", "refill"):
                    # R54: what the line did is plain but for which card: the referee takes it as made
                    turn._skips = (*turn._skips, (len(turn.events), words[0], len(words) - 1, ()))
                elif len(words) >= 4 and words[0] == "match" and words[2] == "with":
                    # R93: a match of the player's cards, some of them unknown: taken as made
                    cards = tuple(w for w in words[3:] if w != "+")
                    turn._skips = (*turn._skips, (len(turn.events), "match", len(cards), (words[1], *cards)))

    def event_line(self, kind: str, line: int, col: int, payload) -> None:
        """A turn's event outside a turn (in a turn it is appended before any method is asked)."""
        state = self.state
        if state == "show":
            self.place(
                line,
                col,
                f"a `{payload.type}` line after a `show` line of round {self.round_now.number}: a turn's lines come "
                "before the `show` lines",
                found=payload.type,
            )
        elif state == "turns":
            self.turn_now.events.append(payload)
        elif state == "header":
            self.place(
                line,
                col,
                f"a `{payload.type}` line before the first `round`: turn events come after a `turn` line",
                found=payload.type,
            )
        elif state == "setup":
            self.place(
                line,
                col,
                f"a `{payload.type}` line before the first `turn` of round {self.round_now.number}",
                found=payload.type,
            )
        else:
            self.place(
                line,
                col,
                f"a `{payload.type}` line after the `{state}` line of round {self.round_now.number}: "
                f"a round's turns come before its `score`",
                found=payload.type,
            )

    def show_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("turns", "show"):
            prior = next((sh for sh in self.round_now.shows if sh.player == payload.player), None)
            if prior is not None:
                self.findings.append(
                    finding(
                        "notation.repeated",
                        f"a second `show` line for {payload.player} in round "
                        f"{self.round_now.number} (the first is at line {prior._line})",
                        line=line,
                        column=col,
                        found="show",
                        round=self.round_now.number,
                    )
                )
                return
            self.round_now.shows.append(payload)
            self.state = "show"
        elif state == "header":
            self.place(line, col, "a `show` line before the first `round`", found="show")
        elif state == "setup":
            self.place(
                line,
                col,
                f"a `show` line before the first `turn` of round {self.round_now.number}: `show` stands between the "
                "turn that ended the round and its `score`",
                found="show",
            )
        else:
            self.place(
                line,
                col,
                f"a `show` line after the `{state}` line of round {self.round_now.number}: `show` stands between "
                "the turn that ended the round and its `score`",
                found="show",
            )

    def turn_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state == "show":
            self.place(
                line,
                col,
                f"a `turn` after a `show` line of round {self.round_now.number}: `show` lines come after the turn "
                "that ended the round",
                found="turn",
            )
        elif state in ("setup", "turns"):
            self.turn = payload
            self.round_now.turns.append(payload)
            self.state = "turns"
        elif state == "header":
            self.place(line, col, "a `turn` before the first `round`", found="turn")
        else:
            self.place(
                line,
                col,
                f"a `turn` after the `{state}` line of round {self.round_now.number}: "
                "the round has ended (start the next one with `round`)",
                found="turn",
            )

    def setup_line(self, kind: str, line: int, col: int, payload) -> None:
        kw = payload.type
        if self.state == "setup":
            self.round_now.setup.append(payload)
        elif self.state == "header":
            self.place(line, col, f"a `{kw}` line before the first `round`", found=kw)
        else:
            self.place(
                line,
                col,
                f"a `{kw}` line after the first `turn` of round {self.round_now.number}: "
                "set-up lines come before the round's first turn",
                found=kw,
            )

    def round_line(self, line: int, col: int, payload) -> Iterator[Round | None]:
        """A new round: the header once read (None), then the round before it, are handed on."""
        if self.state == "header":
            self.first_round_line = line
        num, ncol = payload
        done = self.rnd
        self.rnd = _mk(
            Round,
            {"number": num, "setup": [], "turns": [], "shows": [], "score": None, "totals": None},
            line,
            col,
            {"number": ncol},
        )
        self.turn = None
        self.state = "setup"
        if not self.header_read:
            self.header_read = True
            self.read_header()
            yield None
        if done is not None:
            _no_hidden_with_deck(done, self.stream._hidden)
            yield done

    def score_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("setup", "turns", "show"):
            self.round_now.score = payload
            self.state = "score"
        elif state == "header":
            self.place(line, col, "a `score` line before the first `round`", found="score")
        else:
            self.place(
                line,
                col,
                f"a second `score` line in round {self.round_now.number}"
                if state == "score"
                else f"a `score` line after the `totals` of round {self.round_now.number}",
                found="score",
            )

    def totals_line(self, kind: str, line: int, col: int, payload) -> None:
        state = self.state
        if state in ("setup", "turns", "show", "score"):
            self.round_now.totals = payload
            self.state = "totals"
        elif state == "header":
            self.place(line, col, "a `totals` line before the first `round`", found="totals")
        else:
            self.place(line, col, f"a second `totals` line in round {self.round_now.number}", found="totals")

    def winner_line(self, kind: str, line: int, col: int, payload) -> None:
        self.winner = payload
        self.state = "end"


#: What each kind of line item does (:class:`_Fold`); the header lines' kinds go to `header_line`.
_LINE_KINDS = {
    "event": _Fold.event_line,
    "show": _Fold.show_line,
    "turn": _Fold.turn_line,
    "setup": _Fold.setup_line,
    "score": _Fold.score_line,
    "totals": _Fold.totals_line,
    "winner": _Fold.winner_line,
}
