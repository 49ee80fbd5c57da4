import pytest

from tests.support.precision_compare import prompt_embedding


@pytest.fixture(scope="module")
def emb(synthesizer):
    """The prompt the step runtimes' comparisons decode (tests/support/precision_compare.py)."""
    return prompt_embedding(synthesizer.parts, synthesizer.speaker_for_seed(1))
