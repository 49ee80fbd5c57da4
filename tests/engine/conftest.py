"""Fixtures of the engine tests: engines over the session's synthesizer, closed after the test."""

import pytest

from app.synthesis.engine import Engine


@pytest.fixture(scope="module")
def chat(synthesizer):
    """The session synthesizer's model parts (model/runtime's ModelParts)."""
    return synthesizer.parts


@pytest.fixture
def engine(synthesizer):
    """`engine(start=False)`: an Engine over the tiny model; held until `start()` unless asked,
    so requests submitted first are all waiting when the first batch is formed."""
    made = []

    def make(start=False):
        made.append(Engine(synthesizer, start=start))
        return made[-1]

    yield make
    for e in made:
        e.close(timeout=60)
        assert not e._thread.is_alive()
