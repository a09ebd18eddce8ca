"""The JSON form of a UNO Duo log (contract, "JSON"): pydantic models, the reader, `dump_json`
and the schema (generated into spec/uno-duo/log.schema.json).

The models are the schema; a log that does not fit is malformed (`notation.schema` at the
pointer). A string that is not a card code, or a name that is no player's, is judged as in
text: a finding at its pointer, and that event is skipped, the rest refereed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...findings import Finding, Reporter
from ...jsondoc import pointer_from_loc
from ...model import Parsed
from . import events as ev
from .cards import card_problem

PLAYER = r"^[A-Za-z][A-Za-z0-9_-]{0,31}$"
Name = Annotated[str, Field(pattern=PLAYER, description="a player name, as in `players`")]
CardCode = Annotated[
    str,
    Field(
        description="a card code: R0..R9, RS, RR, R+2 (likewise G, B, Y), W, W+4; a wild "
        "played or turned up names its colour: W=G, W+4=B"
    ),
]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JPlay(_M):
    type: Literal["play"]
    cards: Annotated[list[CardCode], Field(min_length=1, description="in play order")]


class JDraw(_M):
    type: Literal["draw"]
    player: Name | None = Field(None, description="who draws; default: the player on turn")
    cards: list[CardCode] = Field(default_factory=list, description="[]: a bare draw, one card from the top")


class JChallenge(_M):
    type: Literal["challenge"]


class JUno(_M):
    type: Literal["uno"]
    player: Name | None = None


class JCatch(_M):
    type: Literal["catch"]
    player: Name
    by: Name


class JReshuffle(_M):
    type: Literal["reshuffle"]
    cards: list[CardCode] | None = Field(None, description="the new pile, top first; absent: a bare reshuffle")


class JPass(_M):
    type: Literal["pass"]


JEvent = Annotated[JPlay | JDraw | JChallenge | JUno | JCatch | JReshuffle | JPass, Field(discriminator="type")]


class JTurn(_M):
    player: Name
    events: list[JEvent] = Field(default_factory=list)


class JDrafter(_M):
    type: Literal["drafter"]
    player: Name


class JDeck(_M):
    type: Literal["deck"]
    cards: Annotated[list[CardCode], Field(min_length=1, description="part of the pile, top first")]


class JDraft(_M):
    type: Literal["draft"]
    player: Name
    first: Literal["keep", "discard"] = Field(description="the word written first: the card drawn first")
    keep: CardCode
    discard: CardCode


class JHand(_M):
    type: Literal["hand"]
    player: Name
    cards: list[CardCode]


class JStart(_M):
    type: Literal["start"]
    card: CardCode


JSetup = Annotated[JDrafter | JDeck | JDraft | JHand | JStart, Field(discriminator="type")]


class JScore(_M):
    player: Name
    points: Annotated[int, Field(ge=0)]


class JTotal(_M):
    player: Name
    points: Annotated[int, Field(ge=0)]


class JTotals(_M):
    entries: Annotated[list[JTotal], Field(min_length=1)]


class JRound(_M):
    # 0 reads, as `round 0` does in text: the referee's round.sequence judges it (the two forms say
    # the same; found by the `uno` fuzz target)
    number: Annotated[int, Field(ge=0)]
    setup: list[JSetup] = Field(default_factory=list)
    turns: list[JTurn] = Field(default_factory=list)
    score: JScore | None = None
    totals: JTotals | None = None


class JWinner(_M):
    player: Name


class JLog(_M):
    """A UNO Duo log, notation `uno-duo 1`, in the JSON form."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, title="UNO Duo log (uno-duo 1)")
    uno_duo: Literal[1] = Field(alias="uno-duo", description="the notation's version; the key that picks the game")
    players: Annotated[list[Name], Field(min_length=2, max_length=2)]
    ruleset: str | None = Field(None, description="a ruleset of spec/uno-duo/rulesets; default official")
    options: dict[str, str] = Field(default_factory=dict)
    target: Annotated[int, Field(ge=1)] | None = None
    tags: dict[str, str] = Field(default_factory=dict, description="free tags, kept as written and never judged")
    rounds: list[JRound] = Field(default_factory=list)
    winner: JWinner | None = None


