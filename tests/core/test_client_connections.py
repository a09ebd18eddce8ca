"""One client's open connections are capped (max_connections_per_client), so a flood of
half-open connections from one address is refused at its own cap while other addresses are
served: the client's key (dosverify/clientaddr.py: an IPv6 address by its /64, behind a trusted
proxy the rightmost untrusted address it names) as pure functions, then a real server on
loopback flooded from 127.0.0.2 while 127.0.0.3 sends small checks (skipped where those
addresses cannot be bound). Bounded: a few thousand loopback connections at most, each live test
well under 30 s."""

from __future__ import annotations

import selectors
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from dosverify.clientaddr import BadSetting as BadNetworks
from dosverify.clientaddr import (
    address_key,
    client_address,
    forwarded_nodes,
    parse_address,
    parse_networks,
    x_forwarded_for_nodes,
)
from dosverify.settings import SettingError, Settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import server_env, start_server, stop_server
from test_service import EXAMPLE

TEXT = {"content-type": "text/plain"}

# ---- the client's key ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "peer, key",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),  # the same /64: one client
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # the next /64: another
        ("::ffff:10.0.0.1", "10.0.0.1"),  # IPv4-mapped: the IPv4 client it is
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("-", "-"),  # no address (a Unix socket): as given
    ],
)
def test_a_client_is_its_ipv4_address_or_its_ipv6_64(peer, key):
    assert address_key(peer) == key


