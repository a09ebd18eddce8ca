"""The load test's own arithmetic (bench/load.py): it reads the service's Server-Timing header,
and the confidence interval it prints for a baseline's p99."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("httpx")

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def load():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("bench_load", BENCH / "load.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(BENCH))


def test_it_reads_the_service_s_server_timing(load):
    """What the service writes, the load test reads: every part of a check, in ms."""
    from fastapi.testclient import TestClient

    from dosverify.service import create_app

    example = (BENCH.parent / "fixtures" / "dos" / "notation" / "example.log").read_bytes()
    with TestClient(create_app(workers=1)) as c:
        r = c.post("/v1/check", content=example, headers={"content-type": "text/plain"})
    t = load.server_timing(r.headers["server-timing"])
    assert set(t) == set(load.PARTS) and t["app"] > 0
    assert load.server_timing('queue;dur=2.5, app;desc="x";dur=7, junk, bad;dur=x') == {"queue": 2.5, "app": 7.0}
    assert load.server_timing(None) == {}


def test_p99_interval_and_breakdown(load):
    """The 95% interval of a p99 over 1,000 samples spans the 983rd to the 997th of them; the
    tail's breakdown takes the checks at or above the p99, and what the client saw beyond the
    app is `outside`."""
    values = [i / 1000 for i in range(1, 1001)]  # 1 ms .. 1000 ms
    assert load.p99_interval(values) == (983.0, 997.0)
    assert load.p99_interval([]) == (None, None)
    samples = [(0.010, {"app": 4.0, "check": 1.0})] * 98 + [(0.100, {"app": 90.0, "check": 80.0, "queue": 5.0})] * 2
    b = load.breakdown(samples, 100.0)
    assert b["tail_n"] == 2 and b["tail"]["outside"] == 10.0 and b["tail"]["loop"] == 5.0
    assert b["all"]["latency"] == 10.0


def test_an_attack_s_verdict_is_the_median_of_its_runs(load):
    """One noisy run does not decide an attack's verdict; a probe refused, or an answer not
    documented, in any run does."""

    def run(ratio, probe=None, undocumented=None):
        return {"ratio": ratio, "probe_status": probe or {"200": 9}, "undocumented": undocumented or {}}

    v = load.attack_verdict("slow_body", [run(1.2), run(9.9), run(2.0)])
    assert v["verdict"] and v["ratio_median"] == 2.0 and v["ratios"] == [1.2, 9.9, 2.0]
    assert not load.attack_verdict("slow_body", [run(6.0), run(9.9), run(2.0)])["verdict"]
    assert not load.attack_verdict("slow_body", [run(1.0), run(1.0, {"200": 8, "503": 1}), run(1.0)])["verdict"]
    assert not load.attack_verdict("slow_body", [run(1.0), run(1.0, undocumented={"500": 1}), run(1.0)])["verdict"]
    assert not load.attack_verdict("slow_body", [run(None)])["verdict"]


def test_the_mix_s_clients_send_from_addresses_of_their_own(load):
    """The service gives each client address a share of the checks in flight: the mix's 32
    clients must be 32 addresses, or the bench measures one greedy client's share (issue 22:
    from one address, its small checks waited 60-250x their baseline behind its own batches)."""
    import asyncio
    import socket
    import threading

    import uvicorn

    seen: list[str] = []

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        seen.append(scope["client"][0])
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b"{}"})

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            threading.Event().wait(0.02)
        logs = {k: [b"dos 1\n"] for k in ("legal", "illegal", "batch")}
        base = f"http://127.0.0.1:{port}"
        got = asyncio.run(load.phase(base, logs, 0.5, 6, False, 1, 0.0))
        assert got["lost"] == 0 and got["addresses"] == 6
        assert {a for a in seen if a != "127.0.0.1"} == {f"127.0.1.{i}" for i in range(1, 7)}  # (the probe's is .0.1)
        seen.clear()
        asyncio.run(load.phase(base, logs, 0.5, 6, False, 1, 0.0, addresses=1))
        assert {a for a in seen if a != "127.0.0.1"} == {"127.0.1.1"}
    finally:
        server.should_exit = True
        thread.join(10)
