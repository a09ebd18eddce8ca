"""Loads the rules specification in ``spec/``: rules, rulesets and options.

The specification is data; the code that enforces a rule names its id and
reads its kind and severity from here, so a finding always carries what the
spec says of it.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path


def spec_dir() -> Path:
    env = os.environ.get("DOSVERIFY_SPEC")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    for cand in (here.parent / "spec", here / "_data" / "spec"):
        if cand.is_dir():
            return cand
    raise FileNotFoundError("the rules specification (spec/) was not found")


def load_toml(name: str) -> dict:
    with open(spec_dir() / name, "rb") as fh:
        return tomllib.load(fh)


@dataclass(frozen=True)
class Source:
    ref: str
    file: str
    part: str


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

    def to_dict(self) -> dict:
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
        }


class SpecError(ValueError):
    """An unknown ruleset, option or option value."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    target: int
    options: dict = field(default_factory=dict)

    def opt(self, key: str) -> str:
        return self.options[key]


@dataclass(frozen=True)
class Spec:
    version: str
    rules: dict[str, Rule]
    rulesets: dict[str, dict]
    options: dict[str, dict]
    sources: dict[str, dict]
    kinds: dict[str, str]

    def rule(self, rule_id: str) -> Rule:
        return self.rules[rule_id]

    def ruleset(self, name: str = "official", options: dict | None = None, target: int | None = None) -> Ruleset:
        """Resolve a named ruleset plus `option` overrides; raise SpecError when unknown."""
        if name not in self.rulesets:
            known = ", ".join(sorted(self.rulesets))
            raise SpecError(f"unknown ruleset `{name}` (known: {known})")
        base = self.rulesets[name]
        opts = dict(base.get("options", {}))
        for key, val in (options or {}).items():
            if key not in self.options:
                known = ", ".join(sorted(self.options))
                raise SpecError(f"unknown option `{key}` (known: {known})")
            allowed = self.options[key]["values"]
            if val not in allowed:
                raise SpecError(f"option `{key}` cannot be `{val}` (allowed: {', '.join(allowed)})")
            opts[key] = val
        return Ruleset(name, base.get("title", name), target or base.get("target", 200), opts)


@lru_cache(maxsize=1)
def load_spec() -> Spec:
    root = spec_dir()
    meta = load_toml("spec.toml")
    rules: dict[str, Rule] = {}
    for path in sorted((root / "rules").glob("*.toml")):
        section = path.stem
        for raw in load_toml(f"rules/{path.name}").get("rule", []):
            srcs = tuple(Source(s.get("ref", ""), s.get("file", ""), s.get("part", "")) for s in raw.get("sources", []))
            rule = Rule(
                id=raw["id"], title=raw["title"], kind=raw["kind"], severity=raw["severity"],
                text=raw["text"].strip(), section=section, sources=srcs, why=raw.get("why", "").strip(),
                variant=raw.get("variant", ""), example=raw.get("example", "").strip("\n"), fix=raw.get("fix", "").strip(),
            )
            if rule.id in rules:
                raise ValueError(f"rule id {rule.id} defined twice")
            rules[rule.id] = rule
    rulesets = {}
    for path in sorted((root / "rulesets").glob("*.toml")):
        data = load_toml(f"rulesets/{path.name}")
        rulesets[data["name"]] = data
    options = load_toml("options.toml")["option"]
    return Spec(meta["version"], rules, rulesets, options, meta.get("sources", {}), meta.get("kinds", {}))
