"""The connection-level limits uvicorn does not have, as a subclass of its httptools protocol
(uvicorn takes a protocol class as ``http=``). What uvicorn has is used as it is (the idle
keep-alive timeout, the graceful-shutdown deadline); this adds what trusted front servers
(nginx, gunicorn) have and uvicorn lacks:

- the request head (request line and headers) is bounded before httptools buffers it: a URL
  over ``max_url_bytes`` is a 414, headers over ``max_header_bytes`` or ``max_headers`` a 431;
- the head must arrive within ``header_timeout`` seconds (slowloris), the body at
  ``min_body_rate`` bytes a second on average once ``body_timeout`` seconds have passed (slow
  uploads): past either, 408;
- past ``max_connections`` open connections a new one is answered 503 and closed at once, so
  the process keeps descriptors for the connections it serves;
- past ``per_address_connections`` open connections from one client (its peer address, an IPv6
  one by its /64: :mod:`dosverify.clientaddr`) its next one is answered 503 and closed at
  once, so one address's flood of connections meets its own cap long before the global one and
  the other addresses are served. A connection from a ``trusted_proxies`` address is not
  counted when it is accepted (the proxy carries many clients' requests); each request on it
  is, once its head is read, by the client its ``client_header`` names, until its answer
  ends; past the cap that request is answered 503 and its connection closed. These refusals are
  counted per client (:class:`ClientShares`, ``GET /healthz``) and logged at most once every
  ``REFUSAL_LOG_SECONDS`` per client, with the number refused since its last line;
- a check (``limited_paths``) from a client (keyed as above) that has ``per_client`` of them
  running is not started: its connection is no longer read, and the request starts when one of
  that client's own checks ends, or is answered 503 after ``share_wait`` seconds. A client that
  does not honour Retry-After and sends again at once (a request flood from one address) is so
  held, at the cost of an idle connection, instead of costing the event loop a request and a
  refusal on every round trip, ahead of the other clients' checks.

Every refusal closes the connection and is one log line (those of the per-client connection cap
at most one a client every ``REFUSAL_LOG_SECONDS``, so a flood does not flood the log); a
request the app is reading when its body is refused sees the client gone (``http.disconnect``)."""

from __future__ import annotations

import asyncio
import heapq
import json
import time
from collections import deque
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from ..clientaddr import Network, address_key, client_address, is_trusted, parse_address

if TYPE_CHECKING:
    from uvicorn._types import ASGI3Application

RATE_CHECK_SECONDS = 0.5  # how often a body's rate is looked at
REFUSAL_LOG_SECONDS = 10.0  # one client's connection refusals: at most one log line this often
REMEMBERED_CLIENTS = 4096  # clients whose refusals are counted (the oldest forgotten past it)


@dataclass(frozen=True)
class ConnectionLimits:
    max_url_bytes: int
    max_header_bytes: int
    max_headers: int
    header_timeout: float
    body_timeout: float
    min_body_rate: int
    max_connections: int
    per_client: int = 0  # checks one client address may have running (0: no share)
    limited_paths: tuple[str, ...] = ()  # the paths whose requests count (the checks)
    share_wait: float = 10.0  # seconds a check over its address's share waits for one of its slots
    per_address_connections: int = 0  # open connections one client may have (0: no cap)
    trusted_proxies: tuple[Network, ...] = ()  # peers whose client_header names the client
    client_header: str = "x-forwarded-for"  # or "forwarded"


