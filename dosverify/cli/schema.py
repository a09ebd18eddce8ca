"""`dosverify schema`: the JSON Schema of a game's JSON form."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import pack_of


def add_parser(sub: Any) -> None:
    s = sub.add_parser("schema", help="print the JSON schema of the log's JSON form")
    s.add_argument("--game", help="the game whose JSON form (default dos)")
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(json.dumps(pack_of(args).json_schema(), indent=2))
    return 0
