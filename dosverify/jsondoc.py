"""Game-free mechanics of a log in the JSON form: telling JSON from text, and where the top-level
values and the elements of `rounds` lie in the text, so that a round can be read (or a finding's
value shown) without decoding the whole document. Every game's JSON form has a `rounds` array."""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable

# typeshed leaves out json.decoder's undocumented WHITESPACE and scanstring (both present in every Python 3)
from json.decoder import WHITESPACE, scanstring  # type: ignore[attr-defined]
from typing import Any

__all__ = ["GiveWay", "index_document", "json_pointer", "pointer_from_loc", "sniff_json"]

_ws = WHITESPACE.match  # JSON's whitespace, as json.loads skips it


def json_pointer(parts: Iterable[str | int]) -> str:
    """An RFC 6901 pointer to the value at `parts`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_from_loc(data: Any, loc: tuple[Any, ...]) -> str:
    """The JSON pointer of a pydantic error ``loc``, following the data: every game's JSON form is
    read by a pydantic model, whose error locations this turns into the pointers findings carry.

    A loc may hold steps that are not in the data (the tag of a discriminated union,
    ``function-after[...]``): these are left out. A last step that is not in the data is a missing
    field and is kept."""
    parts: list[str | int] = []
    cur = data
    for i, step in enumerate(loc):
        if isinstance(cur, dict) and isinstance(step, str) and step in cur:
            parts.append(step)
            cur = cur[step]
        elif isinstance(cur, list) and isinstance(step, int) and 0 <= step < len(cur):
            parts.append(step)
            cur = cur[step]
        elif i == len(loc) - 1 and isinstance(cur, dict) and isinstance(step, str) and not step.startswith("function-"):
            parts.append(step)
        # else: a step of the validator, not of the data
    return json_pointer(parts)


def sniff_json(source: str | bytes | dict | list) -> bool:
    """A log is in the JSON form when its first non-blank character is `{` (or `[`: JSON, if not
    a log, which the JSON reader says; no line of any notation starts with either)."""
    if isinstance(source, (dict, list)):
        return True
    head = source[:256].lstrip() if isinstance(source, str) else source[:256].lstrip(b" \t\r\n\xef\xbb\xbf")
    return head[:1] in ("{", b"{", "[", b"[")


class GiveWay(Exception):
    """The document is not plainly a valid log: the whole reading must judge it."""


def index_document(
    text: str, starts: array | None = None, ends: array | None = None, floaty: set | None = None
) -> tuple[dict[str, tuple[int, int]], array, array, set[int]]:
    """Where each value of a JSON document's top-level object lies (key -> (start, end)), where
    each element of its `rounds` array lies (`starts`, `ends`, filled as they are found), and
    which of those elements hold a number written like 3.0 (`floaty`). Each element is decoded
    once by ``json``'s own scanner and dropped, so what ``json.loads`` refuses, this refuses,
    with its error (a JSONDecodeError at the same place, or its ValueError). Raises GiveWay for
    anything else but an object with distinct keys whose `rounds`, if any, is an array."""
    dec_floats: list[bool] = [False]

    def hook(s: str) -> float:
        dec_floats[0] = True
        return float(s)

    dec = json.JSONDecoder(parse_float=hook)
    spans: dict[str, tuple[int, int]] = {}
    starts = array("q") if starts is None else starts
    ends = array("q") if ends is None else ends
    floaty = set() if floaty is None else floaty
    i = _ws(text, 0).end()
    if text[i : i + 1] != "{":
        raise GiveWay
    i = _ws(text, i + 1).end()
    if text[i : i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i : i + 1] != '"':
                raise GiveWay
            key, i = scanstring(text, i + 1)
            i = _ws(text, i).end()
            if text[i : i + 1] != ":" or key in spans:
                raise GiveWay  # a repeated key: which one counts is the whole reading's to say
            i = start = _ws(text, i + 1).end()
            if key == "rounds":
                if text[i : i + 1] != "[":
                    raise GiveWay  # not an array: the schema's finding, from the whole reading
                i = _ws(text, i + 1).end()
                if text[i : i + 1] == "]":
                    i += 1
                else:
                    while True:
                        dec_floats[0] = False
                        _, end = dec.raw_decode(text, i)
                        if dec_floats[0]:
                            floaty.add(len(starts))
                        starts.append(i)
                        ends.append(end)
                        i = _ws(text, end).end()
                        c, i = text[i : i + 1], i + 1
                        if c == "]":
                            break
                        if c != ",":
                            raise GiveWay
                        i = _ws(text, i).end()
            else:
                _, i = dec.raw_decode(text, i)
            spans[key] = (start, i)
            i = _ws(text, i).end()
            c, i = text[i : i + 1], i + 1
            if c == "}":
                break
            if c != ",":
                raise GiveWay
            i = _ws(text, i).end()
    if _ws(text, i).end() != len(text):
        raise GiveWay  # extra data after the object
    return spans, starts, ends, floaty
