"""The `dosverify` command line (argparse: it starts fast; the service stack is imported only by `serve`)."""

from __future__ import annotations

import argparse
import os
import sys


def _colour(choice: str, stream) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    if "://" in path:  # a URL that fsspec understands (s3://, gcs://, http://, ...), as with --dask
        try:
            import fsspec
        except ImportError:
            raise OSError(f"reading a URL needs fsspec (pip install 'dosverify[dask]')") from None
        try:
            with fsspec.open(path, "rb") as fh:
                return fh.read()
        except (ValueError, ImportError) as exc:  # an unknown protocol, a missing driver
            raise OSError(str(exc)) from None
    with open(path, "rb") as fh:
        return fh.read()


def _expand(paths: list[str]) -> list[str]:
    """A directory stands for every log under it (`*.log`, and `*.json` but expected-findings files), sorted."""
    from pathlib import Path

    out: list[str] = []
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            out.extend(str(f) for f in sorted(p.rglob("*"))
                       if f.is_file() and (f.suffix == ".log" or (f.suffix == ".json" and not f.name.endswith(".expected.json"))))
        else:
            out.append(path)
    return out


def check_path(path: str, opts, source: str | None = None) -> tuple[str, str, str]:
    """Check one file as `check` does: (its tally key: a verdict or `unreadable`, what goes to
    standard output, what goes to standard error). One function for the plain run and for the
    workers of `--dask`, so that both print the same bytes; `source` is where to read the
    file named `path` from, when that differs (an absolute path on a worker)."""
    from .api import check
    from .report import render_text, summary_line

    name = "-" if path == "-" else path
    try:
        data = _read(source or path)
    except OSError as exc:
        return "unreadable", "", f"dosverify: cannot read {path}: {exc.strerror or exc}\n"
    report = check(data, name=name, ruleset=opts.ruleset)  # the override was checked by the caller
    if opts.format == "json":
        return report.verdict, report.to_json_line() + "\n", ""
    if opts.quiet:
        return report.verdict, summary_line(report, colour=opts.colour) + "\n", ""
    return report.verdict, render_text(report, report._text, colour=opts.colour) + "\n", ""


def check_status(verdicts) -> int:
    """The exit status of `check`: 2 when any file is malformed or unreadable, else 1 when any
    is illegal, else 0."""
    verdicts = set(verdicts)
    return 2 if verdicts & {"malformed", "unreadable"} else 1 if "illegal" in verdicts else 0


def check_tally(files: list[str], tally: dict[str, int], opts) -> str | None:
    """The closing line of a run over several files (text formats only)."""
    if len(files) > 1 and opts.format == "text":
        return f"{len(files)} files: " + ", ".join(f"{n} {k}" for k, n in tally.items() if n)
    return None


def cmd_check(args) -> int:
    from .spec import load_spec

    if args.ruleset is not None and args.ruleset not in load_spec().rulesets:
        print(f"dosverify: unknown ruleset `{args.ruleset}` (known: {', '.join(sorted(load_spec().rulesets))})", file=sys.stderr)
        return 2
    args.colour = _colour(args.color, sys.stdout)
    if args.dask:
        from .cluster import cmd_check_dask

        return cmd_check_dask(args)
    files = _expand(args.files)
    tally = {"legal": 0, "illegal": 0, "malformed": 0, "unreadable": 0}
    for path in files:
        verdict, out, err = check_path(path, args)
        if err:
            sys.stderr.write(err)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
        tally[verdict] += 1
    line = check_tally(files, tally, args)
    if line:
        print(line)
    return check_status(v for v, n in tally.items() if n)


