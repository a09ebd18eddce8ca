"""The service as a benchmark starts and stops it (bench/run.py, bench/load.py): a free
loopback port, a bounded wait for /healthz, and a stop that always ends the process."""

from __future__ import annotations

import socket
import subprocess
import time


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(server: subprocess.Popen, base: str, timeout: float = 30.0, log: str = "") -> dict:
    """/healthz's answer once the server gives one; RuntimeError if it exits or stays silent
    for ``timeout`` seconds (``log`` names where its output went)."""
    import httpx

    where = f"; see {log}" if log else ""
    deadline = time.monotonic() + timeout
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}{where}")
        try:
            r = httpx.get(base + "/healthz", timeout=1.0)
            if r.status_code == 200:
                return r.json()
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer /healthz within {timeout:g} s{where}")
        time.sleep(0.1)


def stop(server: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGTERM (uvicorn stops its workers and exits), then SIGKILL past ``timeout`` seconds."""
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout)
