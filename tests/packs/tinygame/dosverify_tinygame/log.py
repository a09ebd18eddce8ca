"""Tiny's log: the model, the text notation `tiny 1` (read with Lark a line at a time, written back)
and the JSON form. Every reader gives a dosverify Parsed; what is wrong is a `notation.line` finding."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, Literal

from dosverify.findings import Finding, make_finding
from dosverify.model import Parsed, json_type_name

from .spec import spec

CARDS = tuple(f"{s}{n}" for s in "RB" for n in range(1, 10))


@dataclass
class Turn:
    player: str
    action: Literal["play", "draw"]
    card: str


@dataclass
class Round:
    number: int
    deal: dict[str, list[str]]
    start: str
    turns: list[Turn] = field(default_factory=list)
    score: dict[str, int] = field(default_factory=dict)


@dataclass
class TinyLog:
    tiny: int
    players: list[str]
    ruleset: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    target: int | None = None
    rounds: list[Round] = field(default_factory=list)
    winner: str | None = None


def where(obj: Any, key: str | None = None) -> dict:
    """The place of a part of the log (text line, JSON pointer), as make_finding takes it."""
    at = getattr(obj, "_at", {})
    line, pointer = at.get(key, (None, None)) if key is not None else (None, None)
    if line is None and pointer is None:
        line, pointer = getattr(obj, "_line", None), getattr(obj, "_pointer", None)
    return {"line": line, "pointer": pointer}


def _place(obj: Any, line: int | None = None, pointer: str | None = None) -> Any:
    obj._line, obj._pointer = line, pointer
    obj._at = {}
    return obj


# ---- the text notation ----------------------------------------------------------------------

_local = threading.local()


def _lark():
    p = getattr(_local, "lark", None)
    if p is None:
        from lark import Lark

        grammar = files(__package__).joinpath("tiny.lark").read_text(encoding="utf-8")
        p = _local.lark = Lark(grammar, parser="lalr", lexer="contextual")
    return p


class _Reader:
    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.malformed = False
        self.log: TinyLog | None = None
        self.state = "version"  # version, players, header, deal, start, turns, score, end

    def bad(self, line: int, message: str, column: int = 1, found: str | None = None) -> None:
        self.findings.append(make_finding(spec(), "notation.line", message, line=line, column=column, found=found))
        self.malformed = True

    def player(self, name: str, line: int, column: int) -> bool:
        assert self.log is not None
        if name not in self.log.players:
            self.bad(line, f"`{name}` is not a player of this log ({' and '.join(self.log.players)})", column, name)
            return False
        return True

    def line(self, n: int, tree: Any, code: str) -> None:
        kind = tree.data
        toks = [str(t) for t in tree.children]
        log = self.log
        if self.state == "version":
            if kind != "version" or toks[0] != "1":
                self.bad(n, "a log starts with `tiny 1`", found=code.strip())
                self.state = "end"
                return
            self.state = "players"
            return
        if self.state == "players":
            if kind != "players" or toks[0] == toks[1]:
                self.bad(n, "the line after `tiny 1` is `players A B`: two distinct players", found=code.strip())
                self.state = "end"
                return
            self.log = _place(TinyLog(1, toks), n)
            self.state = "header"
            return
        assert log is not None
        rnd = log.rounds[-1] if log.rounds else None
        if kind in ("ruleset", "option", "target") and self.state == "header":
            if kind == "ruleset":
                log.ruleset = toks[0]
                log._at["ruleset"] = (n, None)  # type: ignore[attr-defined]
            elif kind == "option":
                log.options[toks[0]] = toks[1]
                log._at[f"option:{toks[0]}"] = (n, None)  # type: ignore[attr-defined]
            else:
                log.target = int(toks[0])
            return
        if kind == "round" and self.state in ("header", "turns", "score"):
            want = (rnd.number if rnd else 0) + 1
            if int(toks[0]) != want:
                self.bad(n, f"round {toks[0]} out of sequence: round {want} comes next", found=toks[0])
                return
            new = _place(Round(want, {}, ""), n)
            log.rounds.append(new)
            self.state = "deal"
            return
        if kind == "deal" and self.state == "deal" and rnd is not None:
            if self.player(toks[0], n, 1):
                if toks[0] in rnd.deal:
                    self.bad(n, f"{toks[0]} is dealt twice", found=toks[0])
                    return
                rnd.deal[toks[0]] = toks[1:]
                rnd._at[f"deal:{toks[0]}"] = (n, None)  # type: ignore[attr-defined]
                if len(rnd.deal) == 2:
                    self.state = "start"
            return
        if kind == "start_card" and self.state == "start" and rnd is not None:
            rnd.start = toks[0]
            rnd._at["start"] = (n, None)  # type: ignore[attr-defined]
            self.state = "turns"
            return
        if kind in ("play", "draw") and self.state == "turns" and rnd is not None:
            if self.player(toks[0], n, 1):
                rnd.turns.append(_place(Turn(toks[0], kind, toks[1]), n))
            return
        if kind == "score" and self.state in ("turns", "score") and rnd is not None:
            if self.player(toks[0], n, len("score ") + 1):
                if toks[0] in rnd.score:
                    self.bad(n, f"{toks[0]} is scored twice in round {rnd.number}", found=toks[0])
                    return
                rnd.score[toks[0]] = int(toks[1])
                rnd._at[f"score:{toks[0]}"] = (n, None)  # type: ignore[attr-defined]
            self.state = "score"
            return
        if kind == "winner" and self.state in ("header", "turns", "score"):
            if self.player(toks[0], n, len("winner ") + 1):
                log.winner = toks[0]
                log._at["winner"] = (n, None)  # type: ignore[attr-defined]
            self.state = "end"
            return
        self.bad(n, f"a `{kind.replace('_card', '')}` line cannot stand here", found=code.strip())


def parse_text(source: str | bytes) -> Parsed:
    """Read a text log (never raises)."""
    if isinstance(source, (bytes, bytearray)):
        try:
            text = bytes(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            f = make_finding(spec(), "notation.line", f"the log is not UTF-8 text (byte {exc.start})", line=1)
            return Parsed(None, [f], True, None)
    else:
        text = source
    text = text.removeprefix("\ufeff")
    from lark import UnexpectedInput

    r = _Reader()
    for n, raw in enumerate(text.splitlines(), 1):
        code = raw.split("#", 1)[0]
        if not code.strip():
            continue
        if r.state == "end" and r.malformed and r.log is None:
            break
        try:
            tree = _lark().parse(code).children[0]
        except UnexpectedInput as exc:
            col = getattr(exc, "column", 1) or 1
            r.bad(n, f"not a sentence of `tiny 1`: `{code.strip()}`", column=col if col > 0 else 1, found=code.strip())
            continue
        if r.state == "end" and r.log is not None:
            r.bad(n, "nothing follows the `winner` line", found=code.strip())
            continue
        if r.log is None and r.state not in ("version", "players"):
            break
        r.line(n, tree, code)
    if r.log is None and not r.malformed:
        r.bad(1, "a log starts with `tiny 1` and `players A B`")
    return Parsed(None if r.malformed else r.log, r.findings, r.malformed or r.log is None, text)


def write(log: TinyLog) -> str:
    """The log as text notation (canonical)."""
    out = ["tiny 1", f"players {' '.join(log.players)}"]
    if log.ruleset is not None:
        out.append(f"ruleset {log.ruleset}")
    out += [f"option {k} {v}" for k, v in log.options.items()]
    if log.target is not None:
        out.append(f"target {log.target}")
    for rnd in log.rounds:
        out.append(f"round {rnd.number}")
        out += [f"deal {p} {' '.join(cards)}".rstrip() for p, cards in rnd.deal.items()]
        out.append(f"start {rnd.start}")
        out += [f"{t.player} {t.action} {t.card}" for t in rnd.turns]
        out += [f"score {p} {n}" for p, n in rnd.score.items()]
    if log.winner is not None:
        out.append(f"winner {log.winner}")
    return "\n".join(out) + "\n"


# ---- the JSON form --------------------------------------------------------------------------

_CARD = r"^[RB][1-9]$"
_NAME = r"^[a-z][a-z0-9_-]*$"


def json_schema() -> dict:
    card = {"type": "string", "pattern": _CARD}
    name = {"type": "string", "pattern": _NAME}
    turn = {
        "type": "object",
        "additionalProperties": False,
        "required": ["player", "action", "card"],
        "properties": {"player": name, "action": {"enum": ["play", "draw"]}, "card": card},
    }
    rnd = {
        "type": "object",
        "additionalProperties": False,
        "required": ["number", "deal", "start"],
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "deal": {"type": "object", "additionalProperties": {"type": "array", "items": card}},
            "start": card,
            "turns": {"type": "array", "items": turn},
            "score": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A Tiny log (`tiny 1`, JSON form)",
        "type": "object",
        "additionalProperties": False,
        "required": ["tiny", "players"],
        "properties": {
            "tiny": {"const": 1},
            "players": {"type": "array", "items": name, "minItems": 2, "maxItems": 2},
            "ruleset": {"type": ["string", "null"]},
            "options": {"type": "object", "additionalProperties": {"type": "string"}},
            "target": {"type": ["integer", "null"], "minimum": 1},
            "rounds": {"type": "array", "items": rnd},
            "winner": {"anyOf": [name, {"type": "null"}]},
        },
    }


def dump_json(log: TinyLog) -> str:
    doc = {
        "tiny": 1,
        "players": list(log.players),
        "ruleset": log.ruleset,
        "options": dict(log.options),
        "target": log.target,
        "rounds": [
            {
                "number": r.number,
                "deal": {p: list(c) for p, c in r.deal.items()},
                "start": r.start,
                "turns": [{"player": t.player, "action": t.action, "card": t.card} for t in r.turns],
                "score": dict(r.score),
            }
            for r in log.rounds
        ],
        "winner": log.winner,
    }
    return json.dumps(doc, indent=2) + "\n"


class _Bad(Exception):
    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer


def _want(value: Any, kind: type | tuple, pointer: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _Bad(pointer, f"{what} must be {getattr(kind, '__name__', 'a value')}, not {json_type_name(value)}")
    return value


def _keys(obj: dict, allowed: set[str], required: set[str], pointer: str) -> None:
    for k in obj:
        if k not in allowed:
            raise _Bad(f"{pointer}/{k}", f"unknown key `{k}`")
    for k in required:
        if k not in obj:
            raise _Bad(pointer or "", f"missing key `{k}`")


def _card(value: Any, pointer: str) -> str:
    if value not in CARDS:
        raise _Bad(pointer, f"not a card: {json.dumps(value)[:40]} (R1..R9, B1..B9)")
    return value


def _name(value: Any, players: list[str] | None, pointer: str) -> str:
    _want(value, str, pointer, "a player")
    if players is not None and value not in players:
        raise _Bad(pointer, f"`{value}` is not a player of this log")
    return value


def parse_json(source: str | bytes | dict) -> Parsed:
    """Read a JSON log (never raises)."""
    try:
        doc = source if isinstance(source, dict) else json.loads(source)
        log = _read(doc)
    except ValueError as exc:
        f = make_finding(spec(), "notation.line", f"not JSON: {exc}", pointer="")
        return Parsed(None, [f], True, None)
    except _Bad as exc:
        f = make_finding(spec(), "notation.line", str(exc), pointer=exc.pointer)
        return Parsed(None, [f], True, None)
    except RecursionError:
        f = make_finding(spec(), "notation.line", "the log is nested too deeply to read", pointer="")
        return Parsed(None, [f], True, None)
    return Parsed(log, [], False, None)


def _read(doc: Any) -> TinyLog:
    _want(doc, dict, "", "a log")
    _keys(doc, {"tiny", "players", "ruleset", "options", "target", "rounds", "winner"}, {"tiny", "players"}, "")
    if doc["tiny"] != 1 or isinstance(doc["tiny"], bool):
        raise _Bad("/tiny", "`tiny` must be 1 (the notation's version)")
    players = _want(doc["players"], list, "/players", "`players`")
    if len(players) != 2 or len({_name(p, None, f"/players/{i}") for i, p in enumerate(players)}) != 2:
        raise _Bad("/players", "`players` names two distinct players")
    log = _place(TinyLog(1, list(players)), None, "")
    if doc.get("ruleset") is not None:
        log.ruleset = _want(doc["ruleset"], str, "/ruleset", "`ruleset`")
        log._at["ruleset"] = (None, "/ruleset")
    for k, v in _want(doc.get("options") or {}, dict, "/options", "`options`").items():
        log.options[k] = _want(v, str, f"/options/{k}", "an option's value")
        log._at[f"option:{k}"] = (None, f"/options/{k}")
    if doc.get("target") is not None:
        log.target = _want(doc["target"], int, "/target", "`target`")
    for i, r in enumerate(_want(doc.get("rounds") or [], list, "/rounds", "`rounds`")):
        ptr = f"/rounds/{i}"
        _want(r, dict, ptr, "a round")
        _keys(r, {"number", "deal", "start", "turns", "score"}, {"number", "deal", "start"}, ptr)
        if r["number"] != i + 1 or isinstance(r["number"], bool):
            raise _Bad(f"{ptr}/number", f"round {r['number']} out of sequence: round {i + 1} comes next")
        deal = _want(r["deal"], dict, f"{ptr}/deal", "`deal`")
        if sorted(deal) != sorted(players):
            raise _Bad(f"{ptr}/deal", "`deal` has a hand for each player, and for no one else")
        rnd = _place(Round(i + 1, {}, _card(r["start"], f"{ptr}/start")), None, ptr)
        rnd._at["start"] = (None, f"{ptr}/start")
        for p, cards in deal.items():
            _want(cards, list, f"{ptr}/deal/{p}", "a hand")
            rnd.deal[p] = [_card(c, f"{ptr}/deal/{p}/{j}") for j, c in enumerate(cards)]
            rnd._at[f"deal:{p}"] = (None, f"{ptr}/deal/{p}")
        for j, t in enumerate(_want(r.get("turns") or [], list, f"{ptr}/turns", "`turns`")):
            tp = f"{ptr}/turns/{j}"
            _want(t, dict, tp, "a turn")
            _keys(t, {"player", "action", "card"}, {"player", "action", "card"}, tp)
            if t["action"] not in ("play", "draw"):
                raise _Bad(f"{tp}/action", "`action` is `play` or `draw`")
            turn = Turn(_name(t["player"], players, f"{tp}/player"), t["action"], _card(t["card"], f"{tp}/card"))
            rnd.turns.append(_place(turn, None, tp))
        for p, n in _want(r.get("score") or {}, dict, f"{ptr}/score", "`score`").items():
            _name(p, players, f"{ptr}/score/{p}")
            rnd.score[p] = _want(n, int, f"{ptr}/score/{p}", "a score")
            rnd._at[f"score:{p}"] = (None, f"{ptr}/score/{p}")
        log.rounds.append(rnd)
    if doc.get("winner") is not None:
        log.winner = _name(doc["winner"], players, "/winner")
        log._at["winner"] = (None, "/winner")
    return log
