"""`dosverify profile`: which options (rulebook and engine, spec/dos/options.toml) explain the logs of one program.

The best options are those under which the fewest findings remain (errors first, then every finding),
searched over combinations (digest, after V17). Options that interact share a `together` group in
options.toml (under dcm-draws=at-once the round-end=at-once departure looks different): a group is
decided as one, over every combination of its values, never one option while another of its group is
undecided; an option alone is a group of one. Groups are searched in turn, the others at their best
values so far, until nothing changes. Two prunings keep it fast, neither of which can miss the best:
a group none of whose options has evidence (every value alone gives the very same findings) keeps its
defaults unsearched, and a combination is dropped at the first logs whose errors already exceed the
best combination's (errors only add up); the log that dropped one is judged first next time. Where
logs stay illegal at the fixed point, two options of different groups changed at once are tried (an
interaction options.toml does not name), and the search runs again from the better values.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import SimpleNamespace

from ...hints import plural
from ...profiling import command
from ...spec import load_spec
from .check import check

MAX_ROUNDS = 6  # passes over the groups; each pass either changes a value or stops
PAIR_PROBE = 3  # illegal logs a two-option change must improve before all logs are judged


def _options(spec) -> dict[str, dict]:
    """The options with a choice (more than one value), default first."""
    return {k: v for k, v in spec.options.items() if len(v["values"]) > 1}


def _groups(opts: dict) -> list[list[str]]:
    """The options in their `together` groups (options.toml), in the file's order; alone, a group of one."""
    groups: dict[str, list[str]] = {}
    for key, opt in opts.items():
        groups.setdefault(opt.get("together") or f"alone:{key}", []).append(key)
    return list(groups.values())


class _Judge:
    """The logs judged under sets of options, each once (a cache), with what the search reads of it."""

    def __init__(self, logs: Sequence, fixed: dict):
        self.logs, self.fixed = logs, fixed
        self.cache: dict[tuple, SimpleNamespace] = {}
        self.order = list(range(len(logs)))  # logs that dropped a combination come first

    def __call__(self, i: int, options: dict):
        key = (i, tuple(sorted(options.items())))
        if key not in self.cache:  # only what the profile reads: a report keeps its whole replay
            name, src = self.logs[i]
            r = check(src, name=name, options=options)
            errors = sum(1 for f in r.findings if f.severity == "error")
            self.cache[key] = SimpleNamespace(file=r.file, verdict=r.verdict, findings=r.findings, errors=errors)
        return self.cache[key]

    def cost(self, options: dict, bound: int | None = None, first=()) -> tuple[int, int] | None:
        """(errors, findings) over every log under `options`; None as soon as the errors exceed `bound`.
        The logs `first` are judged first (those likeliest to exceed it)."""
        errors = findings = 0
        order = list(dict.fromkeys([*first, *self.order])) if first else self.order
        for i in order:
            r = self(i, options)
            errors, findings = errors + r.errors, findings + len(r.findings)
            if bound is not None and errors > bound:
                self.order.remove(i)
                self.order.insert(0, i)
                return None
        return errors, findings

    def total(self, options: dict) -> tuple[int, int]:
        """(errors, findings) over every log under `options`, with no bound (so never dropped)."""
        cost = self.cost(options)
        assert cost is not None  # only a bound drops a judgement
        return cost

    def peek(self, i: int, options: dict):
        """Log i under `options` if it was judged so already, else None (nothing is judged)."""
        return self.cache.get((i, tuple(sorted(options.items()))))

    def keys(self, options: dict) -> frozenset:
        return frozenset((i, f.rule, f.line) for i in range(len(self.logs)) for f in self(i, options).findings)


def _evidence(judge: _Judge, key: str, values, now: dict) -> bool:
    """Whether the logs show option `key`: its values alone (the others at `now`) give different findings
    in some log (the logs judged in turn, up to the first that shows it)."""
    for i in judge.order:
        if len({frozenset((f.rule, f.line) for f in judge(i, {**now, key: v}).findings) for v in values}) > 1:
            return True
    return False


def _best_alone(judge: _Judge, key: str, values, now: dict) -> str:
    """The value of option `key` with the fewest (errors, findings), the others at `now`: the value in force
    judged first, each other one dropped once its errors pass the best."""
    best_v, best = now[key], judge.total(now)
    for v in values:
        if v != best_v and (cost := judge.cost({**now, key: v}, best[0])) is not None and cost < best:
            best_v, best = v, cost
    return best_v


