"""The service's execution model on a real server (127.0.0.1): the worker pool, the time
budget per check, the limit on requests in flight, the bytes limit per batch, the findings cap,
fairness between small and large logs, and `serve`'s validation of every setting."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import ROOT, server_env, start_server, stop_server  # noqa: E402
from test_service import EXAMPLE  # noqa: E402

from dosverify.api import check  # noqa: E402
from dosverify.findings import Finding  # noqa: E402
from dosverify.pool import check_job  # noqa: E402
from dosverify.report import render_text  # noqa: E402
from dosverify.settings import SettingError, Settings  # noqa: E402

TEXT = {"content-type": "text/plain"}
# Many lines that are not sentences of the notation: each is a finding, and it takes a while.
JUNK_LINE = "this is not a sentence of the notation at all\n"


def junk(lines: int) -> bytes:
    return ("dos 1\nplayers ann bob\n" + JUNK_LINE * lines).encode()


@pytest.fixture
def server(request):
    proc, base = start_server(*request.param)
    try:
        yield base
    finally:
        stop_server(proc)


def live(*flags: str):
    return pytest.mark.parametrize("server", [flags], indirect=True)


# ---- the time budget ------------------------------------------------------------------------


@live("--workers", "1", "--check-timeout", "1", "--max-log-bytes", "8000000")
def test_a_check_over_its_budget_is_503_and_the_worker_recovers(server):
    with httpx.Client(base_url=server, timeout=30) as c:
        t0 = time.monotonic()
        r = c.post("/v1/check", content=junk(20_000) * 5, headers=TEXT)  # seconds of work, 4.6 MB
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "1"
        assert r.json()["error"] == "check-timeout"
        assert time.monotonic() - t0 < 1 + 2.0 + 2.0  # budget + grace + slack, never the whole check
        r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)  # the same single worker, again
        assert r.status_code == 200 and r.json()["verdict"] == "legal"


# ---- requests in flight ------------------------------------------------------------------------


@live("--max-in-flight", "1")
def test_over_the_requests_in_flight_is_503(server):
    async def run():
        release = asyncio.Event()

        async def slow_body():  # the first request stays in flight until released
            yield EXAMPLE.encode()[:100]
            await release.wait()
            yield EXAMPLE.encode()[100:]

        async with httpx.AsyncClient(base_url=server, timeout=30) as c:
            first = asyncio.create_task(c.post("/v1/check", content=slow_body(), headers=TEXT))
            for _ in range(100):  # until the server has seen it
                await asyncio.sleep(0.05)
                second = await c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
                if second.status_code == 503:
                    break
            assert second.status_code == 503, second.text
            assert second.headers["retry-after"] == "1" and second.json()["error"] == "too-many-requests"
            assert (await c.get("/healthz")).status_code == 200  # only the checks count
            release.set()
            assert (await first).status_code == 200
            third = await c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
            assert third.status_code == 200

    asyncio.run(run())


# ---- the batch's bytes, the findings cap -----------------------------------------------------------


@live("--max-batch-bytes", "3000", "--max-findings", "3")
def test_batch_bytes_limit_and_findings_cap(server):
    with httpx.Client(base_url=server, timeout=30) as c:
        r = c.post("/v1/check/batch", json=[EXAMPLE, EXAMPLE])  # 2 x 983 bytes: under 3000
        assert r.status_code == 200 and r.json()["count"] == 2
        r = c.post("/v1/check/batch", json=[EXAMPLE, EXAMPLE, EXAMPLE, EXAMPLE])
        assert r.status_code == 413 and r.json()["error"] == "content-too-large"
        r = c.post("/v1/check", content=junk(10), headers=TEXT)
        report = r.json()
        assert r.status_code == 200 and len(report["findings"]) == 3 and report["truncated"] > 0
        assert len(check(junk(10)).findings) == 3 + report["truncated"]
        r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
        assert r.json()["truncated"] == 0
        assert c.get("/healthz").json()["max_findings"] == 3


def test_the_findings_cap_keeps_the_first_in_line_order():
    whole = check(junk(10), name="-")
    verdict, cut, out = check_job(junk(10), None, "-", None, 4)
    report = json.loads(out)
    assert (verdict, cut, report["truncated"]) == ("illegal", len(whole.findings) - 4, len(whole.findings) - 4)
    assert [f["line"] for f in report["findings"]] == [f.line for f in whole.findings[:4]]
    _, cut, text = check_job(junk(10), None, "-", None, 4, "text")
    assert cut == len(whole.findings) - 4 and f"{cut} more findings".encode() in text
    assert check_job(junk(10), None, "-", None, 100)[1] == 0
    # the same bytes as the whole report cut afterwards (what the service answered before) and the CLI's
    whole.cap(4)
    assert out == whole.to_json_line().encode()
    assert text == (render_text(check(junk(10), name="-"), whole.text, limit=4) + "\n").encode()


def _findings_alive(monkeypatch) -> list[int]:
    """[alive now, most alive at once, made]: every Finding counted as it is made and as it is freed."""
    import weakref

    alive = [0, 0, 0]
    real = Finding.__init__

    def freed() -> None:
        alive[0] -= 1

    def init(self, *args, **kw) -> None:
        real(self, *args, **kw)
        alive[0] += 1
        alive[1], alive[2] = max(alive[1], alive[0]), alive[2] + 1
        weakref.finalize(self, freed)

    monkeypatch.setattr(Finding, "__init__", init)
    return alive


@pytest.mark.parametrize("render", ["json", "text"])
def test_a_workers_findings_follow_the_cap_not_the_log(monkeypatch, render):
    """The worker's check keeps `max_findings` findings as it goes (findings.Keep) and counts the
    rest: on a log of 10^5 findings (20,000 empty rounds, 229 KB) at most the cap and a few are
    held at once, where the cap applied to the finished report held every one (shown first at
    10^3, so that the test can fail)."""
    rounds = lambda n: b"dos 1\nplayers ann bob\n" + b"".join(b"round %d\n" % i for i in range(1, n + 1))  # noqa: E731
    check_job(rounds(2), None, "-", None, 200, render)  # warm: the spec, the grammar
    alive = _findings_alive(monkeypatch)
    check_job(rounds(200), None, "-", None, None, render)
    assert alive[1] == alive[2] > 900  # uncapped: every finding made is held to the end
    alive[:] = [0, 0, 0]
    verdict, cut, _ = check_job(rounds(20_000), None, "-", None, 200, render)
    assert verdict == "illegal" and alive[2] > 99_000 and cut == alive[2] - 200
    assert alive[1] <= 200 + 10, alive


# ---- fairness ------------------------------------------------------------------------------------


@live("--workers", "2", "--check-timeout", "60")
def test_small_logs_do_not_wait_behind_large_ones(server):
    """Two large logs arrive first, more than the large lane's one worker (of two) can take;
    small checks sent after them are all answered before the first large one is."""

    async def run():
        async with httpx.AsyncClient(base_url=server, timeout=120) as c:
            done: list[str] = []

            async def post(kind: str, body: bytes):
                r = await c.post("/v1/check", content=body, headers=TEXT)
                assert r.status_code == 200, r.text
                done.append(kind)

            big = junk(20_000)  # 920 KB of lines: seconds of work each
            large = [asyncio.create_task(post("large", big)) for _ in range(2)]
            await asyncio.sleep(0.5)
            for _ in range(10):
                await post("small", EXAMPLE.encode())
            await asyncio.gather(*large)
            assert done[:10] == ["small"] * 10, done

    asyncio.run(run())


# ---- serve validates its settings ---------------------------------------------------------------


@pytest.mark.parametrize(
    "args, env, needle",
    [
        (["--max-log-bytes", "-5"], {}, "--max-log-bytes"),
        (["--max-log-bytes", "1k"], {}, "--max-log-bytes"),
        ([], {"DOSVERIFY_MAX_LOG_BYTES": "abc"}, "DOSVERIFY_MAX_LOG_BYTES"),
        ([], {"DOSVERIFY_MAX_BATCH_ITEMS": "0"}, "DOSVERIFY_MAX_BATCH_ITEMS"),
        ([], {"DOSVERIFY_CHECK_TIMEOUT": "nan"}, "DOSVERIFY_CHECK_TIMEOUT"),
        (["--port", "99999"], {}, "--port"),
        (["--port", "http"], {}, "--port"),
        (["--workers", "0"], {}, "--workers"),
        (["--check-timeout", "-1"], {}, "--check-timeout"),
        (["--max-in-flight", "2.5"], {}, "--max-in-flight"),
        (["--max-findings", ""], {}, "--max-findings"),
        (["--max-batch-bytes", "1e9"], {}, "--max-batch-bytes"),
    ],
)
def test_serve_refuses_a_bad_setting_in_one_line(args, env, needle):
    cmd = [sys.executable, "-m", "dosverify", "serve", "--port", "8", *args]
    r = subprocess.run(cmd, cwd=ROOT, env=server_env(**env), capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dosverify serve: ") and needle in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_settings_precedence():
    s = Settings.resolve({"DOSVERIFY_WORKERS": "3", "DOSVERIFY_MAX_FINDINGS": "7"}, max_findings=9)
    assert (s.workers, s.max_findings, s.check_timeout, s.max_in_flight) == (3, 9, 10.0, 64)
    with pytest.raises(SettingError):
        Settings.resolve({"DOSVERIFY_MAX_IN_FLIGHT": "-1"})


# ---- the pool itself -----------------------------------------------------------------------------


def sleep(seconds: float) -> tuple:
    """A pool job that takes ``seconds`` without using the CPU, so the tests below hold on a
    loaded machine: what they check is order and policy, not speed."""
    return ("call", (time.sleep, (seconds,)), 0)


def pool_run(test, **kw):
    from dosverify.pool import CheckPool

    async def run():
        pool = CheckPool(**{"workers": 1, "budget": 30, **kw})
        try:
            await pool.start()
            await test(pool)
        finally:
            pool.close()

    asyncio.run(run())


def test_pool_queue_timeout_and_order():
    """One worker busy with a long job: a request queued behind it past the queue timeout is
    CheckBusy; results of a request come back in its order."""
    from dosverify.pool import CheckBusy

    async def test(pool):
        job = lambda body: ("check", (body, None, "-", None, None), len(body))  # noqa: E731
        long = asyncio.create_task(pool.run([sleep(3)]))
        await asyncio.sleep(0.1)
        with pytest.raises(CheckBusy):
            await pool.run([job(EXAMPLE.encode())])
        await long
        out = await pool.run([job(junk(3)), job(EXAMPLE.encode()), job(junk(1))])
        assert [(v, json.loads(r)["verdict"], len(json.loads(r)["findings"])) for v, _, r in out] == [
            ("illegal", "illegal", 3),
            ("legal", "legal", 0),
            ("illegal", "illegal", 1),
        ]

    pool_run(test, queue_timeout=0.3)


def test_pool_serves_the_shortest_batch_first_and_single_checks_at_once():
    """Behind a batch that keeps the batch worker busy wait a batch of four, then one of two:
    the shorter goes first, each batch's logs in order; meanwhile a single check is answered at
    once, on a worker of its own."""

    async def test(pool):
        done: list[str] = []

        async def run(name, jobs):
            out = await pool.run(jobs)
            assert out == [None] * len(jobs)
            done.append(name)

        first = asyncio.create_task(run("first", [sleep(0.5)] * 2))
        await asyncio.sleep(0.1)
        four = asyncio.create_task(run("four", [sleep(0.05)] * 4))
        await asyncio.sleep(0.05)
        two = asyncio.create_task(run("two", [sleep(0.05)] * 2))
        await run("single", [sleep(0.05)])
        await asyncio.gather(first, four, two)
        assert done == ["single", "first", "two", "four"]

    pool_run(test)


def test_pool_timing_tells_the_wait_for_a_worker_from_the_check():
    """On one worker, a job sent while another runs waits for it in the queue; a job that sleeps
    takes wall time in the worker but next to no CPU time. The timing says which is which."""

    async def test(pool):
        first = asyncio.create_task(pool.run([sleep(0.6)]))
        await asyncio.sleep(0.1)
        t: dict = {}
        await pool.run([sleep(0.2)], t)
        await first
        assert set(t) == {"queue", "send", "check", "cpu", "back"}
        assert t["queue"] >= 0.3, t  # behind the first job's 0.5 s left
        assert 0.2 <= t["check"] < 5 and t["cpu"] < 0.1, t
        busy: dict = {}  # a request refused after the queue timeout waited that long, and never ran
        blocker = asyncio.create_task(pool.run([sleep(1.5)]))
        await asyncio.sleep(0.1)
        from dosverify.pool import CheckBusy

        with pytest.raises(CheckBusy):
            await pool.run([sleep(0.1)], busy)
        await blocker
        assert busy["queue"] >= 0.7 and busy["check"] == 0, busy

    pool_run(test, queue_timeout=0.8)


def test_pool_queue_timeout_counts_from_the_last_log_started():
    """A batch that takes longer than the queue timeout in all, but starts a log well within it
    each time, is answered: a batch being worked on is not cut off half way."""

    async def test(pool):
        out = await pool.run([sleep(0.1)] * 24)  # 2.4 s in all, in chunks of at most 0.8 s
        assert out == [None] * 24

    pool_run(test, queue_timeout=1.0)


def test_pool_lanes_have_their_own_workers_at_their_own_priority():
    """Batches and large logs run on workers of their own at lower OS priorities; a small check
    sent while a large log is checked is answered before it."""
    from dosverify.pool import BATCH_NICE, LARGE_NICE

    async def test(pool):
        assert len(pool.pids()) == 3  # one worker for single checks, one for batches, one for large logs
        single, batch, large = pool._all
        base = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, single.pid) == base
        assert os.getpriority(os.PRIO_PROCESS, batch.pid) == min(19, base + BATCH_NICE)
        assert os.getpriority(os.PRIO_PROCESS, large.pid) == min(19, base + LARGE_NICE)
        if hasattr(os, "SCHED_BATCH"):  # the background lanes do not preempt on waking
            assert os.sched_getscheduler(single.pid) == os.sched_getscheduler(0)
            assert os.sched_getscheduler(batch.pid) == os.sched_getscheduler(large.pid) == os.SCHED_BATCH
        done: list[str] = []

        async def run(name, job):
            await pool.run([job])
            done.append(name)

        big = ("call", (time.sleep, (1.0,)), 10**6)  # a job the size of a large log
        await asyncio.gather(run("large", big), run("small", sleep(0.05)))
        assert done == ["small", "large"]

    pool_run(test)


def test_health_reports_every_setting():
    """/healthz's model is built from Settings: a new setting shows there, documented, without
    anyone keeping a second list."""
    from dataclasses import asdict, fields

    from fastapi.testclient import TestClient

    from dosverify.service import BATCH_OVERHEAD, create_app
    from dosverify.settings import SPECS

    app = create_app(workers=3, max_findings=7, max_log_bytes=1000, max_batch_items=5)
    with TestClient(app) as c:
        health = c.get("/healthz").json()
        schema = c.get("/openapi.json").json()["components"]["schemas"]["Health"]
    cfg = app.state.settings
    assert set(health) == {"status", "version", "spec_version", "games", "connections"} | {f.name for f in fields(cfg)}
    assert health["connections"] is None  # counted by `serve`'s protocol, not under the test client
    assert {k: health[k] for k in asdict(cfg) if k != "max_batch_bytes"} == {
        k: v for k, v in asdict(cfg).items() if k != "max_batch_bytes"
    }
    assert health["max_batch_bytes"] == 1000 * 5 + BATCH_OVERHEAD  # the limit in force, not the 8 MiB setting
    for name in asdict(cfg):
        assert schema["properties"][name]["description"] == SPECS[name][4]
        assert name in schema["required"]


def _check_workers(pid: int) -> list[int]:
    """The check worker processes of the server ``pid`` (spawned children; not the resource tracker)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                cmd = (d / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid and b"spawn_main" in cmd:
                out.append(int(d.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_serve_starts_every_lane_s_workers_as_it_starts_each_at_its_priority():
    """`serve` starts its workers before the first check (so a burst at start-up does not wait
    for them): one for single checks, one for batches, one for large logs, at their niceness."""
    from dosverify.pool import BATCH_NICE, LARGE_NICE

    proc, _ = start_server("--workers", "1")
    try:
        base = os.getpriority(os.PRIO_PROCESS, 0)
        want = sorted(min(19, base + n) for n in (0, BATCH_NICE, LARGE_NICE))
        for _ in range(600):  # bounded: 60 s for three processes to start
            try:
                got = sorted(os.getpriority(os.PRIO_PROCESS, p) for p in _check_workers(proc.pid))
            except OSError:  # a process that went away between the two reads
                got = []
            if got == want:
                break
            time.sleep(0.1)
        assert got == want
    finally:
        stop_server(proc)
