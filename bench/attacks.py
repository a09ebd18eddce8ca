"""The hostile phases of bench/load.py: one attacker at a time, as a client with ordinary tools
would be, while a probe from another loopback address (127.0.0.2: a different client, as a
real user is) sends small legal checks one at a time.

- slow_body: 64 uploads that announce 100 kB and send a byte every 0.5 s (reconnecting when cut,
  after the Retry-After when refused);
- slow_body_flood: the same 64 uploads, but reconnecting the instant they are refused (no
  Retry-After honoured: a request flood from the one address);
- slowloris: 300 connections that send half a request head and a byte of header every second;
- big_headers: 4 clients sending a request whose one header is 1 MiB, as fast as they can;
- profile: 4 clients posting `/v1/profile` and `/v1/check/batch?ruleset=auto` with 40 logs.

The verdict of each: the probe's p99 within 5x of the unloaded baseline taken just before, the
probe answered 200 every time, and the attackers got only documented answers (408, 413, 414,
431, 503, or 200 for the profiles) or a closed connection. Everything is bounded: the sockets
above, the phase's duration, the client timeout; nothing but 127.0.0.1 is contacted."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter

ATTACKS = ("slow_body", "slow_body_flood", "slowloris", "big_headers", "profile")
DOCUMENTED = {200, 408, 413, 414, 431, 503}  # what an attacker may get back (200: a profile that ran)
PROBE_ADDRESS = "127.0.0.2"  # another client than the attacker (Linux routes all of 127/8 to loopback)


async def _status_of(reader: asyncio.StreamReader, within: float) -> int | str | None:
    """The status of the answer, "closed" if the connection ends without one, None if nothing
    came within ``within`` seconds."""
    try:
        line = await asyncio.wait_for(reader.readline(), within)
    except TimeoutError:
        return None
    except ConnectionError:
        return "closed"
    if not line:
        return "closed"
    try:
        return int(line.split()[1])
    except (IndexError, ValueError):
        return "garbled"


async def _open(port: int):
    return await asyncio.open_connection("127.0.0.1", port)


def _head(length: int, extra: bytes = b"") -> bytes:
    return (
        b"POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\n"
        + f"content-length: {length}\r\n".encode()
        + extra
        + b"\r\n"
    )


async def _dribble(reader, writer, piece: bytes, every: float, t_end: float) -> int | str:
    """Send `piece` every `every` seconds until the server answers or closes, or the phase ends."""
    try:
        while time.perf_counter() < t_end:
            writer.write(piece)
            await writer.drain()
            answer = await _status_of(reader, every)
            if answer is not None:
                return answer
    except ConnectionError:
        return "closed"
    return "unanswered at the end"


async def _slow_body(port: int, t_end: float, seen: Counter, honour: bool = True) -> None:
    while time.perf_counter() < t_end:
        try:
            reader, writer = await _open(port)
        except OSError:
            seen["connect refused"] += 1
            await asyncio.sleep(0.5)
            continue
        writer.write(_head(100_000))
        answer = await _dribble(reader, writer, b"x", 0.5, t_end)
        seen[str(answer)] += 1
        writer.close()
        if answer == 503 and honour:  # over its share: it waits the Retry-After (slow_body_flood does not)
            await asyncio.sleep(1.0)


async def _slowloris(port: int, t_end: float, seen: Counter) -> None:
    while time.perf_counter() < t_end:
        try:
            reader, writer = await _open(port)
        except OSError:
            seen["connect refused"] += 1
            await asyncio.sleep(1.0)
            continue
        writer.write(b"POST /v1/check HTTP/1.1\r\nhost: x\r\n")
        answer = await _dribble(reader, writer, b"x-a: b\r\n", 1.0, t_end)
        seen[str(answer)] += 1
        writer.close()


async def _big_headers(port: int, t_end: float, seen: Counter) -> None:
    chunk = b"a" * 65536
    while time.perf_counter() < t_end:
        try:
            reader, writer = await _open(port)
        except OSError:
            seen["connect refused"] += 1
            await asyncio.sleep(0.2)
            continue
        answer: int | str
        try:
            writer.write(_head(0)[:-2] + b"x-big: ")
            for _ in range(16):  # 1 MiB of one header
                writer.write(chunk)
                await writer.drain()
            writer.write(b"\r\n\r\n")
            await writer.drain()
            answer = await _status_of(reader, 10.0) or "unanswered"
        except ConnectionError:
            answer = await _status_of(reader, 1.0) or "closed"
        seen[str(answer)] += 1
        writer.close()


async def _profiles(base: str, logs: dict, t_end: float, seen: Counter, seed: int) -> None:
    import httpx

    rng = random.Random(seed)
    body = json.dumps([rng.choice(logs["legal"]).decode() for _ in range(40)]).encode()
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        while time.perf_counter() < t_end:
            path = rng.choice(("/v1/profile", "/v1/check/batch?ruleset=auto"))
            try:
                r = await client.post(path, content=body, headers={"content-type": "application/json"})
                seen[str(r.status_code)] += 1
            except httpx.HTTPError as exc:
                seen[f"lost {type(exc).__name__}"] += 1


async def _probe(base: str, logs: dict, t_end: float) -> tuple[list[tuple[float, str | None]], Counter]:
    """Small legal checks one at a time: (latency, Server-Timing header) of each, and their statuses."""
    import httpx

    lat: list[tuple[float, str | None]] = []
    status: Counter = Counter()
    transport = httpx.AsyncHTTPTransport(local_address=PROBE_ADDRESS)
    async with httpx.AsyncClient(base_url=base, timeout=120, transport=transport) as client:
        i = 0
        while time.perf_counter() < t_end:
            body = logs["legal"][i % len(logs["legal"])]
            i += 1
            t0 = time.perf_counter()
            timing = None
            try:
                r = await client.post("/v1/check", content=body, headers={"content-type": "text/plain"})
                status[str(r.status_code)] += 1
                timing = r.headers.get("server-timing")
            except httpx.HTTPError as exc:
                status[f"lost {type(exc).__name__}"] += 1
            lat.append((time.perf_counter() - t0, timing))
    return lat, status


async def attack_phase(base: str, logs: dict, kind: str, duration: float, seed: int) -> dict:
    """Run one attack for ``duration`` s beside the probe; the attackers' answers and the probe's latencies."""
    port = int(base.rsplit(":", 1)[1])
    t_start = time.perf_counter()
    t_end = t_start + duration
    seen: Counter = Counter()
    if kind in ("slow_body", "slow_body_flood"):
        attackers = [_slow_body(port, t_end, seen, honour=kind == "slow_body") for _ in range(64)]
    elif kind == "slowloris":
        attackers = [_slowloris(port, t_end, seen) for _ in range(300)]
    elif kind == "big_headers":
        attackers = [_big_headers(port, t_end, seen) for _ in range(4)]
    elif kind == "profile":
        attackers = [_profiles(base, logs, t_end, seen, seed + i) for i in range(4)]
    else:
        raise ValueError(kind)
    await asyncio.sleep(0)
    probe = asyncio.ensure_future(_probe(base, logs, t_end))
    await asyncio.gather(*attackers, return_exceptions=False)
    lat, status = await probe
    ok = {"closed", "unanswered at the end"}  # a socket the server closed, or the phase's end
    undocumented = {k: v for k, v in seen.items() if k not in ok and not (k.isdigit() and int(k) in DOCUMENTED)}
    return {
        "attack": kind,
        "duration_s": round(time.perf_counter() - t_start, 1),
        "attacker_answers": dict(sorted(seen.items())),
        "undocumented": undocumented,
        "probe_status": dict(status),
        "probe_lat": lat,
    }
