"""Start and stop the real server (`python -m dosverify serve`) for the tests that need one:
a free loopback port, a bounded wait for /healthz, and always a stop."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(**extra: str) -> dict:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT) + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.pop("DOSVERIFY_MAX_LOG_BYTES", None)
    e.pop("DOSVERIFY_MAX_BATCH_ITEMS", None)
    e.update(extra)
    return e


def start_server(*extra: str, env: dict | None = None, log: IO | None = None) -> tuple[subprocess.Popen, str]:
    """Start the server; return (process, base URL) once /healthz answers. Raises RuntimeError
    (after stopping it) when it exits or does not answer within STARTUP_TIMEOUT. Its output goes
    to a pipe (``proc.stdout``), or to the file `log` when it may write more than a pipe holds
    unread (a pipe that fills stops the server at its next log line)."""
    port = free_port()
    cmd = [sys.executable, "-m", "dosverify", "serve", "--host", "127.0.0.1", "--port", str(port), *extra]
    out = subprocess.PIPE if log is None else log
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env or server_env(), stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while True:
        if proc.poll() is not None:
            out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{out}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=1.0) as r:
                if r.status == 200:
                    return proc, base
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_server(proc)
            raise RuntimeError(f"the server did not answer /healthz within {STARTUP_TIMEOUT} s")
        time.sleep(0.1)


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    if proc.stdout:
        proc.stdout.close()
