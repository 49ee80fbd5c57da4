"""Fixtures of the narration tests. The engine fixture is the engine tests' own (one tiny model
per test session, engines closed after each test)."""

from tests.engine.conftest import engine  # noqa: F401  (a fixture, used by name)
