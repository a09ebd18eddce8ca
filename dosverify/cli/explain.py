"""`dosverify explain NAME`: one rule (its text, reasons, options, example, fixtures and
sources), the rules of a finding kind, or an option (by key or variant point)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from .common import pack_of

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from ..games import GamePack
    from ..spec import Rule, Spec


def add_parser(sub: Any) -> None:
    e = sub.add_parser(
        "explain",
        help="print one rule with its text, reasons and sources, the rules of a finding kind, "
        "or an option (by key or variant point, e.g. dcm-order or V13)",
    )
    e.add_argument("rule", metavar="RULE|KIND|OPTION")
    e.add_argument("--format", choices=["text", "json"], default="text")
    e.add_argument("--game", help="the game whose rule (default: dos, or the game that has the rule)")
    e.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    args.rule = _in_its_case(args)
    if getattr(args, "game", None) is not None:
        return _explain_in(pack_of(args).spec(), args)
    from ..games import find_game

    games = _games_naming(args.rule)
    if len(games) > 1 and args.format == "text":  # an id two games have: each game's text
        for i, name in enumerate(games):
            print(("\n" if i else "") + f"== {find_game(name).title} (`--game {name}`) ==\n")
            _explain_in(find_game(name).spec(), args)
        return 0
    return _explain_in(find_game(games[0]).spec() if games else pack_of(args).spec(), args)


def _explain_in(spec: Spec, args: argparse.Namespace) -> int:
    if args.rule in spec.kinds:  # a finding kind: the rules that report it
        return _explain_kind(spec, args.rule, args.format)
    key = _option_key(spec, args.rule)
    if key is not None:  # an option (by its key or its variant point): its values, rulesets and sources
        return _explain_option(spec, key, args.format)
    rule = spec.rules.get(args.rule)
    if rule is None:
        from ..hints import near_words

        names = [n for s in _usable_specs() for n in (*s.rules, *s.kinds, *s.options)]
        near = near_words(args.rule, names)
        hint = f"; did you mean {', '.join(near)}?" if near else "; `dosverify rules` lists them"
        print(f"dosverify: no rule, finding kind or option `{args.rule}`{hint}", file=sys.stderr)
        return 2
    if args.format == "json":
        print(json.dumps(rule.to_dict(), ensure_ascii=False, indent=2))
        return 0
    print("\n".join(_rule_page(spec, rule)))
    return 0


def _usable_specs() -> list[Spec]:
    from ..games import REGISTRY, find_game

    return [find_game(name).spec() for name in _ranked(REGISTRY, find_game)]


def _games_naming(word: str) -> list[str]:
    """The games whose specification has `word` as a rule id, finding kind or option (key or
    variant point), in the packs' order: `explain volley` needs no `--game`."""
    return [s.game for s in _usable_specs() if word in s.rules or word in s.kinds or _option_key(s, word) is not None]


def _in_its_case(args: argparse.Namespace) -> str:
    """A rule id, kind or option key typed in another case (`MATCH.DOUBLE`) is the one it names:
    ids are lower case, and nobody should be refused for the shift key."""
    from ..games import UnknownGame, find_game

    word = args.rule
    try:
        specs = [find_game(args.game).spec()] if getattr(args, "game", None) else _usable_specs()
    except UnknownGame:
        return word  # said by pack_of, as a misuse
    names = [n for s in specs for n in (*s.rules, *s.kinds, *s.options)]
    if word in names:
        return word
    return next((n for n in names if n.lower() == word.lower()), word)


def _ranked(names: Iterable[str], find: Callable[[str], GamePack]) -> list[str]:
    """The usable games in the packs' own order (default_rank, then name), as the default game is
    chosen: a rule id two games share is the higher-ranked game's, whatever else is installed."""
    from ..games import PackUnavailable

    ranked = []
    for name in names:
        try:
            ranked.append((find(name).default_rank, name))
        except PackUnavailable:
            continue
    return [name for _, name in sorted(ranked)]


