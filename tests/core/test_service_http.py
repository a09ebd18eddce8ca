"""The HTTP conventions client developers expect (issue 12): content negotiation, trailing
slashes, HEAD, RFC 9457 problems, stable operationIds, named batch items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from dosverify import api
from dosverify.report import render_text
from dosverify.service import PROBLEM_TYPES, create_app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "fixtures" / "dos" / "notation" / "example.log").read_text(encoding="utf-8")
ILLEGAL = EXAMPLE.replace("turn bob ", "turn cyd ", 1)
TEXT = {"content-type": "text/plain"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


# ---- Accept: text/plain ----------------------------------------------------------------------


def test_check_accept_text_plain_is_the_cli_text_report(client):
    r = client.post(
        "/v1/check", params={"name": "g.log"}, content=ILLEGAL.encode(), headers={**TEXT, "accept": "text/plain"}
    )
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/plain; charset=utf-8"
    report = api.check(ILLEGAL.encode(), name="g.log", form="text")
    assert r.text == render_text(report, report.text) + "\n"
    assert "error[turn-order]" in r.text and "g.log: illegal" in r.text


@pytest.mark.parametrize(
    "accept, text",
    [
        ("text/plain", True),
        ("text/*", True),
        ("*/*", False),
        ("", False),
        ("application/json", False),
        ("application/json, text/plain;q=0.5", False),
        ("text/plain;q=0.9, application/json;q=0.1", True),
        ("text/html, */*;q=0.8", False),
    ],
)
def test_check_content_negotiation(client, accept, text):
    headers = {**TEXT, **({"accept": accept} if accept else {})}
    r = client.post("/v1/check", content=EXAMPLE.encode(), headers=headers)
    assert r.status_code == 200
    if text:
        assert r.headers["content-type"].startswith("text/plain") and ": legal:" in r.text
    else:
        assert r.headers["content-type"] == "application/json" and r.json()["verdict"] == "legal"


def test_check_accept_text_plain_malformed_json_log(client):
    r = client.post(
        "/v1/check", content=b'{"players": 3}', headers={"content-type": "application/json", "accept": "text/plain"}
    )
    assert r.status_code == 200 and "malformed" in r.text and "error[syntax]" in r.text


def test_convert_accept_text_plain_is_the_log_itself(client):
    r = client.post("/v1/convert", content=EXAMPLE.encode(), headers={**TEXT, "accept": "text/plain"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert json.loads(r.text) == json.loads(api.convert(EXAMPLE, "json")[0])
    back = client.post(
        "/v1/convert", content=r.content, headers={"content-type": "application/json", "accept": "text/plain"}
    )
    assert back.status_code == 200 and back.text.startswith("dos 1\n")
    assert api.check(back.content).verdict == "legal"
    # errors stay problems, whatever the Accept
    r = client.post("/v1/convert", content=b"hello", headers={**TEXT, "accept": "text/plain"})
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"


# ---- trailing slash, HEAD ----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/rules/", "/v1/rulesets/", "/healthz/", "/v1/rules/match.double/"])
def test_trailing_slash_is_the_same_resource(client, path):
    r = client.get(path, follow_redirects=False)
    assert r.status_code == 200, r.text
    assert r.json() == client.get(path.rstrip("/")).json()


def test_trailing_slash_on_post(client):
    r = client.post("/v1/check/", content=EXAMPLE.encode(), headers=TEXT, follow_redirects=False)
    assert r.status_code == 200 and r.json()["verdict"] == "legal"


@pytest.mark.parametrize(
    "path",
    [
        "/healthz",
        "/v1/rules",
        "/v1/rulesets",
        "/v1/rules/match.double",
        "/openapi.json",
        "/docs",
        "/problems/not-found",
    ],
)
def test_head_wherever_get(client, path):
    g = client.get(path)
    h = client.head(path)
    assert h.status_code == g.status_code == 200
    assert h.content == b""
    assert h.headers["content-type"] == g.headers["content-type"]
    assert h.headers["content-length"] == str(len(g.content))


def test_head_on_post_only_endpoint_is_405(client):
    r = client.head("/v1/check")
    assert r.status_code == 405 and r.content == b""


# ---- RFC 9457 ----------------------------------------------------------------------------------


def test_every_problem_type_has_a_page(client):
    for code, (title, _) in PROBLEM_TYPES.items():
        r = client.get(f"/problems/{code}")
        assert r.status_code == 200 and title in r.text and r.headers["content-type"].startswith("text/html")


def test_openapi_errors_are_problem_json(client):
    doc = client.get("/openapi.json").json()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            for code, resp in op["responses"].items():
                if code[0] in "45":
                    assert set(resp["content"]) == {"application/problem+json"}, (path, method, code)
    schema = doc["components"]["schemas"]["ErrorBody"]
    assert {"type", "title", "status", "detail", "instance", "problems"} <= set(schema["properties"])


# ---- operationIds ------------------------------------------------------------------------------


def test_operation_ids_are_stable_and_readable(client):
    doc = client.get("/openapi.json").json()
    ids = {(path, method): op["operationId"] for path, ops in doc["paths"].items() for method, op in ops.items()}
    assert ids[("/v1/check", "post")] == "checkLog"
    assert ids[("/v1/check/batch", "post")] == "checkBatch"
    assert ids[("/v1/convert", "post")] == "convertLog"
    assert ids[("/v1/rules", "get")] == "listRules"
    assert ids[("/v1/rules/{rule_id}", "get")] == "getRule"
    assert ids[("/v1/rulesets", "get")] == "listRulesets"
    assert ids[("/healthz", "get")] == "getHealth"
    assert ids[("/v1/replay", "post")] == "replayLog"
    assert len(set(ids.values())) == len(ids)
    assert all(i[0].islower() and "_" not in i for i in ids.values()), ids  # camelCase, no FastAPI path suffix


# ---- named batch items -------------------------------------------------------------------------


def test_batch_items_carry_their_name(client):
    log_json = json.loads(api.convert(EXAMPLE, "json")[0])
    items = [
        {"name": "table-1.log", "log": EXAMPLE},
        {"name": "table-2.json", "log": log_json},
        ILLEGAL,
        {"log": ILLEGAL},
        {"name": "broken", "log": 42},
    ]
    r = client.post("/v1/check/batch", json=items)
    assert r.status_code == 200, r.text
    out = r.json()
    assert [rep["file"] for rep in out["reports"]] == ["table-1.log", "table-2.json", "[2]", "[3]", "broken"]
    assert [rep["verdict"] for rep in out["reports"]] == ["legal", "legal", "illegal", "illegal", "malformed"]
    assert (out["count"], out["legal"], out["illegal"], out["malformed"]) == (5, 2, 2, 1)


def test_batch_item_name_must_be_a_string(client):
    r = client.post("/v1/check/batch", json=[{"name": 3, "log": EXAMPLE}])
    assert r.status_code == 422 and r.json()["error"] == "invalid-batch"
    assert r.json()["problems"][0]["location"]["pointer"] == "/0/name"
    assert r.json()["problems"][0]["message"] == "expected a string, found number"