def cmd_rules(args) -> int:
    from .spec import load_spec

    spec = load_spec()
    if args.format == "json":
        import json

        print(json.dumps({"spec_version": spec.version, "rules": [r.to_dict() for r in spec.rules.values()]}, ensure_ascii=False, indent=2))
        return 0
    print(f"DOS rules specification {spec.version}: {len(spec.rules)} rules (`dosverify explain RULE` for one)")
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

    from .spec import load_spec

    spec = load_spec()
    rule = spec.rules.get(args.rule)
    if rule is None:
        near = difflib.get_close_matches(args.rule, list(spec.rules), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(near)}?" if near else "; `dosverify rules` lists them"
        print(f"dosverify: no rule `{args.rule}`{hint}", file=sys.stderr)
        return 2
    if args.format == "json":
        import json

        print(json.dumps(rule.to_dict(), ensure_ascii=False, indent=2))
        return 0
    wrap = lambda s, ind="  ": "\n".join(textwrap.fill(p, 88, initial_indent=ind, subsequent_indent=ind) for p in s.split("\n") if p.strip())  # noqa: E731
    out = [f"{rule.id}: {rule.title}", f"  kind: {rule.kind}   severity: {rule.severity}   section: {rule.section}"
           + (f"   variant point: {rule.variant}" if rule.variant else ""), "", "What it says:", wrap(rule.text)]
    if rule.why:
        out += ["", "Why:", wrap(rule.why)]
    if rule.variant:
        opts = [f"{k} ({v['variant']}): " + ", ".join(f"{val}" for val in v["values"]) + f" [default {v['default']}]"
                for k, v in spec.options.items() if v.get("variant") == rule.variant]
        if opts:
            out += ["", "Options:"] + [f"  {o}" for o in opts]
    if rule.example:
        out += ["", "Example (breaks the rule):"] + [f"    {line}" for line in rule.example.splitlines()]
    if rule.fix:
        out += ["", "What to do:", wrap(rule.fix)]
    from .resources import checkout

    root = checkout()
    fx = root / "fixtures" / "rules" / rule.id if root else None
    if fx is not None and fx.is_dir():  # in a source checkout: the logs that keep and break this rule
        logs = sorted(p.name for p in fx.iterdir() if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json"))
        out += ["", f"Fixtures ({fx.relative_to(root)}/): " + ", ".join(logs)]
    if rule.sources:
        out += ["", "Sources:"]
        for s in rule.sources:
            out.append(f"  {s.ref} {s.file}: {s.part}")
    out += ["", f"Specification {spec.version}."]
    print("\n".join(out))
    return 0


def cmd_rulesets(args) -> int:
    from .spec import load_spec

    spec = load_spec()
    if args.format == "json":
        import json

        print(json.dumps({"spec_version": spec.version, "rulesets": spec.rulesets, "options": spec.options}, ensure_ascii=False, indent=2))
        return 0
    for name, rs in spec.rulesets.items():
        print(f"{name}: {rs.get('title', '')}")
        print(f"  target {rs.get('target', 200)}; " + ", ".join(f"{k}={v}" for k, v in rs.get("options", {}).items()))
    print("\nOptions (`option KEY VALUE` in a log's header):")
    for key, opt in spec.options.items():
        print(f"  {key} ({opt['variant']}): {opt['text']} Values: {', '.join(opt['values'])}; default {opt['default']}.")
    return 0


def cmd_convert(args) -> int:
    from .api import convert, sniff_json

    try:
        data = _read(args.file)
    except OSError as exc:
        print(f"dosverify: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    to = args.to or ("text" if sniff_json(data) else "json")
    out, findings = convert(data, to)
    if out is None:
        for f in findings:
            where = f"{args.file}:{f.line}:{f.column}" if f.line else f"{args.file} at {f.pointer or '/'}"
            print(f"{where}: {f.severity}[{f.kind}]: {f.message} ({f.rule})", file=sys.stderr)
        print("dosverify: not converted: the log cannot be read without loss; fix the lines above", file=sys.stderr)
        return 2
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(out if out.endswith("\n") else out + "\n")
    else:
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0


def cmd_schema(args) -> int:
    import json

    from .jsonform import schema

    print(json.dumps(schema(), indent=2))
    return 0


def cmd_serve(args) -> int:
    """Every setting is checked (flags and environment) before the server starts: a bad one is
    a one-line error and exit 2."""
    from .settings import SettingError, Settings, port

    given = {k: getattr(args, k) for k in ("max_log_bytes", "max_batch_items", "max_batch_bytes", "workers",
                                           "check_timeout", "max_in_flight", "max_findings")}
    try:
        p = port(args.port)
        Settings.resolve(**given)
    except SettingError as exc:
        print(f"dosverify serve: {exc}", file=sys.stderr)
        return 2
    from .service import serve

    return serve(host=args.host, port=p, access_log=args.access_log, **given) or 0


def _lazy(name: str, argv: list[str]) -> int:
    if name == "simulate":
        from .simulate import main_simulate

        return main_simulate(argv)
    from .corpus import main_corpus

    return main_corpus(argv)


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="dosverify", description="Referee DOS game logs against the rules specification.")
    p.add_argument("--version", action="version", version=f"dosverify {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    c = sub.add_parser("check", help="check game logs (text or JSON); exit 0 legal, 1 illegal, 2 malformed or misuse")
    c.add_argument("files", nargs="+", metavar="FILE", help="log files (text or JSON), directories of them; - for standard input")
    c.add_argument("--format", choices=["text", "json"], default="text", help="text (like a compiler) or JSON Lines")
    c.add_argument("--ruleset", help="override the log's ruleset")
    c.add_argument("--color", "--colour", choices=["auto", "always", "never"], default="auto")
    c.add_argument("-q", "--quiet", action="store_true", help="one summary line per file")
    c.add_argument("--dask", metavar="ADDRESS", help="referee the logs on a dask.distributed cluster: the scheduler's "
                   "address (tcp://HOST:8786) or local:N for a local cluster of N worker processes; the workers "
                   "read the files from a path they share (pip install 'dosverify[dask]')")
    c.add_argument("--unordered", action="store_true", help="with --dask: print each report as soon as it is "
                   "ready, not in input order")
    c.set_defaults(func=cmd_check)

    r = sub.add_parser("rules", help="list the rules of the specification")
    r.add_argument("--format", choices=["text", "json"], default="text")
    r.set_defaults(func=cmd_rules)

    e = sub.add_parser("explain", help="print one rule with its text, reasons and sources")
    e.add_argument("rule", metavar="RULE")
    e.add_argument("--format", choices=["text", "json"], default="text")
    e.set_defaults(func=cmd_explain)

    rs = sub.add_parser("rulesets", help="list the rulesets and their options")
    rs.add_argument("--format", choices=["text", "json"], default="text")
    rs.set_defaults(func=cmd_rulesets)

    v = sub.add_parser("convert", help="convert a log between the text notation and the JSON form")
    v.add_argument("file", metavar="FILE")
    v.add_argument("--to", choices=["json", "text"], help="default: the other form")
    v.add_argument("-o", "--output")
    v.set_defaults(func=cmd_convert)

    s = sub.add_parser("schema", help="print the JSON schema of the log's JSON form")
    s.set_defaults(func=cmd_schema)

    sv = sub.add_parser("serve", help="run the HTTP conformance service")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", default="8000", help="TCP port, 1-65535 (default 8000)")
    # values are checked by dosverify.settings (one-line errors, exit 2), so they are read as text here
    for flag, text in (("--workers", "check worker processes (default: the number of cores, or $DOSVERIFY_WORKERS)"),
                       ("--max-log-bytes", "largest log accepted (default 1 MiB, or $DOSVERIFY_MAX_LOG_BYTES)"),
                       ("--max-batch-items", "most logs in one batch (default 100, or $DOSVERIFY_MAX_BATCH_ITEMS)"),
                       ("--max-batch-bytes", "largest batch body (default 8 MiB, or $DOSVERIFY_MAX_BATCH_BYTES)"),
                       ("--check-timeout", "seconds one check may take before a 503 (default 10, or "
                                           "$DOSVERIFY_CHECK_TIMEOUT)"),
                       ("--max-in-flight", "requests in flight before a 503 (default 64, or $DOSVERIFY_MAX_IN_FLIGHT)"),
                       ("--max-findings", "findings per report, the rest counted in `truncated` (default 200, or "
                                          "$DOSVERIFY_MAX_FINDINGS)")):
        sv.add_argument(flag, default=None, metavar="N", help=text)
    sv.add_argument("--access-log", action=argparse.BooleanOptionalAction, default=True,
                    help="one line a request on standard output (uvicorn's access log; default on)")
    sv.set_defaults(func=cmd_serve)

    # commands with many options of their own parse them in their module, imported only when used
    for name, text in (("simulate", "write a complete legal game log from a seed (`dosverify simulate --help`)"),
                       ("corpus", "export the conformance corpus, or run an outside checker over it (`dosverify corpus --help`)")):
        lazy = sub.add_parser(name, help=text, add_help=False)
        lazy.add_argument("rest", nargs=argparse.REMAINDER)
        lazy.set_defaults(func=lambda args, name=name: _lazy(name, args.rest))
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("simulate", "corpus"):  # their options are parsed in their own module
        return _lazy(argv[0], argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