def _explain_kind(spec: Spec, kind: str, fmt: str) -> int:
    """A finding kind: what it means and the rules that report it (and the option of that name)."""
    rules = [r for r in spec.rules.values() if r.kind == kind]
    if fmt == "json":
        also = {"option": {"option": kind, **spec.options[kind]}} if kind in spec.options else {}
        print(
            json.dumps(
                {"kind": kind, "text": spec.kinds[kind], "rules": [r.to_dict() for r in rules], **also},
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    print(f"{kind}: {spec.kinds[kind]}\n\nRules of this kind (`dosverify explain RULE` for one):")
    for r in rules:
        print(f"  {r.id:<20} {r.severity:<8} {r.title}")
    if kind in spec.options:  # `dos-call` names a kind and an option: print both
        print(f"\n`{kind}` is also an option:\n")
        _explain_option(spec, kind, "text")
    return 0


def _wrap(s: str, ind: str = "  ") -> str:
    return "\n".join(
        textwrap.fill(p, 88, initial_indent=ind, subsequent_indent=ind) for p in s.split("\n") if p.strip()
    )


def _english(quote_en: str) -> str:
    """A source's quote in English, as a line under the source."""
    return textwrap.fill(f"English: {quote_en}", 88, initial_indent="      ", subsequent_indent="        ")


def _rule_page(spec: Spec, rule: Rule) -> list[str]:
    """A rule as `explain` prints it, section by section."""
    out = [
        f"{rule.id}: {rule.title}",
        f"  kind: {rule.kind}   severity: {rule.severity}   section: {rule.section}"
        + (f"   variant point: {rule.variant}" if rule.variant else ""),
        "",
        "What it says:",
        _wrap(rule.text),
    ]
    if rule.why:
        out += ["", "Why:", _wrap(rule.why)]
    opts = [
        f"{k} ({v.get('variant')}): " + ", ".join(f"{val}" for val in v["values"]) + f" [default {v['default']}]"
        for k, v in spec.options.items()
        if rule.id in v.get("rules", ()) or (rule.variant and v.get("variant") == rule.variant)
    ]
    if opts:
        out += ["", "Options:"] + [f"  {o}" for o in opts]
    if rule.follow_on:  # spec/<game>/rules: the findings that only follow from an earlier one
        out += ["", "Follow-on (not reported while, after an earlier finding; one mistake, one finding):"]
        out += [_wrap(f"- {spec.follow_ons.get(w, w)}") for w in rule.follow_on]
    if rule.puts_in_doubt:
        out += [
            "",
            "A finding of it puts the player's hand in doubt until the round ends (its hand follow-ons are not reported).",
        ]
    if rule.example:
        out += ["", "Example (breaks the rule):"] + [f"    {line}" for line in rule.example.splitlines()]
    if rule.fix:
        out += ["", "What to do:", _wrap(rule.fix)]
    out += _fixtures_line(spec, rule)
    if rule.sources:
        out += ["", "Sources:"]
        for s in rule.sources:
            out.append(f"  {s.ref} {s.file}: {s.part}")
            if s.english_differs:  # the quote in English, under it
                out.append(_english(s.quote_en))
    out += ["", f"Specification {spec.version}."]
    return out


def _fixtures_line(spec: Spec, rule: Rule) -> list[str]:
    """The logs that keep and break this rule (<the pack's fixtures>/rules/<id>/), where the game's
    pack has its fixtures at hand (a built-in pack's in a source checkout), shown from the checkout
    when they are in it."""
    from ..games import UnknownGame, find_game
    from ..resources import checkout

    try:
        fx = find_game(spec.game).fixtures_path() / "rules" / rule.id
    except (UnknownGame, FileNotFoundError):
        return []
    if not fx.is_dir():
        return []
    logs = sorted(
        p.name for p in fx.iterdir() if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json")
    )
    return ["", f"Fixtures ({_shown(fx, checkout())}/): " + ", ".join(logs)]


def _shown(path: Path, root: Path | None) -> str:
    """A path as a person finds it: from the checkout's root when it is inside it, else whole."""
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def _option_key(spec: Spec, name: str) -> str | None:
    """The option `name` names: its key (`dcm-order`) or its variant point (`V13`, any case), where
    one option alone has it (the two of seed S3 are named by key)."""
    if name in spec.options:
        return name
    keys = [k for k, v in spec.options.items() if str(v.get("variant", "")).lower() == name.lower()]
    return keys[0] if len(keys) == 1 else None


def _explain_option(spec: Spec, key: str, fmt: str) -> int:
    """An option as `explain` prints a rule: what it decides, each value with the rulesets that
    take it and where it comes from, the rules it changes, and how to set it."""
    opt = spec.options[key]
    taken = {val: [n for n in spec.rulesets if spec.ruleset(n).options.get(key) == val] for val in opt["values"]}
    if fmt == "json":
        print(json.dumps({"option": key, **opt, "rulesets": taken}, ensure_ascii=False, indent=2))
        return 0
    kind = "engine option (a choice DOS programs make; no rulebook names it)" if opt.get("engine") else "ruleset option"
    out = [f"{key}: {opt['text']}", f"  variant point: {opt.get('variant', '-')}   {kind}", "", "Values:"]
    for val, says in opt["values"].items():
        mark = " (default)" if val == opt.get("default") else ""
        names = f"  [rulesets: {', '.join(taken[val])}]" if taken[val] else ""
        out.append(textwrap.fill(f"{val}{mark}: {says}{names}", 88, initial_indent="  ", subsequent_indent="      "))
    rules = opt.get("rules", ())
    if rules:
        out += ["", "Rules it changes (`dosverify explain RULE`): " + ", ".join(rules)]
    if opt.get("sources"):
        out += ["", "Sources:"]
        for s in opt["sources"]:
            out.append(f"  {s['value']}: {s['ref']} {s['file']}: {s['part']}")
            if s.get("quote_en"):
                out.append(_english(s["quote_en"]))
    out += [
        "",
        f"Set it: `option {key} VALUE` in a log, `dosverify check --option {key}=VALUE`, "
        f"or `?option={key}=VALUE` in the service.",
        "",
        f"Specification {spec.version}.",
    ]
    print("\n".join(out))
    return 0