def _reporter() -> Reporter:
    from .spec import reporter

    return reporter()


def load_json(data) -> Parsed:
    """Read a JSON log whole. Never raises: every problem is a finding."""
    r = _reporter()
    text = None
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as e:
            return Parsed(
                None, [r("notation.encoding", f"the JSON log is not UTF-8 (byte offset {e.start})", line=1)], True, None
            )
    if isinstance(data, str):
        text = data.lstrip("\ufeff")
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as e:
            return Parsed(None, [r("notation.schema", f"this is not JSON: {e}", pointer="")], True, text)
    else:
        obj = data
    if not isinstance(obj, dict):
        return Parsed(None, [r("notation.schema", "a JSON log is one object", pointer="")], True, text)
    if "dos" in obj:
        return Parsed(
            None, [r("notation.schema", 'a log is of one game: "dos" and "uno-duo" both', pointer="/dos")], True, text
        )
    if obj.get("uno-duo") != 1 and "uno-duo" in obj:
        return Parsed(None, [r("notation.version", 'only "uno-duo": 1 exists', pointer="/uno-duo")], True, text)
    try:
        model = JLog.model_validate(obj)
    except ValidationError as exc:
        out = []
        for err in exc.errors()[:20]:
            ptr = pointer_from_loc(obj, err["loc"])
            rule = "notation.players" if ptr.startswith("/players") else "notation.schema"
            out.append(r(rule, f"{err['msg']}", pointer=ptr))
        return Parsed(None, out, True, text)
    except RecursionError:
        return Parsed(None, [r("notation.schema", "the JSON is nested too deeply", pointer="")], True, text)
    if len({p.lower() for p in model.players}) != 2:
        return Parsed(
            None, [r("notation.players", "the two players need different names", pointer="/players")], True, text
        )
    findings: list[Finding] = []
    return Parsed(_Converter(model, findings, r).log(), findings, False, text)


