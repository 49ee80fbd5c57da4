import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.errors import VoiceError
from app.model.files import STUDIO_CONFIG_NAME
from app.voices.speakers import (
    check_speaker,
    decode_speaker,
    encode_speaker,
    speaker_from_seed,
)


@pytest.fixture(scope="module")
def spk_stat(tiny_model):
    return json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["spk_stat"]


def test_seed_gives_the_same_speaker_every_time(spk_stat):
    assert speaker_from_seed(2222, spk_stat) == speaker_from_seed(2222, spk_stat)
    assert speaker_from_seed(2222, spk_stat) != speaker_from_seed(2223, spk_stat)


def test_seed_matches_what_chattts_front_ends_do(spk_stat):
    """torch.manual_seed(seed) + Chat.sample_random_speaker() on the CPU: the same string."""
    import torch
    from ChatTTS.model.speaker import Speaker

    speaker = Speaker(64, spk_stat, torch.device("cpu"))
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(2222)
        upstream = speaker.sample_random()
    assert speaker_from_seed(2222, spk_stat) == upstream
    # ...and ChatTTS decodes our string back to the same embedding.
    assert np.array_equal(Speaker._decode(upstream), decode_speaker(upstream))


def test_seed_leaves_the_global_rng_alone(spk_stat):
    import torch

    torch.manual_seed(7)
    expected = torch.rand(3)
    torch.manual_seed(7)
    speaker_from_seed(99, spk_stat)
    assert torch.equal(torch.rand(3), expected)


def test_speaker_string_round_trips():
    emb = np.linspace(-1, 1, 64).astype(np.float16)
    assert np.array_equal(decode_speaker(encode_speaker(emb)), emb)


@pytest.mark.parametrize("bad", ["", "   ", "not a speaker string", "乀嗳磚稽"])
def test_invalid_speaker_strings_get_a_sentence(bad):
    with pytest.raises(VoiceError) as err:
        decode_speaker(bad)
    assert str(err.value).endswith(".")


def test_speaker_for_another_model_size_is_refused(spk_stat):
    official_size = encode_speaker(np.zeros(768, dtype=np.float16))
    with pytest.raises(VoiceError, match="768 voice dimensions"):
        check_speaker(official_size, 64)
    assert check_speaker("  " + speaker_from_seed(1, spk_stat) + "\n", 64) == speaker_from_seed(
        1, spk_stat
    )


@settings(max_examples=150, deadline=None)
@given(
    dims=st.sampled_from([64, 768, 1024, 8192]),
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(1e-3, 50.0),
    quantum=st.sampled_from([0.0, 0.25, 1.0]),
)
def test_speaker_strings_are_the_bytes_chattts_own_preset_makes(dims, seed, scale, quantum):
    """Encoding uses a dictionary the size of the input, not the preset's 64 MiB
    (docs/design/constants.md#speaker-string-encoding-dictionary); the string must still be the one
    ChatTTS's strongest preset makes, repetitive embeddings (rounded values, which LZMA finds
    matches in) included."""
    import lzma

    import pybase16384 as b14

    values = np.random.default_rng(seed).standard_normal(dims) * scale
    if quantum:
        values = np.round(values / quantum) * quantum
    embedding = values.astype(np.float16)
    preset = lzma.compress(
        embedding.tobytes(),
        format=lzma.FORMAT_RAW,
        filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}],
    )
    assert encode_speaker(embedding) == b14.encode_to_string(preset)
    assert np.array_equal(decode_speaker(encode_speaker(embedding)), embedding)