@pytest.mark.parametrize(
    "text, ip",
    [
        ("192.0.2.1", "192.0.2.1"),
        (" 192.0.2.1:8080 ", "192.0.2.1"),
        ("[2001:db8::1]:4711", "2001:db8::1"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("unknown", None),
        ("_hidden", None),
        ("example.org", None),
        ("[2001:db8::1", None),
        ("", None),
    ],
)
def test_addresses_as_peers_and_proxies_write_them(text, ip):
    got = parse_address(text)
    assert (str(got) if got is not None else None) == ip


def test_trusted_proxies_setting_is_a_list_of_networks():
    nets = parse_networks("10.0.0.1, 192.168.0.0/16 ::1,::ffff:172.16.0.0/108")
    assert [str(n) for n in nets] == ["10.0.0.1/32", "192.168.0.0/16", "::1/128", "172.16.0.0/12"]
    assert parse_networks("") == ()
    for bad in ("proxy.local", "10.0.0.0/33", "10.0.0.1;10.0.0.2"):
        with pytest.raises(BadNetworks):
            parse_networks(bad)
    assert Settings.resolve({"DOSVERIFY_TRUSTED_PROXIES": " 10.0.0.1 "}).trusted_proxies == "10.0.0.1/32"
    with pytest.raises(SettingError, match="DOSVERIFY_TRUSTED_PROXIES"):
        Settings.resolve({"DOSVERIFY_TRUSTED_PROXIES": "nginx"})
    with pytest.raises(SettingError, match="--client-address-header"):
        Settings.resolve(client_address_header="x-real-ip")
    s = Settings.resolve(
        {"DOSVERIFY_CLIENT_ADDRESS_HEADER": "Forwarded", "DOSVERIFY_MAX_CONNECTIONS_PER_CLIENT": "500"}
    )
    assert (s.client_address_header, s.max_connections_per_client) == ("forwarded", 500)
    assert Settings.resolve({}).max_connections_per_client == 64


def test_forwarded_header_parsing():
    """RFC 7239: elements separated by commas, pairs by semicolons, names in any case, values
    quoted or not (a quoted value may hold a comma or semicolon), fields taken as one list."""
    assert forwarded_nodes(['for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"']) == [
        "192.0.2.60",
        "[2001:db8:cafe::17]:4711",
    ]
    assert forwarded_nodes(['For="_gazonk"', "proto=https;FOR=198.51.100.17"]) == ["_gazonk", "198.51.100.17"]
    assert forwarded_nodes(['by="a,b;c";for=192.0.2.1, for=unknown']) == ["192.0.2.1", "unknown"]
    assert forwarded_nodes(["proto=https", ", ,"]) == [""]  # an element naming nobody
    assert forwarded_nodes(['for="\\"odd\\""']) == ['"odd"']
    assert x_forwarded_for_nodes(["203.0.113.7, 10.0.0.2", "10.0.0.3"]) == ["203.0.113.7", "10.0.0.2", "10.0.0.3"]


PROXIES = parse_networks("10.0.0.0/8, 2001:db8:ffff::/48")


def _xff(*values: str) -> list[tuple[bytes, bytes]]:
    return [(b"x-forwarded-for", v.encode()) for v in values]


@pytest.mark.parametrize(
    "peer, headers, header, client",
    [
        # a peer that is no trusted proxy is the client, whatever it writes
        ("198.51.100.9", _xff("203.0.113.7"), "x-forwarded-for", "198.51.100.9"),
        # the proxy appends the address it saw: the client's own entries (a lie) are to its left
        ("10.0.0.1", _xff("1.1.1.1, 203.0.113.7"), "x-forwarded-for", "203.0.113.7"),
        # a chain of trusted proxies is skipped from the right
        ("10.0.0.1", _xff("203.0.113.7, 10.0.0.2", "10.0.0.3"), "x-forwarded-for", "203.0.113.7"),
        ("2001:db8:ffff::1", _xff("[2001:db8:1::5]:443"), "x-forwarded-for", "2001:db8:1::5"),
        # no header: the proxy's own request (a health check) is the proxy's
        ("10.0.0.1", [], "x-forwarded-for", "10.0.0.1"),
        # only trusted proxies named: the leftmost of them
        ("10.0.0.1", _xff("10.0.0.7, 10.0.0.2"), "x-forwarded-for", "10.0.0.7"),
        # a node that is no address stops the walk at the trusted proxy that wrote it
        ("10.0.0.1", _xff("203.0.113.7, unknown"), "x-forwarded-for", "10.0.0.1"),
        ("10.0.0.1", _xff("203.0.113.7, garbage, 10.0.0.2"), "x-forwarded-for", "10.0.0.2"),
        # the header configured is the one read: a Forwarded field the proxy passed through is not
        ("10.0.0.1", [(b"forwarded", b"for=1.1.1.1"), *_xff("203.0.113.7")], "x-forwarded-for", "203.0.113.7"),
        ("10.0.0.1", [(b"forwarded", b"for=1.1.1.1, for=203.0.113.7")], "forwarded", "203.0.113.7"),
        ("10.0.0.1", _xff("203.0.113.7"), "forwarded", "10.0.0.1"),
        ("10.0.0.1", [(b"forwarded", b'for="[2001:db8:1::5]:80";proto=https')], "forwarded", "2001:db8:1::5"),
        ("10.0.0.1", [(b"forwarded", b"for=_hidden")], "forwarded", "10.0.0.1"),
        ("::ffff:10.0.0.1", _xff("203.0.113.7"), "x-forwarded-for", "203.0.113.7"),  # a mapped peer is trusted too
    ],
)
def test_behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_address(peer, headers, header, client):
    assert client_address(peer, headers, PROXIES, header) == client
    assert client_address(peer, headers, (), header) == peer  # no proxies trusted: the peer, always


# ---- a real server, flooded from one loopback address ----------------------------------------------


def _can_bind(*hosts: str) -> bool:
    for host in hosts:
        try:
            with socket.socket() as s:
                s.bind((host, 0))
        except OSError:
            return False
    return True


needs_addresses = pytest.mark.skipif(
    not _can_bind("127.0.0.2", "127.0.0.3", "127.0.0.4"), reason="127.0.0.2-4 cannot be bound here"
)

HALF_OPEN = b"POST /v1/check HTTP/1.1\r\n"  # a request line, and never the rest


class Flood:
    """`held` connections from `source` that send a request line and nothing more, in a thread:
    each one the server answers (a refusal) is closed and opened again at once, at most `rate`
    a second, until stopped, `seconds` passed or `attempts` connections were opened. Counts what
    the server answered."""

    def __init__(self, base: str, source: str, held: int, attempts: int, seconds: float, rate: int = 600) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.addr, self.source = (host, int(port)), source
        self.held, self.attempts, self.seconds, self.rate = held, attempts, seconds, rate
        self.opened = self.refused_here = self.refused_globally = self.failed = 0
        self.answers: list[bytes] = []
        self.stop = threading.Event()
        self.socks: list[socket.socket] = []
        self.selector = selectors.DefaultSelector()  # epoll: select() stops at descriptor 1024
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _open(self) -> None:
        self.opened += 1
        s = socket.socket()
        try:
            s.bind((self.source, 0))
            s.settimeout(2)
            s.connect(self.addr)
            s.sendall(HALF_OPEN)
            s.setblocking(False)
        except OSError:
            self.failed += 1
            s.close()
            return
        self.socks.append(s)
        self.selector.register(s, selectors.EVENT_READ)

    def _run(self) -> None:
        t0 = time.monotonic()
        while not self.stop.is_set() and time.monotonic() - t0 < self.seconds:
            allowed = min(self.attempts, self.held + int(self.rate * (time.monotonic() - t0)))  # the pace
            while len(self.socks) < self.held and self.opened < allowed:
                self._open()
            ready = [key.fileobj for key, _ in self.selector.select(0.1)] if self.socks else []
            for s in ready:
                assert isinstance(s, socket.socket)
                try:
                    raw = s.recv(4096)
                except OSError:
                    raw = b""
                if b"from this client" in raw:
                    self.refused_here += 1
                elif raw.startswith(b"HTTP/1.1 503"):
                    self.refused_globally += 1
                if len(self.answers) < 3:
                    self.answers.append(raw)
                self.socks.remove(s)
                self.selector.unregister(s)
                s.close()
            if not self.socks:
                time.sleep(0.05)

    def __enter__(self) -> Flood:
        self.thread.start()
        deadline = time.monotonic() + 10
        while len(self.socks) < min(self.held, self.attempts) // 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the flood is on before the checks start
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=15)
        for s in self.socks:
            s.close()
        self.selector.close()


