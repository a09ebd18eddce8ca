"""In-process tests of the HTTP service (FastAPI's TestClient): every endpoint, every error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from dosverify import api
from dosverify.service import SPEC_HEADER, create_app
from dosverify.spec import load_spec

# The legal example of the notation (docs: notation.md, "Example").
EXAMPLE = (Path(__file__).resolve().parents[2] / "fixtures" / "dos" / "notation" / "example.log").read_text(
    encoding="utf-8"
)
# The same game with the wrong player on turn: readable, and illegal.
ILLEGAL = EXAMPLE.replace("turn bob ", "turn cyd ", 1)
NOT_A_LOG = "hello\nthis is not a log\n"
TEXT = {"content-type": "text/plain"}
SPEC_VERSION = load_spec("dos").version


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.fixture(scope="module")
def small() -> TestClient:
    """A service with small limits: 2000 bytes per log, 3 logs per batch."""
    return TestClient(create_app(max_log_bytes=2000, max_batch_items=3))


@pytest.fixture(scope="module")
def example_json() -> str:
    out, findings = api.convert(EXAMPLE, to="json")
    assert out is not None, findings
    return out


def cli_report(source, name="-", ruleset=None, form=None) -> dict:
    """What `dosverify check --format json` prints for this log, parsed (`form` as the
    Content-Type says, else sniffed like the CLI)."""
    data = source.encode() if isinstance(source, str) else source
    return json.loads(api.check(data, name=name, ruleset=ruleset, form=form).to_json_line())


def assert_error(resp, status: int, error: str, where: str) -> dict:
    """An RFC 9457 problem: its media type, the standard members and the service's own."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"] == "application/problem+json"
    assert resp.headers[SPEC_HEADER] == SPEC_VERSION
    body = resp.json()
    assert body["status"] == status and body["error"] == error and body["detail"] and body["title"]
    assert body["type"] == f"/problems/{error}"
    assert body["instance"] == resp.request.url.path
    assert body["spec_version"] == SPEC_VERSION
    assert body["problems"], body
    assert all(p["location"]["in"] == where for p in body["problems"]), body
    return body


# ---- /healthz, /openapi.json, /docs ------------------------------------------------------


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["spec_version"] == SPEC_VERSION
    assert r.headers[SPEC_HEADER] == SPEC_VERSION


def timing(resp) -> dict[str, float]:
    """The response's Server-Timing header as {metric: ms}; every metric has a duration."""
    out = {}
    for metric in resp.headers["server-timing"].split(","):
        name, dur = metric.strip().split(";")
        assert dur.startswith("dur=")
        out[name] = float(dur[4:])
    return out


def test_server_timing_says_where_a_check_s_time_went(client):
    """Every answer says how long the app took (`app`); a check also names its parts: reading
    the body, waiting for a worker, reaching it, the check (and its CPU time), the way back.
    The parts are consecutive, so together they fit within `app`."""
    client.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)  # the worker has started
    t = timing(client.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT))
    assert list(t) == ["read", "queue", "send", "check", "cpu", "back", "app"]
    assert all(v >= 0 for v in t.values()), t
    assert t["check"] > 0 and t["cpu"] > 0 and t["cpu"] <= t["check"] + 1.0, t  # one thread: CPU within wall time
    assert t["read"] + t["queue"] + t["send"] + t["check"] + t["back"] <= t["app"] + 0.05, t
    b = timing(client.post("/v1/check/batch", json=[EXAMPLE, ILLEGAL, EXAMPLE]))
    assert b["check"] > 0 and b["app"] > 0
    assert list(timing(client.get("/healthz"))) == ["app"]
    assert "app" in timing(client.post("/v1/check", content=b"x", headers={"content-type": "image/png"}))  # errors too


def test_openapi_has_every_model(client):
    r = client.get("/openapi.json")
    assert r.status_code == 200 and r.headers[SPEC_HEADER] == SPEC_VERSION
    doc = r.json()
    schemas = doc["components"]["schemas"]
    for model in (
        "Report",
        "Finding",
        "Position",
        "Log",
        "Round",
        "Turn",
        "Match",
        "Draw",
        "ErrorBody",
        "Problem",
        "Location",
        "RuleInfo",
        "RulesResult",
        "RulesetInfo",
        "RulesetsResult",
        "BatchResult",
        "ConvertResult",
        "Health",
    ):
        assert model in schemas, model
    assert set(doc["paths"]) >= {
        "/v1/check",
        "/v1/check/batch",
        "/v1/convert",
        "/v1/rules",
        "/v1/rules/{rule_id}",
        "/v1/rulesets",
        "/healthz",
    }
    check = doc["paths"]["/v1/check"]["post"]
    assert set(check["requestBody"]["content"]) == {"text/plain", "application/json"}
    assert check["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Log"}
    for code in ("200", "413", "415", "422"):
        assert code in check["responses"]
        assert SPEC_HEADER in check["responses"][code]["headers"]
    assert check["responses"]["422"]["content"]["application/problem+json"]["schema"]["$ref"].endswith("/ErrorBody")
    assert set(check["responses"]["200"]["content"]) == {"application/json", "text/plain"}


