"""The `dosverify` command line (argparse: it starts fast; the service stack is imported only by `serve`)."""

from __future__ import annotations

import argparse
import os
import sys

from .terminal import colour_wanted as _colour
from .terminal import read_bytes as _read
from .terminal import read_or_say

__all__ = ["_colour", "_read", "main", "read_or_say"]


def _specs() -> list:
    """Every registered game's specification (a folder of logs may hold several games)."""
    from .games import REGISTRY, find_game

    return [find_game(g).spec() for g in REGISTRY]


def _pack_of(args):
    """The game a command about the specification means: `--game`, else DOS."""
    from .games import find_game

    return find_game(getattr(args, "game", None))


def default_max_log_bytes() -> int:
    """The largest log read by default: the service's limit ($DOSVERIFY_MAX_LOG_BYTES, else 1 MiB),
    so that what the command line takes the service takes too, and `/dev/zero` ends."""
    from .settings import SPECS

    env, _, default, _, _ = SPECS["max_log_bytes"]
    try:
        return max(0, int(os.environ.get(env, "") or default))
    except ValueError:
        return default


def _select(tokens: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """`--select a,b --select c` as one tuple."""
    return tuple(t.strip() for arg in tokens or () for t in arg.split(",") if t.strip())


def _bad_tokens(tokens: tuple[str, ...], spec) -> str | None:
    import difflib

    names = list(spec.rules) + list(spec.kinds) + sorted({r.split(".")[0] for r in spec.rules})
    for t in tokens:
        if t not in names:
            near = difflib.get_close_matches(t, names, n=3, cutoff=0.6)
            return f"no rule or kind `{t}`" + (
                f"; did you mean {', '.join(near)}?" if near else "; `dosverify rules` lists them"
            )
    return None


def cmd_check(args) -> int:
    from pathlib import Path

    from . import config
    from .formats import FORMATS, Tally, make
    from .inputs import discover
    from .spec import load_spec

    try:
        config.apply(args, Path.cwd())
    except config.ConfigError as exc:
        print(f"dosverify: {exc}", file=sys.stderr)
        return 2
    args.format = args.format or "text"
    if args.format not in FORMATS:
        print(
            f"dosverify: unknown format `{args.format}` in the settings (known: {', '.join(FORMATS)})", file=sys.stderr
        )
        return 2
    args.max_errors = 50 if args.max_errors is None else args.max_errors
    spec = load_spec()
    if args.ruleset is not None and args.ruleset != "auto" and not any(args.ruleset in s.rulesets for s in _specs()):
        print(
            f"dosverify: unknown ruleset `{args.ruleset}` (known: {', '.join(sorted(spec.rulesets))}, or auto; "
            "`dosverify rulesets` describes them)",
            file=sys.stderr,
        )
        return 2
    try:
        from .spec import parse_option_args

        args.options = parse_option_args(getattr(args, "option", None) or [])
        spec.ruleset("official", args.options)  # names an unknown option or value
    except ValueError as exc:
        print(f"dosverify: {exc}", file=sys.stderr)
        return 2
    args.select, args.ignore = _select(args.select), _select(args.ignore)
    bad = _bad_tokens(args.select + args.ignore, spec)
    if bad and any(_bad_tokens(args.select + args.ignore, other) is None for other in _specs()):
        bad = None  # every token is another game's
    if bad:
        print(f"dosverify: {bad}", file=sys.stderr)
        return 2
    if args.max_errors < 0:
        print("dosverify: --max-errors takes a count (0 for no limit)", file=sys.stderr)
        return 2
    args.max_log_bytes = default_max_log_bytes() if args.max_log_bytes is None else args.max_log_bytes
    if args.max_log_bytes < 0:
        print("dosverify: --max-log-bytes takes a number of bytes (0 for no limit)", file=sys.stderr)
        return 2
    if not 1 <= args.jobs <= 64:
        print("dosverify: -j takes a number of processes from 1 to 64", file=sys.stderr)
        return 2
    try:
        stream = open(args.output, "w", encoding="utf-8") if args.output else _Stdout()
    except OSError as exc:
        print(f"dosverify: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    from .runner import Policy, progress, results, wants_progress

    colour = not args.output and _colour(args.color, sys.stdout)
    out = make(args.format, stream, colour=colour, quiet=args.quiet, limit=args.max_errors)
    tally = Tally()
    status = 0
    hidden = 0  # findings --select/--ignore left out, said on standard error
    policy = Policy(
        args.ruleset,
        args.select,
        args.ignore,
        args.warnings_as_errors,
        tuple(args.options.items()),
        limit=args.max_errors,
        max_bytes=args.max_log_bytes,
    )
    cluster = None
    if args.dask:  # the same inputs and the same per-file work, on a Dask cluster
        from .cluster import Cluster, ClusterError, inputs

        try:
            files = inputs(args.files)
            cluster = Cluster(args.dask)
        except ClusterError as exc:
            print(f"dosverify: {exc}", file=sys.stderr)
            return 2
    skipped: list[str] = []  # files found in folders that are not logs
    items = discover(files if cluster else args.files, _select(args.include), _select(args.exclude), skipped)
    read = None
    if args.ruleset == "auto":  # infer the ruleset and options from every log given, then judge under them
        items = list(items)
        read, policy = _auto(items, policy)
    bar = None
    if sys.stderr.isatty():  # only then is a count worth taking first
        items = list(items)
        if wants_progress(len(items)):
            bar = progress(len(items))
    try:
        if bar is not None:
            bar.start()
            task = bar.add_task("check", total=len(items))
        outcomes = (
            cluster.results(items, policy, args.unordered) if cluster else results(items, policy, args.jobs, read)
        )
        for item, outcome in outcomes:
            if bar is not None:
                bar.advance(task)
            if item.empty:
                print(f"dosverify: no logs found in {item.path}", file=sys.stderr)
                status = 2
                continue
            what, value = outcome
            if what == "unreadable":
                out.unreadable(item.path, value, spec.version)
                tally.verdicts["unreadable"] += 1
                status = 2
                continue
            if args.witness is not None and not _witness(item.path, args):
                status = 2
            out.report(value)
            tally.add(value)
            hidden += value.hidden
            if args.exit_zero:
                continue
            if value.verdict == "malformed":
                status = 2
            elif value.verdict == "illegal":
                status = max(status, 1)
        if bar is not None:
            bar.stop()
            bar = None
        out.close(tally)
    finally:
        if bar is not None:
            bar.stop()
        if cluster is not None:
            cluster.close()
        if args.output:
            stream.close()
    if args.statistics:
        _statistics(tally, sys.stdout if args.format == "text" and not args.output else sys.stderr, len(skipped))
    if skipped:
        print(f"dosverify: {_skipped_line(skipped)}", file=sys.stderr)
    if hidden:
        print(f"dosverify: {_hidden_line(hidden, args)}", file=sys.stderr)
    return status


def _skipped_line(skipped: list[str]) -> str:
    """The files found in folders that were not checked: their first line names no game."""
    from .games import REGISTRY
    from .hints import plural

    names = ", ".join(skipped[:3]) + (f" and {len(skipped) - 3} more" if len(skipped) > 3 else "")
    known = ", ".join(f"`{g} 1`" for g in REGISTRY)
    return f"skipped {plural(len(skipped), 'file')} found in folders, not logs (no first line {known}): {names}"


def _hidden_line(n: int, args) -> str:
    """What --select/--ignore left out: a log reported legal may have had findings."""
    from .hints import plural

    flags = " and ".join(f for f, on in (("--select", args.select), ("--ignore", args.ignore)) if on)
    return f"{flags} left out {plural(n, 'finding')} (not shown, not counted in the verdicts)"


def _auto(items, policy):
    """`check --ruleset auto`: profile the readable logs (the `--option`s fixed, the rest
    inferred), then the policy that judges every log under the ruleset and options chosen,
    over the logs' own `ruleset` and `option` lines. Standard input is read once, here."""
    import dataclasses

    from .api import game_of

    read, logs = {}, []
    for item in items:
        if item.empty or item.problem:
            continue
        try:
            data = _read(item.path, policy.max_bytes)
        except OSError:
            continue  # reported as unreadable by the check itself
        if item.path == "-":
            read["-"] = data
        logs.append((item.path, data))
    if not logs:
        return read, dataclasses.replace(policy, ruleset=None)
    pack = game_of(logs[0][1])  # the options are a game's: inferred over the logs of the first one's game
    choice = pack.auto_choice(pack.profile(logs, dict(policy.options)))
    from .hints import plural

    print(
        f"dosverify: --ruleset auto: ruleset {choice['named']} (inferred from {plural(len(logs), 'log')})",
        file=sys.stderr,
    )
    return read, dataclasses.replace(
        policy, ruleset=choice["ruleset"], options=tuple(choice["options"].items()), auto=choice
    )


class _Stdout:
    """Standard output as it is when written (a progress bar redirects it above itself)."""

    def write(self, s: str) -> int:
        return sys.stdout.write(s)

    def flush(self) -> None:
        sys.stdout.flush()


def _statistics(tally, stream, skipped: int = 0) -> None:
    """Findings counted by rule and by kind, most frequent first, as a table; then the files
    found in folders that were skipped as not logs, if any."""
    from .report import plural

    for title, counts in (("rule", tally.by_rule), ("kind", tally.by_kind)):
        rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        width = max([len(title)] + [len(k) for k in counts])
        stream.write(f"\n{'count':>6}  {title}\n{'-' * 6}  {'-' * width}\n")
        for k, n in rows:
            stream.write(f"{n:>6}  {k}\n")
        stream.write(f"{'':>6}  {plural(sum(counts.values()), 'finding')} in all\n")
    if skipped:
        stream.write(f"\n{plural(skipped, 'file')} found in folders skipped: not logs\n")


def _witness(path: str, args) -> bool:
    """`check --witness OUT`: the open log that proves a legal log with face-down cards; False
    when OUT cannot be written (said on standard error)."""
    from .api import witness

    try:
        data = _read(path, args.max_log_bytes)
    except OSError:
        return True  # reported as unreadable by the check itself
    text, report = witness(data, name=path, ruleset=args.ruleset)
    if text is not None:
        return _write_out(args.witness, text)
    why = getattr(report, "_witness_refused", None) or f"the log is {report.verdict}"
    print(f"dosverify: no witness for {path}: {why}", file=sys.stderr)
    return True


def _write_out(path: str, text: str, prog: str = "dosverify") -> bool:
    """Write `text` to `path` (`-`: standard output); False after one line on standard error
    saying why it cannot be written (a missing folder, no permission): the caller exits 2."""
    if path == "-":
        sys.stdout.write(text)
        return True
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        print(f"{prog}: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def cmd_hide(args) -> int:
    from .api import game_of
    from .games import ViewError
    from .report import Report, render_text

    data = read_or_say(args.file)
    if data is None:
        return 2
    pack = game_of(data)
    parsed = pack.parse(data)
    if parsed.malformed or parsed.log is None or any(f.severity == "error" for f in parsed.findings):
        rep = Report(
            file=args.file,
            verdict="malformed",
            ruleset=None,
            spec_version=pack.spec().version,
            findings=list(parsed.findings),
        )
        sys.stderr.write(render_text(rep, parsed.text) + "\n")
        print("dosverify: not hidden: the log cannot be read without loss; fix the lines above", file=sys.stderr)
        return 2
    try:
        log = pack.hide(parsed.log, args.view)
    except (ViewError, NotImplementedError) as exc:
        print(f"dosverify hide: {exc}", file=sys.stderr)
        return 2
    out = pack.dump_json(log) + "\n" if args.to == "json" else pack.write(log)
    return 0 if _write_out(args.output, out) else 2


def cmd_rules(args) -> int:
    pack = _pack_of(args)
    spec = pack.spec()
    if args.format == "json":
        import json

        print(
            json.dumps(
                {"spec_version": spec.version, "rules": [r.to_dict() for r in spec.rules.values()]},
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


def cmd_explain(args) -> int:
    import difflib
    import textwrap

    from .games import REGISTRY, find_game

    spec = _pack_of(args).spec()
    if getattr(args, "game", None) is None and args.rule not in spec.rules and args.rule not in spec.options:
        for other in REGISTRY:  # a rule of another game, named without --game
            if args.rule in find_game(other).spec().rules:
                spec = find_game(other).spec()
                break
    if args.rule in spec.kinds:  # a finding kind: the rules that report it
        rules = [r for r in spec.rules.values() if r.kind == args.rule]
        if args.format == "json":
            import json

            also = {"option": {"option": args.rule, **spec.options[args.rule]}} if args.rule in spec.options else {}
            print(
                json.dumps(
                    {"kind": args.rule, "text": spec.kinds[args.rule], "rules": [r.to_dict() for r in rules], **also},
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return 0
        print(f"{args.rule}: {spec.kinds[args.rule]}\n\nRules of this kind (`dosverify explain RULE` for one):")
        for r in rules:
            print(f"  {r.id:<20} {r.severity:<8} {r.title}")
        if args.rule in spec.options:  # `dos-call` names a kind and an option: print both
            print(f"\n`{args.rule}` is also an option:\n")
            _explain_option(spec, args.rule, "text")
        return 0
    key = _option_key(spec, args.rule)
    if key is not None:  # an option (by its key or its variant point): its values, rulesets and sources
        return _explain_option(spec, key, args.format)
    rule = spec.rules.get(args.rule)
    if rule is None:
        names = list(spec.rules) + list(spec.kinds) + list(spec.options)
        near = difflib.get_close_matches(args.rule, names, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(near)}?" if near else "; `dosverify rules` lists them"
        print(f"dosverify: no rule, finding kind or option `{args.rule}`{hint}", file=sys.stderr)
        return 2
    if args.format == "json":
        import json

        print(json.dumps(rule.to_dict(), ensure_ascii=False, indent=2))
        return 0

    def wrap(s, ind="  "):
        return "\n".join(
            textwrap.fill(p, 88, initial_indent=ind, subsequent_indent=ind) for p in s.split("\n") if p.strip()
        )

    out = [
        f"{rule.id}: {rule.title}",
        f"  kind: {rule.kind}   severity: {rule.severity}   section: {rule.section}"
        + (f"   variant point: {rule.variant}" if rule.variant else ""),
        "",
        "What it says:",
        wrap(rule.text),
    ]
    if rule.why:
        out += ["", "Why:", wrap(rule.why)]
    opts = [
        f"{k} ({v.get('variant')}): " + ", ".join(f"{val}" for val in v["values"]) + f" [default {v['default']}]"
        for k, v in spec.options.items()
        if rule.id in v.get("rules", ()) or (rule.variant and v.get("variant") == rule.variant)
    ]
    if opts:
        out += ["", "Options:"] + [f"  {o}" for o in opts]
    if rule.follow_on:  # spec/<game>/rules: the findings that only follow from an earlier one
        doubted = " or ".join({"hand": "the player's hand", "pile": "the draw pile"}[w] for w in rule.follow_on)
        out += [
            "",
            "Follow-on:",
            wrap(f"not reported while {doubted} is in doubt after an earlier finding (one mistake, one finding)"),
        ]
    if rule.example:
        out += ["", "Example (breaks the rule):"] + [f"    {line}" for line in rule.example.splitlines()]
    if rule.fix:
        out += ["", "What to do:", wrap(rule.fix)]
    from .resources import checkout

    root = checkout()
    fx = root / "fixtures" / "dos" / "rules" / rule.id if root else None
    if fx is not None and fx.is_dir():  # in a source checkout: the logs that keep and break this rule
        logs = sorted(
            p.name for p in fx.iterdir() if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json")
        )
        out += ["", f"Fixtures ({fx.relative_to(root)}/): " + ", ".join(logs)]
    if rule.sources:
        out += ["", "Sources:"]
        for s in rule.sources:
            out.append(f"  {s.ref} {s.file}: {s.part}")
    out += ["", f"Specification {spec.version}."]
    print("\n".join(out))
    return 0


def _option_key(spec, name: str) -> str | None:
    """The option `name` names: its key (`dcm-order`) or its variant point (`V13`, any case), where
    one option alone has it (the two of seed S3 are named by key)."""
    if name in spec.options:
        return name
    keys = [k for k, v in spec.options.items() if str(v.get("variant", "")).lower() == name.lower()]
    return keys[0] if len(keys) == 1 else None


def _explain_option(spec, key: str, fmt: str) -> int:
    """An option as `explain` prints a rule: what it decides, each value with the rulesets that
    take it and where it comes from, the rules it changes, and how to set it."""
    import textwrap

    opt = spec.options[key]
    taken = {val: [n for n in spec.rulesets if spec.ruleset(n).options.get(key) == val] for val in opt["values"]}
    if fmt == "json":
        import json

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
        out += ["", "Sources:"] + [f"  {s['value']}: {s['ref']} {s['file']}: {s['part']}" for s in opt["sources"]]
    out += [
        "",
        f"Set it: `option {key} VALUE` in a log, `dosverify check --option {key}=VALUE`, "
        f"or `?option={key}=VALUE` in the service.",
        "",
        f"Specification {spec.version}.",
    ]
    print("\n".join(out))
    return 0


def cmd_rulesets(args) -> int:
    spec = _pack_of(args).spec()
    if args.format == "json":
        import json

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
    print("\nOptions (`option KEY VALUE` in a log's header):")
    for key, opt in spec.options.items():
        print(
            f"  {key} ({opt.get('variant')}): {opt['text']} Values: {', '.join(opt['values'])}; default {opt['default']}."
        )
        for src in opt.get("sources", ()):
            print(f"    {src['value']}: {src['ref']} {src['file']}: {src['part']}")
    return 0


def cmd_convert(args) -> int:
    from .api import convert, sniff_json

    data = read_or_say(args.file)
    if data is None:
        return 2
    form = "json" if sniff_json(data) else "text"
    to = args.to or ("text" if form == "json" else "json")  # --to is the output's form; the input's is sniffed
    out, findings = convert(data, "json" if form == "text" else "text")
    if out is not None and to == form:  # the same form: normalise it, through the other one
        out, more = convert(out, form)
        findings = findings + [f for f in more if f not in findings]
    if out is None:
        for f in findings:
            where = f"{args.file}:{f.line}:{f.column}" if f.line else f"{args.file} at {f.pointer or '/'}"
            print(f"{where}: {f.severity}[{f.kind}]: {f.message} ({f.rule})", file=sys.stderr)
        print("dosverify: not converted: the log cannot be read without loss; fix the lines above", file=sys.stderr)
        return 2
    return 0 if _write_out(args.output or "-", out if out.endswith("\n") else out + "\n") else 2


def cmd_schema(args) -> int:
    import json

    print(json.dumps(_pack_of(args).json_schema(), indent=2))
    return 0


def cmd_serve(args) -> int:
    """Every setting is checked (flags and environment) before the server starts: a bad one is
    a one-line error and exit 2."""
    from .settings import SettingError, Settings, port

    given = {
        k: getattr(args, k)
        for k in (
            "max_log_bytes",
            "max_batch_items",
            "max_batch_bytes",
            "workers",
            "check_timeout",
            "max_in_flight",
            "max_findings",
        )
    }
    try:
        p = port(args.port)
        Settings.resolve(**given)
    except SettingError as exc:
        print(f"dosverify serve: {exc}", file=sys.stderr)
        return 2
    from .service import serve
    from .store.cli import apply_serve_options  # --data, --database-url, --token-file (dosverify/store/)

    apply_serve_options(args)
    return serve(host=args.host, port=p, access_log=args.access_log, **given) or 0


def _take_game(name: str, argv: list[str]) -> tuple[str | None, list[str]]:
    """`--game NAME` (or `--game=NAME`) out of a game command's arguments; without it, the game
    the first log named among them says. `simulate --game` with no game after it is the old
    spelling of `--whole-game`: still taken, with a note."""
    from .games import REGISTRY, sniff_game

    rest: list[str] = []
    game = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--game="):
            game = a.split("=", 1)[1]
        elif a == "--game" and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            game, i = argv[i + 1], i + 1
        elif a == "--game" and name == "simulate":
            print(
                "dosverify simulate: `--game` alone is now `--whole-game` (`--game NAME` picks the game)",
                file=sys.stderr,
            )
            rest.append("--whole-game")
        else:
            rest.append(a)
        i += 1
    if game is None and name != "simulate":
        for a in rest:
            if not a.startswith("-") and os.path.isfile(a):
                try:
                    with open(a, "rb") as fh:
                        named = sniff_game(fh.read(4096))
                except OSError:
                    named = None
                if named in REGISTRY:
                    game = named
                break
    return game, rest


def _lazy(name: str, argv: list[str]) -> int:
    """A command that belongs to a game (simulate, replay, profile, fmt, corpus): the game's pack runs it."""
    from .games import UnknownGame, find_game

    game, argv = _take_game(name, argv)
    try:
        pack = find_game(game)
    except UnknownGame as exc:
        print(f"dosverify {name}: {exc}", file=sys.stderr)
        return 2
    command = pack.commands().get(name)
    if command is None:
        print(f"dosverify {name}: {pack.title} has no `{name}` command", file=sys.stderr)
        return 2
    return command(argv)


class _Version(argparse.Action):
    """`--version`: the package's version and the specification's (read only when asked)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from . import __version__
        from .spec import load_spec

        print(f"dosverify {__version__} (rules specification {load_spec().version}, notation 1)")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    from .formats import FORMATS

    p = argparse.ArgumentParser(prog="dosverify", description="Referee DOS game logs against the rules specification.")
    p.add_argument("--version", action=_Version, nargs=0, help="the version and the rules specification's version")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    c = sub.add_parser("check", help="check game logs (text or JSON); exit 0 legal, 1 illegal, 2 malformed or misuse")
    c.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="log files (text or JSON), folders of them "
        "(*.log, *.dos, *.txt, *.json in any case); - for standard input",
    )
    c.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="text (like a compiler), json (JSON Lines), sarif, junit, github (Actions annotations), "
        "gitlab (Code Quality)",
    )
    c.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of standard output")
    c.add_argument(
        "--ruleset",
        help="override the log's ruleset; `auto` infers the ruleset and options from all the "
        "logs given (as `dosverify profile`; `--option`s stay fixed) and judges every log under them",
    )
    c.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="judge under this option of spec/options.toml, over the log's own `option` lines (repeatable)",
    )
    c.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    c.add_argument("-q", "--quiet", action="store_true", help="one summary line per file")
    c.add_argument(
        "--witness",
        metavar="OUT",
        help="for a legal log with face-down cards (`?`), write the open log that "
        "proves it (every `?` replaced by a card) to OUT (`-`: standard output)",
    )
    c.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="referee the logs on a dask.distributed cluster: the scheduler's "
        "address (tcp://HOST:8786) or local:N for a local cluster of N worker processes; the workers "
        "read the files from a path they share (pip install 'dosverify[dask]')",
    )
    c.add_argument(
        "--unordered",
        action="store_true",
        help="with --dask: print each report as soon as it is ready, not in input order",
    )
    c.add_argument(
        "--max-errors",
        type=int,
        default=None,
        metavar="N",
        help="show at most N findings per file, then how many more (default 50; 0 for no limit); "
        "only those are kept, the rest counted",
    )
    c.add_argument(
        "--max-log-bytes",
        type=int,
        default=None,
        metavar="N",
        help="read at most N bytes of a log: a larger one is unreadable, exit 2 "
        "(default 1 MiB, the service's, or $DOSVERIFY_MAX_LOG_BYTES; 0 for no limit)",
    )
    c.add_argument("--include", action="append", metavar="GLOB", help="in folders, also check files matching GLOB")
    c.add_argument(
        "--exclude", action="append", metavar="GLOB", help="in folders, skip files and folders matching GLOB"
    )
    c.add_argument(
        "--select",
        action="append",
        metavar="RULE|KIND",
        help="report only these rules (an id, a section such as `match`, or a finding kind); comma-separated",
    )
    c.add_argument("--ignore", action="append", metavar="RULE|KIND", help="do not report these rules or kinds")
    c.add_argument("--warnings-as-errors", action="store_true", help="a warning makes the log illegal")
    c.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when a log is illegal or malformed (2 still for misuse and unreadable files)",
    )
    c.add_argument(
        "--statistics", action="store_true", help="after the reports, the findings counted by rule and by kind"
    )
    c.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="check files in N processes (the output stays in input order)",
    )
    c.add_argument(
        "--config",
        metavar="FILE",
        help="settings from FILE (default: dosverify.toml or [tool.dosverify] "
        "in pyproject.toml, the first found from the working folder upward)",
    )
    c.add_argument("--isolated", action="store_true", help="read no settings file")
    c.set_defaults(func=cmd_check)

    h = sub.add_parser("hide", help="write what the table (or one seat) saw of an open log: unseen cards as `?`")
    h.add_argument("file", metavar="FILE")
    h.add_argument(
        "--view",
        default="table",
        help="`table` (every hand and draw face down) or `seat:P` (only P's cards written); default table",
    )
    h.add_argument("--to", choices=["text", "json"], default="text")
    h.add_argument("-o", "--output", default="-")
    h.set_defaults(func=cmd_hide)

    r = sub.add_parser("rules", help="list the rules of the specification")
    r.add_argument("--format", choices=["text", "json"], default="text")
    r.add_argument("--game", help="the game whose rules (default dos)")
    r.set_defaults(func=cmd_rules)

    e = sub.add_parser(
        "explain",
        help="print one rule with its text, reasons and sources, the rules of a finding kind, "
        "or an option (by key or variant point, e.g. dcm-order or V13)",
    )
    e.add_argument("rule", metavar="RULE|KIND|OPTION")
    e.add_argument("--format", choices=["text", "json"], default="text")
    e.add_argument("--game", help="the game whose rule (default: dos, or the game that has the rule)")
    e.set_defaults(func=cmd_explain)

    rs = sub.add_parser("rulesets", help="list the rulesets and their options")
    rs.add_argument("--format", choices=["text", "json"], default="text")
    rs.add_argument("--game", help="the game whose rulesets (default dos)")
    rs.set_defaults(func=cmd_rulesets)

    v = sub.add_parser("convert", help="convert a log between the text notation and the JSON form")
    v.add_argument("file", metavar="FILE")
    v.add_argument(
        "--to",
        choices=["json", "text"],
        help="the output's form (default: the other one than the input's; the input's own form normalises it)",
    )
    v.add_argument("-o", "--output")
    v.set_defaults(func=cmd_convert)

    s = sub.add_parser("schema", help="print the JSON schema of the log's JSON form")
    s.add_argument("--game", help="the game whose JSON form (default dos)")
    s.set_defaults(func=cmd_schema)

    sv = sub.add_parser("serve", help="run the HTTP conformance service")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", default="8000", help="TCP port, 1-65535 (default 8000)")
    # values are checked by dosverify.settings (one-line errors, exit 2), so they are read as text here
    for flag, text in (
        (
            "--workers",
            "check worker processes for single checks, as many for batches, one fewer (at least one) for large logs (default: the number of cores, or $DOSVERIFY_WORKERS)",
        ),
        ("--max-log-bytes", "largest log accepted (default 1 MiB, or $DOSVERIFY_MAX_LOG_BYTES)"),
        ("--max-batch-items", "most logs in one batch (default 100, or $DOSVERIFY_MAX_BATCH_ITEMS)"),
        ("--max-batch-bytes", "largest batch body (default 8 MiB, or $DOSVERIFY_MAX_BATCH_BYTES)"),
        ("--check-timeout", "seconds one check may take before a 503 (default 10, or $DOSVERIFY_CHECK_TIMEOUT)"),
        ("--max-in-flight", "requests in flight before a 503 (default 64, or $DOSVERIFY_MAX_IN_FLIGHT)"),
        (
            "--max-findings",
            "findings per report, the rest counted in `truncated` (default 200, or $DOSVERIFY_MAX_FINDINGS)",
        ),
    ):
        sv.add_argument(flag, default=None, metavar="N", help=text)
    sv.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="one line a request on standard output (uvicorn's access log; default on)",
    )
    sv.set_defaults(func=cmd_serve)
    from .store.cli import add_event_parser, add_serve_options

    add_serve_options(sv)
    add_event_parser(sub)

    # commands with many options of their own parse them in their module, imported only when used
    for name, text in (
        ("simulate", "write a complete legal game log from a seed (`dosverify simulate --help`)"),
        ("corpus", "export the conformance corpus, or run an outside checker over it (`dosverify corpus --help`)"),
        (
            "replay",
            "the table after each turn of a log, with the findings where they occur (`dosverify replay --help`)",
        ),
        ("fmt", "write text logs in canonical form; --check for CI (`dosverify fmt --help`)"),
        ("profile", "infer the options that explain many logs of one program (`dosverify profile --help`)"),
    ):
        lazy = sub.add_parser(name, help=text, add_help=False)
        lazy.add_argument("rest", nargs=argparse.REMAINDER)
        lazy.set_defaults(func=lambda args, name=name: _lazy(name, args.rest))
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in ("simulate", "corpus", "replay", "fmt", "profile"):
            status = _lazy(argv[0], argv[1:])  # their options are parsed in their own module
        else:
            args = build_parser().parse_args(argv)
            status = args.func(args)
        sys.stdout.flush()  # here, where a reader that has gone is caught, not at exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `dosverify replay LOG | head`: the reader has gone, and that is fine
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """After a broken pipe, standard output goes nowhere: the interpreter's last flush at exit
    would otherwise print a second BrokenPipeError."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no file descriptor (a captured stream)
        pass


if __name__ == "__main__":
    sys.exit(main())
