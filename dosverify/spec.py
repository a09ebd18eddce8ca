"""Loads the rules specification in ``spec/``: rules, rulesets and options.

The specification is data; the code that enforces a rule names its id and
reads its kind and severity from here, so a finding always carries what the
spec says of it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

_QUOTE = re.compile("«([^»]*)»")


def spec_dir(game: str) -> Path:
    """A game's specification folder: the one its pack supplies (GamePack.spec_path, asked through
    the locator the games layer sets); a name no usable pack has is a SpecError."""
    if _LOCATOR is None:  # no pack imported yet: importing the game's pack sets the locator
        import importlib

        from .registry import REGISTRY

        if game in REGISTRY:
            importlib.import_module(REGISTRY[game].value.partition(":")[0])
    found = _LOCATOR(game) if _LOCATOR is not None else None
    if found is None:
        raise SpecError(f"no game named {game!r} is installed")
    return found


#: game name -> its pack's spec folder (None: not a registered pack's); set by dosverify.games, the
#: layer that knows the packs, so that a report's game (report.game) finds its spec from below it
_LOCATOR: Callable[[str], Path | None] | None = None


def set_locator(locate: Callable[[str], Path | None]) -> None:
    """How a game's name finds its spec folder (dosverify.games sets it to ask the game's pack)."""
    global _LOCATOR
    _LOCATOR = locate


def load_toml(name: str, game: str | Path) -> dict[str, Any]:
    import tomllib  # only when the JSON cache of the spec is cold

    root = game if isinstance(game, Path) else spec_dir(game)
    with open(root / name, "rb") as fh:
        return tomllib.load(fh)


@dataclass(frozen=True)
class Source:
    """Where a rule comes from: a source of spec.toml's [sources] (`ref`), its file, and the part
    that says it, its words «quoted» verbatim in the source's language; `quote_en` renders those
    quoted words in English (a translation of the quote, not of the rule: the quote stays the word)."""

    ref: str
    file: str
    part: str
    quote_en: str = ""

    @property
    def quotes(self) -> list[str]:
        """The words quoted from the source (each «...» of the part)."""
        return _QUOTE.findall(self.part)

    @property
    def english_differs(self) -> bool:
        """Whether the English rendering says other words than the quote (not a source in English)."""
        return bool(self.quote_en) and self.quote_en != "; ".join(self.quotes)


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    kind: str
    severity: str
    text: str
    section: str
    sources: tuple[Source, ...] = ()
    why: str = ""
    variant: str = ""
    example: str = ""
    fix: str = ""
    # what, once in doubt after an earlier finding, makes this rule's findings follow-ons, not reported:
    # "hand" (the player's hand), "pile" (the draw pile)
    follow_on: tuple[str, ...] = ()
    # whether a finding of it puts the player's hand in doubt (the "hand" follow-ons) until the round ends
    puts_in_doubt: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "severity": self.severity,
            "section": self.section,
            "text": self.text,
            "why": self.why,
            "variant": self.variant or None,
            "sources": [s.__dict__ for s in self.sources],
            "example": self.example,
            "fix": self.fix,
            "follow_on": list(self.follow_on),
            "puts_in_doubt": self.puts_in_doubt,
        }


class SpecError(ValueError):
    """An unknown ruleset, option or option value."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    target: int
    options: dict[str, str] = field(default_factory=dict)  # every option's value in force

    def opt(self, key: str) -> str:
        return self.options[key]


