"""The UNO Duo conformance corpus: `uno-duo 1` logs any UNO Duo checker or engine must accept or
reject, as DOS's (fixtures/dos/conformance/), in fixtures/uno-duo/conformance/.

Every file's name says what is expected of it, as in JSONTestSuite:

- ``y_*.log``: a legal log; a checker must accept it (exit 0, verdict ``legal``).
- ``n_*.log``: a broken log; a checker must reject it (exit non-zero, verdict ``illegal`` or
  ``malformed``); ``n_NAME.expected.json`` beside it holds the verdict and the first error:
  ``{"verdict", "kind", "rule", "line"}``.

Each log carries its options on its own `option` lines: nothing is set from outside.

Commands (``dosverify corpus --game uno-duo COMMAND``):

- ``build [--dir DIR]``: regenerate the corpus, deterministically: simulated games in every
  rendering and under every option value, the contract's examples, the rule fixtures, and each
  mutation operator's defect on a few simulated games (the mutants on which the referee and the
  test side's replayer agree: two implementations of the contract).
- ``export DIR``: copy the corpus and its README.txt to DIR.
- ``run --cmd 'TOOL {file}' [--strict]``: run an outside checker over the corpus, print a pass
  table; exit 0 only when every case passes.
"""

from __future__ import annotations

import json
import random
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ...argsuggest import SuggestingParser
from ...resources import checkout

MUTANTS_PER_OPERATOR = 2
MUTATION_SEEDS = range(40)  # simulated games tried in turn for an operator's mutants
SIM_SEEDS = (1, 2)  # one-round games per rendering
WHOLE_GAMES = ((3, "canonical", 100), (4, "no-deck", 100), (5, "hands", 80))  # (seed, style, target)
TIMEOUT = 20.0

README = """\
UNO Duo conformance corpus
==========================

Logs in the UNO Duo text notation `uno-duo 1` (UTF-8, one event a line; the contract is
design/uno-duo.md), for testing any program that checks, replays or plays UNO Duo games. The
first letter of each file name says what a correct checker must do with it, as in JSONTestSuite:

  y_*.log  accept: the log is legal.
           A command-line checker exits 0; a checker that reports a verdict says "legal".

  n_*.log  reject: the log breaks a rule or cannot be read.
           A command-line checker exits non-zero; a verdict is "illegal" or "malformed".
           n_NAME.expected.json beside it says what is wrong, as the first error:
             {{"verdict": "illegal", "kind": "illegal-play", "rule": "play.match", "line": 34}}
           "rule" is a rule id of the specification (`dosverify explain RULE --game uno-duo`);
           "line" is 1-based. Grading on the verdict alone is the plain test; grading also on
           the first error's rule and line is the strict test.

Every log names its options on its own `option KEY VALUE` lines (the variant points U1-U14;
none: the `official` defaults), so nothing needs to be set from outside.

Where the files come from: y_game_* are games written by a seeded simulator (a second
implementation of the contract) in each rendering the notation allows (a `deck` line or
not, `draft` or `hand` lines, grouped or one-card draws, bare draws, comments, CRLF, a BOM);
y_option_* the same under one option value each; y_example_* and n_example_* are the
contract's worked examples and their illegal variants; y_rule_* and n_rule_* exercise one rule
each; n_<rule>_<operator>_* are legal games with exactly one defect put in by a mutation
operator, on which the referee and the simulator's own replayer agree.

Running a checker over this directory:

  dosverify corpus --game uno-duo run --dir DIR --cmd 'your-tool check {{file}}'
  dosverify corpus --game uno-duo run --dir DIR --cmd 'dosverify check --format json {{file}}' --strict

With --cmd, exit status 0 is "accept" and any other "reject" (a timeout or a crash by signal is
a failure). With --strict, the tool must print one JSON report (the `dosverify check --format
json` shape: "verdict", "findings" with "rule" and "line"): the verdict and the first error are
graded.

{counts}
"""


@dataclass
class Entry:
    name: str  # file name without extension, e.g. y_game_canonical_seed1
    text: str | bytes  # bytes: copied as they are (a fixture may be deliberately not UTF-8)
    expected: dict | None = None  # n_ files


def _root() -> Path:
    root = checkout()
    if root is None:
        raise FileNotFoundError("the UNO Duo corpus is built from a source checkout (fixtures/uno-duo/)")
    return root