def _search_group(judge: _Judge, group: list[str], opts: dict, chosen: dict) -> list[dict]:
    """Every combination of the group's values (the other options at `chosen`): the combinations with
    the fewest (errors, findings), as dicts of the group."""
    now = {**chosen, **judge.fixed}
    # the first combination tried: each option at its best value alone (judged already, for the evidence),
    # most often the best of all, so that the others are dropped after a log or two; then the nearest to it
    start = tuple(_best_alone(judge, k, opts[k]["values"], now) for k in group)
    combos = sorted(
        itertools.product(*(opts[k]["values"] for k in group)),
        key=lambda c: sum(a != b for a, b in zip(c, start, strict=True)),
    )
    # per option value alone, the errors of each log: where a combination's values differ from the first
    # one's, the logs that those values alone made worse are judged first
    errs = {
        (k, v): [getattr(judge.peek(i, {**now, k: v}), "errors", 0) for i in range(len(judge.logs))]
        for k in group
        for v in opts[k]["values"]
    }
    best: tuple[int, int] | None = None
    ties: list[dict] = []
    combos = [_descend(judge, group, opts, now, start), *combos]  # a tight bound first: the rest drop early
    for combo in combos:
        first = [
            i
            for k, v, v0 in zip(group, combo, start, strict=True)
            if v != v0
            for i in range(len(judge.logs))
            if errs[k, v][i] > errs[k, v0][i]
        ]
        cost = judge.cost({**now, **dict(zip(group, combo, strict=True))}, None if best is None else best[0], first)
        if cost is None or (best is not None and cost > best):
            continue
        if best is None or cost < best:
            best, ties = cost, []
        ties.append(dict(zip(group, combo, strict=True)))
    return ties


def _descend(judge: _Judge, group: list[str], opts: dict, now: dict, start: tuple) -> tuple:
    """From `start`, one option of the group changed at a time while that lowers the errors: a good
    combination, cheaply (each trial is dropped once its errors pass the best so far)."""
    cur = start
    best = judge.total({**now, **dict(zip(group, cur, strict=True))})
    better = True
    while better:
        better = False
        for j, k in enumerate(group):
            for v in opts[k]["values"]:
                if v == cur[j]:
                    continue
                trial = (*cur[:j], v, *cur[j + 1 :])
                cost = judge.cost({**now, **dict(zip(group, trial, strict=True))}, best[0] - 1)
                if cost is not None and cost < best:
                    cur, best, better = trial, cost, True
    return cur


def _pick(ties: list[dict], chosen: dict, opts: dict) -> dict:
    """Among equally good combinations: the one in force, else the fewest departures from the defaults."""
    here = {k: chosen[k] for k in ties[0]}
    if here in ties:
        return here
    return min(ties, key=lambda c: sum(v != opts[k]["default"] for k, v in c.items()))


def _search(judge: _Judge, opts: dict, chosen: dict) -> tuple[dict[str, list[str]], dict[tuple, list[dict]]]:
    """Groups in turn until nothing changes (`chosen` updated in place): per option, the values of the
    best combinations of its group, and per group those combinations (a group without evidence has none:
    every combination of its values is as good)."""
    values = {k: list(opts[k]["values"]) for k in opts}
    best: dict[tuple, list[dict]] = {}
    # a start near the best: one option changed at a time, over all of them, while that lowers the errors
    # (cheap, and it leaves the groups' searches a tight bound: the errors other groups explain are gone)
    keys, now = list(opts), {**chosen, **judge.fixed}
    start = tuple(_best_alone(judge, k, opts[k]["values"], now) for k in keys)
    chosen.update(zip(keys, _descend(judge, keys, opts, now, start), strict=True))
    for _ in range(MAX_ROUNDS):
        changed = False
        for group in _groups(opts):
            now = {**chosen, **judge.fixed}
            if not any(_evidence(judge, k, opts[k]["values"], now) for k in group):
                values.update({k: list(opts[k]["values"]) for k in group})
                best.pop(tuple(group), None)
                continue
            ties = best[tuple(group)] = _search_group(judge, group, opts, chosen)
            pick = _pick(ties, chosen, opts)
            for k in group:
                values[k] = [v for v in opts[k]["values"] if any(t[k] == v for t in ties)]
                if pick[k] != chosen[k]:
                    chosen[k], changed = pick[k], True
        if not changed:
            break
    return values, best


def _report(logs, judge: _Judge, opts: dict, chosen: dict, values: dict) -> dict:
    """Per option at the best values: whether the logs show it, its consistent values, the lines that
    decide it (where another value adds findings) and one example per value ruled out."""
    now = {**chosen, **judge.fixed}
    result: dict[str, dict] = {}
    base = judge.keys(now)
    for key, opt in opts.items():
        rules = set(opt.get("rules", ()))
        evidence = len(values[key]) < len(opt["values"]) or _evidence(judge, key, opt["values"], now)
        deciding, examples = set(), {}
        for value in opt["values"]:
            if value in values[key]:
                continue
            trial = {**now, key: value}
            extra = [
                (logs[i][0], f)
                for i in range(len(logs))
                for f in judge(i, trial).findings
                if (i, f.rule, f.line) not in base
            ]
            extra.sort(key=lambda nf: nf[1].rule not in rules)  # the option's own rules first
            deciding |= {(n, f.line) for n, f in extra}
            if extra:
                examples[value] = _where(extra[0])
        own = [f for i in range(len(logs)) for f in judge(i, now).findings if f.rule in rules]
        result[key] = {
            "variant": opt.get("variant"),
            "default": opt["default"],
            "evidence": evidence,
            "values": values[key] if evidence else list(opt["values"]),
            "inferred": chosen[key],
            "clean": not own,
            "deciding_lines": len(deciding),
            "examples": examples,
        }
    return result


