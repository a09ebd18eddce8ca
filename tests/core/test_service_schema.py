"""Property-based run of the service against its own OpenAPI document (schemathesis 4):
every operation with positive and negative data, and schemathesis' checks: no 5xx, status
codes, content types, headers and bodies as documented, schema-violating data rejected and
schema-valid data accepted (with the two exceptions below). In process (ASGI), well under a
minute.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance  # noqa: E402

from dosverify.service import create_app  # noqa: E402

# Small limits so that generated bodies also meet the 413 answers.
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(max_log_bytes=16 * 1024, max_batch_items=5))
# schemathesis' own 10 s per request is shorter than a `ruleset=auto` batch or a profile takes on a busy
# machine (a cold pool worker, then the inference); its ASGI client then leaves the app mid-request,
# and the answer is the shutdown's 503. The service's own budgets decide how long a check may take.
schema.config.update(request_timeout=120)
# A batch over its item limit (the schema's maxItems) is answered 413, as documented.
schema.config.checks.negative_data_rejection.expected_statuses = [
    *schema.config.checks.negative_data_rejection.expected_statuses,
    "413",
]
# A schema-valid log can still be over the 16 KiB per-log limit, which the schema does not carry:
# 413 is the documented answer for it too.
schema.config.checks.positive_data_acceptance.expected_statuses = [
    *schema.config.checks.positive_data_acceptance.expected_statuses,
    "413",
]


def _overrides_fit(case) -> bool:
    """Whether the case's `ruleset` and `option` parameters are those of its logs' games. The
    schema lists every game's (which apply depends on the log, which a schema cannot say): a
    schema-valid DOS option on a UNO Duo log is rightly a 422 naming that game's options."""
    from dosverify.games import REGISTRY, find_game, sniff_game
    from dosverify.overrides import OverrideError, for_game, refuse_unknown

    query = case.query or {}
    ruleset, options = query.get("ruleset"), query.get("option") or []
    if not ruleset and not options:
        return True
    options = [options] if isinstance(options, str) else options
    if not isinstance(ruleset, (str, type(None))) or not isinstance(options, list):
        return True  # negative data: not a ruleset or an option at all
    if not all(isinstance(o, str) for o in options):
        return True
    pairs = dict(o.partition("=")[::2] for o in options)
    body = case.body
    logs = body if isinstance(body, list) else [body]
    for log in logs:
        if isinstance(log, dict) and "log" in log and "name" in log:
            log = log["log"]
        named = sniff_game(log) if isinstance(log, (str, bytes, dict)) else None
        pack = find_game(named if named in REGISTRY else None)
        try:
            refuse_unknown(pack, None if ruleset == "auto" else ruleset, for_game(pairs, pack.name))
        except OverrideError:
            return False
    return True


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    excluded = []
    if case.media_type == "multipart/form-data":
        # In multipart every value is bytes on the wire: a "wrongly typed" part is still a file
        # the service must referee (as a malformed log), so it cannot be "rejected".
        excluded.append(negative_data_rejection)
    if case.path in ("/v1/check", "/v1/replay"):
        # A body that is not the log schema is still a log request: the answer is a verdict
        # (200, `malformed`, the findings at their pointers), as for an unreadable text log.
        # (Its status and report are checked in tests/test_service.py.)
        excluded.append(negative_data_rejection)
    if case.path == "/v1/convert":
        # A schema-valid JSON log can still be unreadable as a DOS log (two players of the same
        # name): /v1/check says so in a malformed report, /v1/convert with a documented 422.
        excluded.append(positive_data_acceptance)
    if case.path == "/v1/moves":
        # A schema-valid log may name no position at `after`, be unreadable up to it, or be of a
        # game without a move generator: each a documented 422 (tests/packs/test_tiny_moves.py).
        excluded.append(positive_data_acceptance)
    if not _overrides_fit(case):
        excluded.append(positive_data_acceptance)
    case.call_and_validate(excluded_checks=excluded)
