"""A second engine: the simulator playing random combinations of the engine options V12-V17, its logs
written as such a program writes them (no `option` lines, `simulate --as-program`), issue 20 items 9-10.

(a) Its logs are legal under its options, and `profile` finds options under which they are all legal
(the engine's own wherever the logs narrow an option to one value). (b) Judged under `official`, its
departures are found at their lines: at least 95% of them, and other findings at most 5% of them.
`DOSVERIFY_PROGRAM_SETS` sets how many programs (random combinations, default 6),
`DOSVERIFY_PROGRAM_LOGS` the logs of each (default 4), `DOSVERIFY_PROGRAM_GAMES` the games of (b)
(default 60)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter

from tiers import count

from dosverify.api import check
from dosverify.games.dos.profile import profile
from dosverify.games.dos.simulate import Sim, program_text
from dosverify.spec import load_spec

SPEC = load_spec("dos")
ENGINE = {k: list(v["values"]) for k, v in SPEC.options.items() if v.get("engine")}
SETS = int(os.environ.get("DOSVERIFY_PROGRAM_SETS", "6"))
LOGS = int(os.environ.get("DOSVERIFY_PROGRAM_LOGS", "4"))
GAMES = count("DOSVERIFY_PROGRAM_GAMES", 60, 20)
ALL_SIX = {k: vals[1] for k, vals in ENGINE.items()}  # every departure at once, as the program
BOTH = "hand emptied by a Double Color Match whose draws are made at once"


def programs(n: int, seed: int = 20) -> list[dict]:
    """n random combinations of the engine options; the first is the program of every departure."""
    rng = random.Random(seed)
    return [ALL_SIX] + [{k: rng.choice(v) for k, v in ENGINE.items()} for _ in range(n - 1)]


def game(options: dict, n: int, seed: int) -> Sim:
    return Sim(2 + n % 3, seed, options=options, rounds=2, deck=n % 4 != 3).play()


def test_program_logs_are_legal_and_profile_finds_options_that_explain_them() -> None:
    exact = narrowed = 0
    for s, options in enumerate(programs(SETS)):
        sims = [game(options, n, 7000 * s + n) for n in range(LOGS)]
        for n, sim in enumerate(sims):
            report = check(sim.to_text().encode(), name=f"p{s}g{n}.log")
            assert report.verdict == "legal", (options, n, [(f.line, f.rule, f.message) for f in report.findings])
        prof = profile([(f"p{s}g{n}", program_text(sim)[0]) for n, sim in enumerate(sims)])
        assert prof["legal"], (options, prof["inferred"], prof["verdicts"])
        for key, value in options.items():
            r = prof["options"][key]
            if len(r["values"]) == 1:  # the logs decide it: the engine's own value
                assert r["values"] == [value] == [prof["inferred"][key]], (key, options, r)
                narrowed += 1
            else:
                assert value in r["values"], (key, options, r)
            exact += prof["inferred"][key] == value
    total = SETS * len(ENGINE)
    print(f"\n{SETS} programs: {exact} of {total} engine options inferred exactly, {narrowed} decided by the logs")
    assert narrowed >= total // 2  # the logs show most choices: the test compares something


def test_departures_found_at_their_lines_under_official() -> None:
    """Rates over GAMES games of random programs (a third of them the program of every departure)."""
    wanted = found = extra = 0
    kinds: Counter = Counter()
    moments: Counter = Counter()
    progs = programs(max(3, GAMES // 3))
    for n in range(GAMES):
        options = ALL_SIX if n % 3 == 0 else progs[1 + n % (len(progs) - 1)]
        sim = game(options, n, 90000 + n)
        moments.update(sim.moments)
        text, departures = program_text(sim)
        want = Counter(departures)
        got = Counter((f.line, f.kind, f.rule) for f in check(text.encode()).findings if f.severity == "error")
        wanted += sum(want.values())
        found += sum((want & got).values())
        extra += sum((got - want).values())
        kinds.update(rule for _, _, rule in departures)
    print(f"\n{GAMES} games: {wanted} departures, {found} found at their lines, {extra} other findings; {dict(kinds)}")
    assert wanted > 0 and moments[BOTH] > 0, moments  # departures, and rounds that end on at-once draws
    assert found >= 0.95 * wanted, (found, wanted)
    assert extra <= 0.05 * wanted, (extra, wanted)


def test_round_ending_on_at_once_draws_is_legal_and_official_finds_its_departures() -> None:
    """V12 + V15 (digest, after V17): the simulator writes the draws, then ends the round; legal under
    both options, and under `official` each of those games gets exactly its departures."""
    options = {"dcm-draws": "at-once", "round-end": "at-once"}
    seen = 0
    for seed in range(400):
        sim = Sim(2 + seed % 3, seed, options=options, rounds=1, long_round=False).play()
        if not sim.moments[BOTH]:
            continue
        seen += 1
        assert check(sim.to_text().encode()).verdict == "legal", seed
        text, departures = program_text(sim)
        got = sorted((f.line, f.kind, f.rule) for f in check(text.encode()).findings if f.severity == "error")
        assert got == departures, (seed, got, departures)
        if seen == 8:
            break
    assert seen == 8


def test_simulate_as_program_and_departures_cli(tmp_path) -> None:
    log, dep = tmp_path / "p.log", tmp_path / "p.json"
    args = ["--seed", "4", "--rounds", "2", "--as-program", "--departures", str(dep), "-o", str(log)]
    for key, value in ALL_SIX.items():
        args += ["--option", f"{key}={value}"]
    r = subprocess.run(
        [sys.executable, "-m", "dosverify", "simulate", *args], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    text = log.read_text()
    assert "option " not in text
    want = sorted((d["line"], d["kind"], d["rule"]) for d in json.loads(dep.read_text()))
    got = sorted((f.line, f.kind, f.rule) for f in check(text.encode()).findings if f.severity == "error")
    assert want and got == want
    assert check(text.encode(), options=ALL_SIX).verdict == "legal"
    bad = subprocess.run(
        [sys.executable, "-m", "dosverify", "simulate", "--as-program", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_profile_decides_round_end_together_with_dcm_draws() -> None:
    """Issue 20 item 9: logs whose rounds end on a Double Color Match with at-once draws. Decided alone,
    round-end kept end-of-turn and the logs stayed illegal; together with dcm-draws, both are at-once."""
    logs = []
    for seed in range(300):
        sim = Sim(2 + seed % 3, 3000 + seed, options=ALL_SIX, rounds=1, long_round=False).play()
        if sim.moments[BOTH] and sim.rounds[0]["score"]:
            logs.append((f"g{seed}", program_text(sim)[0]))
        if len(logs) == 3:
            break
    assert len(logs) == 3
    prof = profile(logs)
    assert prof["legal"], prof["verdicts"]
    assert prof["inferred"]["round-end"] == prof["inferred"]["dcm-draws"] == "at-once"