def checks_from(base: str, source: str, n: int = 10, timeout: float = 5.0) -> tuple[int, list[str]]:
    """`n` small legal checks from `source`, one at a time, each on a new connection: how many
    were answered 200 legal, and what the others got."""
    served, others = 0, []
    for _ in range(n):
        try:
            with httpx.Client(base_url=base, timeout=timeout, transport=httpx.HTTPTransport(local_address=source)) as c:
                r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
            if r.status_code == 200 and r.json()["verdict"] == "legal":
                served += 1
            else:
                others.append(f"{r.status_code} {r.text[:80]}")
        except httpx.HTTPError as exc:
            others.append(type(exc).__name__)
        time.sleep(0.1)
    return served, others


def flood_and_check(cap: int, held: int = 600, max_connections: int = 300, log=None, **server: str) -> dict:
    """A server with `max_connections` and `cap` connections per client; `held` half-open
    connections from 127.0.0.2 (refused ones reopened, at most 3,000 in all, 20 s at most) while
    127.0.0.3 sends 10 small checks; what each got, and /healthz's connection counts meanwhile."""
    env = {
        "DOSVERIFY_HEADER_TIMEOUT": "30",  # the half-open connections outlive the test
        "DOSVERIFY_MAX_CONNECTIONS": str(max_connections),
        "DOSVERIFY_MAX_CONNECTIONS_PER_CLIENT": str(cap),
        **server,
    }
    proc, base = start_server("--workers", "1", "--no-access-log", env=server_env(**env), log=log)
    try:
        checks_from(base, "127.0.0.3", n=1)  # the worker started
        with Flood(base, "127.0.0.2", held=held, attempts=3000, seconds=20) as flood:
            t0 = time.monotonic()
            served, others = checks_from(base, "127.0.0.3")
            took = time.monotonic() - t0
            try:
                with httpx.Client(timeout=5, transport=httpx.HTTPTransport(local_address="127.0.0.3")) as c:
                    r = c.get(base + "/healthz")
                health = r.json()["connections"] if r.status_code == 200 else None
            except httpx.HTTPError:
                health = None
    finally:
        stop_server(proc)
    return {
        "served": served,
        "others": others,
        "took": took,
        "flood_opened": flood.opened,
        "flood_refused_at_its_cap": flood.refused_here,
        "flood_refused_globally": flood.refused_globally,
        "flood_answers": flood.answers,
        "health": health,
    }