@dataclass
class ClientShares:
    """The checks each client address has running in this process, and those waiting for one of
    its slots (protocols, first come first served), shared by every connection; the connections
    each client has open and how many were refused (``GET /healthz`` shows them)."""

    running: dict[str, int] = field(default_factory=dict)
    waiting: dict[str, deque] = field(default_factory=dict)
    open: dict[str, int] = field(default_factory=dict)
    refused: dict[str, list] = field(default_factory=dict)  # client: [refused, last line's time, refused then]
    refused_total: int = 0

    def opened(self, client: str) -> None:
        self.open[client] = self.open.get(client, 0) + 1

    def closed(self, client: str) -> None:
        left = self.open.get(client, 1) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)

    def count_refusal(self, client: str, now: float) -> int | None:
        """Count a refused connection of `client`; the number refused since its last log line
        when one is due (None: not yet)."""
        self.refused_total += 1
        seen = self.refused.get(client)
        if seen is None:
            if len(self.refused) >= REMEMBERED_CLIENTS:
                del self.refused[next(iter(self.refused))]
            seen = self.refused[client] = [0, -REFUSAL_LOG_SECONDS, 0]
        seen[0] += 1
        if now - seen[1] < REFUSAL_LOG_SECONDS:
            return None
        since, seen[1], seen[2] = seen[0] - seen[2], now, seen[0]
        return since

    def snapshot(self, top: int = 20) -> dict:
        """The connections open and refused: totals, and the `top` clients by refusals then open
        connections."""
        keys = set(heapq.nlargest(top, self.open, key=self.open.__getitem__))
        keys |= set(heapq.nlargest(top, self.refused, key=lambda k: self.refused[k][0]))
        rows = [{"client": k, "open": self.open.get(k, 0), "refused": self.refused.get(k, [0])[0]} for k in keys]
        rows.sort(key=lambda r: (-r["refused"], -r["open"], r["client"]))
        return {
            "open": sum(self.open.values()),
            "clients": len(self.open),
            "refused": self.refused_total,
            "by_client": rows[:top],
        }

    def release(self, client: str) -> None:
        left = self.running.get(client, 1) - 1
        if left > 0:
            self.running[client] = left
        else:
            self.running.pop(client, None)
        queue = self.waiting.get(client)
        while queue:
            proto = queue.popleft()
            if not queue:
                del self.waiting[client]
            if proto.start_waiting():
                return


