"""The service's response models (the OpenAPI document's schemas); the error body is in
:mod:`dosverify.service.errors`, each game's log model comes from its pack."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..findings import Finding
from ..report import Report
from ..settings import SPECS, Settings


class ClientConnections(BaseModel):
    client: str = Field(description="the client: its address, an IPv6 one as its /64, or the one a trusted proxy names")
    open: int = Field(description="its connections open (from a trusted proxy: its requests in progress)")
    refused: int = Field(description="its connections refused at max_connections_per_client since the service started")


class Connections(BaseModel):
    open: int = Field(description="connections open, counted per client (from a trusted proxy: requests in progress)")
    clients: int = Field(description="clients with a connection open")
    refused: int = Field(description="connections refused at max_connections_per_client since the service started")
    by_client: list[ClientConnections] = Field(
        description="the 20 clients with the most refusals, then the most connections open: a flood is many "
        "refusals from one client, a venue behind one NAT address many connections open and few refusals"
    )


class _HealthBase(BaseModel):
    status: Literal["ok"] = "ok"
    version: str = Field(description="the dosverify package version")
    spec_version: str = Field(description="DOS's spec version (kept for compatibility: `games` has every game's)")
    games: dict[str, str] = Field(description="every game the service referees -> its spec version")
    connections: Connections | None = Field(
        None, description="the connections per client (under `dosverify serve`; null where another server runs the app)"
    )


# /healthz: the service's identity and every setting, its fields built from Settings (so the two
# cannot drift); max_batch_bytes is the limit in force (at most max_log_bytes x max_batch_items)
_HEALTH_FIELDS: dict[str, Any] = {
    f.name: (SPECS[f.name][1], Field(description=SPECS[f.name][4])) for f in dataclasses.fields(Settings)
}
Health = create_model("Health", __base__=_HealthBase, **_HEALTH_FIELDS)


class BatchResult(BaseModel):
    """One report per log, in the order the logs were sent."""

    model_config = ConfigDict(extra="forbid")
    spec_version: str = Field(
        description="the spec version of the first report's game (DOS's for an empty batch); "
        "`spec_versions` has each game's"
    )
    spec_versions: dict[str, str] = Field(
        description="each game with a report in the batch -> its spec version (empty for an empty batch)"
    )
    count: int
    legal: int
    illegal: int
    malformed: int
    auto: dict | None = Field(
        None,
        description="with `ruleset=auto`: the ruleset and options inferred from the "
        "batch, as each report's `auto` (left out otherwise)",
    )
    reports: list[Report]


class ConvertResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    to: Literal["json", "text"]
    log: dict[str, Any] | str = Field(
        description="the JSON form (an object) or the text notation (a string)",
        json_schema_extra={"anyOf": [{"$ref": "#/components/schemas/Log"}, {"type": "string"}]},
    )
    findings: list[Finding] = Field(default_factory=list, description="warnings met while reading the input")


class SourceRef(BaseModel):
    ref: str = Field(description="a key of `sources` (S0..S4, N1, D)")
    file: str
    part: str = Field(description="the part of the source that says it, its words «quoted» verbatim in its language")
    quote_en: str = Field(
        default="",
        description="the «quoted» words in English (a translation of the quote; a source in English is its own); "
        "empty when the part quotes nothing",
    )


class RuleInfo(BaseModel):
    id: str
    title: str
    kind: str
    severity: str
    section: str
    text: str
    why: str
    variant: str | None
    sources: list[SourceRef]
    example: str
    fix: str
    follow_on: list[str] = Field(
        default=[],
        description="when a finding of it follows from an earlier one and is not reported (the spec's follow_ons)",
    )
    puts_in_doubt: bool = Field(default=False, description="whether a finding of it puts the player's hand in doubt")


class SourceInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    file: str
    title: str


class RulesResult(BaseModel):
    spec_version: str
    sources: dict[str, SourceInfo]
    kinds: dict[str, str] = Field(description="the finding kinds and what each covers")
    follow_ons: dict[str, str] = Field(
        default={},
        description="what a rule's follow_on may name: the circumstances in which its findings are not reported",
    )
    rules: list[RuleInfo]


class RulesetInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    title: str
    target: int
    options: dict[str, str]


class OptionInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    variant: str | None = None
    text: str = ""
    values: dict[str, str]
    default: str | None = None


class GameInfo(BaseModel):
    name: str = Field(description="the header word (`dos` in `dos 1`) and the JSON form's game key; `?game=` takes it")
    title: str = Field(description="the game's name for people")
    header: str = Field(description="the first line of a log of the game, in its newest notation version")
    spec_version: str
    rulesets: list[str] = Field(description="its named rulesets (`GET /v1/rulesets?game=` describes them)")
    options: list[str] = Field(description="the options a log or `?option=KEY=VALUE` may set")
    capabilities: list[str] = Field(
        default_factory=list,
        description="what its pack offers beyond judging: `moves` (POST /v1/moves), `replay`, `profile`, ...",
    )
    example: str | None = Field(
        default=None,
        description="where its pack's example log is (`GET /v1/games/{game}/example`: a short legal game); null: none",
    )
    notation: str | None = Field(
        default=None, description="where its notation for people is (`GET /v1/games/{game}/notation`); null: none"
    )
    page_script: str | None = Field(
        default=None,
        description="the script of its pack that draws its table in the web page's replay (capability `page`); "
        "null: the page shows the generic replay",
    )


class GamesResult(BaseModel):
    default: str = Field(description="the game a request without `?game=` (or a log naming none) means")
    games: list[GameInfo]
    log_suffixes: list[str] = Field(
        default_factory=list,
        description="the file names taken as logs in a folder (`dosverify check DIR`), in any case",
    )


class GameOfResult(BaseModel):
    game: str = Field(description="the game whose rules judge the log (POST /v1/check picks the same)")
    named: bool = Field(description="whether the log names it (false: it names no registered game, the default's)")


class RulesetsResult(BaseModel):
    spec_version: str
    sources: dict[str, SourceInfo]
    rulesets: list[RulesetInfo]
    options: dict[str, OptionInfo]
