"""`dosverify replay` shows the replayed table after each turn with the findings at their turn;
`dosverify fmt` writes a log in canonical form without changing the game, and `--check` fails
CI on a log that would change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from dosverify.games.dos.fmt import format_text

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "fixtures/dos/notation/example.log"
ILLEGAL = ROOT / "fixtures/dos/digest/s1-example1-illegal.log"
GOLDEN = ROOT / "fixtures/dos/golden"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args], input=stdin, capture_output=True, cwd=ROOT, timeout=120
    )


def test_replay_json_is_the_golden_states() -> None:
    """The states replay prints are the referee's snapshots (the golden playthroughs store them)."""
    for log in sorted(GOLDEN.glob("*.log"))[:2]:
        r = run("replay", "--format", "json", str(log))
        assert r.returncode == 0, r.stderr
        lines = [json.loads(x) for x in r.stdout.decode().splitlines()]
        states, tail = lines[:-1], lines[-1]
        assert [s["round"] for s in states if s["score"]] == sorted({s["round"] for s in states})  # each round's end
        assert tail["states"] == len(states)
        states = [s for s in states if not s["score"]]
        stored = [json.loads(x) for x in log.with_suffix(".states.jsonl").read_text().splitlines()]
        keys = ("round", "turn", "player", "center", "draw_pile", "discard_pile", "round_over")
        assert [{k: s[k] for k in keys} for s in states] == [{k: s[k] for k in keys} for s in stored]
        assert [{p: seat["hand"] for p, seat in s["seats"].items()} for s in states] == [s["hands"] for s in stored]
        assert [{p: seat["total"] for p, seat in s["seats"].items()} for s in states] == [s["totals"] for s in stored]
        assert tail["verdict"] == "legal"


def test_replay_puts_a_finding_at_its_turn() -> None:
    r = run("replay", "--format", "json", str(ILLEGAL))
    assert r.returncode == 1
    states = [json.loads(x) for x in r.stdout.decode().splitlines()][:-1]
    with_findings = [(s["round"], s["turn"]) for s in states if s["findings"]]
    assert with_findings == [(1, 3)]
    assert states[2]["findings"][0]["rule"] == "turn.steps"
    text = run("replay", "--color", "never", "--round", "1", "--turn", "3", str(ILLEGAL)).stdout.decode()
    assert text.startswith("round 1, turn 3: bob played  (line 22)") and "error[draw-order] line 27:3" in text
    assert "turn 2:" not in text and "center row:" in text and "draw pile" in text


def test_replay_shows_the_score_and_totals_at_each_rounds_end() -> None:
    """After a round's last turn, `replay` prints the round's score and totals as the log writes them
    and as the referee counts them."""
    log = GOLDEN / "official_2p_deck_seed3.log"
    text = run("replay", "--color", "never", str(log)).stdout.decode()
    score = next(ln for ln in log.read_text().splitlines() if ln.startswith("score "))
    totals = next(ln for ln in log.read_text().splitlines() if ln.startswith("totals "))
    block = text.split("round 1: the score", 1)[1]
    assert "turn " not in block.split("\n\n")[0]  # after the round's last turn
    assert f"the log:     {score}; {totals}" in block
    player, points = score.split()[1:]
    assert f"the referee: points ann 0, bob {points}" in block and player == "bob"
    assert f"totals: ann 0, bob {points}" in block
    wrong = log.read_text().replace(score, f"score bob {int(points) + 2}")
    r = run("replay", "--color", "never", "-", stdin=wrong.encode())
    assert r.returncode == 1
    block = r.stdout.decode().split("round 1: the score", 1)[1]
    assert f"score bob {int(points) + 2}" in block and f"the referee: points ann 0, bob {points}" in block
    assert "(score.round)" in block


def test_fmt_keeps_canonical_logs_and_fixes_slips(tmp_path: Path) -> None:
    for log in [LEGAL, ILLEGAL, *sorted(GOLDEN.glob("*.log"))]:
        assert format_text(log.read_text()) == log.read_text(), log
    messy = (
        "dos 1\nplayers ann bob\nround 1\ndealer ann\nhand ann r3 B5 G10 Y1 W2 R# B7\n"
        "hand bob B3 B7 G3 Y4 G9 R1 R8\ncenter R3   B10\nturn bob\nmatch B10 with B3+b7#double\n    match R3 with G3\n"
    )
    f = tmp_path / "g.dos"
    f.write_text(messy)
    r = run("fmt", "--check", str(f))
    assert r.returncode == 1 and f"would reformat {f}" in r.stdout.decode() and f.read_text() == messy
    assert run("fmt", str(f)).returncode == 0
    assert f.read_text().splitlines()[4:] == [
        "hand ann R3 B5 G10 Y1 W2 R# B7",
        "hand bob B3 B7 G3 Y4 G9 R1 R8",
        "center R3 B10",
        "turn bob",
        "  match B10 with B3 + B7             #double",
        "  match R3 with G3",
    ]
    assert run("fmt", "--check", str(f)).returncode == 0
    assert format_text(f.read_text()) == f.read_text()


def test_fmt_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    f = tmp_path / "bad.log"
    f.write_text("dos 1\nplayers ann bob\nround 1\nzz qq\n")
    r = run("fmt", str(f))
    assert (
        r.returncode == 2
        and "left as it is" in r.stderr.decode()
        and f.read_text() == "dos 1\nplayers ann bob\nround 1\nzz qq\n"
    )


def test_fmt_writes_the_declarations_the_referee_reads(tmp_path: Path) -> None:
    """Generated games written without the declarations the favourable reading gives back: fmt
    declares every wild of every match, and the referee's verdict and findings stay the same."""
    import re

    from dosverify.api import check
    from dosverify.games.dos.render import render
    from dosverify.games.dos.simulate import simulate

    undeclared_wild = re.compile(r"(?<![^ ])(W2|[RGBY]#)(?![^ ])")
    stripped = 0
    for seed in range(12):
        text = render(
            simulate(2 + seed % 3, seed, ("official", "italian", "bosnian", "strict")[seed % 4], rounds=2),
            "undeclared",
            seed,
        ).text
        matches = [ln for ln in text.splitlines() if ln.strip().startswith("match")]
        stripped += sum(bool(undeclared_wild.search(ln)) for ln in matches)
        new = format_text(text)
        assert not [ln for ln in new.splitlines() if ln.strip().startswith("match") and undeclared_wild.search(ln)]
        assert [(f.line, f.rule) for f in check(new.encode()).findings] == [
            (f.line, f.rule) for f in check(text.encode()).findings
        ]
        assert check(new.encode()).verdict == "legal"
    assert stripped > 5, stripped  # the games did have undeclared wilds to declare
    f = tmp_path / "g.log"
    f.write_text(
        "dos 1\nplayers ann bob\nround 1\ndealer ann\nhand ann B3 W2 G# R1 R3 R4 R5\n"
        "hand bob B7 R1 R4 R5 R6 R7 R8\ncenter B5 R10\nturn bob\n  match B5 with  b3   +   W2\n"
    )
    assert run("fmt", "--check", str(f)).returncode == 1
    assert run("fmt", str(f)).returncode == 0
    assert "  match B5 with B3 + W2=B\n" in f.read_text()
