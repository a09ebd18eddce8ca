"""A client generated from the service's own /openapi.json (openapi-python-client), used
against a live `dosverify serve`: the operationIds become its function names, the models its
classes, and a client developer's first hour works without reading the source."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("openapi_python_client")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from liveserver import start_server, stop_server  # noqa: E402
from test_service import EXAMPLE, ILLEGAL  # noqa: E402

from dosverify import api  # noqa: E402


@pytest.fixture(scope="module")
def server():
    proc, base = start_server()
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def client_pkg(server, tmp_path_factory):
    """Generate `dosverify_client` from the live server's /openapi.json and import it."""
    d = tmp_path_factory.mktemp("client")
    (d / "openapi.json").write_bytes(httpx.get(server + "/openapi.json").content)
    (d / "config.yaml").write_text(
        "post_hooks: []\npackage_name_override: dosverify_client\nproject_name_override: dosverify-client\n"
    )
    exe = Path(sys.executable).with_name("openapi-python-client")
    proc = subprocess.run(
        [
            str(exe),
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            "dosverify_client",
        ],
        cwd=d,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    sys.path.insert(0, str(d))
    try:
        yield importlib.import_module("dosverify_client")
    finally:
        sys.path.remove(str(d))
        for name in [m for m in sys.modules if m == "dosverify_client" or m.startswith("dosverify_client.")]:
            del sys.modules[name]


def test_generated_client_has_readable_names(client_pkg):
    for mod in (
        "check.check_log",
        "check.check_batch",
        "convert.convert_log",
        "specification.list_rules",
        "specification.get_rule",
        "specification.list_rulesets",
        "service.get_health",
    ):
        m = importlib.import_module(f"dosverify_client.api.{mod}")
        assert callable(m.sync) and callable(m.asyncio)


def test_generated_client_against_live_server(client_pkg, server):
    from dosverify_client import Client
    from dosverify_client.api.check import check_batch, check_log
    from dosverify_client.api.specification import get_rule, list_rules, list_rulesets
    from dosverify_client.models import BatchResult, ErrorBody, Log, NamedLog, Report

    c = Client(base_url=server, raise_on_unexpected_status=True, timeout=httpx.Timeout(60.0))
    rules = list_rules.sync(client=c)
    assert "match.double" in [r.id for r in rules.rules]
    rule = get_rule.sync(client=c, rule_id="match.double")
    assert rule.id == "match.double" and rule.sources
    missing = get_rule.sync(client=c, rule_id="no.such-rule")
    assert isinstance(missing, ErrorBody) and missing.status == 404 and missing.type_ == "/problems/not-found"
    assert "official" in [rs.name for rs in list_rulesets.sync(client=c).rulesets]

    log = Log.from_dict(json.loads(api.convert(EXAMPLE, "json")[0]))
    report = check_log.sync(client=c, body=log, name="example.json")
    assert isinstance(report, Report) and report.verdict.value == "legal" and report.file == "example.json"

    # openapi-python-client 0.29 writes `isinstance(body, list[...])` for a body offered both as a
    # JSON array and as multipart (a TypeError in its own code), so the batch goes through the
    # generated client's httpx session, with the generated models at both ends.
    assert callable(check_batch.sync)
    r = c.get_httpx_client().post("/v1/check/batch", json=[NamedLog(name="table-1", log=EXAMPLE).to_dict(), ILLEGAL])
    batch = BatchResult.from_dict(r.json())
    assert [r.file for r in batch.reports] == ["table-1", "[1]"]
    assert [r.verdict.value for r in batch.reports] == ["legal", "illegal"]
    assert (batch.count, batch.legal, batch.illegal, batch.malformed) == (2, 1, 1, 0)
    assert any(f.kind == "turn-order" for f in batch.reports[1].findings)
