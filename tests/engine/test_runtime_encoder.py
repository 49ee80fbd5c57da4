"""The audio encoder built without ChatTTS (model/runtime/encoder.py) turns a recording into the
same codes, and the same text form, as ChatTTS's DVAE and Speaker on the same files (the
`reference` fixture holds ChatTTS's, loaded from the tiny model)."""

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.model.runtime.config import parts_config
from app.model.runtime.encoder import load_audio_encoder
from app.model.runtime.speaker import Speaker
from app.model.schemas import read_model_dims


@pytest.fixture(scope="module")
def dims(tiny_model):
    return parts_config(read_model_dims(tiny_model)).dvae


@pytest.fixture(scope="module")
def encoder(tiny_model, dims):
    return load_audio_encoder(dims, tiny_model / "asset" / "DVAE.safetensors", "cpu")


def test_the_official_numbers_are_chattts_defaults():
    from ChatTTS.config import Config

    official, ours = Config().dvae, parts_config().dvae
    assert ours.encoder.model_dump() == official.encoder.__dict__
    assert (ours.vq.dim, tuple(ours.vq.levels), ours.vq.G, ours.vq.R) == (
        official.vq.dim,
        tuple(official.vq.levels),
        official.vq.G,
        official.vq.R,
    )


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    samples=st.integers(min_value=513, max_value=60_000),
    loudness=st.sampled_from([1e-4, 0.05, 0.7, 3.0]),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_a_recording_gives_chattts_codes_to_the_bit(reference, encoder, samples, loudness, seed):
    wav = (np.random.default_rng(seed).standard_normal(samples) * loudness).astype(np.float32)
    expected = reference.dvae.sample_audio(wav.copy())
    got = encoder(torch.from_numpy(wav))
    assert got.dtype == expected.dtype and torch.equal(got, expected)


def test_silence_and_a_pure_tone_give_chattts_codes(reference, encoder):
    t = np.arange(48_000, dtype=np.float32) / 24_000
    for wav in (
        np.zeros(30_000, dtype=np.float32),
        (0.3 * np.sin(2 * np.pi * 220 * t)).astype(np.float32),
    ):
        assert torch.equal(encoder(torch.from_numpy(wav)), reference.dvae.sample_audio(wav.copy()))


@settings(max_examples=40, deadline=None)
@given(
    vq=st.integers(min_value=1, max_value=8),
    frames=st.integers(min_value=0, max_value=300),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_the_text_form_is_chattts_and_reads_back(vq, frames, seed):
    from ChatTTS.model.speaker import Speaker

    codes = torch.from_numpy(
        np.random.default_rng(seed).integers(0, 625, (vq, frames)).astype(np.int32)
    )
    text = Speaker.encode_prompt(codes)
    assert text == Speaker.encode_prompt(codes)
    assert torch.equal(Speaker.decode_prompt(text), codes)


def test_codes_of_another_rank_are_refused():
    with pytest.raises(ValueError, match="num_vq, T"):
        Speaker.encode_prompt(torch.zeros(4, dtype=torch.int32))


def test_a_file_of_other_shapes_is_refused(tiny_model, dims):
    wider = dims.model_copy(update={"vq": dims.vq.model_copy(update={"dim": dims.vq.dim * 2})})
    with pytest.raises(RuntimeError, match="size mismatch"):
        load_audio_encoder(wider, tiny_model / "asset" / "DVAE.safetensors", "cpu")


def test_a_file_without_the_encoder_is_refused(tiny_model, dims):
    """The mel decoder's file holds no encoder: every name the encoder needs must be there."""
    with pytest.raises(RuntimeError, match="Missing key"):
        load_audio_encoder(dims, tiny_model / "asset" / "Decoder.safetensors", "cpu")
