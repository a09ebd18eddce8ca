"""The specification: ``GET /v1/games``, ``/v1/rules``, ``/v1/rules/{id}``, ``/v1/rulesets`` (each with
``?game=``, default dos) and the pages the problems' ``type`` names, ``/problems/{code}``."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ...games import default_game, game_names, usable_packs
from ...inputs import LOG_SUFFIXES
from ..dependencies import game_pack
from ..errors import PROBLEM_TYPES, ErrorBody, Problem, ServiceError, loc
from ..games import mark_games
from ..models import GamesResult, RuleInfo, RulesetsResult, RulesResult
from .web import page_script_url

GAME_Q = Query(
    None, description="the game whose specification is asked (default: dos)", json_schema_extra={"enum": game_names()}
)


def _sources(spec) -> dict:
    return {k: dict(v) for k, v in spec.sources.items()}


def _ruleset_info(name: str, data: dict) -> dict:
    return {
        **{k: v for k, v in data.items() if k not in ("name", "title", "target", "options")},
        "name": name,
        "title": data.get("title", name),
        "target": data.get("target", 200),
        "options": dict(data.get("options", {})),
    }


def _problem_page(code: str) -> str:
    title, text = PROBLEM_TYPES[code]
    return (
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p><p>Code: <code>{code}</code>. "
        f'The API is described at <a href="/docs">/docs</a>.</p></html>'
    )


def _asked(game: str | None):
    """The pack `?game=` names (DOS by default): the answer is about its specification."""
    pack = game_pack(game)
    mark_games(pack.name)
    return pack


router = APIRouter(tags=["specification"])
_RULE_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "No rule has this id"},
    422: {"model": ErrorBody, "description": "An invalid parameter"},
}


@router.get(
    "/v1/rules",
    response_model=RulesResult,
    summary="Every rule",
    operation_id="listRules",
    responses={422: _RULE_ERRORS[422]},
)
def rules(game: str | None = GAME_Q) -> dict:
    """Every rule of the specification, with its text, kind, severity and sources."""
    spec = _asked(game).spec()
    return {
        "spec_version": spec.version,
        "sources": _sources(spec),
        "kinds": dict(spec.kinds),
        "follow_ons": dict(spec.follow_ons),
        "rules": [r.to_dict() for r in spec.rules.values()],
    }


@router.get(
    "/v1/rules/{rule_id}", response_model=RuleInfo, summary="One rule", operation_id="getRule", responses=_RULE_ERRORS
)
def rule(rule_id: str, game: str | None = GAME_Q) -> dict:
    """One rule by id (as in a finding's `rule`, e.g. `notation.encoding`)."""
    spec = _asked(game).spec()
    if rule_id not in spec.rules:
        raise ServiceError(
            404,
            "not-found",
            f"no rule `{rule_id}`",
            [Problem(location=loc("path", name="rule_id"), message="see GET /v1/rules for the rule ids")],
        )
    return spec.rules[rule_id].to_dict()


@router.get("/v1/games", response_model=GamesResult, summary="The games", operation_id="listSupportedGames")
def games() -> dict:
    """The games this service referees, each with its header, spec version, rulesets and options:
    a log's first word (or its JSON game key) picks its game, and the ruleset and options a
    request sets are that game's."""
    out = []
    for name in game_names():
        pack = game_pack(name)
        spec = pack.spec()
        out.append(
            {
                "name": pack.name,
                "title": pack.title,
                "header": f"{pack.name} {max(pack.versions)}",
                "spec_version": spec.version,
                "rulesets": sorted(spec.rulesets),
                "options": list(spec.options),
                "capabilities": sorted(pack.capabilities),
                "example": f"/v1/games/{pack.name}/example" if pack.example_path() else None,
                "notation": f"/v1/games/{pack.name}/notation" if pack.notation_path() else None,
                "page_script": page_script_url(pack.name) if "page" in pack.capabilities else None,
            }
        )
    return {"default": default_game(), "games": out, "log_suffixes": list(LOG_SUFFIXES)}


_DOC_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
    404: {"model": ErrorBody, "description": "No such game, or its pack has no such document"},
}


def _game_doc(game: str, what: str, path) -> Response:
    """One of a game's documents, as its pack keeps it; 404 for a game that has none."""
    if path is None:
        raise ServiceError(
            404,
            "not-found",
            f"the game `{game}` has no {what}",
            [Problem(location=loc("path", name="game"), message="GET /v1/games says which games have one")],
        )
    mark_games(game)
    return Response(path.read_bytes(), media_type="text/plain; charset=utf-8")


def _listed(game: str):
    """The usable pack registered as `game` (404 otherwise: a path names a resource)."""
    pack = next((p for p in usable_packs() if p.name == game), None)
    if pack is None:
        raise ServiceError(
            404,
            "not-found",
            f"no game `{game}` (known: {', '.join(p.name for p in usable_packs())})",
            [Problem(location=loc("path", name="game"), message="GET /v1/games lists the games")],
        )
    return pack


@router.get(
    "/v1/games/{game}/example",
    response_class=Response,
    responses=_DOC_RESPONSES,
    summary="A game's example log",
    operation_id="getGameExample",
)
def game_example(game: str) -> Response:
    """A short legal log of the game, in its text notation, as its pack bundles it: what the web
    page's example buttons load."""
    return _game_doc(game, "example log", _listed(game).example_path())


@router.get(
    "/v1/games/{game}/notation",
    response_class=Response,
    responses=_DOC_RESPONSES,
    summary="A game's notation",
    operation_id="getGameNotation",
)
def game_notation(game: str) -> Response:
    """The game's log notation for people (Markdown, served as plain text), as its pack bundles it."""
    return _game_doc(game, "notation document", _listed(game).notation_path())


@router.get(
    "/v1/rulesets",
    response_model=RulesetsResult,
    summary="Rulesets and options",
    operation_id="listRulesets",
    responses={422: _RULE_ERRORS[422]},
)
def rulesets(game: str | None = GAME_Q) -> dict:
    """The named rulesets (each a set of option values and a target) and the options a log
    may set with `option KEY VALUE`, each value with its source."""
    spec = _asked(game).spec()
    return {
        "spec_version": spec.version,
        "sources": _sources(spec),
        "rulesets": [_ruleset_info(name, spec.rulesets[name]) for name in sorted(spec.rulesets)],
        "options": {k: dict(v) for k, v in spec.options.items()},
    }


@router.get("/problems/{code}", include_in_schema=False)
def problem_type(code: str) -> Response:
    """The page a problem's `type` names: what the kind of problem means."""
    if code not in PROBLEM_TYPES:
        raise ServiceError(
            404,
            "not-found",
            f"no problem type `{code}`",
            [Problem(location=loc("path", name="code"), message="see the error codes in /docs")],
        )
    return Response(_problem_page(code), media_type="text/html; charset=utf-8")
