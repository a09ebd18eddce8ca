"""The command line on hostile or careless input (issue 22, item 8): every case ends at once with
one line on standard error and the documented exit code, never a traceback, never a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEGAL = (ROOT / "fixtures/dos/notation/example.log").read_bytes()
EMPTY_ROUNDS = b"dos 1\nplayers ann bob\n" + b"".join(b"round %d\n" % i for i in range(1, 41))


def run(*args: str, stdin: bytes | None = None, cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", *args], input=stdin, capture_output=True, cwd=cwd, timeout=timeout
    )


def one_line(r: subprocess.CompletedProcess) -> str:
    err = r.stderr.decode()
    assert "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_device_is_refused_at_once():
    r = run("check", "/dev/zero", timeout=20)
    assert r.returncode == 2 and "a device" in one_line(r)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_named_or_in_a_folder_is_refused_at_once(tmp_path):
    (tmp_path / "a.log").write_bytes(LEGAL)
    os.mkfifo(tmp_path / "b.log")  # nobody ever writes to it: reading it would hang
    r = run("check", "-q", str(tmp_path / "b.log"), timeout=20)
    assert r.returncode == 2 and "FIFO" in one_line(r)
    r = run("check", "-q", str(tmp_path), timeout=20)
    assert r.returncode == 2 and b"a.log: legal" in r.stdout and "b.log" in one_line(r)


def test_standard_input_and_files_are_read_up_to_max_log_bytes(tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes(LEGAL + b"# padding\n" * 120_000)  # over 1 MiB, the service's limit
    for args, stdin in ((("check", str(big)), None), (("check", "-"), big.read_bytes())):
        r = run(*args, stdin=stdin)
        assert r.returncode == 2 and "--max-log-bytes" in one_line(r)
    assert run("check", "-q", "--max-log-bytes", "0", str(big)).returncode == 0
    r = run("check", "-q", "--max-log-bytes", "100", "-", stdin=LEGAL)
    assert r.returncode == 2 and "larger than 100 bytes" in one_line(r)


@pytest.mark.parametrize(
    "args",
    [
        ("convert", "{legal}", "-o", "{missing}/x.json"),
        ("simulate", "--seed", "1", "-o", "{missing}/x.log"),
        ("hide", "{legal}", "-o", "{missing}/x.log"),
        ("check", "-q", "{legal}", "--witness", "{missing}/w.log"),
    ],
    ids=lambda a: a[0],
)
def test_a_missing_output_folder_is_one_line_and_exit_2(tmp_path, args):
    legal = tmp_path / "legal.log"
    legal.write_bytes(LEGAL)
    r = run(*(a.format(legal=legal, missing=tmp_path / "nowhere") for a in args))
    assert r.returncode == 2 and "cannot write" in r.stderr.decode() and "Traceback" not in r.stderr.decode()


def test_replay_into_a_closed_pipe_is_quiet(tmp_path):
    legal = tmp_path / "legal.log"
    legal.write_bytes(LEGAL)
    p = subprocess.Popen(
        [sys.executable, "-m", "dosverify", "replay", str(legal)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    p.stdout.readline()  # `head -1`
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_replay_of_a_round_the_log_has_not_is_an_error(tmp_path):
    legal = tmp_path / "legal.log"
    legal.write_bytes(LEGAL)
    r = run("replay", str(legal), "--round", "2")
    assert r.returncode == 2 and "no round 2" in one_line(r) and r.stdout == b""
    r = run("replay", str(legal), "--round", "1", "--turn", "999")
    assert r.returncode == 2 and "no turn 999" in one_line(r)


def test_files_in_a_folder_that_are_no_log_are_skipped_and_counted(tmp_path):
    (tmp_path / "game.log").write_bytes(LEGAL)
    (tmp_path / "README.txt").write_text("How these logs were made.\n")
    (tmp_path / "notes.log").write_text("# notes\nround one went badly\n")
    (tmp_path / "empty.log").write_text("")  # an empty log is still judged (malformed)
    r = run("check", "-q", "--statistics", str(tmp_path))
    err = r.stderr.decode()
    assert "skipped 2 files" in err and "README.txt" in err and "notes.log" in err, err
    assert b"empty.log: malformed" in r.stdout and b"game.log: legal" in r.stdout
    assert b"2 files found in folders skipped" in r.stdout
    only = tmp_path / "docs"
    only.mkdir()
    (only / "README.txt").write_text("nothing here\n")
    r = run("check", str(only))
    assert r.returncode == 2 and "no logs found" in r.stderr.decode()


def test_select_and_ignore_say_how_many_findings_they_hid(tmp_path):
    log = tmp_path / "rounds.log"
    log.write_bytes(EMPTY_ROUNDS)
    whole = json.loads(run("check", "--format", "json", "--max-errors", "0", str(log)).stdout)
    r = run("check", "-q", "--ignore", "setup,round,score", str(log))
    hidden = sum(1 for f in whole["findings"] if f["rule"].split(".")[0] in ("setup", "round", "score"))
    assert hidden and f"--ignore left out {hidden} findings" in r.stderr.decode()
    r = run("check", "-q", str(log))
    assert b"left out" not in r.stderr


def test_max_errors_keeps_the_counts_of_all_findings(tmp_path):
    log = tmp_path / "rounds.log"
    log.write_bytes(EMPTY_ROUNDS)
    whole = json.loads(run("check", "--format", "json", "--max-errors", "0", str(log)).stdout)
    capped = json.loads(run("check", "--format", "json", "--max-errors", "3", str(log)).stdout)
    assert capped["findings"] == whole["findings"][:3]
    assert capped["truncated"] == len(whole["findings"]) - 3
    text = run("check", "--max-errors", "3", str(log)).stdout.decode()
    assert f"{len(whole['findings']) - 3} more findings not shown" in text
    assert f"illegal: {len(whole['findings'])} errors" in text


def test_a_cr_only_file_prints_no_raw_cr(tmp_path):
    log = tmp_path / "mac.log"
    log.write_bytes(LEGAL.replace(b"\n", b"\r"))
    r = run("check", str(log))
    assert r.returncode == 2 and b"\r" not in r.stdout and b"carriage return alone" in r.stdout


def test_control_characters_are_shown_not_sent_to_the_terminal(tmp_path):
    log = tmp_path / "esc.log"
    log.write_bytes(b"dos 1\nplayers ann bob\x1b[31m\n")
    r = run("check", str(log))
    assert b"\x1b" not in r.stdout and "\u241b".encode() in r.stdout


def test_nul_bytes_are_not_utf16(tmp_path):
    log = tmp_path / "zeros.log"
    log.write_bytes(b"\0" * (1 << 20))
    r = run("check", "--format", "json", str(log))
    d = json.loads(r.stdout)
    assert d["verdict"] == "malformed" and not any("UTF-16" in f["message"] for f in d["findings"])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_symlink_loop_is_not_a_broken_link(tmp_path):
    (tmp_path / "a.log").symlink_to(tmp_path / "b.log")
    (tmp_path / "b.log").symlink_to(tmp_path / "a.log")
    (tmp_path / "c.log").symlink_to(tmp_path / "nowhere.log")
    r = run("check", "-q", str(tmp_path))
    err = r.stderr.decode()
    assert r.returncode == 2
    assert "a.log: a symbolic link in a loop" in err and "c.log: a broken symbolic link" in err, err