@dataclass(frozen=True)
class Spec:
    version: str
    rules: dict[str, Rule]
    # spec.toml's and the TOML files' own tables, as read: a ruleset's (name, title, target,
    # options, sources), an option's (variant, text, values, default, ...), a source's (lang, ...)
    rulesets: dict[str, dict[str, Any]]
    options: dict[str, dict[str, Any]]
    sources: dict[str, dict[str, Any]]
    kinds: dict[str, str]
    game: str  # the pack whose folder it was read from
    #: what a rule's `follow_on` may name, each with what it means (spec.toml's [follow_ons])
    follow_ons: dict[str, str] = field(default_factory=dict)

    def rule(self, rule_id: str) -> Rule:
        return self.rules[rule_id]

    def option_ref(self, key: str, value: str | None = None) -> str:
        """An option as a message cites it: its variant point, what it decides (its own `text` in
        options.toml), and the value in force: "V4, who deals the next round: next-dealer=left"."""
        opt = self.options[key]
        point = opt.get("variant")  # a variant point; a source's ref (S3) names where it comes from, not it
        said = f"{point}, {_clause(opt['text'])}" if point and point not in self.sources else _clause(opt["text"])
        return said + (f": {key}={value}" if value is not None else "")

    def variant_ref(self, code: str) -> str:
        """A variant point as a message cites it, with a few words on what it decides: the option
        that has it (options.toml), else the title of the first rule it governs ("V7, the order of
        the end of a turn"); the code alone when the spec names it nowhere."""
        for key, opt in self.options.items():
            if opt.get("variant") == code:
                return self.option_ref(key)
        for rule in self.rules.values():
            if rule.variant == code:
                return f"{code}, {_clause(rule.title)}"
        return code

    def ruleset(
        self, name: str = "official", options: dict[str, str] | None = None, target: int | None = None
    ) -> Ruleset:
        """Resolve a named ruleset plus `option` overrides; raise SpecError when unknown."""
        if name not in self.rulesets:
            known = ", ".join(sorted(self.rulesets))
            near = [r for r in self.rulesets if r.lower() == str(name).lower()]
            if not near:
                import difflib

                near = difflib.get_close_matches(str(name).lower(), list(self.rulesets), n=1)
            hint = f"; did you mean `{near[0]}`?" if near else ""
            raise SpecError(f"unknown ruleset `{name}`{hint} (known: {known}; `dosverify rulesets` describes them)")
        base = self.rulesets[name]
        # an option a ruleset does not name keeps its default (the engine options V12-V17 are `official` everywhere)
        opts: dict[str, str] = {k: v["default"] for k, v in self.options.items() if "default" in v}
        opts.update(base.get("options", {}))
        for key, val in (options or {}).items():
            if key not in self.options:
                known = ", ".join(sorted(self.options))
                raise SpecError(f"unknown option `{key}` (known: {known})")
            allowed = self.options[key]["values"]
            if val not in allowed:
                raise SpecError(f"option `{key}` cannot be `{val}` (allowed: {', '.join(allowed)})")
            opts[key] = val
        return Ruleset(name, base.get("title", name), target or base.get("target", 200), opts)


def _raw_spec(root: Path) -> dict[str, dict[str, Any]]:
    """Every TOML file of a game's spec folder, parsed; cached as JSON (much faster to read than
    TOML) in the user's cache directory, keyed by the files' paths, sizes and times (two packs'
    folders never share a key)."""
    import json
    import zlib  # a cheap, stable key (hashlib costs ~9 ms to import)

    files = sorted(p for p in root.rglob("*.toml"))
    key = f"{zlib.crc32(repr([(str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files]).encode()):08x}"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dosverify" / f"spec-{key}.json"
    try:
        cached: dict[str, dict[str, Any]] = json.loads(cache.read_text(encoding="utf-8"))
        return cached
    except (OSError, ValueError):
        pass
    raw = {p.relative_to(root).as_posix(): load_toml(p.relative_to(root).as_posix(), root) for p in files}
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(raw), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only home: no cache, same result
    return raw


def spec_file(name: str, game: str | Path) -> dict[str, Any]:
    """One parsed file of a game's spec (through the cache): `game` a game's name or its folder."""
    return _raw_spec_cached(_folder(game))[name]


def _folder(game: str | Path) -> Path:
    return game if isinstance(game, Path) else spec_dir(game)


@cache
def _raw_spec_cached(root: Path) -> dict[str, dict[str, Any]]:
    return _raw_spec(root)


def load_spec(game: str | Path, name: str | None = None) -> Spec:
    """A game's specification, a value: `game` a game's name (its pack's folder, found through the
    locator, else the bundled spec/<game>/) or a spec folder itself (`name`: the game it is of,
    default the folder's name). Keyed by the folder: two packs never share a spec."""
    return _load_spec(game, name)


