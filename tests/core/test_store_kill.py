"""Nothing acknowledged is lost: a real `dosverify serve` with its store, 8 clients submitting,
the server killed with SIGKILL (and its workers), started again on the same database: every
audit that got a 201 or a 200 is there once, with its exact bytes. And with PostgreSQL stopped
and started under load: the service answers 503 with Retry-After while it is away, never 500,
and again every acknowledged audit is there."""

from __future__ import annotations

import hashlib
import os
import signal
import threading
import time

import httpx
import storekit
from liveserver import server_env, start_server, stop_server
from storekit import game_logs

pg_server = storekit.pg_server
TOKEN = "kill-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}", "content-type": "text/plain"}
CLIENTS = 8


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _kill9(proc) -> None:
    """SIGKILL the server and, after it, its worker processes (orphans would hold the port's work)."""
    kids = _children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    for k in kids:
        try:
            os.kill(k, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if proc.stdout:
        proc.stdout.close()


class Clients:
    """CLIENTS threads each submitting its logs (some shared: the same bytes from two clients),
    keeping every acknowledged (status, audit id, bytes) and every other status seen."""

    def __init__(self, base: str, event: str, logs: list[bytes]) -> None:
        self.base, self.event, self.logs = base, event, logs
        self.acked: list[tuple[str, bytes]] = []
        self.other: list[tuple[int, dict]] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(CLIENTS)]

    def run(self, i: int) -> None:
        mine = self.logs[i::CLIENTS] + self.logs[(i + 1) % CLIENTS :: CLIENTS][:3]  # some bytes twice
        with httpx.Client(base_url=self.base, timeout=30) as http:
            for data in mine:
                if self.stop.is_set():
                    return
                try:
                    r = http.post(f"/v1/events/{self.event}/games", content=data, headers=AUTH)
                except httpx.HTTPError:
                    continue  # the server died under this request: not acknowledged
                with self.lock:
                    if r.status_code in (200, 201):
                        self.acked.append((r.json()["id"], data))
                    else:
                        self.other.append((r.status_code, dict(r.headers)))

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join(timeout=120)


def _serve(env_extra: dict, tmp_path):
    (tmp_path / "token").write_text(TOKEN)
    env = server_env(**env_extra)
    return start_server("--no-access-log", "--workers", "1", "--token-file", str(tmp_path / "token"), env=env)


def _verify(base: str, event: str, acked: list[tuple[str, bytes]]) -> None:
    assert acked, "no submission was acknowledged before the kill"
    with httpx.Client(base_url=base, timeout=120) as http:
        games = http.get(f"/v1/events/{event}/games").json()["games"]
        ids = [g["id"] for g in games]
        assert len(ids) == len(set(ids)) and len({g["sha256"] for g in games}) == len(games)
        for audit_id, data in acked:
            assert ids.count(audit_id) == 1
            assert http.get(f"/v1/audits/{audit_id}/log").content == data
            assert hashlib.sha256(data).hexdigest() in {g["sha256"] for g in games}


def _kill_run(env_extra: dict, tmp_path) -> None:
    logs = game_logs(120, start=1000)
    proc, base = _serve(env_extra, tmp_path)
    try:
        event = httpx.post(
            f"{base}/v1/events", json={"name": "killed"}, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120
        ).json()["id"]
        clients = Clients(base, event, logs)
        clients.start()
        deadline = time.monotonic() + 60
        while len(clients.acked) < 30 and time.monotonic() < deadline:
            time.sleep(0.05)
        _kill9(proc)
        clients.stop.set()
        clients.join()
    finally:
        stop_server(proc)
    acked = list(clients.acked)
    assert not [s for s, _ in clients.other if s >= 500 and s != 503]
    proc, base = _serve(env_extra, tmp_path)
    try:
        _verify(base, event, acked)
    finally:
        stop_server(proc)


def test_sigkill_loses_nothing_acknowledged_sqlite(tmp_path):
    _kill_run({"DOSVERIFY_DATA": str(tmp_path / "data")}, tmp_path)


def test_sigkill_loses_nothing_acknowledged_postgresql(pg_server, tmp_path):
    _kill_run({"DOSVERIFY_DATABASE_URL": pg_server.new_database("killed")}, tmp_path)


def test_postgresql_stopped_under_load_is_503_never_500(pg_server, tmp_path):
    url = pg_server.new_database("bounced")
    logs = game_logs(240, start=3000)
    proc, base = _serve({"DOSVERIFY_DATABASE_URL": url}, tmp_path)
    try:
        event = httpx.post(
            f"{base}/v1/events", json={"name": "bounced"}, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120
        ).json()["id"]
        clients = Clients(base, event, logs)
        clients.start()
        deadline = time.monotonic() + 60
        while len(clients.acked) < 15 and time.monotonic() < deadline:
            time.sleep(0.05)
        pg_server.stop("immediate")
        time.sleep(1.5)
        pg_server.start()
        clients.join()
        statuses = {s for s, _ in clients.other}
        assert statuses <= {503}, statuses
        assert all(h.get("retry-after", "").isdigit() for _, h in clients.other)
        _verify(base, event, list(clients.acked))
    finally:
        stop_server(proc)
    assert clients.other, "no request met the database while it was away"
