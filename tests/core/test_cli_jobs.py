"""Many files: `-j N` checks them in N processes with the output in input order, and a progress
bar appears on standard error when it is a terminal and there are many files."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dosverify", "check", *args], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_jobs_keep_the_input_order() -> None:
    one = _check(
        "--format", "json", "fixtures/dos/digest", "fixtures/dos/notation", "no/such.log", "fixtures/dos/golden"
    )
    two = _check(
        "-j",
        "3",
        "--format",
        "json",
        "fixtures/dos/digest",
        "fixtures/dos/notation",
        "no/such.log",
        "fixtures/dos/golden",
    )
    assert one.returncode == two.returncode == 2
    assert one.stdout == two.stdout and one.stdout.count("\n") > 10
    assert _check("-j", "0", "fixtures/dos/digest").returncode == 2


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    log = (ROOT / "fixtures/dos/notation/example.log").read_bytes()
    for i in range(25):
        (tmp_path / f"g{i:02}.log").write_bytes(log)
    master, slave = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "dosverify", "check", "-q", str(tmp_path)],
            stdout=subprocess.PIPE,
            stderr=slave,
            cwd=ROOT,
            timeout=300,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(slave)
        slave = -1
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        os.close(master)
        if slave != -1:
            os.close(slave)
    assert proc.returncode == 0
    assert proc.stdout.decode().count(": legal") == 25  # the reports, on standard output as ever
    assert b"checking" in err and b"/25" in err
    # not a terminal: no bar
    r = subprocess.run([sys.executable, "-m", "dosverify", "check", "-q", str(tmp_path)], capture_output=True, cwd=ROOT)
    assert r.stderr == b""
