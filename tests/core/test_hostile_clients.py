"""Clients as an attacker would write them, against the real server on loopback
(tests/liveserver.py): slow bodies, slowloris, big headers, idle and many connections, a 413
followed by more body, shutdown under a slow client, bodies that used to be 500s. Each case
asserts the documented status (docs/service-limits.md) and that a small legal check still
answers meanwhile. Bounded: a few dozen sockets, timeouts of a second or two."""

from __future__ import annotations

import select
import signal
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import server_env, start_server, stop_server
from test_service import EXAMPLE

TEXT = {"content-type": "text/plain"}
LIMITS = {
    "DOSVERIFY_HEADER_TIMEOUT": "1",
    "DOSVERIFY_BODY_TIMEOUT": "1",
    "DOSVERIFY_MIN_BODY_RATE": "2000",
    "DOSVERIFY_KEEPALIVE_TIMEOUT": "1",
    "DOSVERIFY_MAX_CONNECTIONS": "40",
    "DOSVERIFY_SHUTDOWN_TIMEOUT": "2",
    "DOSVERIFY_MAX_IN_FLIGHT": "8",
}


def _start(**extra: str):
    return start_server("--workers", "1", "--no-access-log", env=server_env(**{**LIMITS, **extra}))


@pytest.fixture(scope="module")
def server():
    proc, base = _start()
    try:
        yield base
    finally:
        stop_server(proc)


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=10)
    return s


def _read_all(s: socket.socket, within: float = 10.0) -> bytes:
    """Everything the server sends until it closes the connection (bounded in time)."""
    s.settimeout(within)
    out = b""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        out += chunk
    return out


def _status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1]) if raw.startswith(b"HTTP/1.1 ") else 0


def small_check_answers(base: str) -> None:
    t0 = time.monotonic()
    r = httpx.post(base + "/v1/check", content=EXAMPLE.encode(), headers=TEXT, timeout=10)
    assert r.status_code == 200 and r.json()["verdict"] == "legal", r.text
    assert time.monotonic() - t0 < 5


def _head(path: str = "/v1/check", extra: str = "", length: int | None = None) -> bytes:
    cl = f"content-length: {length}\r\n" if length is not None else ""
    return f"POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\n{cl}{extra}\r\n".encode()


def test_big_headers_are_431_and_a_long_url_414(server):
    for head, want in (
        (_head(extra="x-big: " + "a" * 40_000 + "\r\n", length=0), 431),
        (_head(extra="".join(f"x-h{i}: v\r\n" for i in range(200)), length=0), 431),
        (f"GET /healthz?{'q' * 20_000} HTTP/1.1\r\nhost: x\r\n\r\n".encode(), 414),
    ):
        s = _connect(server)
        s.sendall(head)
        raw = _read_all(s)
        s.close()
        assert _status(raw) == want, raw[:200]
        assert b"connection: close" in raw.lower()
    small_check_answers(server)


def test_a_header_of_megabytes_is_cut_at_the_limit(server):
    s = _connect(server)
    s.sendall(_head()[:-2] + b"x-big: ")
    sent, t0 = 0, time.monotonic()
    try:
        while sent < 16 * 1024 * 1024 and time.monotonic() - t0 < 10:
            s.sendall(b"a" * 65536)
            sent += 65536
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert sent < 16 * 1024 * 1024, "the server read 16 MiB of one header"
    s.close()
    small_check_answers(server)


def test_slowloris_half_sent_headers_get_408_and_are_closed(server):
    socks = [_connect(server) for _ in range(10)]
    for s in socks:
        s.sendall(b"POST /v1/check HTTP/1.1\r\nhost: x\r\n")  # and never the rest
    small_check_answers(server)
    t0 = time.monotonic()
    answers = [_read_all(s, within=5) for s in socks]
    for s in socks:
        s.close()
    assert all(_status(a) == 408 for a in answers), answers[0][:200]
    assert time.monotonic() - t0 < 4  # header_timeout 1 s


def test_slow_body_gets_408_and_frees_its_slot(server):
    socks = []
    for _ in range(4):
        s = _connect(server)
        s.sendall(_head(length=100_000))
        socks.append(s)
    t0 = time.monotonic()
    closed = set()
    while len(closed) < len(socks) and time.monotonic() - t0 < 8:
        for i, s in enumerate(socks):
            if i in closed:
                continue
            if select.select([s], [], [], 0)[0]:  # the server answered: stop sending, read it
                closed.add(i)
                continue
            try:
                s.sendall(b"x")  # a byte now and then: far under 2,000 bytes/s
            except OSError:
                closed.add(i)
        time.sleep(0.2)
    answers = [_read_all(s, within=3) for s in socks]
    for s in socks:
        s.close()
    # two (this address's share of the 8 slots) are read until they fall under the rate: 408;
    # the other two waited, unread, for those slots, then were read and fell under it too
    assert [_status(a) for a in answers] == [408, 408, 408, 408], [a[:300] for a in answers]
    assert time.monotonic() - t0 < 6
    small_check_answers(server)