class _Converter:
    """The validated models into the event model, with pointers; bad cards and names are findings."""

    def __init__(self, model: JLog, findings: list, r: Reporter) -> None:
        self.m, self.findings, self.r = model, findings, r
        self.players = list(model.players)

    def log(self) -> ev.Log:
        m = self.m
        log = ev.Log(
            players=self.players, ruleset=m.ruleset, options=dict(m.options), target=m.target, tags=dict(m.tags)
        )
        log._pointer, log._header_at, log._end_line = "", {}, None
        for ri, jr in enumerate(m.rounds):
            log.rounds.append(self.round(jr, f"/rounds/{ri}"))
        if m.winner is not None and self.name(m.winner.player, "/winner/player"):
            log.winner = ev.Winner(player=m.winner.player)
            log.winner._pointer = "/winner"
        return log

    def name(self, p: str | None, ptr: str) -> bool:
        if p is None or p in self.players:
            return True
        self.findings.append(self.r("notation.player", f"`{p}` is not a player", pointer=ptr, found=p))
        return False

    def cards(self, cards, ptr: str, named: bool) -> bool:
        for i, c in enumerate(cards or []):
            problem = card_problem(c, named=named)
            if problem:
                self.findings.append(self.r("notation.card", problem, pointer=f"{ptr}/{i}", found=c))
                return False
        return True

    def round(self, jr: JRound, rp: str) -> ev.Round:
        rnd = ev.Round(number=jr.number)
        rnd._pointer = rp
        for si, js in enumerate(jr.setup):
            e = self.setup(js, f"{rp}/setup/{si}")
            if e is None:
                rnd._setup_damaged = True
                continue
            e._pointer = f"{rp}/setup/{si}"
            rnd.setup.append(e)
        for ti, jt in enumerate(jr.turns):
            tp = f"{rp}/turns/{ti}"
            if not self.name(jt.player, f"{tp}/player"):
                continue
            turn = ev.Turn(player=jt.player)
            turn._pointer = tp
            for ei, je in enumerate(jt.events):
                e = self.event(je, f"{tp}/events/{ei}")
                if e is None:
                    turn._damaged = True
                    continue
                e._pointer = f"{tp}/events/{ei}"
                turn.events.append(e)
            rnd.turns.append(turn)
        if jr.score is not None and self.name(jr.score.player, f"{rp}/score/player"):
            rnd.score = ev.Score(player=jr.score.player, points=jr.score.points)
            rnd.score._pointer = f"{rp}/score"
        if jr.totals is not None:
            ok = all(self.name(e.player, f"{rp}/totals/entries/{i}/player") for i, e in enumerate(jr.totals.entries))
            if ok:
                rnd.totals = ev.Totals(entries=[ev.Total(player=e.player, points=e.points) for e in jr.totals.entries])
                rnd.totals._pointer = f"{rp}/totals"
        return rnd

    def setup(self, js, p: str):
        if not self.name(getattr(js, "player", None), f"{p}/player"):
            return None
        if isinstance(js, JDrafter):
            return ev.Drafter(player=js.player)
        if isinstance(js, JDeck):
            return ev.Deck(cards=list(js.cards)) if self.cards(js.cards, f"{p}/cards", False) else None
        if isinstance(js, JDraft):
            ok = self.cards([js.keep], f"{p}/keep", False) and self.cards([js.discard], f"{p}/discard", False)
            return ev.Draft(player=js.player, first=js.first, keep=js.keep, discard=js.discard) if ok else None
        if isinstance(js, JHand):
            return (
                ev.Hand(player=js.player, cards=list(js.cards)) if self.cards(js.cards, f"{p}/cards", False) else None
            )
        return ev.Start(card=js.card) if self.cards([js.card], f"{p}/card", True) else None

    def event(self, je, p: str):
        if isinstance(je, JCatch):
            ok = self.name(je.player, f"{p}/player") and self.name(je.by, f"{p}/by")
            return ev.Catch(player=je.player, by=je.by) if ok else None
        if not self.name(getattr(je, "player", None), f"{p}/player"):
            return None
        if isinstance(je, JPlay):
            return ev.Play(cards=list(je.cards)) if self.cards(je.cards, f"{p}/cards", True) else None
        if isinstance(je, JDraw):
            ok = self.cards(je.cards, f"{p}/cards", False)
            return ev.Draw(player=je.player, cards=list(je.cards)) if ok else None
        if isinstance(je, JReshuffle):
            return ev.Reshuffle(cards=list(je.cards or [])) if self.cards(je.cards, f"{p}/cards", False) else None
        if isinstance(je, JUno):
            return ev.Uno(player=je.player)
        return ev.Challenge() if isinstance(je, JChallenge) else ev.Pass()


# ---- writing -------------------------------------------------------------------------------


def to_dict(log: ev.Log) -> dict:
    """The log as the JSON form's object (optional fields left out when empty)."""
    d: dict = {"uno-duo": 1, "players": list(log.players)}
    if log.ruleset is not None:
        d["ruleset"] = log.ruleset
    if log.options:
        d["options"] = dict(log.options)
    if log.target is not None:
        d["target"] = log.target
    if log.tags:
        d["tags"] = dict(log.tags)
    d["rounds"] = [_round_dict(r) for r in log.rounds]
    if log.winner is not None:
        d["winner"] = {"player": log.winner.player}
    return d


def _event_dict(e) -> dict:
    d = {k: v for k, v in e.to_dict().items() if v is not None}
    if isinstance(e, ev.Reshuffle) and not e.cards:
        d.pop("cards", None)
    return d


def _round_dict(r: ev.Round) -> dict:
    d: dict = {
        "number": r.number,
        "setup": [_event_dict(e) for e in r.setup],
        "turns": [{"player": t.player, "events": [_event_dict(e) for e in t.events]} for t in r.turns],
    }
    if r.score is not None:
        d["score"] = {"player": r.score.player, "points": r.score.points}
    if r.totals is not None:
        d["totals"] = {"entries": [{"player": e.player, "points": e.points} for e in r.totals.entries]}
    return d


def dump_json(log: ev.Log) -> str:
    return json.dumps(to_dict(log), ensure_ascii=False, indent=2) + "\n"


@lru_cache(maxsize=1)
def json_schema() -> dict:
    schema = JLog.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def schema_path() -> Path:
    from .spec import data_path

    return data_path("spec") / "log.schema.json"


def write_schema() -> Path:
    """Regenerate spec/uno-duo/log.schema.json from the models."""
    path = schema_path()
    path.write_text(json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