def test_docs_page(client):
    r = client.get("/docs")
    assert r.status_code == 200 and "swagger" in r.text.lower()


# ---- POST /v1/check ----------------------------------------------------------------------


def test_check_text_legal_example_equals_cli(client):
    r = client.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 200, r.text
    assert r.headers[SPEC_HEADER] == SPEC_VERSION
    assert r.json() == cli_report(EXAMPLE)
    assert r.json()["verdict"] == "legal" and r.json()["spec_version"] == SPEC_VERSION


def test_check_text_with_charset_and_name(client):
    r = client.post(
        "/v1/check",
        params={"name": "games/g1.dos"},
        content=EXAMPLE.encode(),
        headers={"content-type": "text/plain; charset=UTF-8"},
    )
    assert r.status_code == 200
    assert r.json() == cli_report(EXAMPLE, name="games/g1.dos")


def test_check_json_form_equals_cli(client, example_json):
    r = client.post("/v1/check", content=example_json.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json() == cli_report(example_json)
    assert r.json()["verdict"] == "legal"


def test_check_illegal_is_200(client):
    r = client.post("/v1/check", content=ILLEGAL.encode(), headers=TEXT)
    assert r.status_code == 200
    assert r.json() == cli_report(ILLEGAL)
    assert r.json()["verdict"] == "illegal"
    assert any(f["kind"] == "turn-order" for f in r.json()["findings"])


def test_check_malformed_text_is_200(client):
    r = client.post("/v1/check", content=NOT_A_LOG.encode(), headers=TEXT)
    assert r.status_code == 200
    assert r.json()["verdict"] == "malformed"
    assert r.json() == cli_report(NOT_A_LOG)


def test_check_text_not_utf8_names_the_byte_offset(client):
    data = EXAMPLE.encode().replace(b"Club night", b"Caf\xe9 night")
    offset = data.index(b"\xe9")
    r = client.post("/v1/check", content=data, headers=TEXT)
    assert r.status_code == 200
    report = r.json()
    assert report["verdict"] == "malformed"
    enc = [f for f in report["findings"] if f["rule"] == "notation.encoding"]
    assert enc and str(offset) in enc[0]["message"], enc
    assert report == cli_report(data)


def test_check_ruleset_override(client):
    r = client.post("/v1/check", params={"ruleset": "strict"}, content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 200
    assert r.json()["ruleset"] == "strict"
    assert r.json() == cli_report(EXAMPLE, ruleset="strict")


def test_check_unknown_ruleset_422(client):
    r = client.post("/v1/check", params={"ruleset": "klondike"}, content=EXAMPLE.encode(), headers=TEXT)
    body = assert_error(r, 422, "unknown-ruleset", "query")
    assert body["problems"][0]["location"]["name"] == "ruleset"
    assert "klondike" in body["detail"] and "official" in body["detail"]


def test_check_json_not_the_schema_is_200_malformed_with_pointers(client, example_json):
    # a log that cannot be read is a verdict in both forms, not an HTTP error
    log = json.loads(example_json)
    log["players"] = ["ann"]  # too few
    log["rounds"][0]["turns"][0]["events"][0]["cards"] = ["R2"]  # not a card
    log["colour"] = "blue"  # not a field
    r = client.post("/v1/check", json=log)
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["verdict"] == "malformed"
    pointers = {f["pointer"] for f in report["findings"]}
    assert "/players" in pointers
    assert "/colour" in pointers
    assert any(p and p.startswith("/rounds/0/turns/0/events/0") for p in pointers), pointers
    assert all(f["rule"] == "notation.schema" for f in report["findings"])
    assert report == cli_report(json.dumps(log))  # the report the CLI would print


@pytest.mark.parametrize("payload", [b'{"players": [', b"[1, 2]", b'"a string"', b"{}", b"\xff{}"])
def test_check_malformed_json_answers_like_malformed_text(client, payload):
    r = client.post("/v1/check", content=payload, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json()["verdict"] == "malformed" and r.json()["findings"]
    assert r.json() == cli_report(payload, form="json")


def test_messages_name_json_types_not_python_types(client):
    r = client.post("/v1/check/batch", json={"players": ["a", "b"]})
    body = assert_error(r, 422, "invalid-batch", "body")
    assert body["problems"][0]["message"] == "expected an array, found object"
    r = client.post("/v1/check", json=[1, 2])
    assert r.json()["findings"][0]["found"] == "array"
    for text in (r.text, json.dumps(body)):
        for word in ("dict", "list", "NoneType", "str"):
            assert f"found {word}" not in text and f"`{word}`" not in text


@pytest.mark.parametrize(
    "ctype", [None, "text/csv", "application/xml", "text/plain; charset=latin-1", "application/x-www-form-urlencoded"]
)
def test_check_unsupported_media_type_415(client, ctype):
    headers = {"content-type": ctype} if ctype else {}
    r = client.post("/v1/check", content=EXAMPLE.encode(), headers=headers)
    body = assert_error(r, 415, "unsupported-media-type", "header")
    assert body["problems"][0]["location"]["name"] == "content-type"


def test_check_body_too_large_content_length_413(small):
    big = (EXAMPLE + "#" * 3000 + "\n").encode()
    r = small.post("/v1/check", content=big, headers=TEXT)
    body = assert_error(r, 413, "content-too-large", "body")
    assert "2000" in body["detail"]


def test_check_body_too_large_chunked_413(small):
    sent = []

    def chunks():
        for _ in range(100):  # 100 x 1000 bytes; the limit is 2000
            sent.append(1)
            yield b"#" * 1000

    r = small.post("/v1/check", content=chunks(), headers=TEXT)
    assert r.request.headers.get("transfer-encoding") == "chunked"
    assert "content-length" not in r.request.headers
    assert_error(r, 413, "content-too-large", "body")


def test_check_body_over_limit_wins_over_content_type(small):
    r = small.post("/v1/check", content=b"x" * 5000, headers={"content-type": "text/csv"})
    assert_error(r, 413, "content-too-large", "body")


def test_check_limit_at_the_limit_is_read(small):
    data = EXAMPLE.encode()
    assert len(data) <= 2000
    r = small.post("/v1/check", content=data, headers=TEXT)
    assert r.status_code == 200


def test_limits_from_environment(monkeypatch):
    monkeypatch.setenv("DOSVERIFY_MAX_LOG_BYTES", "100")
    monkeypatch.setenv("DOSVERIFY_MAX_BATCH_ITEMS", "2")
    c = TestClient(create_app())
    assert c.get("/healthz").json()["max_log_bytes"] == 100
    assert_error(c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT), 413, "content-too-large", "body")
    r = c.post("/v1/check/batch", json=["dos 1", "dos 1", "dos 1"])
    assert_error(r, 413, "too-many-items", "body")


def test_bad_query_parameter_422(client):
    r = client.post("/v1/check", params={"name": "x" * 2000}, content=EXAMPLE.encode(), headers=TEXT)
    body = assert_error(r, 422, "invalid-parameter", "query")
    assert body["problems"][0]["location"]["name"] == "name"


# ---- POST /v1/check/batch ----------------------------------------------------------------


def test_batch_json_array_in_order_one_bad_log_spoils_nothing(client, example_json):
    items = [EXAMPLE, json.loads(example_json), NOT_A_LOG, 42, {"players": ["ann"]}, ILLEGAL]
    r = client.post("/v1/check/batch", json=items)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["count"] == 6 and len(out["reports"]) == 6
    reports = out["reports"]
    assert [rep["file"] for rep in reports] == [f"[{i}]" for i in range(6)]
    assert reports[0] == cli_report(EXAMPLE, name="[0]")
    assert reports[1] == cli_report(json.dumps(items[1], ensure_ascii=False), name="[1]")
    assert reports[2] == cli_report(NOT_A_LOG, name="[2]")
    assert reports[5] == cli_report(ILLEGAL, name="[5]")
    assert [rep["verdict"] for rep in reports] == ["legal", "legal", "malformed", "malformed", "malformed", "illegal"]
    assert any(f["pointer"] == "/players" for f in reports[4]["findings"])
    assert (out["legal"], out["illegal"], out["malformed"]) == (2, 1, 3)


def test_batch_ruleset_override_and_unknown(client):
    r = client.post("/v1/check/batch", params={"ruleset": "strict"}, json=[EXAMPLE])
    assert r.status_code == 200 and r.json()["reports"][0]["ruleset"] == "strict"
    r = client.post("/v1/check/batch", params={"ruleset": "nope"}, json=[EXAMPLE])
    assert_error(r, 422, "unknown-ruleset", "query")


def test_batch_multipart(client, example_json):
    files = [
        ("files", ("a.dos", EXAMPLE.encode(), "text/plain")),
        ("files", ("b.json", example_json.encode(), "application/json")),
        ("files", ("c.dos", EXAMPLE.encode().replace(b"Club", b"Caf\xe9"), "application/octet-stream")),
        ("files", ("d.json", example_json.encode(), "application/octet-stream")),  # sniffed, like the CLI
        ("other", ("e.dos", ILLEGAL.encode(), "text/plain")),
    ]
    r = client.post("/v1/check/batch", files=files)
    assert r.status_code == 200, r.text
    reports = r.json()["reports"]
    assert [rep["file"] for rep in reports] == ["a.dos", "b.json", "c.dos", "d.json", "e.dos"]
    for (_, (name, data, _)), rep in zip(files, reports, strict=False):
        assert rep == cli_report(data, name=name)
    assert [rep["verdict"] for rep in reports] == ["legal", "legal", "malformed", "legal", "illegal"]


def test_batch_multipart_field_keeps_bytes(client):
    # a plain form field (no file name) is a log too, and its bytes are not re-decoded
    data = EXAMPLE.encode().replace(b"Club", b"Caf\xe9")
    body = b'--XyZ\r\nContent-Disposition: form-data; name="log"\r\n\r\n' + data + b"\r\n--XyZ--\r\n"
    r = client.post("/v1/check/batch", content=body, headers={"content-type": "multipart/form-data; boundary=XyZ"})
    assert r.status_code == 200, r.text
    assert r.json()["reports"][0] == cli_report(data, name="log")


def test_batch_too_many_items_413(small):
    r = small.post("/v1/check/batch", json=[EXAMPLE] * 4)
    body = assert_error(r, 413, "too-many-items", "body")
    assert body["problems"][0]["location"]["item"] == 3
    files = [("files", (f"{i}.dos", b"dos 1\n", "text/plain")) for i in range(4)]
    r = small.post("/v1/check/batch", files=files)
    body = assert_error(r, 413, "too-many-items", "body")
    assert body["problems"][0]["location"]["item"] == 3


def test_batch_item_too_large_413(small):
    big = EXAMPLE + "#" * 3000 + "\n"
    r = small.post("/v1/check/batch", json=[EXAMPLE, big])
    body = assert_error(r, 413, "content-too-large", "body")
    assert body["problems"][0]["location"]["pointer"] == "/1"
    r = small.post(
        "/v1/check/batch",
        files=[
            ("files", ("a.dos", EXAMPLE.encode(), "text/plain")),
            ("files", ("big.dos", big.encode(), "text/plain")),
        ],
    )
    body = assert_error(r, 413, "content-too-large", "body")
    assert body["problems"][0]["location"]["item"] == 1


def test_batch_body_too_large_413(small):
    r = small.post(
        "/v1/check/batch", content=b"[" + b" " * 100_000 + b"]", headers={"content-type": "application/json"}
    )
    assert_error(r, 413, "content-too-large", "body")


def test_batch_415_and_422(client):
    assert_error(
        client.post("/v1/check/batch", content=EXAMPLE.encode(), headers=TEXT), 415, "unsupported-media-type", "header"
    )
    body = assert_error(client.post("/v1/check/batch", json={"players": ["a", "b"]}), 422, "invalid-batch", "body")
    assert body["problems"][0]["location"]["pointer"] == ""
    body = assert_error(
        client.post("/v1/check/batch", content=b'["dos 1",', headers={"content-type": "application/json"}),
        422,
        "invalid-batch",
        "body",
    )
    assert body["problems"][0]["location"]["offset"] == 9
    r = client.post("/v1/check/batch", content=b"--XyZ\r\nbroken", headers={"content-type": "multipart/form-data"})
    assert_error(r, 400, "bad-request", "header")


def test_batch_empty(client):
    r = client.post("/v1/check/batch", json=[])
    assert r.status_code == 200 and r.json()["count"] == 0


# ---- POST /v1/convert --------------------------------------------------------------------


def test_convert_text_to_json_and_back(client, example_json):
    r = client.post("/v1/convert", content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 200, r.text
    assert r.json()["to"] == "json"
    assert r.json()["log"] == json.loads(example_json)
    r2 = client.post("/v1/convert", json=r.json()["log"])
    assert r2.status_code == 200 and r2.json()["to"] == "text"
    text = r2.json()["log"]
    assert isinstance(text, str) and text.startswith("dos 1")
    # the round trip keeps the game: the same report as the original (but for the line count)
    a, b = cli_report(EXAMPLE), cli_report(text)
    for rep in (a, b):
        rep.pop("lines")
    assert a == b


def test_convert_to_parameter(client):
    r = client.post("/v1/convert", params={"to": "json"}, content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 200 and r.json()["to"] == "json"
    # the body's own form: normalised (comments and spacing go, the game stays)
    r = client.post("/v1/convert", params={"to": "text"}, content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 200 and r.json()["to"] == "text"
    assert r.json()["log"].startswith("dos 1") and "#" not in r.json()["log"].replace("R#", "").replace("G#", "")
    body = assert_error(
        client.post("/v1/convert", params={"to": "yaml"}, content=EXAMPLE.encode(), headers=TEXT),
        422,
        "invalid-parameter",
        "query",
    )
    assert body["problems"][0]["location"]["name"] == "to"


def test_convert_unreadable_422(client):
    body = assert_error(
        client.post("/v1/convert", content=NOT_A_LOG.encode(), headers=TEXT), 422, "invalid-log", "body"
    )
    assert body["problems"][0]["rule"].startswith("notation.")
    body = assert_error(client.post("/v1/convert", json={"players": 3}), 422, "invalid-log", "body")
    assert any(p["location"]["pointer"] == "/players" for p in body["problems"])


def test_convert_415_and_413(client, small):
    assert_error(
        client.post("/v1/convert", content=b"x", headers={"content-type": "image/png"}),
        415,
        "unsupported-media-type",
        "header",
    )
    assert_error(small.post("/v1/convert", content=b"#" * 5000, headers=TEXT), 413, "content-too-large", "body")


# ---- the specification -------------------------------------------------------------------


def test_rules(client):
    r = client.get("/v1/rules")
    assert r.status_code == 200 and r.headers[SPEC_HEADER] == SPEC_VERSION
    body = r.json()
    spec = load_spec("dos")
    assert body["spec_version"] == spec.version
    assert [rule["id"] for rule in body["rules"]] == list(spec.rules)
    assert body["rules"][0] == next(iter(spec.rules.values())).to_dict()
    assert all(rule["sources"] for rule in body["rules"])
    refs = {s["ref"] for rule in body["rules"] for s in rule["sources"]}
    assert refs <= set(body["sources"])


def test_rule_by_id(client):
    r = client.get("/v1/rules/notation.encoding")
    assert r.status_code == 200
    assert r.json() == load_spec("dos").rules["notation.encoding"].to_dict()


def test_rule_unknown_404(client):
    body = assert_error(client.get("/v1/rules/no.such-rule"), 404, "not-found", "path")
    assert body["problems"][0]["location"]["name"] == "rule_id"


def test_rulesets(client):
    r = client.get("/v1/rulesets")
    assert r.status_code == 200
    body = r.json()
    spec = load_spec("dos")
    assert [rs["name"] for rs in body["rulesets"]] == sorted(spec.rulesets)
    official = next(rs for rs in body["rulesets"] if rs["name"] == "official")
    assert official["options"] == spec.rulesets["official"]["options"]
    assert set(body["options"]) == set(spec.options)
    assert body["sources"]


# ---- errors outside the endpoints --------------------------------------------------------


def test_unknown_path_404_and_method_405(client):
    assert_error(client.get("/v2/check"), 404, "not-found", "path")
    assert_error(client.get("/v1/check"), 405, "method-not-allowed", "path")
    assert_error(client.put("/v1/rules"), 405, "method-not-allowed", "path")


def test_internal_error_is_json(monkeypatch):
    import dosverify.service as service

    async def boom(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(service, "_in_pool", boom)  # a bug between the endpoint and the pool
    c = TestClient(create_app(), raise_server_exceptions=False)
    r = c.post("/v1/check", content=EXAMPLE.encode(), headers=TEXT)
    assert r.status_code == 500
    assert r.json()["error"] == "internal-error"
    assert "RuntimeError" not in r.text and "boom" not in r.text
