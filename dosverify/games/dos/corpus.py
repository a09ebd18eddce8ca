"""The conformance corpus: logs any DOS checker or engine must accept or reject.

In the style of JSONTestSuite, every file's name says what is expected of it:

- ``y_*.log``: a legal log; a checker must accept it (exit 0, verdict ``legal``).
- ``n_*.log``: a broken log; a checker must reject it (exit non-zero, verdict ``illegal`` or
  ``malformed``). ``n_NAME.expected.json`` beside it holds the verdict and the first finding:
  ``{"verdict", "kind", "rule", "line"}``.
- ``i_*.log``: a log whose verdict depends on the ruleset. ``i_NAME.expected.json`` holds
  ``{"verdicts": {RULESET: VERDICT, ...}}``; a checker runs it once per ruleset named there.
  The engine options' entries (``i_engine_*``, V12-V17) add ``"options": [{"ruleset", "options":
  {KEY: VALUE}, "verdict"}, ...]``: one more run for each, with those options set from outside.

Commands (``dosverify corpus COMMAND``; the toml-test way of grading an outside tool):

- ``build [--dir DIR]``: regenerate the corpus (deterministic: simulated legal games, every
  mutation operator of :mod:`dosverify.games.dos.mutate` on a few seeds, the rule fixtures, and the
  hand-made ruleset-dependent logs) into ``fixtures/dos/conformance/``.
- ``export DIR``: copy the corpus and its README.txt to DIR.
- ``run (--cmd 'TOOL {file}' | --url URL | --api)``: run a checker over the corpus and print
  a pass table; exit 0 only when every case passes.
- ``golden [--update]``: check (or regenerate) the golden playthroughs (:mod:`dosverify.games.dos.golden`).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ...argsuggest import SuggestingParser
from ...hints import plural

ROOT = Path(__file__).resolve().parents[3]


def _bundled() -> Path:
    from ...resources import game_data

    try:
        return game_data("dosverify.games.dos", "conformance", "dos")
    except FileNotFoundError:
        return ROOT / "fixtures" / "dos" / "conformance"


# the checkout's fixtures/dos/conformance (what `build` writes), else the installed package's copy
DEFAULT_DIR = _bundled()
RULES_DIR = ROOT / "fixtures" / "dos" / "rules"  # only in a source checkout: `build` needs it
RULESETS = ("official", "italian", "bosnian", "strict")
MUTATION_SEEDS_PER_OPERATOR = 2
DEFAULT_TIMEOUT = 20.0

README = """\
{title}
{rule}

Logs in the DOS text notation v1 (UTF-8, one event a line), for testing any program
that checks, replays or plays DOS games. The first letter of each file name says what a
correct checker must do with it, as in JSONTestSuite:

  y_*.log  accept: the log is legal.
           A command-line checker exits 0; a checker that reports a verdict says "legal".

  n_*.log  reject: the log breaks a rule or cannot be read.
           A command-line checker exits non-zero; a verdict is "illegal" or "malformed".
           n_NAME.expected.json beside it says what is wrong, as the first finding:
             {{"verdict": "illegal", "kind": "illegal-match", "rule": "match.double", "line": 14}}
           "rule" is a rule id of the specification (`dosverify explain RULE`); "line" is
           1-based. Grading on the verdict alone is the plain test; grading also on the
           first finding's rule and line is the strict test.

  i_*.log  it depends on the ruleset: the log is legal under some rulesets and not under
           others (a `pass` after a fruitless draw, the dealer passing left, declining a
           match, ...). i_NAME.expected.json lists the verdict under each ruleset:
             {{"verdicts": {{"official": "illegal", "italian": "legal", ...}}}}
           Run the file once per ruleset listed, with the ruleset chosen from outside the
           log (dosverify: `--ruleset NAME`; the HTTP service: `?ruleset=NAME`).
           i_engine_* logs come from programs' variants (the engine options V12-V17:
           Double Color Match draws at once, ...): their "options" list adds runs with
           options set from outside, legal under the engine's value, illegal under the other:
             {{"options": [{{"ruleset": "official", "options": {{"dcm-draws": "at-once"}},
                           "verdict": "legal"}}, ...]}}
           (dosverify: `--option KEY=VALUE`; the HTTP service: `?option=KEY=VALUE`).

