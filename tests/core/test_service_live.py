"""The real server: `python -m dosverify serve` in a subprocess on a free 127.0.0.1 port.

Its reports must equal what `dosverify check --format json` prints for the same files (after
JSON parsing), and its limits must answer 413 without hanging the connection. The server is
always killed, whatever happens.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import server_env, start_server, stop_server  # noqa: E402
from test_service import EXAMPLE, ILLEGAL, NOT_A_LOG  # noqa: E402

MAX_LOG = 64 * 1024


def env() -> dict:
    return server_env()


def start(*extra: str):
    """Start the server; return (process, base URL) once /healthz answers, or fail."""
    try:
        return start_server(*extra)
    except RuntimeError as exc:
        pytest.fail(str(exc))


stop = stop_server


@pytest.fixture(scope="module")
def server():
    proc, base = start("--max-log-bytes", str(MAX_LOG))
    try:
        yield base
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> list[Path]:
    """Real log files: the notation's example (text and JSON), an illegal one, a malformed one,
    one that is not UTF-8."""
    d = tmp_path_factory.mktemp("logs")
    files = {
        "example.dos": EXAMPLE.encode(),
        "illegal.dos": ILLEGAL.encode(),
        "not-a-log.dos": NOT_A_LOG.encode(),
        "latin1.dos": EXAMPLE.encode().replace(b"Club", b"Caf\xe9"),
        "crlf.dos": EXAMPLE.replace("\n", "\r\n").encode(),
    }
    fixture = ROOT / "fixtures" / "dos" / "notation" / "example.log"
    if fixture.is_file():
        files["fixture-example.log"] = fixture.read_bytes()
    paths = []
    for name, data in files.items():
        (d / name).write_bytes(data)
        paths.append(d / name)
    conv = subprocess.run(
        [sys.executable, "-m", "dosverify", "convert", str(d / "example.dos"), "--to", "json"],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        timeout=60,
    )
    if conv.returncode == 0 and conv.stdout.strip():
        (d / "example.json").write_bytes(conv.stdout)
        paths.append(d / "example.json")
    return paths


def cli_reports(paths: list[Path]) -> dict[str, dict]:
    run = subprocess.run(
        [sys.executable, "-m", "dosverify", "check", "--format", "json", *map(str, paths)],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        timeout=120,
    )
    assert run.returncode in (0, 1, 2), run.stderr.decode()
    reports = [json.loads(line) for line in run.stdout.decode().splitlines() if line.strip()]
    assert len(reports) == len(paths), run.stderr.decode()
    return {r["file"]: r for r in reports}


def content_type(path: Path) -> str:
    return "application/json" if path.suffix == ".json" else "text/plain"


def test_live_reports_equal_the_cli(server, logs):
    expected = cli_reports(logs)
    with httpx.Client(base_url=server, timeout=30) as c:
        for path in logs:
            r = c.post(
                "/v1/check",
                params={"name": str(path)},
                content=path.read_bytes(),
                headers={"content-type": content_type(path)},
            )
            assert r.status_code == 200, (path.name, r.text)
            assert r.headers["x-dos-spec-version"] == expected[str(path)]["spec_version"]
            assert r.json() == expected[str(path)], path.name
    assert expected[str(logs[0])]["verdict"] == "legal"


def test_live_batch_equals_the_cli(server, logs):
    expected = cli_reports(logs)
    files = [("files", (str(p), p.read_bytes(), content_type(p))) for p in logs]
    r = httpx.post(server + "/v1/check/batch", files=files, timeout=30)
    assert r.status_code == 200, r.text
    assert [rep["file"] for rep in r.json()["reports"]] == [str(p) for p in logs]
    for rep in r.json()["reports"]:
        assert rep == expected[rep["file"]]


def test_live_limits_answer_413_and_never_hang(server):
    with httpx.Client(base_url=server, timeout=10) as c:
        # a Content-Length over the limit: refused before the body is read
        r = c.post("/v1/check", content=b"#" * (4 * MAX_LOG), headers={"content-type": "text/plain"})
        assert r.status_code == 413 and r.json()["error"] == "content-too-large"

        # a chunked body: refused while it is read
        def chunks():
            for _ in range(8):
                yield b"#" * (MAX_LOG // 2)

        r = c.post("/v1/check", content=chunks(), headers={"content-type": "text/plain"})
        assert r.status_code == 413 and r.json()["error"] == "content-too-large"
        # the service still answers afterwards
        assert c.get("/healthz").status_code == 200
        r = c.post("/v1/check", content=b"x", headers={"content-type": "text/csv"})
        assert r.status_code == 415 and r.json()["error"] == "unsupported-media-type"


def test_live_several_workers_read_limits_from_the_environment():
    """--workers 2 imports the app by name ("dosverify.service:app"); the limit reaches the
    workers through the environment."""
    proc, base = start("--workers", "2", "--max-log-bytes", "100")
    try:
        r = httpx.get(base + "/healthz", timeout=10)
        assert r.json()["max_log_bytes"] == 100
        r = httpx.post(base + "/v1/check", content=EXAMPLE.encode(), headers={"content-type": "text/plain"}, timeout=10)
        assert r.status_code == 413
        r = httpx.post(base + "/v1/check", content=b"dos 1\n", headers={"content-type": "text/plain"}, timeout=10)
        assert r.status_code == 200 and r.json()["verdict"] == "malformed"
    finally:
        stop(proc)


@pytest.mark.parametrize("flag, logged", [((), True), (("--no-access-log",), False)])
def test_access_log_one_line_per_request_switchable_off(flag, logged):
    proc, base = start(*flag)
    try:
        httpx.get(base + "/v1/rules/match.double", timeout=10)
        httpx.post(base + "/v1/check", content=EXAMPLE.encode(), headers={"content-type": "text/plain"}, timeout=30)
    finally:
        proc.terminate()
        out = proc.communicate(timeout=20)[0].decode(errors="replace")
    lines = out.splitlines()
    rule_lines = [ln for ln in lines if '"GET /v1/rules/match.double HTTP/1.1" 200' in ln]
    check_lines = [ln for ln in lines if '"POST /v1/check HTTP/1.1" 200' in ln]
    if logged:
        assert len(rule_lines) == 1 and len(check_lines) == 1, out
        assert "127.0.0.1" in rule_lines[0]
    else:
        assert not rule_lines and not check_lines and "HTTP/1.1" not in out, out
