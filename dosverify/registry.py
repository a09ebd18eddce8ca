"""Which games there are, by name, and which one a log names: the packs registered in the packaging
entry-point group ``dosverify.games`` (the mechanism pytest and flake8 plugins use), read without
importing any pack, and a look at a log's first line. Below everything, so that finding files
(inputs) and the core can ask it; the packs themselves are loaded by dosverify.games.find_game.

An entry point's name is the game's header word (``dos`` in ``dos 1``, the JSON form's game key),
its value the pack object (``package.module:PACK``). The scan of the installed distributions is
kept in the user's cache, keyed by the import path's folders and their times (a pack installed or
removed changes its site folder), so that a cold ``check`` does not import importlib.metadata.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["GROUP", "REGISTRY", "PackConflict", "Registered", "log_game", "sniff_game"]

GROUP = "dosverify.games"


class PackConflict(RuntimeError):
    """Two installed distributions register a pack under one header word: which is meant cannot be
    told, so nothing starts until one is removed."""


@dataclass(frozen=True)
class Registered:
    """One entry point of the group: the game's name, where its pack is, who installed it."""

    name: str
    value: str  # "package.module:PACK"
    dist: str  # the distribution that registers it ("dosverify", "dosverify-tinygame")


def _scan() -> list[Registered]:
    from importlib.metadata import distributions

    out = []
    seen: set[tuple[str, str]] = set()
    for dist in distributions():
        name = dist.metadata["Name"] or "?"
        for ep in dist.entry_points:
            if ep.group == GROUP and (name, ep.name) not in seen:  # a dist found twice on the path
                seen.add((name, ep.name))
                out.append(Registered(ep.name.strip().lower(), ep.value, name))
    return out


def _cache_key() -> str:
    import zlib

    stamps = []
    for entry in sys.path:
        try:
            stamps.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamps.append((entry, 0))
    return f"{zlib.crc32(repr(stamps).encode()):08x}"


def _cached_scan() -> list[Registered]:
    cache = (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dosverify" / f"packs-{_cache_key()}.json"
    )
    try:
        return [Registered(*row) for row in json.loads(cache.read_text(encoding="utf-8"))]
    except (OSError, ValueError, TypeError):
        pass
    found = _scan()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps([[r.name, r.value, r.dist] for r in found]), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass
    return found


class _Registry(Mapping[str, Registered]):
    """The registered games, header word -> Registered, in a stable order (the header words sorted);
    read on first use. Two distributions claiming one word raise PackConflict on any use."""

    def __init__(self) -> None:
        self._data: dict[str, Registered] | None = None

    def _games(self) -> dict[str, Registered]:
        if self._data is None:
            claims: dict[str, list[Registered]] = {}
            for reg in _cached_scan():
                claims.setdefault(reg.name, []).append(reg)
            for name, regs in claims.items():
                if len({r.dist for r in regs}) > 1:
                    who = " and ".join(f"{r.dist} ({r.value})" for r in regs)
                    raise PackConflict(
                        f"two packs claim the game `{name}`: {who}; uninstall one of them (pip uninstall NAME)"
                    )
            self._data = {name: claims[name][0] for name in sorted(claims)}
        return self._data

    def reload(self) -> None:
        """Read the entry points again (after a pack was installed in this process)."""
        self._data = None

    def __getitem__(self, key: str) -> Registered:
        return self._games()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())

    def __contains__(self, key: object) -> bool:
        return key in self._games()


#: The registered games: header word -> where its pack is. Found, not listed.
REGISTRY = _Registry()


_WORD = re.compile(r"[ \t]*([A-Za-z][A-Za-z0-9_-]*)")


def _head_text(head: bytes) -> str:
    """The first bytes of a log as text: UTF-8, or UTF-16 where they plainly are (a BOM, or every
    other byte zero beside letters), so that a log saved as UTF-16 is still its game's, whose
    reader says how to save it."""
    for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if head.startswith(bom):
            return head[2:].decode(codec, "replace")
    if len(head) >= 4 and head[1] == head[3] == 0 and head[0] and head[2]:
        return head.decode("utf-16-le", "replace")
    if len(head) >= 4 and head[0] == head[2] == 0 and head[1] and head[3]:
        return head.decode("utf-16-be", "replace")
    return head.decode("utf-8", "replace")


def sniff_game(source: str | bytes | dict[str, Any] | list[Any]) -> str | None:
    """The game a log names: the first word of its first line that is not blank or a comment
    (text), or the top-level key that is a registered game's name (JSON). None when it names
    none (the default game's reader then says what is wrong, as it always has)."""
    if isinstance(source, dict):
        return next((k for k in source if k in REGISTRY), None)
    if isinstance(source, list):
        return None
    head = source[:4096]
    text = _head_text(head) if isinstance(head, (bytes, bytearray)) else head
    text = text.lstrip("\ufeff")
    if text.lstrip()[:1] in ("{", "["):
        for key in REGISTRY:  # a top-level "game-name": version pair, wherever it stands
            if re.search(r'"' + re.escape(key) + r'"\s*:', text):
                return key
        return None
    for line in text.splitlines():
        code = line.split("#", 1)[0]
        if not code.strip():
            continue
        m = _WORD.match(code)
        return m.group(1).lower() if m else None
    return None


def log_game(source: str | bytes | dict[str, Any] | list[Any]) -> str | None:
    """The registered game a log names (:func:`sniff_game`'s word, when a pack is registered
    under it): the one place a log's game is told, for the API, the service, the command line and
    the page (``POST /v1/game``). None when it names no registered game."""
    named = sniff_game(source)
    return named if named in REGISTRY else None