# cached behind load_spec, not as it: functools.cache types the function it wraps as taking any
# hashable arguments, so mypy checked no call of load_spec (`spec=load_spec` where a callable of no
# arguments was wanted, DOS's profile command before bf2c7cb, passed it)
@cache
def _load_spec(game: str | Path, name: str | None) -> Spec:
    root = _folder(game)
    return _load_at(root, name if name is not None else (game if isinstance(game, str) else root.name))


@cache
def _load_at(root: Path, game: str) -> Spec:
    raw = _raw_spec_cached(root)
    meta = raw["spec.toml"]
    rules: dict[str, Rule] = {}
    for name in sorted(n for n in raw if n.startswith("rules/")):
        section = name[len("rules/") : -len(".toml")]
        for raw_rule in raw[name].get("rule", []):
            r = raw_rule
            srcs = tuple(_source(r["id"], s, meta.get("sources", {})) for s in r.get("sources", []))
            rule = Rule(
                id=r["id"],
                title=r["title"],
                kind=r["kind"],
                severity=r["severity"],
                text=r["text"].strip(),
                section=section,
                sources=srcs,
                why=r.get("why", "").strip(),
                variant=r.get("variant", ""),
                example=r.get("example", "").strip("\n"),
                fix=r.get("fix", "").strip(),
                follow_on=_follow_on(r, meta.get("follow_ons", {})),
                puts_in_doubt=_flag(r, "puts_in_doubt"),
            )
            if rule.id in rules:
                raise ValueError(f"rule id {rule.id} defined twice")
            rules[rule.id] = rule
    rulesets = {}
    for name in sorted(n for n in raw if n.startswith("rulesets/")):
        rulesets[raw[name]["name"]] = raw[name]
    options = raw["options.toml"]["option"]
    return Spec(
        meta["version"],
        rules,
        rulesets,
        options,
        meta.get("sources", {}),
        meta.get("kinds", {}),
        game,
        dict(meta.get("follow_ons", {})),
    )


def _clause(text: str) -> str:
    """A description as a clause inside a sentence: no final full stop, and a lower-case first word
    unless it is a name or an acronym ("Who deals." -> "who deals", "DOS ..." stays)."""
    text = text.strip().rstrip(".")
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first.isalpha() and first == first.capitalize() else text


def _source(rule_id: str, raw: dict[str, Any], declared: dict[str, dict[str, Any]]) -> Source:
    """One of a rule's sources. Its `quote_en` is the TOML's; a quote from a source in English
    (spec.toml's `lang = "en"`) is its own English. A `quote_en` with nothing quoted is a spec error."""
    src = Source(raw.get("ref", ""), raw.get("file", ""), raw.get("part", ""), raw.get("quote_en", ""))
    if not isinstance(src.quote_en, str) or (src.quote_en and not src.quotes):
        raise ValueError(f"rule {rule_id}: quote_en renders a «quote» of its part, and {src.part!r} quotes nothing")
    if not src.quote_en and src.quotes and declared.get(src.ref, {}).get("lang") == "en":
        return Source(src.ref, src.file, src.part, "; ".join(src.quotes))
    return src


def _follow_on(raw_rule: dict[str, Any], declared: dict[str, str]) -> tuple[str, ...]:
    """A rule's `follow_on` field, checked against the circumstances its game's spec.toml declares
    in [follow_ons]: a rule that names anything else is a spec error."""
    value = raw_rule.get("follow_on", [])
    if isinstance(value, str) or not all(v in declared for v in value):
        known = ", ".join(declared) or "nothing ([follow_ons] is empty)"
        raise ValueError(f"rule {raw_rule['id']}: follow_on must be a list of {known}, not {value!r}")
    return tuple(value)


def _flag(raw_rule: dict[str, Any], key: str) -> bool:
    value = raw_rule.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"rule {raw_rule['id']}: {key} must be true or false, not {value!r}")
    return value


def parse_option_args(items: list[str]) -> dict[str, str]:
    """`KEY=VALUE` strings (`--option`, repeatable) to a dict; ValueError (with the bad item) when one has no `=`."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key.strip() or not val.strip():
            raise ValueError(f"--option wants KEY=VALUE, not `{item}`")
        out[key.strip()] = val.strip()
    return out
