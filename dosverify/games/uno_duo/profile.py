"""`dosverify profile --game uno-duo`: which options (U1-U15, spec/uno-duo/options.toml) explain the
logs of one program, as DOS's profile infers its V options.

The best options are those under which the fewest findings remain (errors first, then every
finding). UNO Duo's options are few and independent in the spec (no `together` groups), so the
search is a descent: from the defaults, one option changed at a time while that lowers the cost,
until nothing does; a change is dropped at the first logs whose errors pass the best so far
(errors only add up). Where logs stay illegal there, two options changed at once are tried (an
interaction the spec does not name: a departure that shows only under another's right value), and
the descent runs again. An option whose values give the very same findings in every log has no
evidence: its default is assumed and every value reported consistent.
"""

from __future__ import annotations

from ...hints import plural
from ...profiling import command
from .check import check
from .spec import spec as load_spec

MAX_PASSES = 6  # passes of the descent (each changes a value or stops)
PAIR_PROBE = 3  # illegal logs a two-option change must improve before all logs are judged


class _Judge:
    """The logs judged under sets of options, each once (a cache)."""

    def __init__(self, logs: list, fixed: dict):
        self.logs, self.fixed = logs, fixed
        self.cache: dict[tuple, tuple] = {}
        self.order = list(range(len(logs)))  # a log that dropped a trial is judged first next time

    def __call__(self, i: int, options: dict):
        key = (i, tuple(sorted(options.items())))
        if key not in self.cache:
            name, src = self.logs[i]
            r = check(src, name=name, options=options)
            errors = sum(1 for f in r.findings if f.severity == "error")
            self.cache[key] = (r.file, r.verdict, r.findings, errors)
        return self.cache[key]

    def cost(self, options: dict, bound: int | None = None, logs=None) -> tuple[int, int] | None:
        """(errors, findings) over the logs under `options`; None once the errors pass `bound`."""
        errors = findings = 0
        for i in list(self.order) if logs is None else logs:
            _, _, found, errs = self(i, options)
            errors, findings = errors + errs, findings + len(found)
            if bound is not None and errors > bound:
                self.order.remove(i)
                self.order.insert(0, i)
                return None
        return errors, findings

    def total(self, options: dict, logs=None) -> tuple[int, int]:
        """(errors, findings) over the logs (all, or `logs`) under `options`."""
        got = self.cost(options, None, logs)
        assert got is not None  # no bound: never dropped
        return got

    def keys(self, i: int, options: dict) -> frozenset:
        return frozenset((f.rule, f.line) for f in self(i, options)[2])


def _choices(spec) -> dict[str, list[str]]:
    """The options with a choice, their values default first."""
    return {k: list(v["values"]) for k, v in spec.options.items() if len(v["values"]) > 1}


def _descend(judge: _Judge, opts: dict, chosen: dict) -> None:
    """One option changed at a time while that lowers the cost (`chosen` updated in place)."""
    best = judge.total({**chosen, **judge.fixed})
    for _ in range(MAX_PASSES):
        better = False
        for key, values in opts.items():
            for v in values:
                if v == chosen[key]:
                    continue
                trial = {**chosen, **judge.fixed, key: v}
                cost = judge.cost(trial, best[0])
                if cost is not None and cost < best:
                    chosen[key], best, better = v, cost, True
        if not better:
            return


def _pairs(judge: _Judge, opts: dict, chosen: dict) -> bool:
    """Two options changed at once, when logs stay illegal: the first change that lowers the errors
    of the first illegal logs and of all logs is kept; True if one was."""
    now = {**chosen, **judge.fixed}
    bad = [i for i in range(len(judge.logs)) if judge(i, now)[1] != "legal"][:PAIR_PROBE]
    if not bad:
        return False
    base_bad, base_all = judge.total(now, logs=bad), judge.total(now)
    keys = list(opts)
    for n, a in enumerate(keys):
        for b in keys[n + 1 :]:
            for va in opts[a]:
                for vb in opts[b]:
                    if va == chosen[a] or vb == chosen[b]:
                        continue  # one option alone: the descent tried it
                    trial = {**now, a: va, b: vb}
                    got = judge.cost(trial, base_bad[0] - 1, logs=bad)
                    if got is None or got >= base_bad:
                        continue
                    got_all = judge.cost(trial, base_all[0])
                    if got_all is not None and got_all < base_all:
                        chosen[a], chosen[b] = va, vb
                        return True
    return False


def _where(name: str, f) -> dict:
    return {"file": name, "line": f.line, "rule": f.rule, "message": f.message}