def _hold_the_share(base: str, n: int = 2) -> list[socket.socket]:
    """`n` slow uploads from 127.0.0.1: this address's share of the checks (2 of 8), held."""
    socks = []
    for _ in range(n):
        s = _connect(base)
        s.sendall(_head(length=100_000) + b"dos 1\n")
        socks.append(s)
    time.sleep(0.3)
    return socks


def _other_address_answers(base: str, until: float = 0.0) -> list[float]:
    """Small checks from another client (127.0.0.2), one at a time until `until` (or one): each is
    answered 200 within 2 s; their latencies."""
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    took = []
    with httpx.Client(base_url=base, timeout=10, transport=transport) as c:
        while not took or time.monotonic() < until:
            t0 = time.monotonic()
            r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
            took.append(time.monotonic() - t0)
            assert r.status_code == 200 and r.json()["verdict"] == "legal", r.text
    assert max(took) < 2, took
    return took


def test_a_check_over_its_address_share_waits_for_that_address_slot(server):
    """With its share held by slow uploads, the address's next check is not refused: it waits,
    unread, until one of them is cut (408 after the 1 s body timeout), then is answered 200;
    another address is answered meanwhile."""
    from concurrent.futures import ThreadPoolExecutor

    small_check_answers(server)
    held = _hold_the_share(server)
    with httpx.Client(base_url=server, timeout=10) as c, ThreadPoolExecutor(1) as other:
        t0 = time.monotonic()
        others = other.submit(_other_address_answers, server, t0 + 0.5)
        r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
        waited = time.monotonic() - t0
        others.result()
    assert r.status_code == 200 and r.json()["verdict"] == "legal", r.text
    assert 0.3 < waited < 5, waited  # it waited for a slot of its own address's, and got one
    assert sorted(_status(_read_all(s, within=3)) for s in held) == [408, 408]
    for s in held:
        s.close()


def _send_check(base: str) -> socket.socket:
    s = _connect(base)
    s.sendall(_head(length=len(EXAMPLE)) + EXAMPLE.encode())
    s.setblocking(False)
    return s


def test_a_flood_from_one_address_is_held_not_answered_round_after_round():
    """Eight clients from one address that send again the instant they are answered, with the
    address's share held: each request waits for a slot (here at most 1 s, the check budget),
    then 503 with Retry-After. Counted: in 3 s each gets at most 3 answers (refused at once, as
    before, the loop answered them by the hundred, ahead of other clients' checks), and another
    address is answered meanwhile."""
    from concurrent.futures import ThreadPoolExecutor

    proc, base = _start(DOSVERIFY_BODY_TIMEOUT="30", DOSVERIFY_HEADER_TIMEOUT="30", DOSVERIFY_CHECK_TIMEOUT="1")
    try:
        small_check_answers(base)  # the worker started
        held = _hold_the_share(base)
        flood = [_send_check(base) for _ in range(8)]
        answers: list[bytes] = []
        t0 = time.monotonic()
        with ThreadPoolExecutor(1) as other:
            others = other.submit(_other_address_answers, base, t0 + 3)
            while time.monotonic() - t0 < 3:
                for s in select.select(flood, [], [], 0.1)[0]:
                    raw = b""
                    try:
                        raw = s.recv(65536)
                    except (BlockingIOError, ConnectionResetError):
                        pass
                    answers.append(raw)
                    flood.remove(s)
                    s.close()
                    flood.append(_send_check(base))  # at once, Retry-After or not
            others.result()
        for s in flood + held:
            s.close()
    finally:
        stop_server(proc)
    assert 0 < len(answers) <= 8 * 3, len(answers)
    assert all(_status(a) == 503 and b"retry-after: 1" in a.lower() for a in answers if a), answers[:2]
    assert all(b"too-many-requests" in a for a in answers if a), answers[:2]


def test_idle_connections_are_closed(server):
    fresh = [_connect(server) for _ in range(5)]  # never send a byte
    kept = _connect(server)  # one request, then idle keep-alive
    kept.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
    small_check_answers(server)
    t0 = time.monotonic()
    raw = _read_all(kept, within=5)
    assert _status(raw) == 200 and time.monotonic() - t0 < 4  # the answer, then closed after 1 s idle
    for s in fresh:
        assert _status(_read_all(s, within=5)) == 408
        s.close()
    kept.close()