def default_dir() -> Path:
    return _root() / "fixtures" / "uno-duo" / "conformance"


def _first_error(findings: list[dict]) -> dict:
    errors = [f for f in findings if f.get("severity", "error") == "error"] or findings
    return min(errors, key=lambda f: f["line"] if f.get("line") is not None else 1 << 60)


def _y_games() -> list[Entry]:
    from .simulate import STYLES, simulate
    from .simulate.cards import OPTIONS

    out = [Entry(f"y_game_{s}_seed{n}", simulate(seed=n, style=s)) for s in STYLES for n in SIM_SEEDS]
    for seed, style, target in WHOLE_GAMES:
        text = simulate(seed=seed, style=style, whole_game=True, target=target)
        out.append(Entry(f"y_game_{style}_whole_t{target}_seed{seed}", text))
    for n, (key, values) in enumerate(OPTIONS.items()):
        for value in values[1:]:
            out.append(Entry(f"y_option_{key}-{value}_seed{10 + n}", simulate(seed=10 + n, options={key: value})))
    return out


def _fixtures(folder: Path, prefix: str, origin: str) -> list[Entry]:
    """Each log of `folder` (recursively; text, or JSON named `..._json`) with its `.expected.json`:
    y_ when legal, else n_."""
    out = []
    logs = [p for p in folder.rglob("*") if p.suffix in (".log", ".json") and not p.name.endswith(".expected.json")]
    for log in sorted(logs):
        exp_path = log.with_name(log.stem + ".expected.json")
        if not exp_path.exists():
            continue
        exp = json.loads(exp_path.read_text(encoding="utf-8"))
        rel = log.relative_to(folder).with_suffix("")
        stem = "_".join(rel.parts).replace("-", "_").replace(".", "_") + ("_json" if log.suffix == ".json" else "")
        if exp["verdict"] == "legal":
            out.append(Entry(f"y_{prefix}_{stem}", log.read_bytes()))
        elif exp.get("findings"):
            first = _first_error(exp["findings"])
            expected = {"verdict": exp["verdict"], "kind": first["kind"], "rule": first["rule"]}
            expected |= {"line": first.get("line"), "from": f"{origin}/{log.relative_to(folder)}"}
            out.append(Entry(f"n_{prefix}_{stem}", log.read_bytes(), expected))
    return out


def _n_mutations() -> list[Entry]:
    """Each operator's defect in a few simulated games, in turn over the renderings; kept where the
    referee gives exactly the one error the operator claims (the contract's two readers agree)."""
    from .. import find_game
    from .simulate import STYLES, simulate

    pack = find_game("uno-duo")
    styles = sorted(STYLES)
    out = []
    for op_name, op in sorted(pack.operators().items()):
        found = 0
        for seed in MUTATION_SEEDS:
            style = styles[seed % len(styles)]
            m = op(simulate(seed=seed, style=style, whole_game=seed % 5 == 4, target=100), random.Random(seed))
            if m is None:
                continue
            errors = [(f.rule, f.line) for f in pack.check(m.text).findings if f.severity == "error"]
            if errors != [(m.rule, m.line)]:
                continue  # a known gap between the two readers: the mutation tests name those
            expected = {"verdict": "illegal", "kind": m.kind, "rule": m.rule, "line": m.line}
            expected["from"] = f"mutation {op_name} of a simulated game (seed {seed}, rendering {style})"
            out.append(Entry(f"n_{m.rule}_{op_name}_{style}_seed{seed}", m.text, expected))
            found += 1
            if found == MUTANTS_PER_OPERATOR:
                break
    return out


def generate() -> list[Entry]:
    root = _root() / "fixtures" / "uno-duo"
    entries = _y_games()
    entries += _fixtures(root / "examples", "example", "fixtures/uno-duo/examples")
    entries += _fixtures(root / "rules", "rule", "fixtures/uno-duo/rules")
    entries += _n_mutations()
    return sorted(entries, key=lambda e: e.name)


def readme_text(entries: list[Entry]) -> str:
    y = sum(e.name.startswith("y_") for e in entries)
    counts = f"{len(entries)} logs: {y} y_ (accept), {len(entries) - y} n_ (reject)."
    return README.format(counts=counts)


