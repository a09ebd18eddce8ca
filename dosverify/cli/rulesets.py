"""`dosverify rulesets`: a game's rulesets with their options, and why each value (its source)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .common import pack_of


def add_parser(sub: Any) -> None:
    rs = sub.add_parser("rulesets", help="list the rulesets and their options")
    rs.add_argument("--format", choices=["text", "json"], default="text")
    rs.add_argument("--game", help="the game whose rulesets (default dos)")
    rs.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    spec = pack_of(args).spec()
    if args.format == "json":
        print(
            json.dumps(
                {"spec_version": spec.version, "rulesets": spec.rulesets, "options": spec.options},
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    for name, rs in spec.rulesets.items():
        resolved = spec.ruleset(name).options
        print(f"{name}: {rs.get('title', '')}")
        print(f"  target {rs.get('target', 200)}; " + ", ".join(f"{k}={v}" for k, v in resolved.items()))
        for key, src in rs.get("sources", {}).items():  # why each value: the seed's passage
            shown = f"target {rs.get('target', 200)}" if key == "target" else f"{key}={resolved.get(key)}"
            print(f"    {shown}: {src['ref']} {src['file']}: {src['part']}")
            if src.get("quote_en"):
                print(f"      English: {src['quote_en']}")
    print("\nOptions (`option KEY VALUE` in a log's header):")
    for key, opt in spec.options.items():
        print(
            f"  {key} ({opt.get('variant')}): {opt['text']} Values: {', '.join(opt['values'])}; default {opt['default']}."
        )
        for src in opt.get("sources", ()):
            print(f"    {src['value']}: {src['ref']} {src['file']}: {src['part']}")
            if src.get("quote_en"):
                print(f"      English: {src['quote_en']}")
    return 0