Where y_ and n_ files come from: y_game_* are complete games written by a seeded
simulator, y_rule_* exercise one rule each; n_<rule>_<operator>_* are legal games with
exactly one defect put in by a mutation operator; n_rule_* break one rule each. Logs with
a `deck` line make every draw checkable against the pile; logs with `hand`/`center` lines
give only the deal.

Running a checker over this directory (like toml-test):

  dosverify corpus run --dir DIR --cmd 'your-tool check {{file}}'
  dosverify corpus run --dir DIR --cmd 'your-tool {{file}}' --ruleset-flag '--rules {{ruleset}}'
  dosverify corpus run --dir DIR --cmd 'your-tool {{file}}' --option-flag '--set {{key}}={{value}}'
  dosverify corpus run --dir DIR --url http://127.0.0.1:8000/v1/check
  dosverify corpus run --dir DIR --cmd 'dosverify check --format json {{file}}' --strict

With --cmd, exit status 0 is "accept" and any other status "reject" (a timeout or a
crash by signal is a failure). A tool that prints one JSON report line with "verdict" and
"findings" (the `dosverify check --format json` shape) is graded with --strict on the exact
verdict and on the first finding's rule and line. With --url the log is POSTed as
text/plain and the JSON answer's "verdict" (and "findings") is graded.