@needs_addresses
def test_one_address_flood_of_half_open_connections_leaves_another_served():
    """600 half-open connections from 127.0.0.2 (twice the server's 300), refused ones reopened:
    at 16 a client, the flood holds 16 and the rest is refused at its own cap, and all 10 small
    checks from 127.0.0.3 are answered meanwhile, the refusals counted for 127.0.0.2 in /healthz
    and logged once (not once a refusal)."""
    with tempfile.TemporaryFile() as log:
        got = flood_and_check(cap=16, log=log)
        print(got)  # the numbers, with -s
        log.seek(0)
        out = log.read().decode(errors="replace")
    assert got["served"] == 10, got
    assert got["took"] < 15, got
    assert got["flood_refused_at_its_cap"] >= 600 - 16, got
    assert got["flood_refused_globally"] == 0, got
    assert b"too-many-connections" in got["flood_answers"][0] and b"retry-after: 1" in got["flood_answers"][0]
    health = got["health"]
    flooder = next(c for c in health["by_client"] if c["client"] == "127.0.0.2")
    assert flooder["open"] == 16 and flooder["refused"] >= 600 - 16, health
    assert health["by_client"][0]["client"] == "127.0.0.2" and health["refused"] == flooder["refused"], health
    lines = [line for line in out.splitlines() if "connections are open from client 127.0.0.2" in line]
    assert len(lines) == 1 and "max_connections_per_client" in lines[0], out[-2000:]
    assert "Traceback" not in out, out[-3000:]


@needs_addresses
def test_without_the_cap_the_same_flood_denies_everyone():
    """The control: the same flood with the cap out of reach (as before it existed) fills the
    server's 300 connections, and 127.0.0.3's checks are refused with them."""
    with tempfile.TemporaryFile() as log:
        got = flood_and_check(cap=100_000, log=log)
        print(got)
    assert got["served"] <= 1, got
    assert got["flood_refused_globally"] > 0 and got["flood_refused_at_its_cap"] == 0, got


def _proxied(base: str, source: str, client: str | None, length: int = 100_000) -> socket.socket:
    """A check from `source` naming `client` in X-Forwarded-For, its body begun and not ended:
    a request in progress."""
    host, port = base.removeprefix("http://").split(":")
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(10)
    s.connect((host, int(port)))
    xff = f"x-forwarded-for: 1.1.1.1, {client}\r\n" if client else ""
    s.sendall(
        f"POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: {length}\r\n{xff}\r\n".encode()
        + b"dos 1\n"
    )
    return s


def _answer(s: socket.socket, within: float = 5.0) -> bytes:
    s.settimeout(within)
    try:
        return s.recv(65536)
    except (TimeoutError, OSError):
        return b""


@needs_addresses
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_cap():
    """127.0.0.4 is a trusted proxy: its connections are not counted as its own, each request on
    them is counted for the client its X-Forwarded-For names (the 1.1.1.1 the client wrote to
    its left is not believed) while it is in progress. 198.51.100.1's third request at once is
    refused; 198.51.100.2 is served; 127.0.0.3, which is no proxy, is itself whatever it writes."""
    env = server_env(
        DOSVERIFY_TRUSTED_PROXIES="127.0.0.4",
        DOSVERIFY_MAX_CONNECTIONS_PER_CLIENT="2",
        DOSVERIFY_BODY_TIMEOUT="30",
        DOSVERIFY_HEADER_TIMEOUT="30",
    )
    with tempfile.TemporaryFile() as log:
        proc, base = start_server("--workers", "1", "--no-access-log", env=env, log=log)
        socks: list[socket.socket] = []
        try:
            checks_from(base, "127.0.0.3", n=1)
            socks += [_proxied(base, "127.0.0.4", "198.51.100.1") for _ in range(2)]  # in progress: its cap
            time.sleep(0.3)
            third = _proxied(base, "127.0.0.4", "198.51.100.1")
            refused = _answer(third)
            other = _proxied(base, "127.0.0.4", "198.51.100.2", length=len("dos 1\n"))
            served = _answer(other)
            socks += [third, other]
            spoofer = [_proxied(base, "127.0.0.3", f"198.51.100.{i}") for i in range(10, 13)]  # 3 from one peer
            socks += spoofer
            spoofed = _answer(spoofer[2])
            health = httpx.get(base + "/healthz", timeout=5).json()["connections"]
        finally:
            for s in socks:
                s.close()
            stop_server(proc)
    assert refused.startswith(b"HTTP/1.1 503") and b"from this client (198.51.100.1)" in refused, refused
    assert served.startswith(b"HTTP/1.1 200"), served
    assert spoofed.startswith(b"HTTP/1.1 503") and b"from this client (127.0.0.3)" in spoofed, spoofed
    rows = {c["client"]: c for c in health["by_client"]}
    assert rows["198.51.100.1"]["open"] == 2 and rows["198.51.100.1"]["refused"] == 1, health
    assert rows["127.0.0.3"]["refused"] == 1 and "1.1.1.1" not in rows and "127.0.0.4" not in rows, health
