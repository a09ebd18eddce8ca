"""`dosverify rules`: a game's rules, by section (or all of them as JSON)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import pack_of


def add_parser(sub: Any) -> None:
    r = sub.add_parser("rules", help="list the rules of the specification")
    r.add_argument("--format", choices=["text", "json"], default="text")
    r.add_argument("--game", help="the game whose rules (default dos)")
    r.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = pack_of(args)
    spec = pack.spec()
    if args.format == "json":
        print(
            json.dumps(
                {
                    "spec_version": spec.version,
                    "follow_ons": dict(spec.follow_ons),
                    "rules": [r.to_dict() for r in spec.rules.values()],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    print(
        f"{pack.title} rules specification {spec.version}: {len(spec.rules)} rules (`dosverify explain RULE` for one)"
    )
    section = None
    for r in spec.rules.values():
        if r.section != section:
            section = r.section
            print(f"\n[{section}]")
        print(f"  {r.id:<20} {r.kind:<16} {r.severity:<8} {r.title}")
    return 0