{counts}
"""


# ---- building --------------------------------------------------------------------------------


@dataclass
class Entry:
    name: str  # file name without extension, e.g. y_game_2p_official_seed3
    text: str | bytes  # bytes: copied as they are (a fixture may be deliberately not UTF-8)
    expected: dict | None = None  # n_ and i_ files

    @property
    def category(self) -> str:
        return self.name[0]


def _strip_header(text: str, keys: tuple[str, ...] = ("ruleset", "option")) -> str:
    """Drop header lines that name a ruleset or an option, so the ruleset is chosen from outside."""
    out = []
    in_header = True
    for line in text.split("\n"):
        w = line.split()
        if w and w[0] == "round":
            in_header = False
        if in_header and w and w[0] in keys:
            continue
        out.append(line)
    return "\n".join(out)


def _y_games() -> list[Entry]:
    from .simulate import simulate_text

    out = []
    for p in (2, 3, 4):
        for i, rs in enumerate(RULESETS):
            seed = 10 * p + i + 1
            deck = (p + i) % 2 == 0
            text = simulate_text(p, seed, rs, rounds=1, deck=deck, long_round=False)
            out.append(Entry(f"y_game_{p}p_{rs}_{'deck' if deck else 'nodeck'}_seed{seed}", text))
    for p, rs, target, deck, seed in (
        (2, "official", 30, True, 5),
        (3, "italian", 40, False, 8),
        (4, "bosnian", 40, True, 9),
        (3, "strict", 40, False, 4),
    ):
        text = simulate_text(p, seed, rs, rounds=None, game=True, deck=deck, target=target, long_round=False)
        out.append(Entry(f"y_game_{p}p_{rs}_{'deck' if deck else 'nodeck'}_full_t{target}_seed{seed}", text))
    return out


def _rule_fixtures() -> tuple[list[Entry], list[Entry]]:
    """Every legal rule fixture (y_rule_*), and one broken fixture per rule (n_rule_*): its
    `illegal.log`, else the lowest-numbered `illegal-N.log`, which keeps the corpus small."""
    ys, ns = [], []

    def order(log: Path) -> tuple[int, str]:
        tail = log.stem.split("-", 1)[1] if "-" in log.stem else ""
        return (int(tail) if tail.isdigit() else 1 if tail == "" else 1 << 30, log.stem)

    for d in sorted(p for p in RULES_DIR.iterdir() if p.is_dir()):
        broken = []
        for log in sorted(d.glob("*.log"), key=order):
            exp_path = log.with_name(log.stem + ".expected.json")
            if not exp_path.exists():
                continue
            exp = json.loads(exp_path.read_text(encoding="utf-8"))
            if exp.get("ruleset_override"):
                continue
            text = log.read_bytes()
            suffix = "-" + log.stem.split("-", 1)[1] if "-" in log.stem else ""
            if exp["verdict"] == "legal":  # a log with only warnings (dos.call) is legal too
                warn = "-warning" if log.stem.startswith("illegal") else ""
                ys.append(Entry(f"y_rule_{d.name}{warn}{suffix}", text))
            elif log.stem.startswith("illegal") and exp.get("findings"):
                broken.append((log, exp, text))
        if broken:
            log, exp, text = broken[0]
            fs = sorted(exp["findings"], key=lambda f: f["line"] if f.get("line") is not None else 1 << 60)
            first = fs[0]
            ns.append(
                Entry(
                    f"n_rule_{d.name}",
                    text,
                    {
                        "verdict": exp["verdict"],
                        "kind": first["kind"],
                        "rule": first["rule"],
                        "line": first.get("line"),
                        "from": f"fixtures/dos/rules/{d.name}/{log.name}",
                    },
                )
            )
    return ys, ns


def _mutation_configs():
    """Small games first (one round, two players), then longer ones: (label, kwargs). No long
    rounds (the simulator's `long_round`): the corpus is meant to be read."""
    for seed in range(60):
        p = 2 + seed % 3
        rs = RULESETS[seed % 4]
        deck = seed % 2 == 0
        yield f"{p}p_{rs}_seed{seed}", dict(players=p, seed=seed, ruleset=rs, rounds=1, deck=deck, long_round=False)
    for seed in range(60):
        p = 2 + seed % 3
        rs = RULESETS[(seed // 3) % 4]
        deck = seed % 2 == 1
        yield (
            f"{p}p_{rs}_full_seed{seed}",
            dict(players=p, seed=seed, ruleset=rs, rounds=None, game=True, deck=deck, target=40, long_round=False),
        )


def _n_mutations() -> list[Entry]:
    from .mutate import OPERATORS
    from .simulate import simulate_text

    cache: dict[str, str] = {}
    configs = list(_mutation_configs())
    out = []
    for op in OPERATORS:
        found = 0
        for label, kw in configs:
            if label not in cache:
                cache[label] = simulate_text(**kw)
            seed = kw["seed"]
            m = OPERATORS[op](cache[label], random.Random(seed))
            if m is None:
                continue
            out.append(
                Entry(
                    f"n_{m.rule}_{op}_{label}",
                    m.text,
                    {
                        "verdict": "illegal",
                        "kind": m.kind,
                        "rule": m.rule,
                        "line": m.line,
                        "from": f"mutation {op} of a simulated game ({label})",
                    },
                )
            )
            found += 1
            if found == MUTATION_SEEDS_PER_OPERATOR:
                break
    return out


def _winners_and_dealers(text: str) -> tuple[list[str], list[str]]:
    dealers, winners = [], []
    for line in text.split("\n"):
        w = line.split()
        if len(w) >= 2 and w[0] == "dealer":
            dealers.append(w[1])
        elif len(w) >= 2 and w[0] == "score":
            winners.append(w[1])
    return dealers, winners


def _i_entries() -> list[Entry]:
    """Logs whose verdict depends on the ruleset, each with the reason for every verdict.

    Ruleset options (spec/rulesets; no-match-after-draw / decline-match / after-draw-match /
    next-dealer / single-color-bonus / dos-call): official = place/allowed/any/winner/required/on;
    italian = pass/forbidden/drawn-only/winner/required/on; bosnian = place/allowed/drawn-only/
    left/optional/off; strict = place/forbidden/drawn-only/winner/required/on."""
    from .simulate import simulate_text

    L, I = "legal", "illegal"  # noqa: E741 (the tables below read as a grid of L and I)
    hand = [  # (name, fixture, verdicts): the fixture with its ruleset and option lines taken out
        (
            "pass_after_draw",
            "turn.pass/legal.log",  # bob and ann draw, find no match, pass
            {"official": I, "italian": L, "bosnian": I, "strict": I},
        ),
        (
            "place_after_draw",
            "place.no-match/illegal-2.log",  # bob cannot match, draws G6, places it
            {"official": L, "italian": I, "bosnian": L, "strict": L},
        ),
        (
            "decline_then_place",
            "match.decline/legal.log",  # bob could match, draws instead, places
            {"official": L, "italian": I, "bosnian": L, "strict": I},
        ),
        (
            "decline_then_match",
            "match.decline/illegal.log",  # bob could match, draws, then matches a hand card
            {"official": L, "italian": I, "bosnian": I, "strict": I},
        ),
        (
            "after_draw_hand_card",
            "match.after-draw/illegal.log",  # a hand card matched after a draw
            {"official": L, "italian": I, "bosnian": I, "strict": I},
        ),
        (
            "after_draw_double",
            "match.after-draw/illegal-3.log",  # no match, draws, double with a hand card
            {"official": L, "italian": I, "bosnian": I, "strict": I},
        ),
        (
            "after_draw_drawn_card",
            "match.after-draw/legal.log",  # after the draw: a double, then a second match
            {"official": L, "italian": I, "bosnian": I, "strict": I},
        ),
        (
            "after_draw_drawn_alone",
            "match.after-draw/legal-2.log",  # could match, draws, matches the drawn card alone
            {"official": L, "italian": I, "bosnian": L, "strict": I},
        ),
        (
            "dealer_passes_left",
            "setup.dealer/legal-2.log",  # round 2 dealt by the dealer's left, not the winner
            {"official": I, "italian": I, "bosnian": L, "strict": I},
        ),
        (
            "dealer_is_winner",
            "setup.dealer/legal.log",  # round 2 dealt by the winner, not the dealer's left
            {"official": L, "italian": L, "bosnian": I, "strict": L},
        ),
        (
            "single_bonus_left_out",
            "bonus.card/legal-optional.log",  # no card for a Single Color Match (S3: optional)
            {"official": I, "italian": I, "bosnian": L, "strict": I},
        ),
        (
            "catch_without_call",
            "dos.catch/illegal-off.log",  # a catch and its penalty (S3 has no DOS call)
            {"official": L, "italian": L, "bosnian": I, "strict": L},
        ),
    ]
    out = []
    for name, fx, verdicts in hand:
        text = _strip_header((RULES_DIR / fx).read_text(encoding="utf-8"))
        out.append(Entry(f"i_{name}", text, {"verdicts": verdicts, "from": f"fixtures/dos/rules/{fx}"}))
    # simulated: italian games with a `pass` (official places instead: illegal there; the two
    # rulesets differ in nothing else), and bosnian games where a round is dealt by someone
    # other than the previous winner (official: the winner deals; nothing else differs)
    n = 0
    for seed in range(1, 40):
        if n == 2:
            break
        text = simulate_text(2 + seed % 2, seed, "italian", rounds=1, deck=seed % 2 == 0, long_round=False)
        if any(line.strip() == "pass" for line in text.split("\n")):
            p = 2 + seed % 2
            out.append(
                Entry(
                    f"i_game_{p}p_italian_pass_seed{seed}",
                    _strip_header(text),
                    {"verdicts": {"italian": L, "official": I}},
                )
            )
            n += 1
    n = 0
    for seed in range(1, 60):
        if n == 2:
            break
        p = 2 + seed % 2
        text = simulate_text(
            p, seed, "bosnian", rounds=None, game=True, deck=seed % 2 == 1, target=30, long_round=False
        )
        dealers, winners = _winners_and_dealers(text)
        if any(d != w for d, w in zip(dealers[1:], winners, strict=False)):
            out.append(
                Entry(
                    f"i_game_{p}p_bosnian_dealer_left_seed{seed}",
                    _strip_header(text),
                    {"verdicts": {"bosnian": L, "official": I}},
                )
            )
            n += 1
    return out


ENGINE_SEEDS = range(1, 120)  # searched in order for a game that shows the option's choice


def _i_engine_entries() -> list[Entry]:
    """The engine options V12-V17: for each value, the first simulated game (official otherwise)
    that shows it, legal under that value and illegal under the other; and one game with every
    departure at once. The value is set from outside (`option` lines taken out)."""
    from ...spec import load_spec
    from .check import check
    from .simulate import simulate_text

    spec = load_spec("dos")
    engine = {k: list(v["values"]) for k, v in spec.options.items() if v.get("engine")}
    L, I = "legal", "illegal"  # noqa: E741 (the tables below read as a grid of L and I)

    def verdict(text: str, options: dict) -> str:
        return check(text, options=options).verdict

    def run(options: dict, want: str) -> dict:
        return {"ruleset": "official", "options": options, "verdict": want}

    out = []
    for key, values in engine.items():
        for value in values:
            other = next(v for v in values if v != value)
            for seed in ENGINE_SEEDS:
                p = 2 + seed % 3
                text = _strip_header(
                    simulate_text(
                        p,
                        seed,
                        options={key: value},
                        deck=seed % 2 == 0,
                        long_round="thin" if key == "discard-matched" else False,
                    )
                )
                if len(text) < 11_000 and verdict(text, {key: value}) == L and verdict(text, {key: other}) == I:
                    official = L if value == spec.options[key]["default"] else I
                    out.append(
                        Entry(
                            f"i_engine_{key}_{value}_{p}p_seed{seed}",
                            text,
                            {
                                "verdicts": {"official": official},
                                "options": [run({key: value}, L), run({key: other}, I)],
                            },
                        )
                    )
                    break
            else:
                raise RuntimeError(f"no simulated game in seeds {ENGINE_SEEDS} shows {key}={value}")
    every = {k: v[1] for k, v in engine.items()}  # each engine's departure (the `official` value first)
    for seed in ENGINE_SEEDS:
        p = 2 + seed % 3
        text = _strip_header(simulate_text(p, seed, options=every, long_round="thin"))
        if (
            len(text) < 11_000
            and verdict(text, every) == L
            and sum(verdict(text, {**every, k: engine[k][0]}) == I for k in engine) >= 4
        ):
            out.append(
                Entry(
                    f"i_engine_every_departure_{p}p_seed{seed}",
                    text,
                    {"verdicts": {"official": I}, "options": [run(every, L)]},
                )
            )
            break
    return out


def generate() -> list[Entry]:
    ys, ns = _rule_fixtures()
    entries = _y_games() + ys + _n_mutations() + ns + _i_entries() + _i_engine_entries()
    names = [e.name for e in entries]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise RuntimeError(f"duplicate corpus names: {sorted(dup)}")
    return sorted(entries, key=lambda e: e.name)


def _counts_text(entries: list[Entry]) -> str:
    y = sum(e.category == "y" for e in entries)
    n = sum(e.category == "n" for e in entries)
    i = [e for e in entries if e.category == "i"]
    runs = 0
    for e in i:
        assert e.expected is not None  # every i_ entry carries its verdicts
        runs += len(e.expected["verdicts"]) + len(e.expected.get("options", ()))
    return f"This corpus: {y} y_ logs, {n} n_ logs, {len(i)} i_ logs ({runs} ruleset and option runs)."


def readme_text(entries: list[Entry]) -> str:
    from ... import __version__
    from ...spec import load_spec

    title = f"DOS conformance corpus (dosverify {__version__}, rules specification {load_spec('dos').version})"
    return README.format(title=title, rule="=" * len(title), counts=_counts_text(entries))


def _dump(obj: dict) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def render(entries: list[Entry]) -> dict[str, bytes]:
    """The corpus as {file name: bytes}."""
    files: dict[str, bytes] = {}
    for e in entries:
        if isinstance(e.text, bytes):
            files[e.name + ".log"] = e.text
        else:
            files[e.name + ".log"] = (e.text if e.text.endswith("\n") else e.text + "\n").encode("utf-8")
        if e.expected is not None:
            files[e.name + ".expected.json"] = _dump(e.expected).encode("utf-8")
    files["README.txt"] = readme_text(entries).encode("utf-8")
    return files


def _is_corpus_file(p: Path) -> bool:
    return p.is_file() and (p.name[:2] in ("y_", "n_", "i_") or p.name == "README.txt")


def write_corpus(files: dict[str, bytes], directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for p in directory.iterdir():
        if _is_corpus_file(p) and p.name not in files:
            p.unlink()
    for name, data in files.items():
        path = directory / name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)


def build(directory: Path = DEFAULT_DIR) -> dict[str, bytes]:
    files = render(generate())
    write_corpus(files, directory)
    return files


# ---- loading -----------------------------------------------------------------------------------


@dataclass
class Case:
    file: Path
    category: str  # y, n, i
    expect: str  # accept / reject (verdict class)
    verdict: str | None = None  # the exact verdict expected (n_, i_)
    rule: str | None = None
    kind: str | None = None
    line: int | None = None
    ruleset: str | None = None  # i_ only
    options: tuple[tuple[str, str], ...] = ()  # i_engine_ runs: options set from outside

    @property
    def label(self) -> str:
        opts = "".join(f" {k}={v}" for k, v in self.options)
        return self.file.name + (f" [{self.ruleset}{opts}]" if self.ruleset else "")

    def describe(self) -> str:
        if self.category == "y":
            return "accept (legal)"
        if self.category == "i":
            return f"{self.expect} ({self.verdict})"
        return f"reject ({self.verdict} {self.rule} line {self.line})"


def load_cases(directory: Path, patterns: list[str] | None = None) -> list[Case]:
    cases: list[Case] = []
    for log in sorted(directory.glob("*.log")):
        if log.name[:2] not in ("y_", "n_", "i_"):
            continue
        if patterns and not any(fnmatch.fnmatch(log.name, pat) for pat in patterns):
            continue
        exp_path = log.with_name(log.stem + ".expected.json")
        exp = json.loads(exp_path.read_text(encoding="utf-8")) if exp_path.exists() else {}
        cat = log.name[0]
        if cat == "y":
            cases.append(Case(log, "y", "accept", "legal"))
        elif cat == "n":
            cases.append(
                Case(log, "n", "reject", exp.get("verdict"), exp.get("rule"), exp.get("kind"), exp.get("line"))
            )
        else:
            for rs, v in exp.get("verdicts", {}).items():
                cases.append(Case(log, "i", "accept" if v == "legal" else "reject", v, ruleset=rs))
            for run in exp.get("options", ()):
                v = run["verdict"]
                cases.append(
                    Case(
                        log,
                        "i",
                        "accept" if v == "legal" else "reject",
                        v,
                        ruleset=run["ruleset"],
                        options=tuple(run["options"].items()),
                    )
                )
    return cases


def sample(cases: list[Case], n: int) -> list[Case]:
    """About `n` cases spread evenly over each category (deterministic)."""
    if n <= 0 or n >= len(cases):
        return cases
    out = []
    for cat in ("y", "n", "i"):
        group = [c for c in cases if c.category == cat]
        k = max(1, round(n * len(group) / len(cases))) if group else 0
        step = len(group) / k if k else 1
        out += [group[int(j * step)] for j in range(k)]
    return out


# ---- running a checker --------------------------------------------------------------------------


@dataclass
class Outcome:
    accepted: bool | None  # None: no answer (timeout, crash, transport error)
    report: dict | None = None
    detail: str = ""


@dataclass
class Result:
    case: Case
    outcome: Outcome
    passed: bool
    why: str = ""


def _find_report(out: str) -> dict | None:
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if isinstance(obj, dict) and "verdict" in obj:
                return obj
    return None


def cmd_checker(
    template: str, ruleset_flag: str, timeout: float, option_flag: str = "--option {key}={value}"
) -> Callable[[Case], Outcome]:
    tokens = shlex.split(template)
    if not any("{file}" in t for t in tokens):
        tokens.append("{file}")

    def run(case: Case) -> Outcome:
        flag = shlex.split(ruleset_flag.replace("{ruleset}", case.ruleset)) if case.ruleset else []
        argv: list[str] = []
        for t in tokens:
            if t == "{ruleset_flag}":
                argv += flag
            else:
                argv.append(t.replace("{file}", str(case.file)))
        if flag and "{ruleset_flag}" not in tokens:
            argv += flag
        for key, value in case.options:
            argv += shlex.split(option_flag.replace("{key}", key).replace("{value}", value))
        try:
            proc = subprocess.run(argv, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return Outcome(None, detail=f"timeout after {timeout:g} s")
        except OSError as exc:
            return Outcome(None, detail=f"cannot run: {exc}")
        if proc.returncode < 0:
            return Outcome(None, detail=f"killed by signal {-proc.returncode}")
        out = proc.stdout.decode("utf-8", errors="replace")
        return Outcome(proc.returncode == 0, _find_report(out), f"exit {proc.returncode}")

    return run


def url_checker(url: str, timeout: float) -> Callable[[Case], Outcome]:
    def run(case: Case) -> Outcome:
        target = url
        params: dict[str, str | list[str]] = {"name": case.file.name}
        if case.ruleset:
            params["ruleset"] = case.ruleset
        if case.options:
            params["option"] = [f"{k}={v}" for k, v in case.options]
        target += ("&" if urllib.parse.urlparse(url).query else "?") + urllib.parse.urlencode(params, doseq=True)
        req = urllib.request.Request(
            target, data=case.file.read_bytes(), method="POST", headers={"Content-Type": "text/plain; charset=utf-8"}
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                body = resp.read()
        except urllib.error.HTTPError as exc:
            return Outcome(None, detail=f"HTTP {exc.code}")
        except (urllib.error.URLError, OSError) as exc:
            return Outcome(None, detail=f"no answer: {getattr(exc, 'reason', exc)}")
        try:
            rep = json.loads(body)
        except ValueError:
            return Outcome(None, detail="the answer is not JSON")
        if not isinstance(rep, dict) or rep.get("verdict") not in ("legal", "illegal", "malformed"):
            return Outcome(None, detail="the answer has no verdict")
        return Outcome(rep["verdict"] == "legal", rep, f"verdict {rep['verdict']}")

    return run


def api_checker() -> Callable[[Case], Outcome]:
    from .check import check

    def run(case: Case) -> Outcome:
        rep = json.loads(
            check(
                case.file.read_bytes(), name=case.file.name, ruleset=case.ruleset, options=dict(case.options) or None
            ).to_json_line()
        )
        return Outcome(rep["verdict"] == "legal", rep, f"verdict {rep['verdict']}")

    return run


def _first_line(findings: list[dict]) -> int | None:
    lines = [f["line"] for f in findings if isinstance(f, dict) and f.get("line") is not None]
    return min(lines) if lines else None


def grade(case: Case, out: Outcome, strict: bool) -> Result:
    if out.accepted is None:
        return Result(case, out, False, out.detail)
    want_accept = case.expect == "accept"
    if out.accepted != want_accept:
        return Result(case, out, False, f"{'accept' if out.accepted else 'reject'} ({out.detail})")
    if strict and out.report is not None:
        got_v = out.report.get("verdict")
        if case.verdict and got_v != case.verdict:
            return Result(case, out, False, f"verdict {got_v}")
        if case.category == "n" and case.rule:
            fs = [f for f in out.report.get("findings") or [] if isinstance(f, dict)]
            first = _first_line(fs)
            at = sorted({f.get("rule") for f in fs if f.get("line") == first}, key=str)
            if first != case.line or case.rule not in at:
                got = f"first finding line {first}: {', '.join(map(str, at)) or 'none'}"
                return Result(case, out, False, got)
    return Result(case, out, True)


def run_cases(
    cases: list[Case], checker: Callable[[Case], Outcome], strict: bool = False, jobs: int = 1
) -> list[Result]:
    def one(case: Case) -> Result:
        try:
            out = checker(case)
        except Exception as exc:  # a checker bug is a failed case, not a crash of the runner
            out = Outcome(None, detail=f"{exc.__class__.__name__}: {exc}")
        return grade(case, out, strict)

    jobs = max(1, min(jobs, 32))
    if jobs == 1:
        return [one(c) for c in cases]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, cases))


def table(results: list[Result]) -> str:
    rows = [("category", "passed", "failed", "total")]
    names = {"y": "y (accept)", "n": "n (reject)", "i": "i (per ruleset)"}
    tp = tf = 0
    for cat in ("y", "n", "i"):
        rs = [r for r in results if r.case.category == cat]
        p = sum(r.passed for r in rs)
        rows.append((names[cat], str(p), str(len(rs) - p), str(len(rs))))
        tp += p
        tf += len(rs) - p
    rows.append(("total", str(tp), str(tf), str(tp + tf)))
    w = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = [f"{r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]:>{w[2]}}  {r[3]:>{w[3]}}" for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - 1, "-" * len(lines[0]))
    return "\n".join(lines)


# ---- golden playthroughs (the command lives here too) -------------------------------------------


def _golden(args) -> int:
    from .golden import main as golden_main

    return golden_main((["--update"] if args.update else []) + (["--dir", str(args.dir)] if args.dir else []))


# ---- the command line ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = SuggestingParser(
        prog="dosverify corpus",
        description="The conformance corpus: y_ logs to accept, "
        "n_ logs to reject, i_ logs whose verdict depends on the ruleset.",
    )
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True

    b = sub.add_parser("build", help="regenerate the corpus (deterministic)")
    b.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"where (default {DEFAULT_DIR})")
    b.add_argument("--check", action="store_true", help="write nothing; exit 1 when DIR differs from a fresh build")

    e = sub.add_parser("export", help="copy the corpus and a README.txt to DIR, for engine authors")
    e.add_argument("dest", type=Path, metavar="DIR")
    e.add_argument("--dir", type=Path, default=None, help="the corpus to copy (default: the bundled one)")

    r = sub.add_parser("run", help="run a checker over the corpus and print a pass table")
    r.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the corpus (default: the bundled one)")
    how = r.add_mutually_exclusive_group(required=True)
    how.add_argument("--cmd", help="a command; {file} is the log's path (appended when absent); accept = exit 0")
    how.add_argument("--url", help="POST each log (text/plain) here, e.g. http://127.0.0.1:8000/v1/check")
    how.add_argument("--api", action="store_true", help="this dosverify, in process")
    r.add_argument(
        "--ruleset-flag",
        default="--ruleset {ruleset}",
        help="with --cmd, how i_ files choose a ruleset (default '--ruleset {ruleset}'); "
        "placed at {ruleset_flag} in --cmd, else appended",
    )
    r.add_argument(
        "--option-flag",
        default="--option {key}={value}",
        help="with --cmd, how i_engine_ files set an option (default '--option {key}={value}'), "
        "appended once per option",
    )
    r.add_argument(
        "--strict",
        action="store_true",
        help="grade a JSON report also on the exact verdict and the first finding's rule and line",
    )
    r.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per file (default 20)")
    r.add_argument("-j", "--jobs", type=int, default=4, help="files run at once (1-32, default 4)")
    r.add_argument("--match", action="append", metavar="GLOB", help="only files matching GLOB (repeatable)")
    r.add_argument("--sample", type=int, default=0, metavar="N", help="only about N cases, spread over the categories")
    r.add_argument("-q", "--quiet", action="store_true", help="the table and the failures only")

    g = sub.add_parser("golden", help="check the golden playthroughs against a fresh replay; --update rewrites them")
    g.add_argument("--update", action="store_true")
    g.add_argument(
        "--dir", type=Path, default=None, help="the golden files (default: fixtures/dos/golden/ of the checkout)"
    )
    return p


def main_corpus(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if args.cmd in ("build", "golden"):
        from ...resources import checkout, needs_checkout

        if checkout() is None and (args.cmd == "build" or args.dir is None):
            print(
                needs_checkout(f"`corpus {args.cmd}`" if args.cmd == "build" else "`corpus golden` without --dir"),
                file=sys.stderr,
            )
            return 2
    if args.cmd == "build":
        t0 = time.monotonic()
        files = render(generate())
        if args.check:
            have = (
                {p.name: p.read_bytes() for p in args.dir.iterdir() if _is_corpus_file(p)} if args.dir.is_dir() else {}
            )
            diff = sorted(set(have) ^ set(files)) + sorted(n for n in files if n in have and have[n] != files[n])
            if diff:
                print(
                    f"{args.dir}: differs from a fresh build in {plural(len(diff), 'file')}: {', '.join(diff[:10])}"
                    f"{' ...' if len(diff) > 10 else ''}\n(run `dosverify corpus build`)",
                    file=sys.stderr,
                )
                return 1
            print(f"{args.dir}: up to date ({len(files)} files)")
            return 0
        write_corpus(files, args.dir)
        print(f"wrote {len(files)} files to {args.dir} in {time.monotonic() - t0:.1f} s")
        return 0
    if args.cmd == "export":
        src = args.dir or DEFAULT_DIR
        if src.is_dir() and any(src.glob("y_*.log")):
            files = {p.name: p.read_bytes() for p in sorted(src.iterdir()) if _is_corpus_file(p)}
        else:
            files = render(generate())
        if "README.txt" not in files:
            files["README.txt"] = readme_text([]).encode("utf-8")
        args.dest.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            (args.dest / name).write_bytes(data)
        print(f"exported {len(files)} files to {args.dest} (see {args.dest / 'README.txt'})")
        return 0
    if args.cmd == "golden":
        return _golden(args)
    # run
    if not args.dir.is_dir():
        print(f"dosverify corpus: no corpus at {args.dir}", file=sys.stderr)
        return 2
    cases = sample(load_cases(args.dir, args.match), args.sample)
    if not cases:
        print(f"dosverify corpus: no cases in {args.dir}", file=sys.stderr)
        return 2
    if args.url:
        checker, what = url_checker(args.url, args.timeout), args.url
    elif args.api:
        checker, what = api_checker(), "dosverify (in process)"
    else:
        checker, what = cmd_checker(args.cmd, args.ruleset_flag, args.timeout, args.option_flag), args.cmd
    t0 = time.monotonic()
    results = run_cases(cases, checker, args.strict, args.jobs)
    dt = time.monotonic() - t0
    print(f"{what}: {plural(len(cases), 'case')} from {args.dir}{' (strict)' if args.strict else ''} in {dt:.1f} s\n")
    print(table(results))
    failed = [r for r in results if not r.passed]
    if failed:
        print(f"\nfailures ({len(failed)}):")
        for r in failed:
            print(f"  {r.case.label}: expected {r.case.describe()}, got {r.why}")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main_corpus())
