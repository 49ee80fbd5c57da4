"""Property-based fuzzing of every operation in the server's OpenAPI schema (schemathesis):
no generated request, valid or not, gets a 500."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from app.server.app import ServerState, create_app
from tests.server.conftest import FAST, fast_sampling


@pytest.fixture(scope="module")
def fuzzed_app(engine, tmp_path_factory):
    from app.library.voices import VoiceLibrary

    state = ServerState(
        engine=engine,
        voices=VoiceLibrary(tmp_path_factory.mktemp("fuzz-library")),
        sampling=fast_sampling(),
        **FAST,
    )
    return create_app(state)


def test_no_request_gets_a_server_error(fuzzed_app):
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {
        "/v1/audio/speech",
        "/v1/models",
        "/v1/voices",
        "/health",
    }
    for operation in operations:
        # Few examples per operation: a valid speech request runs the model.
        @given(operation.as_strategy())
        @settings(
            max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        def call(case):
            case.call_and_validate(checks=[not_a_server_error])

        call()
