"""Load test of the HTTP service: a mixed workload that saturates it, with and without junk.

    .venv/bin/python bench/load.py [--duration 60] [--concurrency 32] [--workers N] [--json OUT]

Starts ``python -m dosverify serve`` on a free 127.0.0.1 port (its default settings but
``--workers``), then runs three phases with a bounded asyncio/httpx client that stops by itself:

1. unloaded: small legal logs one at a time (``--unloaded`` requests): the latency baseline;
2. mix: ``--concurrency`` clients for ``--duration`` s sending small legal logs (55%), illegal
   logs (25%) and batches of 50 small logs (20%);
3. mix + junk: the same, with 10% of the requests 1 MiB junk logs (random words and bytes;
   half of them start as a log does, `dos 1` and a players line, so every line is a finding).

Reported: requests/s per phase; p50/p99 latency of the small legal checks in each phase and
the ratio of phase 3's p99 to the unloaded p99 (target <= 5); responses by status (5xx other
than the documented 503 must be 0); requests without an answer (must be 0); the peak RSS
(VmHWM) of the server and every worker process. The server is always stopped; nothing but
127.0.0.1 is contacted; no phase runs past its duration plus the client timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
CLIENT_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workload(seed: int) -> dict[str, list[bytes]]:
    """Small legal logs (the generator's one-round games), illegal ones (the wrong player on the
    first turn), 1 MiB junk logs."""
    from dosverify.simulate import simulate_text

    rng = random.Random(seed)
    legal = [simulate_text(rng.choice((2, 3, 4)), rng.randrange(1 << 30), rounds=1).encode() for _ in range(60)]
    illegal = []
    for text in legal:
        lines = text.decode().splitlines(keepends=True)
        players = next(l for l in lines if l.startswith("players")).split()[1:]
        i = next(k for k, l in enumerate(lines) if l.startswith("turn "))
        who = lines[i].split()[1]
        lines[i] = lines[i].replace(who, next(p for p in players if p != who), 1)
        illegal.append("".join(lines).encode())
    words = ["turn", "match", "with", "+", "draw", "R3", "W2", "G#=7", "refill", "place", "dos", "\x00", "é", "{", "]"]
    junk = []
    for k in range(4):  # half of them pass for a log's first lines: every line after is a finding
        out, size = (["dos 1\n", "players ann bob\n"], 21) if k % 2 else ([], 0)
        while size < (1 << 20) - 200:
            line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 12))) + "\n"
            out.append(line)
            size += len(line.encode())
        junk.append("".join(out).encode()[: 1 << 20])
    return {"legal": legal, "illegal": illegal, "junk": junk}


class RssSampler(threading.Thread):
    """Samples VmHWM (peak RSS) of the server and its descendants every 0.25 s."""

    def __init__(self, root_pid: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peaks, self.names, self.stop = root_pid, {}, {}, threading.Event()

    def _children(self) -> list[int]:
        kids: dict[int, list[int]] = {}
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                kids.setdefault(ppid, []).append(int(d))
        out, todo = [], [self.root]
        while todo:
            p = todo.pop()
            out.append(p)
            todo.extend(kids.get(p, []))
        return out

    def run(self) -> None:
        while not self.stop.is_set():
            for pid in self._children():
                try:
                    status = Path(f"/proc/{pid}/status").read_text()
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                hwm = next((int(l.split()[1]) for l in status.splitlines() if l.startswith("VmHWM:")), 0)
                self.peaks[pid] = max(self.peaks.get(pid, 0), hwm)
                role = "server" if pid == self.root else ("check worker" if "spawn_main" in cmd else
                                                          "resource tracker" if "resource_tracker" in cmd else "other")
                self.names[pid] = role
            self.stop.wait(0.25)

    def report(self) -> list[dict]:
        return [{"pid": p, "role": self.names.get(p, "?"), "peak_rss_mb": round(k / 1024, 1)}
                for p, k in sorted(self.peaks.items())]


async def one(client, kind: str, body, stats: dict, t_end: float | None) -> None:
    t0 = time.perf_counter()
    try:
        if kind == "batch":
            r = await client.post("/v1/check/batch", json=body)
        else:
            r = await client.post("/v1/check", content=body, headers={"content-type": "text/plain"})
        dt = time.perf_counter() - t0
        code = r.status_code
        err = r.json().get("error") if code >= 400 else None
        stats["status"][f"{kind} {code}{' ' + err if err else ''}"] += 1
        if code >= 500 and code != 503:
            stats["bad5xx"] += 1
        if kind == "legal" and code == 200:
            stats["legal_lat"].append(dt)
        stats["answered"] += 1
    except Exception as exc:  # noqa: BLE001 - a request without an answer is a lost request
        stats["lost"] += 1
        stats["status"][f"{kind} lost {type(exc).__name__}"] += 1


async def phase(base: str, logs: dict, duration: float, conc: int, junk: bool, seed: int) -> dict:
    import httpx

    rng = random.Random(seed)
    kinds = [("legal", 55), ("illegal", 25), ("batch", 20)] + ([("junk", 10)] if junk else [])
    names, weights = zip(*kinds)
    stats = {"status": Counter(), "legal_lat": [], "answered": 0, "lost": 0, "bad5xx": 0, "sent": 0}
    limits = httpx.Limits(max_connections=conc, max_keepalive_connections=conc)
    async with httpx.AsyncClient(base_url=base, timeout=CLIENT_TIMEOUT, limits=limits) as client:
        t_start = time.perf_counter()
        t_end = t_start + duration

        async def worker() -> None:
            while time.perf_counter() < t_end:
                kind = rng.choices(names, weights)[0]
                if kind == "batch":
                    body = [rng.choice(logs["legal"]).decode() for _ in range(50)]
                else:
                    body = rng.choice(logs[kind])
                stats["sent"] += 1
                await one(client, kind, body, stats, t_end)

        await asyncio.gather(*(worker() for _ in range(conc)))
        elapsed = time.perf_counter() - t_start
    lat = sorted(stats["legal_lat"])
    return {"duration_s": round(elapsed, 1), "concurrency": conc, "junk": junk, "sent": stats["sent"],
            "answered": stats["answered"], "lost": stats["lost"], "bad_5xx": stats["bad5xx"],
            "req_s": round(stats["answered"] / elapsed, 1), "legal_n": len(lat),
            "legal_p50_ms": round(1000 * pct(lat, 50), 1) if lat else None,
            "legal_p99_ms": round(1000 * pct(lat, 99), 1) if lat else None,
            "status": dict(sorted(stats["status"].items()))}


async def unloaded(base: str, logs: dict, n: int) -> dict:
    import httpx

    lat = []
    async with httpx.AsyncClient(base_url=base, timeout=CLIENT_TIMEOUT) as client:
        for i in range(n):
            body = logs["legal"][i % len(logs["legal"])]
            t0 = time.perf_counter()
            r = await client.post("/v1/check", content=body, headers={"content-type": "text/plain"})
            lat.append(time.perf_counter() - t0)
            assert r.status_code == 200 and r.json()["verdict"] == "legal", r.text[:300]
    lat.sort()
    return {"n": n, "legal_p50_ms": round(1000 * pct(lat, 50), 1), "legal_p99_ms": round(1000 * pct(lat, 99), 1)}


def pct(sorted_values: list[float], p: float) -> float:
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[p - 1] if len(sorted_values) > 1 \
        else sorted_values[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of each loaded phase (default 60)")
    ap.add_argument("--concurrency", type=int, default=32, help="clients at once (default 32)")
    ap.add_argument("--workers", type=int, default=None, help="the server's check workers (default: its own, one per core)")
    ap.add_argument("--unloaded", type=int, default=200, help="requests of the unloaded phase")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", default=str(HERE / "out" / "load.json"))
    args = ap.parse_args(argv)
    if not (0 < args.duration <= 600 and 0 < args.concurrency <= 256):
        ap.error("--duration must be in (0, 600] and --concurrency in (0, 256]")
    logs = workload(args.seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "dosverify", "serve", "--host", "127.0.0.1", "--port", str(port)]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOSVERIFY_")}
    errlog = HERE / "out" / "load-server.log"
    errlog.parent.mkdir(parents=True, exist_ok=True)
    with open(errlog, "wb") as fh:  # uvicorn's access log: one line a request
        server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT)
    sampler = RssSampler(server.pid)
    try:
        import httpx

        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise SystemExit(f"the server exited with {server.returncode}")
            try:
                health = httpx.get(base + "/healthz", timeout=1.0).json()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not answer /healthz within 30 s")
                time.sleep(0.1)
        sampler.start()
        asyncio.run(unloaded(base, logs, 20))  # warm-up: every worker started
        res = {"settings": health, "loadavg_start": os.getloadavg()}
        print(f"server: {health['workers']} workers, budget {health['check_timeout']} s, "
              f"{health['max_in_flight']} in flight; loadavg {os.getloadavg()[0]:.2f}", flush=True)
        res["unloaded"] = asyncio.run(unloaded(base, logs, args.unloaded))
        print("unloaded:", res["unloaded"], flush=True)
        res["mix"] = asyncio.run(phase(base, logs, args.duration, args.concurrency, False, args.seed))
        print("mix:", res["mix"], flush=True)
        res["mix_junk"] = asyncio.run(phase(base, logs, args.duration, args.concurrency, True, args.seed + 1))
        print("mix+junk:", res["mix_junk"], flush=True)
    finally:
        sampler.stop.set()
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
    res["rss"] = sampler.report()
    res["loadavg_end"] = os.getloadavg()
    base_p99 = res["unloaded"]["legal_p99_ms"]
    res["p99_ratio_junk_vs_unloaded"] = round(res["mix_junk"]["legal_p99_ms"] / base_p99, 2)
    res["p99_ratio_mix_vs_unloaded"] = round(res["mix"]["legal_p99_ms"] / base_p99, 2)
    lost = res["mix"]["lost"] + res["mix_junk"]["lost"]
    bad = res["mix"]["bad_5xx"] + res["mix_junk"]["bad_5xx"]
    from table import print_table

    print()
    body = [[name, r["req_s"], f"{r['legal_p50_ms']} ms", f"{r['legal_p99_ms']} ms", f"{r['answered']}/{r['sent']}",
             r["bad_5xx"], r["lost"]] for name, r in ((n, res[n]) for n in ("mix", "mix_junk"))]
    body.append(["unloaded", "", f"{res['unloaded']['legal_p50_ms']} ms", f"{base_p99} ms", "", "", ""])
    print_table(["phase", "req/s", "legal p50", "legal p99", "answered/sent", "5xx!=503", "lost"], body,
                right={1, 2, 3, 4, 5, 6})
    print(f"p99 with junk / unloaded p99: {res['p99_ratio_junk_vs_unloaded']} (target <= 5); "
          f"without junk: {res['p99_ratio_mix_vs_unloaded']}")
    for p in res["rss"]:
        print(f"  pid {p['pid']:<8} {p['role']:<17} peak RSS {p['peak_rss_mb']} MB")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2))
    print(f"written {out}")
    return 0 if lost == 0 and bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