def test_past_the_connection_limit_new_connections_get_503_and_close(server):
    held = [_connect(server) for _ in range(40)]  # the limit
    time.sleep(0.3)
    extra = [_connect(server) for _ in range(5)]
    answers = [_read_all(s, within=3) for s in extra]
    assert all(_status(a) == 503 for a in answers), answers[0][:200]
    for s in held + extra:
        s.close()
    time.sleep(0.3)
    small_check_answers(server)


def test_413_closes_the_connection_instead_of_reading_the_rest(server):
    s = _connect(server)
    s.sendall(_head(length=2 * 1024**3))  # 2 GiB announced
    sent, t0, raw = 0, time.monotonic(), b""
    try:
        while sent < 64 * 1024 * 1024 and time.monotonic() - t0 < 10:
            s.sendall(b"x" * 65536)
            sent += 65536
    except (BrokenPipeError, ConnectionResetError):
        pass
    raw = _read_all(s, within=3)
    s.close()
    assert sent < 64 * 1024 * 1024, "the server kept reading past the 413"
    if raw:  # the answer may be lost to the reset when the client is still sending
        assert _status(raw) == 413 and b"connection: close" in raw.lower()
    small_check_answers(server)


BAD_BODIES = [
    "[" * 100_000,
    "[1" + "0" * 5000 + "]",
    '["dos 1", {"players": 1' + "0" * 5000 + "}]",
    '[{"name": "\\ud800", "log": "dos 1"}]',
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=["nested", "bigint", "bigint-in-log", "surrogate-name"])
def test_bodies_that_were_500_are_4xx(server, body):
    with httpx.Client(base_url=server, timeout=10) as c:
        for path in ("/v1/check/batch", "/v1/profile", "/v1/check/batch?ruleset=auto"):
            r = c.post(path, content=body, headers={"content-type": "application/json"})
            assert r.status_code == 422 and r.json()["error"] == "invalid-batch", (path, r.text)
        r = c.post("/v1/check", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 200 and r.json()["verdict"] == "malformed"
    small_check_answers(server)


def test_static_page_has_the_page_headers(server):
    r = httpx.get(server + "/static/index.html", timeout=10)
    assert r.status_code == 200
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_one_client_cannot_take_every_slot():
    """The in-flight slots are shared per address: a client past its share gets 503 while
    another address still gets in (the middleware alone: loopback has one address)."""
    import asyncio

    from dosverify.pool import InFlightLimit

    rejected: list = []

    def reject(limit, per_client=False):
        async def answer(scope, receive, send):
            rejected.append((scope["client"][0], per_client))

        return answer

    async def run():
        gate = asyncio.Event()

        async def app(scope, receive, send):
            await gate.wait()

        limit = InFlightLimit(app, limit=8, paths=("/v1/check",), reject=reject, per_client=4)
        scope = {"type": "http", "path": "/v1/check"}
        hog = [asyncio.create_task(limit({**scope, "client": ("10.0.0.1", 1)}, None, None)) for _ in range(5)]
        other = asyncio.create_task(limit({**scope, "client": ("10.0.0.2", 1)}, None, None))
        await asyncio.sleep(0.01)
        assert limit.in_flight == 5 and limit.by_client == {"10.0.0.1": 4, "10.0.0.2": 1}
        gate.set()
        await asyncio.gather(*hog, other)
        return limit

    lim = asyncio.run(run())
    assert rejected == [("10.0.0.1", True)]
    assert lim.in_flight == 0 and lim.by_client == {}


def test_an_aborted_upload_is_one_log_line_and_shutdown_does_not_wait_for_a_slow_client():
    proc, base = start_server(
        "--workers",
        "1",
        "--no-access-log",
        env=server_env(**{**LIMITS, "DOSVERIFY_BODY_TIMEOUT": "30", "DOSVERIFY_HEADER_TIMEOUT": "30"}),
    )
    try:
        for _ in range(3):  # aborted uploads
            s = _connect(base)
            s.sendall(_head(length=10_000) + b"dos 1\n")
            time.sleep(0.2)
            s.close()
        small_check_answers(base)
        slow = _connect(base)
        slow.sendall(_head(length=10_000) + b"dos 1\n")  # and nothing more: in flight, reading its body
        time.sleep(0.5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        assert time.monotonic() - t0 < 2 + 5  # shutdown_timeout 2 s, and the pool's stop
        slow.close()
        out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
    finally:
        stop_server(proc)
    assert "Traceback" not in out, out[-3000:]
    assert out.count("went away before its body was read") >= 3, out[-3000:]
