"""`dosverify event ...`: an event's audits in the store. Its subcommands, flags and handlers
belong to the store (:mod:`dosverify.store.cli`); this module plugs them in."""

from __future__ import annotations

from typing import Any


def add_parser(sub: Any) -> None:
    from ..store.cli import add_event_parser

    add_event_parser(sub)
