"""Property-based run of the event store's routes (/v1/events, /v1/audits) against the
service's own OpenAPI document (schemathesis 4), with a real SQLite store and the organiser's
bearer token on every call, so that the writes (createEvent, addGame) are exercised past their
401: no 5xx, statuses, content types, headers and bodies as documented; schemathesis'
``ignored_auth`` check sends each write without the token too and wants its 401. The stateful
run follows the document's links: an event created, logs added to it, its standings, games and
audits read back by the ids the answers gave. (tests/core/test_service_schema.py runs the rest
of the service, without a store.) In process (ASGI).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import negative_data_rejection  # noqa: E402

from dosverify.service import create_app  # noqa: E402
from dosverify.store.db import database_url  # noqa: E402
from dosverify.store.routes import StoreBox  # noqa: E402

TOKEN = "schemathesis-s3cret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
STORE = Path(tempfile.mkdtemp(prefix="dosverify-schema-"))
atexit.register(shutil.rmtree, STORE, True)  # made at collection, so removed even if no test here runs
(STORE / "token").write_text(TOKEN + "\n")

# A small log limit so that generated bodies also meet the 413 answer.
app = create_app(max_log_bytes=16 * 1024)
app.state.store = StoreBox(database_url(STORE), str(STORE / "token"))  # as `serve --data DIR --token-file FILE`
schema = schemathesis.openapi.from_asgi("/openapi.json", app).include(path_regex="^/v1/(events|audits)")
schema.config.update(request_timeout=120)  # as in test_service_schema.py: a busy machine, not the tool, sets the pace
# A schema-valid log can still be over the 16 KiB per-log limit, which the schema does not
# carry: 413 is the documented answer for it.
schema.config.checks.positive_data_acceptance.expected_statuses = [
    *schema.config.checks.positive_data_acceptance.expected_statuses,
    "413",
]


@pytest.fixture(scope="module", autouse=True)
def _store_closed():
    yield
    app.state.store.close()


def excluded_checks(case) -> list:
    if case.path == "/v1/events/{event_id}/games" and case.method == "POST":
        # A body that is not the log schema is still a log: the event keeps it, as an audit
        # whose verdict is `malformed` (201), as /v1/check answers it with a verdict
        # (tests/core/test_store_service.py holds the audit to it).
        return [negative_data_rejection]
    return []


def test_the_writes_are_in_the_document_with_their_security_and_links():
    doc = app.openapi()
    assert doc["components"]["securitySchemes"]["HTTPBearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "the one line of `serve --token-file FILE`",
    }
    writes = {(p, m) for p, ops in doc["paths"].items() for m, op in ops.items() if op.get("security")}
    assert writes == {("/v1/events", "post"), ("/v1/events/{event_id}/games", "post")}
    links = doc["paths"]["/v1/events"]["post"]["responses"]["201"]["links"]
    assert {ln["operationId"] for ln in links.values()} == {"addGame", "getEvent", "listGames", "getStandings"}


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_event_routes_conform_to_the_document(case):
    case.call_and_validate(headers=AUTH, excluded_checks=excluded_checks(case))


class EventsStateMachine(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences of calls along the document's links, each with the organiser's token."""

    def get_call_kwargs(self, case):
        return {"headers": AUTH}

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(
            response,
            additional_checks=additional_checks,
            excluded_checks=excluded_checks(case),
            transport_kwargs=kwargs,
        )


TestEventsStateful = EventsStateMachine.TestCase
TestEventsStateful.settings = settings(
    max_examples=10, stateful_step_count=6, deadline=None, suppress_health_check=list(HealthCheck)
)


def test_the_runs_wrote_past_the_token():
    """The runs above made events and audits (their writes were not all refused): what they
    checked includes the answers of writes that took."""
    store = app.state.store.get()
    events = store.list_events()
    assert events, "no event was created"
    assert any(store.games(e["id"]) for e in events), "no log was added to an event"
