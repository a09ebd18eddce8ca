"""Where the grammar file is: the one place that knows it (a pack's data may move)."""

from __future__ import annotations

from pathlib import Path


def grammar_path() -> Path:
    """grammars/dos/dos.lark, a resource of DOS's package (dosverify.resources)."""
    from ....resources import game_data

    return game_data("dosverify.games.dos", "grammars", "dos") / "dos.lark"


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")
