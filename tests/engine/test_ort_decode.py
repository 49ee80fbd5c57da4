"""The decode step on ONNX Runtime (`--decode ort`, decode/ort_step.py) is the same step: in fp32
it computes what the PyTorch step computes; int8 (8-bit blocks, smoothed) holds the int8 quality
bar on the outlier stress model, and without the smoothing it does not (so the bar can tell);
joined and padded sentences decode to the tokens they decode to alone; a whole synthesis runs;
and what cannot run says so in a sentence."""

import numpy as np
import pytest

from app.core import DeviceError
from app.core.request import SamplingParams, SynthesisRequest
from app.decode import ort_step
from app.decode.llama_step import LlamaStack
from app.decode.loop import DecodeLoop
from app.decode.ort_graph import quantize_blocks
from tests.support.as_alone import MIN_COSINE, MIN_TOP1, STEPS, decodes_as_alone
from tests.support.outlier_model import stress_view
from tests.support.precision_compare import compare, prompt_embedding


@pytest.fixture(scope="module")
def emb(synthesizer):
    return prompt_embedding(synthesizer.parts, synthesizer.speaker_for_seed(1))


def _holds(numbers: dict) -> bool:
    return numbers["top1_agreement"] >= MIN_TOP1 and numbers["min_cosine"] >= MIN_COSINE


@pytest.mark.parametrize("bits", [4, 8])
def test_block_quantization_round_trips_within_half_a_step(bits):
    w = np.random.default_rng(1).standard_normal((6, 64)).astype(np.float32)
    packed, scales = quantize_blocks(w, bits, 32)
    assert packed.shape == (6, 2, 32 * bits // 8) and scales.shape == (6, 2)
    q = np.stack([packed & 15, packed >> 4], -1).reshape(6, 2, 32) if bits == 4 else packed
    back = (q.astype(np.float32) - (1 << (bits - 1))) * scales[..., None]
    assert (np.abs(back.reshape(6, 64) - w) <= np.repeat(scales, 32, 1) / 2 + 1e-6).all()


def test_the_fp32_session_is_the_pytorch_step(synthesizer, emb):
    ours = DecodeLoop(synthesizer.parts, "ort", "fp32")
    assert ours.mode == "ort" and ours.precision == "fp32"
    numbers = compare(DecodeLoop(synthesizer.parts, "eager", "fp32"), ours, emb, 16)
    assert numbers["first_divergence"] is None and numbers["top1_agreement"] == 1.0
    assert numbers["max_rel"] < 1e-5, numbers


def test_int8_holds_the_bar_on_outliers_only_when_smoothed(synthesizer, emb):
    stress = stress_view(synthesizer.parts)
    reference = DecodeLoop(stress, "jit", "fp32")
    smoothed = compare(reference, DecodeLoop(stress, "ort", "int8"), emb, STEPS)
    assert _holds(smoothed), smoothed
    raw = DecodeLoop(stress, "eager", "fp32")
    raw._ort = ort_step.OrtStep(
        LlamaStack(stress.llama).eval(), raw._cos, raw._sin, 8, smoothing=0.0
    )
    unsmoothed = compare(reference, raw, emb, STEPS)
    assert not _holds(unsmoothed), unsmoothed


def test_joined_and_padded_rows_decode_as_alone(synthesizer):
    loop = DecodeLoop(synthesizer.parts, "ort", "int8")
    assert loop.exact_across_batches
    decodes_as_alone(synthesizer.parts, loop)


def test_a_synthesis_runs_on_it(tiny_model):
    from app.synthesis.synthesizer import Synthesizer

    synth = Synthesizer(tiny_model, device="cpu", decode="ort", precision="auto")
    synth.load(verify=False)
    assert synth.decode_label == "ort-int8"
    sampling = SamplingParams(max_new_tokens=24, min_new_tokens=24)
    result = synth.run(SynthesisRequest("你好。", refine_text=False, sampling=sampling))
    assert result.decode == "ort-int8"
    assert result.audio.size > 0 and np.isfinite(result.audio).all()


def test_another_precision_falls_back_to_int8_with_a_note(synthesizer):
    loop = DecodeLoop(synthesizer.parts, "ort", "bf16")
    assert loop.precision == "int8"
    assert "bf16" in loop.precision_note and "int8" in loop.precision_note


def test_without_onnxruntime_the_user_gets_a_sentence(synthesizer, monkeypatch):
    monkeypatch.setattr(ort_step, "available", lambda: False)
    with pytest.raises(DeviceError, match="needs the onnxruntime package"):
        DecodeLoop(synthesizer.parts, "ort", "int8")