def _option_report(judge: _Judge, key: str, values: list[str], opt: dict, now: dict) -> dict:
    """One option at the best values: its evidence, consistent values, deciding lines, examples."""
    n = len(judge.logs)
    best = judge.total(now)
    evidence = any(len({judge.keys(i, {**now, key: v}) for v in values}) > 1 for i in range(n))
    consistent = [v for v in values if v == now[key] or judge.total({**now, key: v}) == best]
    base = [judge.keys(i, now) for i in range(n)]
    deciding, examples = set(), {}
    for v in values:
        if v in consistent:
            continue
        extra = [
            (judge.logs[i][0], f)
            for i in range(n)
            for f in judge(i, {**now, key: v})[2]
            if (f.rule, f.line) not in base[i]
        ]
        extra.sort(key=lambda nf: nf[1].rule not in opt.get("rules", ()))  # the option's own rules first
        deciding |= {(name, f.line) for name, f in extra}
        if extra:
            examples[v] = _where(*extra[0])
    own = [f for i in range(n) for f in judge(i, now)[2] if f.rule in opt.get("rules", ())]
    return {
        "variant": opt.get("variant"),
        "default": opt["default"],
        "evidence": evidence,
        "values": consistent if evidence else list(values),
        "inferred": now[key],
        "clean": not own,
        "deciding_lines": len(deciding),
        "examples": examples,
    }


def profile(logs: list[tuple[str, str | bytes | dict]], fixed: dict[str, str] | None = None) -> dict:
    """The profile of (name, log) pairs, in DOS's profile's shape (`check --ruleset auto`,
    `/v1/profile` read it): per option its consistent values, deciding lines and examples; the
    verdicts under the inferred options; the command to check with them. `fixed` options are not
    inferred. Each log is judged under the options tried, over its own `option` lines."""
    spec = load_spec()
    fixed = dict(fixed or {})
    spec.ruleset("official", fixed)  # raises SpecError naming an unknown option or value
    opts = {k: v for k, v in _choices(spec).items() if k not in fixed}
    chosen = {k: spec.options[k]["default"] for k in opts}
    judge = _Judge(logs, fixed)
    _descend(judge, opts, chosen)
    for _ in range(MAX_PASSES):
        if not _pairs(judge, opts, chosen):
            break
        _descend(judge, opts, chosen)
    now = {**chosen, **fixed}
    result = {k: _option_report(judge, k, opts[k], spec.options[k], now) for k in opts}
    verdicts = []
    for i in range(len(logs)):
        file, verdict, found, _ = judge(i, now)
        verdicts.append(
            {"file": file, "verdict": verdict, "findings": [_where(file, f) for f in found if f.severity == "error"]}
        )
    # only what differs from the defaults (DOS's profile says why)
    flags = [f"--option {k}={v}" for k, v in now.items() if v != spec.options[k]["default"]]
    return {
        "game": "uno-duo",
        "spec_version": spec.version,
        "logs": len(logs),
        "options": result,
        "fixed": fixed,
        "ruleset": "official",  # UNO Duo's one named ruleset: its departures are options
        "rulesets_consistent": ["official"] if all(now[k] == spec.options[k]["default"] for k in now) else [],
        "inferred": now,
        "legal": all(v["verdict"] == "legal" for v in verdicts),
        "verdicts": verdicts,
        "flags": flags,
        "judgements": len(judge.cache),  # checks run (a log under one set of options): the work done
        "command": command({"flags": flags}),
    }


def auto_choice(prof: dict) -> dict:
    """What `check --ruleset auto` judges under (each report's `auto` field)."""
    spec = load_spec()
    base = spec.ruleset("official").options
    departs = {k: v for k, v in prof["inferred"].items() if base.get(k) != v}
    named = "official" + (" with " + ", ".join(f"{k}={v}" for k, v in departs.items()) if departs else "")
    return {
        "ruleset": "official",
        "options": spec.ruleset("official", prof["inferred"]).options,
        "named": named,
        "decided": sorted(k for k, r in prof["options"].items() if r["evidence"]),
        "fixed": dict(prof["fixed"]),
        "logs": prof["logs"],
    }


def render_text(prof: dict, target: str = "DIR") -> str:
    out = [f"{plural(prof['logs'], 'UNO Duo log')} profiled"]
    for key, value in prof["fixed"].items():
        out.append(f"{key}: {value} (fixed by --option, not inferred)")
    for key, r in prof["options"].items():
        head = f"{key} ({r['variant']}): "
        if not r["evidence"]:
            out.append(head + f"no evidence (every value gives the same findings; {r['inferred']} assumed)")
            continue
        vals = ", ".join(r["values"]) + ("" if r["clean"] else " (best; none leaves the logs clean)")
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
            out.extend(f"    line {f['line']}: {f['rule']}: {f['message']}" for f in v["findings"][:5])
    out.append("check with: " + command(prof, target))
    return "\n".join(out) + "\n"


def main_profile(argv: list[str]) -> int:
    from ...profiling import profile_main

    return profile_main(
        argv,
        prog="dosverify profile --game uno-duo",
        description="infer the UNO Duo options (U1-U15) that explain many logs of one program",
        spec=load_spec,
        profile=profile,
        render_text=render_text,
        game="uno-duo",
    )
