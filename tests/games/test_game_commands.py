"""The game commands take each game's logs as `check` does (issue 35 item 3): `fmt -` and
`replay -` read a UNO Duo log from standard input as they read it from a file, and `replay` takes
`--option` (plain or `GAME:KEY=VALUE`), judged against the log's game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNO = ROOT / "fixtures" / "uno-duo" / "examples" / "example-2.log"
DOS = ROOT / "fixtures" / "dos" / "notation" / "example.log"


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dosverify", *args], input=stdin, capture_output=True, timeout=120)


def test_fmt_and_replay_read_either_game_from_standard_input():
    for path in (UNO, DOS):
        data = path.read_bytes()
        from_stdin = _run("fmt", "-", stdin=data)
        assert from_stdin.returncode == 0 and not from_stdin.stderr, from_stdin.stderr
        assert from_stdin.stdout.startswith(data.split(b"\n", 1)[0])  # its own game's header, formatted
        again = _run("fmt", "-", stdin=from_stdin.stdout)
        assert again.stdout == from_stdin.stdout  # canonical: a second pass changes nothing
        replayed = _run("replay", "--format", "json", "-", stdin=data)
        assert replayed.returncode == _run("replay", "--format", "json", str(path)).returncode, replayed.stderr
        assert b"Traceback" not in replayed.stderr and replayed.stdout


def test_replay_takes_the_logs_games_options():
    same = _run("replay", "--option", "volley=must", "--option", "dos:dcm-draws=at-once", str(UNO))
    assert same.returncode == 0 and same.stdout.strip().endswith(b"legal (0 findings)")
    assert _run("replay", "--option", "dcm-draws=at-once", str(DOS)).returncode == 1  # that log's draws are end-of-turn
    wrong = _run("replay", "--option", "dos-call=off", str(UNO))
    assert wrong.returncode == 2 and b"not one of UNO Duo's" in wrong.stderr and b"Traceback" not in wrong.stderr
    near = _run("replay", "--option", "volley=mus", str(UNO))
    assert near.returncode == 2 and b"did you mean `must`?" in near.stderr


def test_fmt_is_one_command_for_every_game(tmp_path):
    """Issue 32 item 4: both games' `fmt` are the core's (dosverify/formatting.py) with the game's layout:
    the same refusals, the same `--check`, the byte-order mark dropped, a second pass a no-op."""
    for game, path in (("uno-duo", UNO), ("dos", DOS)):
        log = tmp_path / f"{game}.log"
        canonical = _run("fmt", "--game", game, "-", stdin=path.read_bytes()).stdout
        log.write_bytes(b"\xef\xbb\xbf" + canonical)
        would = _run("fmt", "--game", game, "--check", str(log))
        assert would.returncode == 1 and b"would reformat" in would.stdout, (game, would)
        done = _run("fmt", "--game", game, str(log))
        assert done.returncode == 0 and log.read_bytes() == canonical, (game, done)
        assert _run("fmt", "--game", game, "--check", str(log)).returncode == 0
        bad = tmp_path / f"{game}-bad.log"
        bad.write_bytes(canonical + b"this is no line of either game\n")
        refused = _run("fmt", "--game", game, str(bad))
        assert refused.returncode == 2 and b"left as it is: fix the lines above first" in refused.stderr, (
            game,
            refused,
        )
        assert bad.read_bytes().endswith(b"no line of either game\n")  # nothing written
        binary = tmp_path / f"{game}.bin"
        binary.write_bytes(b"\xff\xfe junk")
        assert b"is not UTF-8 text" in _run("fmt", "--game", game, str(binary)).stderr


def test_profile_runs_for_every_game_in_the_quick_tier():
    """The profile files are heavy (full tier only): this keeps each game's `profile` command, the
    core's reading of paths (files, `-`) and its `check with` line, in the quick tier."""
    for game, path in (("uno-duo", UNO), ("dos", DOS)):
        out = _run("profile", "--game", game, "--format", "json", str(path))
        assert out.returncode == 0, (game, out.stderr)
        assert b'"command": "dosverify check' in out.stdout
        piped = _run("profile", "--game", game, "-", stdin=path.read_bytes())
        assert piped.returncode == 0 and b"check with: dosverify check" in piped.stdout, (game, piped.stderr)
    missing = _run("profile", "--game", "dos", "nope.log")
    assert missing.returncode == 2 and b"nope.log: No such file or directory" in missing.stderr
