"""The OpenAPI document: FastAPI's, with each game's log schema (Log: one of Log-<game>) among the
components, the spec-version header on every response and errors as RFC 9457 problems."""

from __future__ import annotations

import copy
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from ..games import GamePack, usable_packs
from .errors import PROBLEM_MEDIA_TYPE
from .games import GAMES_HEADER
from .middleware import SPEC_HEADER

NAMED_LOG = {
    "type": "object",
    "title": "NamedLog",
    "additionalProperties": False,
    "required": ["log"],
    "description": "a batch item that names its log: the name comes back as the report's `file`",
    "properties": {
        "name": {"type": "string", "description": "the log's name in its report"},
        "log": {"anyOf": [{"type": "string", "description": "a text log"}, {"$ref": "#/components/schemas/Log"}]},
    },
}


def _require_tags(node: Any, comps: dict) -> None:
    """A discriminated union's tag must be present to be valid (pydantic requires it, and so
    does OpenAPI's `discriminator`), although the models give it a default."""
    if isinstance(node, dict):
        disc = node.get("discriminator")
        if isinstance(disc, dict) and "propertyName" in disc:
            for alt in node.get("oneOf", []) + node.get("anyOf", []):
                ref = alt.get("$ref", "").rsplit("/", 1)[-1]
                target = comps.get(ref)
                if target is not None and disc["propertyName"] not in target.setdefault("required", []):
                    target["required"].append(disc["propertyName"])
        for v in node.values():
            _require_tags(v, comps)
    elif isinstance(node, list):
        for v in node:
            _require_tags(v, comps)


def _pack_log_schema(pack: GamePack) -> dict:
    """A game's JSON form as a JSON Schema: its pydantic model's where it has one (`log_model`),
    else the schema it writes (`json_schema`)."""
    try:
        adapter = pack.log_model()
    except NotImplementedError:
        return copy.deepcopy(pack.json_schema())
    return adapter.json_schema(ref_template="#/$defs/{model}", mode="validation")


def _rename_refs(node: Any, names: dict[str, str]) -> Any:
    """`#/$defs/X` as `#/components/schemas/<names[X]>`, everywhere in `node`."""
    if isinstance(node, dict):
        out = {k: _rename_refs(v, names) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            out["$ref"] = "#/components/schemas/" + names[ref[len("#/$defs/") :]]
        return out
    if isinstance(node, list):
        return [_rename_refs(v, names) for v in node]
    return node


def _add_log_schema(comps: dict) -> None:
    """`Log`: one of each game's log (`Log-<game>`, told apart by the game's key, which each
    requires), with each game's own definitions (a name another game's definition already has
    gets the game's name after it)."""
    alts = []
    for pack in usable_packs():
        schema = _pack_log_schema(pack)
        defs = schema.pop("$defs", {})
        names = {k: k if comps.get(k, v) == v else f"{k}-{pack.name}" for k, v in defs.items()}
        for k, v in defs.items():
            comps.setdefault(names[k], _rename_refs(v, names))
        for key in ("$id", "$schema"):
            schema.pop(key, None)
        schema = _rename_refs(schema, names)
        schema.setdefault("description", f"a {pack.title} log in the JSON form (its game key: `{pack.name}`)")
        comps[f"Log-{pack.name}"] = schema
        alts.append({"$ref": f"#/components/schemas/Log-{pack.name}"})
    comps["Log"] = {"oneOf": alts, "description": "a log in the JSON form of its game (its game key says which)"}
    _require_tags(comps, comps)
    comps["NamedLog"] = NAMED_LOG


def _mark_responses(doc: dict) -> None:
    header = {
        GAMES_HEADER: {
            "description": "each game the answer is about with its rules specification's version, comma-separated "
            "(`uno-duo 1.1.0`; a batch: one per game present, `dos 1.3.0, uno-duo 1.1.0`); every registered game "
            "for an answer about none",
            "schema": {"type": "string", "pattern": r"^[a-z][a-z0-9_-]* [^ ,]+(, [a-z][a-z0-9_-]* [^ ,]+)*$"},
        },
        SPEC_HEADER: {
            "description": f"DOS's rules specification version, whatever the game: deprecated for `{GAMES_HEADER}`, "
            "it goes in dosverify 0.2.0",
            "deprecated": True,
            "schema": {"type": "string"},
        },
    }
    for path in doc.get("paths", {}).values():
        for op in path.values():
            for code, resp in op.get("responses", {}).items():
                resp.setdefault("headers", {}).update(header)
                content = resp.get("content", {})
                if code[:1] in "45" and "application/json" in content:  # errors are RFC 9457 problems
                    content[PROBLEM_MEDIA_TYPE] = content.pop("application/json")


def install_openapi(app: FastAPI) -> None:
    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        doc = get_openapi(
            title=app.title, version=app.version, summary=app.summary, description=app.description, routes=app.routes
        )
        _add_log_schema(doc.setdefault("components", {}).setdefault("schemas", {}))
        _mark_responses(doc)
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]