def profile(logs: Sequence[tuple[str, str | bytes | dict]], fixed: dict[str, str] | None = None) -> dict:
    """The profile of (name, log) pairs: per option its consistent values, deciding lines and
    examples; the named ruleset they fit; the verdicts under the inferred options; the command
    to check with them. `fixed` options (`check --ruleset auto --option K=V`) are not inferred.
    Every log is judged under the options tried, over its own `ruleset` and `option` lines."""
    spec = load_spec("dos")
    fixed = dict(fixed or {})
    spec.ruleset("official", fixed)  # raises SpecError naming an unknown option or value
    opts = {k: v for k, v in _options(spec).items() if k not in fixed}
    chosen = {k: v["default"] for k, v in opts.items()}
    judge = _Judge(logs, fixed)

    values, ties = _search(judge, opts, chosen)
    for _ in range(MAX_ROUNDS):  # an interaction options.toml does not name: two groups' options at once
        if not _pairs(len(logs), opts, chosen, fixed, judge):
            break
        values, ties = _search(judge, opts, chosen)
    result = _report(logs, judge, opts, chosen, values)

    name, fits = _ruleset(spec, result, fixed)
    base = spec.ruleset(name).options
    moved = False
    for group in _groups(opts):  # the ruleset's own values wherever the logs allow them, a group as one
        best = ties.get(tuple(group)) or [{k: base[k] for k in group}]
        pick = min(
            best, key=lambda c: (sum(v != base[k] for k, v in c.items()), sum(v != chosen[k] for k, v in c.items()))
        )
        moved = moved or any(chosen[k] != pick[k] for k in group)
        chosen.update(pick)
    if moved:  # the lines that decide each option, against the values inferred
        result = _report(logs, judge, opts, chosen, values)
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
    # the command names only what differs from the ruleset's own values: an option the logs show
    # at its default needs no flag (a suggestion of ten default flags hides the one that matters)
    flags = ([f"--ruleset {name}"] if name != "official" else []) + [
        f"--option {k}={v}" for k, v in chosen.items() if v != base[k]
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
        "judgements": len(judge.cache),  # checks run (a log under one set of options): the work done
        "command": command({"flags": flags}),
    }


def _errors(judge, idx, options: dict) -> int:
    return sum(judge(i, options).errors for i in idx)


def _pairs(n: int, opts: dict, chosen: dict, fixed: dict, judge) -> bool:
    """When logs stay illegal, try two options of different groups changed at once (a departure can
    show only under another's right value). The first change that lowers the errors of the first
    illegal logs and of all logs is kept (`chosen` updated); True if one was."""
    now = {**chosen, **fixed}
    bad = [i for i in range(n) if judge(i, now).verdict != "legal"][:PAIR_PROBE]
    if not bad:
        return False
    group = {k: id(g) for g in _groups(opts) for k in g}
    keys = list(opts)
    base_bad, base_all = _errors(judge, bad, now), None
    for a_i, a in enumerate(keys):
        for b in keys[a_i + 1 :]:
            if group[a] == group[b]:
                continue  # one group: searched over its combinations already
            for va in opts[a]["values"]:
                for vb in opts[b]["values"]:
                    if va == chosen[a] or vb == chosen[b]:
                        continue  # one option alone: the search has tried it
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
    spec = load_spec("dos")
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


def render_text(prof: dict, target: str = "DIR") -> str:
    out = [f"{plural(prof['logs'], 'DOS log')} profiled"]
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
        if len(r["values"]) > 1:
            vals += f" (each legal with another option of its group; {r['inferred']} inferred)"
        out.append(head + f"{vals}; decided by {plural(r['deciding_lines'], 'line')}")
        for value, ex in r["examples"].items():
            out.append(f"    not {value}: {ex['file']}:{ex['line']}: {ex['rule']}: {ex['message']}")
    bad = [v for v in prof["verdicts"] if v["verdict"] != "legal"]
    if not bad:
        out.append(
            f"verdict: {'all ' if prof['logs'] > 1 else ''}{plural(prof['logs'], 'log')} legal under the inferred options"
        )
    else:
        out.append(
            f"verdict: {len(bad)} of {plural(prof['logs'], 'log')} {'stays' if len(bad) == 1 else 'stay'} illegal under the best options:"
        )
        for v in bad:
            out.append(f"  {v['file']}: {v['verdict']}")
            for f in v["findings"][:5]:
                out.append(f"    line {f['line']}: {f['rule']}: {f['message']}")
    out.append("check with: " + command(prof, target))
    return "\n".join(out) + "\n"


def main_profile(argv: list[str]) -> int:
    from ...profiling import profile_main

    return profile_main(
        argv,
        prog="dosverify profile",
        description="infer the options (rulebook and engine) that explain many logs of one program",
        spec=lambda: load_spec("dos"),
        profile=profile,
        render_text=render_text,
        game="dos",
    )
