"""`dosverify profile`: which options (rulebook and engine, spec/options.toml) explain the logs of one program.

Sound and simple: judge every log under each value of one option at a time, the others at the
best values found so far, until nothing changes (a fixed point). Only the findings whose rule is
among that option's `rules` decide it; a value is consistent when it leaves none of them in any
log, and an option has no evidence when every value gives the very same findings. Where logs
stay illegal at the fixed point, two options changed at once are tried (some departures show
only together), and the sweep runs again from the better values.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from types import SimpleNamespace

from ...spec import load_spec
from .check import check

MAX_ROUNDS = 6  # fixed-point passes; each pass either changes a value or stops
PAIR_PROBE = 3  # illegal logs a two-option change must improve before all logs are judged


def _options(spec) -> dict[str, dict]:
    """The options with a choice (more than one value), default first."""
    return {k: v for k, v in spec.options.items() if len(v["values"]) > 1}


def profile(logs: list[tuple[str, str | bytes | dict]], fixed: dict[str, str] | None = None) -> dict:
    """The profile of (name, log) pairs: per option its consistent values, deciding lines and
    examples; the named ruleset they fit; the verdicts under the inferred options; the command
    to check with them. `fixed` options (`check --ruleset auto --option K=V`) are not inferred.
    Every log is judged under the options tried, over its own `ruleset` and `option` lines."""
    spec = load_spec()
    fixed = dict(fixed or {})
    spec.ruleset("official", fixed)  # raises SpecError naming an unknown option or value
    opts = {k: v for k, v in _options(spec).items() if k not in fixed}
    chosen = {k: v["default"] for k, v in opts.items()}
    cache: dict = {}

    def judge(i: int, options: dict):
        key = (i, tuple(sorted(options.items())))
        if key not in cache:  # only what the profile reads: a report keeps its whole replay
            name, src = logs[i]
            r = check(src, name=name, options=options)
            cache[key] = SimpleNamespace(file=r.file, verdict=r.verdict, findings=r.findings)
        return cache[key]

    result = _sweep(logs, opts, chosen, fixed, judge)
    for _ in range(MAX_ROUNDS):  # coordinate steps can stall where two options must change at once
        if not _pairs(len(logs), opts, chosen, fixed, judge):
            break
        result = _sweep(logs, opts, chosen, fixed, judge)

    name, fits = _ruleset(spec, result, fixed)
    base = spec.ruleset(name).options
    for key, r in result.items():  # the ruleset's own value wherever the logs allow it
        if base[key] in r["values"]:
            r["inferred"] = chosen[key] = base[key]
    chosen = {**chosen, **fixed}
    reports = [judge(i, chosen) for i in range(len(logs))]
    verdicts = [
        {
            "file": r.file,
            "verdict": r.verdict,
            "findings": [_where((r.file, f)) for f in r.findings if f.severity == "error"],
        }
        for r in reports
    ]
    shown = {k for k, r in result.items() if r["evidence"]} | set(fixed)
    flags = ([f"--ruleset {name}"] if name != "official" else []) + [
        f"--option {k}={v}" for k, v in chosen.items() if k in shown or v != base[k]
    ]
    return {
        "spec_version": spec.version,
        "logs": len(logs),
        "options": result,
        "fixed": fixed,
        "ruleset": name,
        "rulesets_consistent": fits,
        "inferred": chosen,
        "legal": all(r.verdict == "legal" for r in reports),
        "verdicts": verdicts,
        "flags": flags,
        "judgements": len(cache),  # checks run (a log under one set of options): the work done
        "command": command({"flags": flags}),
    }


def _sweep(logs, opts: dict, chosen: dict, fixed: dict, judge) -> dict:
    """One option at a time, the others at `chosen` (updated in place), until nothing changes:
    per option its consistent values, whether the logs show it, deciding lines and examples."""
    result: dict[str, dict] = {}
    for _ in range(MAX_ROUNDS):
        changed = False
        for key, opt in opts.items():
            rules = set(opt.get("rules", ()))
            per_value = {}
            for value in opt["values"]:
                trial = {**chosen, **fixed, key: value}
                found = [(logs[i][0], f) for i in range(len(logs)) for f in judge(i, trial).findings]
                per_value[value] = {
                    "own": [p for p in found if p[1].rule in rules],
                    "found": found,
                    "keys": {(n, f.rule, f.line) for n, f in found},
                }
            evidence = len({frozenset(p["keys"]) for p in per_value.values()}) > 1
            if evidence:  # clean under the option's own rules, then the fewest findings of all
                clean = [v for v, p in per_value.items() if not p["own"]] or list(opt["values"])
                least = min(len(per_value[v]["found"]) for v in clean)
                consistent = [v for v in clean if len(per_value[v]["found"]) == least]
                best = chosen[key] if chosen[key] in consistent else consistent[0]
            else:
                consistent, best = list(opt["values"]), opt["default"]
            base = per_value[best]["keys"]
            deciding, examples = set(), {}
            for value, p in per_value.items():
                if value in consistent:
                    continue
                extra = [(n, f) for n, f in p["found"] if (n, f.rule, f.line) not in base]
                extra.sort(key=lambda nf: nf[1].rule not in rules)  # the option's own rules first
                deciding |= {(n, f.line) for n, f in extra}
                if extra:
                    examples[value] = _where(extra[0])
            result[key] = {
                "variant": opt.get("variant"),
                "default": opt["default"],
                "evidence": evidence,
                "values": consistent,
                "inferred": best,
                "clean": not per_value[best]["own"],
                "deciding_lines": len(deciding),
                "examples": examples,
            }
            if best != chosen[key]:
                chosen[key], changed = best, True
        if not changed:
            break
    return result


def _errors(judge, idx, options: dict) -> int:
    return sum(1 for i in idx for f in judge(i, options).findings if f.severity == "error")


def _pairs(n: int, opts: dict, chosen: dict, fixed: dict, judge) -> bool:
    """When logs stay illegal, try two options changed at once (a departure can show only under
    another's right value: an at-once penalty in a round that ends at once). The first change
    that lowers the errors of the first illegal logs and of all logs is kept (`chosen` updated);
    True if one was."""
    now = {**chosen, **fixed}
    bad = [i for i in range(n) if judge(i, now).verdict != "legal"][:PAIR_PROBE]
    if not bad:
        return False
    keys = list(opts)
    base_bad, base_all = _errors(judge, bad, now), None
    for a_i, a in enumerate(keys):
        for b in keys[a_i + 1 :]:
            for va in opts[a]["values"]:
                for vb in opts[b]["values"]:
                    if va == chosen[a] or vb == chosen[b]:
                        continue  # one option alone: the sweep has tried it
                    trial = {**now, a: va, b: vb}
                    if _errors(judge, bad, trial) >= base_bad:
                        continue
                    base_all = _errors(judge, range(n), now) if base_all is None else base_all
                    if _errors(judge, range(n), trial) < base_all:
                        chosen[a], chosen[b] = va, vb
                        return True
    return False


def _ruleset(spec, result: dict, fixed: dict) -> tuple[str, list[str]]:
    """The named ruleset the logs fit: every rulebook option (not an engine's) that the logs
    decide, or the command line fixes, takes a value they allow. `official` when it fits or when
    several do (then its departures are named as options); else the one that fits. Engine
    options (V12-V17) are `official` in every ruleset, so they never choose one."""
    shown = {k: r["values"] for k, r in result.items() if r["evidence"]} | {k: [v] for k, v in fixed.items()}
    shown = {k: v for k, v in shown.items() if not spec.options[k].get("engine")}
    names = ["official"] + sorted(n for n in spec.rulesets if n != "official")
    fits = [n for n in names if all(spec.ruleset(n).options.get(k) in vals for k, vals in shown.items())]
    return ("official" if "official" in fits or len(fits) != 1 else fits[0]), fits


def auto_choice(prof: dict) -> dict:
    """What `check --ruleset auto` judges under, for each report's `auto` field: the ruleset,
    every option in force, the options the logs decided and those fixed by the command line, and
    the summary's naming ("official with dcm-draws=at-once")."""
    spec = load_spec()
    base = spec.ruleset(prof["ruleset"]).options
    departs = {k: v for k, v in prof["inferred"].items() if base.get(k) != v}
    named = prof["ruleset"] + (" with " + ", ".join(f"{k}={v}" for k, v in departs.items()) if departs else "")
    return {
        "ruleset": prof["ruleset"],
        "options": spec.ruleset(prof["ruleset"], prof["inferred"]).options,
        "named": named,
        "decided": sorted(k for k, r in prof["options"].items() if r["evidence"]),
        "fixed": dict(prof["fixed"]),
        "logs": prof["logs"],
    }


def _where(pair) -> dict:
    name, f = pair
    return {"file": name, "line": f.line, "rule": f.rule, "message": f.message}


def command(prof: dict, target: str = "DIR") -> str:
    """The exact `dosverify check` command that judges the logs under the inferred options."""
    return " ".join(["dosverify check", *prof["flags"], target])


def render_text(prof: dict, target: str = "DIR") -> str:
    out = [f"{prof['logs']} logs profiled"]
    fits = [n for n in prof["rulesets_consistent"] if n != prof["ruleset"]]
    out.append(
        f"ruleset: {prof['ruleset']}"
        + (f" (also consistent: {', '.join(fits)})" if fits else "")
        + ("" if prof["rulesets_consistent"] else " (no named ruleset fits; its departures are options)")
    )
    for key, value in prof["fixed"].items():
        out.append(f"{key}: {value} (fixed by --option, not inferred)")
    for key, r in prof["options"].items():
        head = f"{key} ({r['variant']}): "
        if not r["evidence"]:
            out.append(head + f"no evidence (every value gives the same findings; {r['inferred']} assumed)")
            continue
        vals = ", ".join(r["values"]) + ("" if r["clean"] else " (best; none leaves the logs clean)")
        out.append(head + f"{vals}; decided by {r['deciding_lines']} line(s)")
        for value, ex in r["examples"].items():
            out.append(f"    not {value}: {ex['file']}:{ex['line']}: {ex['rule']}: {ex['message']}")
    bad = [v for v in prof["verdicts"] if v["verdict"] != "legal"]
    if not bad:
        out.append(f"verdict: all {prof['logs']} logs legal under the inferred options")
    else:
        out.append(f"verdict: {len(bad)} of {prof['logs']} logs stay illegal under the best options:")
        for v in bad:
            out.append(f"  {v['file']}: {v['verdict']}")
            for f in v["findings"][:5]:
                out.append(f"    line {f['line']}: {f['rule']}: {f['message']}")
    out.append("check with: " + command(prof, target))
    return "\n".join(out) + "\n"


def read_paths(paths: list[str]) -> list[tuple[str, bytes]]:
    """The logs under the paths given (files, or folders searched for log names), sorted."""
    from ...inputs import is_log_name

    out = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, files in sorted(os.walk(path)):
                out.extend(os.path.join(root, f) for f in sorted(files) if is_log_name(f))
        else:
            out.append(path)
    logs = []
    for p in out:
        with open(p, "rb") as fh:
            logs.append((p, fh.read()))
    return logs


def main_profile(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="dosverify profile",
        description="infer the options (rulebook and engine) that explain many logs of one program",
    )
    ap.add_argument("paths", nargs="+", metavar="LOG|DIR")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="fix this option (not inferred); repeatable"
    )
    args = ap.parse_args(argv)
    from ...spec import SpecError, parse_option_args

    try:
        fixed = parse_option_args(args.option)
        load_spec().ruleset("official", fixed)
    except (ValueError, SpecError) as exc:
        print(f"dosverify profile: {exc}", file=sys.stderr)
        return 2
    try:
        logs = read_paths(args.paths)
    except OSError as exc:
        print(f"dosverify profile: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    if not logs:
        print("dosverify profile: no logs found", file=sys.stderr)
        return 2
    prof = profile(logs, fixed)
    target = " ".join(args.paths)
    if args.format == "json":
        print(json.dumps({**prof, "command": command(prof, target)}, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_text(prof, target))
    return 0 if prof["legal"] else 1
