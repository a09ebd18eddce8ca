"""Which games there are, by name, and which one a log names: plain data and a look at a log's
first line, below everything, so that finding files (inputs) and the core can ask it without
importing any game. The packs themselves are found through dosverify.games.find_game."""

from __future__ import annotations

import re

__all__ = ["DEFAULT", "REGISTRY", "sniff_game"]

#: The registered games: header word -> the module that sets PACK. One line per game.
REGISTRY: dict[str, str] = {
    "dos": "dosverify.games.dos",
    "uno-duo": "dosverify.games.uno_duo",
}

DEFAULT = "dos"


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


def sniff_game(source: str | bytes | dict | list) -> str | None:
    """The game a log names: the first word of its first line that is not blank or a comment
    (text), or the top-level key that is a registered game's name (JSON). None when it names
    none (the DOS reader then says what is wrong, as it always has)."""
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
