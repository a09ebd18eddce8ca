"""A batch body (``POST /v1/check/batch``, ``/v1/profile``): its logs read from a JSON array or a
multipart upload, each named and encoded as /v1/check would take it (a body that is not an array
of logs is a 422 naming where), and the batch's answer assembled from the reports."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from ..games import default_game
from ..model import json_type_name
from .dependencies import Jobs, Limits
from .errors import Problem, ServiceError, loc, too_many_items
from .games import spec_version, spec_versions
from .middleware import read_body
from .multipart import read_multipart

_NAMED_KEYS = {"name", "log"}


def batch_item(item: Any, i: int) -> tuple[str, Any]:
    """(name, log) of a batch item: `{"name": ..., "log": ...}` names its log; any other item is
    the log itself, named `[i]`. (A JSON log always has `players`, so it is never read as a
    named item.)"""
    if isinstance(item, dict) and "log" in item and set(item) <= _NAMED_KEYS:
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            raise _bad_item(i, "/name", "name is not a string", f"expected a string, found {json_type_name(name)}")
        if name and not _is_unicode(name):
            raise _bad_item(i, "/name", "name is not valid Unicode", "a lone surrogate (\\ud800-\\udfff)")
        return (name if name else f"[{i}]"), item["log"]
    return f"[{i}]", item


def _bad_item(i: int, under: str, what: str, message: str) -> ServiceError:
    """422 for batch item i (at its JSON pointer, `under` it): "item 3 is not a log",
    "item 3's name is not a string"."""
    title = f"item {i}'s {what}" if under else f"item {i} {what}"
    return ServiceError(
        422, "invalid-batch", title, [Problem(location=loc("body", pointer=f"/{i}{under}", item=i), message=message)]
    )


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _not_json(exc: Exception) -> ServiceError:
    offset = getattr(exc, "pos", None) if isinstance(exc, json.JSONDecodeError) else getattr(exc, "start", None)
    where = loc("body", line=getattr(exc, "lineno", None), column=getattr(exc, "colno", None), offset=offset)
    return ServiceError(
        422, "invalid-batch", "the body is not a JSON array of logs", [Problem(location=where, message=str(exc))]
    )


def _not_array(found: str) -> ServiceError:
    return ServiceError(
        422,
        "invalid-batch",
        "the body is not a JSON array of logs",
        [Problem(location=loc("body", pointer=""), message=f"expected {found}")],
    )


def _unparsable(message: str) -> ServiceError:
    return ServiceError(
        422, "invalid-batch", "the body is not a JSON array of logs", [Problem(location=loc("body"), message=message)]
    )


def json_items(body: bytes, max_items: int, *, empty_ok: bool = True) -> list:
    """The items of a JSON array body (422 when it is not one, or cannot be read: nested past
    the parser's depth, a number past Python's 4,300 digits; 413 past the item limit). Runs in a
    pool worker: parsing megabytes would hold up the event loop."""
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _not_json(exc) from exc
    except RecursionError:
        raise _unparsable("the JSON is nested too deeply to read") from None
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string conversion"
        raise _unparsable(f"the JSON cannot be read: {exc}") from None
    if not isinstance(data, list):
        raise _not_array(f"{'a non-empty array' if not empty_ok else 'an array'}, found {json_type_name(data)}")
    if not data and not empty_ok:
        raise _not_array("a non-empty array, found an empty array")
    if len(data) > max_items:
        raise too_many_items(max_items, len(data))
    return data


def _encoded(item: Any, i: int, max_log: int) -> tuple[bytes, str]:
    """The bytes of a batch item's log (a lone surrogate kept as its bytes: the referee reports
    the encoding, as it does for /v1/check)."""
    try:
        if isinstance(item, str):
            raw, form = item.encode("utf-8", "surrogatepass"), "text"
        else:  # an object is a JSON log; anything else fails the log schema in its report
            raw, form = json.dumps(item, ensure_ascii=False).encode("utf-8", "surrogatepass"), "json"
    except RecursionError:
        raise _bad_item(i, "", "is nested too deeply to read", "the JSON is nested too deeply") from None
    if len(raw) > max_log:
        raise ServiceError(
            413,
            "content-too-large",
            f"item {i} is over the limit of {max_log} bytes per log",
            [Problem(location=loc("body", pointer=f"/{i}", item=i), message=f"a log may have at most {max_log} bytes")],
        )
    return raw, form


async def batch_logs(request: Request, jobs: Jobs, form: str, limits: Limits) -> list[tuple[bytes, str | None, str]]:
    """(bytes, form, name) of every log of a batch body, multipart or a JSON array."""
    if form == "multipart":
        parts = await read_multipart(request, limits.max_log, limits.max_items)
        return [(bytes(p.data), p.form(), p.filename or p.name or f"[{i}]") for i, p in enumerate(parts)]
    body = await read_body(request)
    return await jobs.call(read_batch_job, body, limits.max_items, limits.max_log, lane="batch")


def read_batch_job(body: bytes, max_items: int, max_log: int) -> list[tuple[bytes, str, str]]:
    """(bytes, form, name) of every log of a JSON array batch (in a pool worker)."""
    items = []
    for i, item in enumerate(json_items(body, max_items)):
        item_name, log = batch_item(item, i)
        raw, f = _encoded(log, i, max_log)
        items.append((raw, f, item_name))
    return items


def profile_pairs(data: list) -> list[tuple[str, Any]]:
    pairs = []
    for i, item in enumerate(data):
        item_name, log = batch_item(item, i)
        if not isinstance(log, (str, dict)):
            raise _bad_item(i, "", "is not a log", f"expected a string or an object, found {json_type_name(log)}")
        pairs.append((item_name, log))
    return pairs


def batch_payload(done: list, auto: dict | None, games: list[str] | None = None) -> bytes:
    """The batch's answer: its reports (`done`, each one's game in `games`), counted; its
    `spec_versions` each game's present, and its `spec_version` the first report's game's (DOS's
    for an empty batch: the one version a client reading only that field could mean)."""
    counts = {v: sum(1 for verdict, _, _ in done if verdict == v) for v in ("legal", "illegal", "malformed")}
    games = games or []
    head = json.dumps(
        {
            "spec_version": spec_version(games[0] if games else default_game()),
            "spec_versions": spec_versions(games),
            "count": len(done),
            **counts,
            **({"auto": auto} if auto else {}),
        },
        separators=(",", ":"),
    )
    return head[:-1].encode() + b',"reports":[' + b",".join(p for _, _, p in done) + b"]}"