class _Refuse(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def refusal(status: int, message: str, code: str) -> bytes:
    """A whole HTTP/1.1 response (problem details) that closes the connection."""
    body = json.dumps(
        {
            "type": f"/problems/{code}",
            "title": HTTPStatus(status).phrase,
            "status": status,
            "detail": message,
            "error": code,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/problem+json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n"
    )
    if status == 503:
        head += "retry-after: 1\r\n"
    return head.encode() + b"\r\n" + body


_CODES = {408: "request-timeout", 414: "uri-too-long", 431: "header-fields-too-large", 503: "too-many-connections"}


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    limits: ConnectionLimits  # set by configured()
    shares: ClientShares

    @classmethod
    def configured(cls, limits: ConnectionLimits, shares: ClientShares | None = None) -> type[LimitedHttpToolsProtocol]:
        shares = ClientShares() if shares is None else shares
        return type("LimitedHttpToolsProtocol", (cls,), {"limits": limits, "shares": shares})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reading_head = True
        self._head_bytes = self._header_count = self._header_bytes = self._body_bytes = 0
        self._head_timer: Any = None
        self._body_timer: Any = None
        self._body_started = self._rate_looked = 0.0
        self._refused = False
        self._waiting: tuple | None = None  # (cycle, app, timer, client) of a check held for its client's share
        self._client = "-"  # the peer's key (clientaddr.address_key)
        self._proxied = False  # the peer is a trusted proxy: its requests are counted by the client they name
        self._holds: list[str] = []  # the clients this connection is counted for in shares.open

    # ---- connections -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else "-"
        self._client = address_key(peer)
        self._proxied = bool(self.limits.trusted_proxies) and is_trusted(
            parse_address(peer), self.limits.trusted_proxies
        )
        if len(self.connections) > self.limits.max_connections:
            self._refuse(503, f"more than {self.limits.max_connections} connections are open")
            return
        if not self._proxied and not self._hold(self._client):
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        self._stop_waiting()
        for client in self._holds:
            self.shares.closed(client)
        self._holds.clear()
        super().connection_lost(exc)

    def _hold(self, client: str) -> bool:
        """Count this connection (or, from a trusted proxy, this request) for `client`; past
        its cap, refuse it instead (False)."""
        cap = self.limits.per_address_connections
        if cap and self.shares.open.get(client, 0) >= cap:
            since = self.shares.count_refusal(client, time.monotonic())
            if since is not None:
                peer = f"{self.client[0]}:{self.client[1]} - " if self.client else ""
                self.logger.warning(
                    "%s503 Service Unavailable: %d connections are open from client %s, the most one client "
                    "may have (%d refused since the last line for it, %d in all; max_connections_per_client)",
                    peer,
                    cap,
                    client,
                    since,
                    self.shares.refused[client][0],
                )
            self._refuse(
                503,
                f"{cap} connections are open from this client ({client}), the most one client may have",
                "too-many-connections",
                quiet=True,
            )
            return False
        self.shares.opened(client)
        self._holds.append(client)
        return True

    def _let_go(self, client: str) -> None:
        if client in self._holds:
            self._holds.remove(client)
            self.shares.closed(client)

    def shutdown(self) -> None:
        if self._waiting is not None:  # never started: nothing of it runs to wait for
            self._refuse(503, "the service is shutting down", "shutting-down")
            return
        super().shutdown()

    def _cancel_timers(self) -> None:
        for timer in (self._head_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._head_timer = self._body_timer = None

    def _refuse(self, status: int, message: str, code: str | None = None, quiet: bool = False) -> None:
        """Answer `status` and close; a request the app is reading sees the client gone. One
        log line unless `quiet` (the caller logs)."""
        if self._refused:
            return
        self._refused = True
        self._cancel_timers()
        self._stop_waiting()
        if not quiet:
            peer = f"{self.client[0]}:{self.client[1]} - " if self.client else ""
            self.logger.warning("%s%d %s: %s (connection closed)", peer, status, HTTPStatus(status).phrase, message)
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(refusal(status, message, code or _CODES.get(status, "bad-request")))
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()

    # ---- reading -----------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        self._unset_keepalive_if_required()
        most = self.limits.max_url_bytes + self.limits.max_header_bytes + 4096  # the head, with its framing
        while data and self._reading_head:
            if self._head_timer is None:
                self._arm_head_timer()
            room = most - self._head_bytes
            if room <= 0:  # a header line longer than the limit, that httptools would buffer whole
                self._refuse(431, f"the headers are over {self.limits.max_header_bytes} bytes")
                return
            piece, data = data[:room], data[room:]
            self._head_bytes += len(piece)
            self._feed(piece)
            if self._refused:
                return
        if data:
            self._feed(data)

    def _feed(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            if isinstance(exc.__context__, _Refuse):
                self._refuse(exc.__context__.status, exc.__context__.message)
                return
            msg = "Invalid HTTP request received."
            self.logger.warning(msg)
            self.send_400_response(msg)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()

    # ---- parser callbacks ----------------------------------------------------------------
    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.limits.max_url_bytes:
            raise _Refuse(414, f"the request line is over {self.limits.max_url_bytes} bytes")

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._header_bytes += len(name) + len(value) + 4
        if self._header_count > self.limits.max_headers:
            raise _Refuse(431, f"more than {self.limits.max_headers} header fields")
        if self._header_bytes > self.limits.max_header_bytes:
            raise _Refuse(431, f"the headers are over {self.limits.max_header_bytes} bytes")
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self._body_bytes, self._body_started = 0, time.monotonic()
        self._rate_looked = self._body_started
        self._body_timer = self.loop.call_later(RATE_CHECK_SECONDS, self._check_rate)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        self._body_bytes += len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        self._reading_head = True
        self._head_bytes = self._header_count = self._header_bytes = 0
        super().on_message_complete()

    # ---- timers ------------------------------------------------------------------------------
    def _arm_head_timer(self) -> None:
        self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_timed_out)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._reading_head and not self.transport.is_closing():
            self._refuse(408, f"the request head did not arrive within {self.limits.header_timeout:g} s")

    def _check_rate(self) -> None:
        self._body_timer = None
        if self._reading_head or self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle.response_complete:
            return  # answered (a 413, say) before the body ended: the connection closes after it
        now = time.monotonic()
        if self.flow.read_paused:  # the server is not reading (a check held, a full buffer): the client's clock stops
            self._body_started += now - self._rate_looked
        self._rate_looked = now
        elapsed = now - self._body_started
        if elapsed > self.limits.body_timeout and self._body_bytes < self.limits.min_body_rate * elapsed:
            self._refuse(
                408,
                f"the body came at {self._body_bytes / elapsed:.0f} bytes/s, under {self.limits.min_body_rate} "
                f"bytes/s after {self.limits.body_timeout:g} s",
            )
            return
        self._body_timer = self.loop.call_later(RATE_CHECK_SECONDS, self._check_rate)

    # ---- one client address's share of the checks ----------------------------------------------
    def _start_asgi_task(self, cycle: RequestResponseCycle, app: ASGI3Application) -> None:
        limits, client = self.limits, self._client
        if self._proxied:  # the request's client is the one the proxy names; counted while it runs
            forwarded = client_address(
                self.client[0] if self.client else "-",
                cycle.scope["headers"],
                limits.trusted_proxies,
                limits.client_header,
            )
            cycle.scope["client"] = (forwarded, 0)  # the app and the access log see the client, not the proxy
            client = address_key(forwarded)
            if not self._hold(client):
                return
            app = self._held_while(app, client)
        if not limits.per_client or not cycle.scope["path"].startswith(limits.limited_paths):
            super()._start_asgi_task(cycle, app)
            return
        if self.shares.running.get(client, 0) >= limits.per_client:
            self.flow.pause_reading()  # the head is read; the body waits in the client's socket
            timer = self.loop.call_later(limits.share_wait, self._wait_ended)
            self._waiting = (cycle, app, timer, client)
            self.shares.waiting.setdefault(client, deque()).append(self)
            return
        self._run_counted(cycle, app, client)

    def _run_counted(self, cycle: RequestResponseCycle, app: ASGI3Application, client: str) -> None:
        shares = self.shares
        shares.running[client] = shares.running.get(client, 0) + 1

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            try:
                await app(scope, receive, send)
            finally:  # answered, failed or cancelled: the slot is the address's again
                shares.release(client)

        super()._start_asgi_task(cycle, counted)

    def _held_while(self, app: ASGI3Application, client: str) -> ASGI3Application:
        """`app`, after which this connection is no longer counted for `client`."""

        async def held(scope: Any, receive: Any, send: Any) -> None:
            try:
                await app(scope, receive, send)
            finally:
                self._let_go(client)

        return held

    def start_waiting(self) -> bool:
        """Start the check held for a slot of its address (False: it is gone)."""
        if self._waiting is None or self.transport.is_closing():
            return False
        cycle, app, timer, client = self._waiting
        self._waiting = None
        timer.cancel()
        self.flow.resume_reading()
        self._run_counted(cycle, app, client)
        return True

    def _stop_waiting(self) -> None:
        if self._waiting is None:
            return
        _, _, timer, client = self._waiting
        timer.cancel()
        self._waiting = None
        queue = self.shares.waiting.get(client)
        if queue is not None and self in queue:
            queue.remove(self)

    def _wait_ended(self) -> None:
        share = self.limits.per_client
        self._refuse(
            503,
            f"{share} requests are in flight from this client, the most one client may have, "
            f"and none ended within {self.limits.share_wait:g} s",
            "too-many-requests",
        )