def render(entries: list[Entry]) -> dict[str, bytes]:
    """The corpus's files: name -> bytes."""
    files = {"README.txt": readme_text(entries).encode()}
    for e in entries:
        suffix = ".json" if e.name.endswith("_json") else ".log"
        files[e.name + suffix] = e.text if isinstance(e.text, bytes) else e.text.encode("utf-8")
        if e.expected is not None:
            files[e.name + ".expected.json"] = (json.dumps(e.expected, indent=2, ensure_ascii=False) + "\n").encode()
    return files


def write_corpus(files: dict[str, bytes], directory: Path) -> None:
    """Write `files` into `directory`, removing corpus files that are no longer in it."""
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        if old.is_file() and old.name not in files and (old.name[:2] in ("y_", "n_") or old.name == "README.txt"):
            old.unlink()
    for name, data in files.items():
        (directory / name).write_bytes(data)


# ---- running an outside checker -------------------------------------------------------------------


def _grade(path: Path, cmd: str, strict: bool) -> str | None:
    """None when the checker does what the file's name says, else why not."""
    expected = None
    exp_path = path.with_name(path.name.rsplit(".", 1)[0] + ".expected.json")
    if exp_path.exists():
        expected = json.loads(exp_path.read_text(encoding="utf-8"))
    argv = [a.replace("{file}", str(path)) for a in shlex.split(cmd)]
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return "timed out"
    except OSError as exc:
        return f"cannot run: {exc}"
    if r.returncode < 0:
        return f"killed by signal {-r.returncode}"
    accept = path.name.startswith("y_")
    if (r.returncode == 0) != accept:
        return f"exit {r.returncode}, expected {'0' if accept else 'non-zero'}"
    if not strict:
        return None
    try:
        report = json.loads(next(ln for ln in r.stdout.splitlines() if ln.lstrip().startswith("{")))
    except (StopIteration, ValueError):
        return "no JSON report on standard output"
    if accept:
        return None if report.get("verdict") == "legal" else f"verdict {report.get('verdict')}"
    got = _first_error(report.get("findings") or [{}])
    want = (expected or {}).get("verdict"), (expected or {}).get("rule"), (expected or {}).get("line")
    have = report.get("verdict"), got.get("rule"), got.get("line")
    return None if have == want else f"got {have}, expected {want}"


def run_corpus(directory: Path, cmd: str, strict: bool) -> tuple[int, list[tuple[str, str]]]:
    """(cases run, failures as (file, why))."""
    cases = sorted(p for p in directory.iterdir() if p.name[:2] in ("y_", "n_") and ".expected." not in p.name)
    failures = [(p.name, why) for p in cases if (why := _grade(p, cmd, strict)) is not None]
    return len(cases), failures


def main_corpus(argv: list[str] | None = None) -> int:
    p = SuggestingParser(prog="dosverify corpus --game uno-duo", description="The UNO Duo conformance corpus.")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="regenerate the corpus (fixtures/uno-duo/conformance/)")
    b.add_argument("--dir", type=Path)
    e = sub.add_parser("export", help="copy the corpus and its README.txt to DIR")
    e.add_argument("dir", type=Path)
    r = sub.add_parser("run", help="run an outside checker over the corpus")
    r.add_argument("--dir", type=Path)
    r.add_argument("--cmd", required=True, help="the checker, `{file}` standing for the log's path")
    r.add_argument("--strict", action="store_true", help="grade the JSON report's verdict and first error too")
    args = p.parse_args(argv)
    try:
        if args.command == "build":
            files = render(generate())
            write_corpus(files, args.dir or default_dir())
            print(f"wrote {len(files)} files to {args.dir or default_dir()}")
            return 0
        source = getattr(args, "dir", None) if args.command == "run" else None
        if source is None:
            from .spec import data_path

            source = data_path("conformance")  # the package's copy in an install, as DOS's
        if not source.is_dir():
            print(f"dosverify corpus: no corpus at {source}", file=sys.stderr)
            return 2
    except FileNotFoundError as exc:
        print(f"dosverify corpus: {exc}", file=sys.stderr)
        return 2
    if args.command == "export":
        args.dir.mkdir(parents=True, exist_ok=True)
        for f in sorted(source.iterdir()):
            if f.is_file():
                shutil.copyfile(f, args.dir / f.name)
        print(f"exported the UNO Duo corpus to {args.dir}")
        return 0
    n, failures = run_corpus(source, args.cmd, args.strict)
    for name, why in failures:
        print(f"FAIL {name}: {why}")
    print(f"{n - len(failures)} of {n} cases passed")
    return 0 if not failures else 1
