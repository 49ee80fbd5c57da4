import threading

import numpy as np
import pytest

from app.engine.errors import InputTextError, SynthesisCancelled, VoiceError
from app.engine.request import AudioChunk, SamplingParams, SynthesisRequest, SynthesisResult

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=96))


def test_chunks_arrive_in_order_then_the_result(synthesizer):
    items = list(synthesizer.synthesize(SynthesisRequest("你好，世界。Hello there. 再见。", **FAST)))
    chunks, result = items[:-1], items[-1]
    assert all(isinstance(c, AudioChunk) for c in chunks)
    assert isinstance(result, SynthesisResult)
    assert [c.index for c in chunks] == [0, 1, 2]
    assert all(c.total == 3 and c.sample_rate == 24_000 for c in chunks)
    assert all(c.samples.dtype == np.float32 and c.samples.ndim == 1 for c in chunks)
    assert np.array_equal(result.audio, np.concatenate([c.samples for c in chunks]))
    assert result.segments == 3
    assert result.duration > 0.2
    assert result.device == "cpu"
    assert result.test_model is True
    assert result.synth_seconds > 0


def test_same_text_seed_and_speaker_give_identical_samples(synthesizer):
    request = SynthesisRequest("你好，世界。", seed=42, refine_text=True,
                               sampling=SamplingParams(max_new_tokens=96))
    first = synthesizer.run(request)
    second = synthesizer.run(request)
    assert first.audio.size > 0
    assert np.array_equal(first.audio, second.audio)


def test_speaker_string_gives_the_same_voice_as_its_seed(synthesizer):
    by_seed = synthesizer.run(SynthesisRequest("你好。", seed=5, **FAST))
    speaker = synthesizer.speaker_for_seed(5)
    by_string = synthesizer.run(SynthesisRequest("你好。", seed=5, speaker=speaker, **FAST))
    assert by_seed.speaker == speaker
    assert np.array_equal(by_seed.audio, by_string.audio)


def test_different_seeds_give_different_audio(synthesizer):
    a = synthesizer.run(SynthesisRequest("你好，世界。", seed=1, **FAST))
    b = synthesizer.run(SynthesisRequest("你好，世界。", seed=2, **FAST))
    assert a.speaker != b.speaker
    assert not (a.audio.shape == b.audio.shape and np.array_equal(a.audio, b.audio))


def test_text_with_nothing_speakable_is_refused(synthesizer):
    with pytest.raises(InputTextError, match="nothing ChatTTS can read aloud"):
        synthesizer.run(SynthesisRequest("123 456 !!!", **FAST))


def test_bad_speaker_string_is_refused_before_synthesis(synthesizer):
    with pytest.raises(VoiceError):
        synthesizer.run(SynthesisRequest("你好。", speaker="garbage", **FAST))


def _count_decode_steps(synthesizer, monkeypatch, on_step):
    """Wrap the GPT forward so a test sees every decode step as it happens."""
    llama = synthesizer._chat.gpt.gpt
    real_forward = llama.forward
    steps = []

    def counting_forward(*args, **kwargs):
        steps.append(1)
        on_step(len(steps))
        return real_forward(*args, **kwargs)

    monkeypatch.setattr(llama, "forward", counting_forward)
    return steps


def test_cancel_from_another_thread_stops_within_one_step(synthesizer, monkeypatch):
    cancel_at = 5
    canceller = {}

    def on_step(n):
        if n == cancel_at:
            t = threading.Thread(target=synthesizer.cancel)
            t.start()
            t.join()
            canceller["step"] = n

    steps = _count_decode_steps(synthesizer, monkeypatch, on_step)
    # Long enough that it could never finish on its own in the steps we allow.
    request = SynthesisRequest("你好，世界。" * 3, refine_text=False,
                               sampling=SamplingParams(max_new_tokens=2000, temperature=0.3))
    with pytest.raises(SynthesisCancelled):
        synthesizer.run(request)
    assert canceller["step"] == cancel_at
    # The step in flight when cancel arrived finishes; no further step starts.
    assert len(steps) == cancel_at

    monkeypatch.undo()
    after = synthesizer.run(SynthesisRequest("你好。", **FAST))
    assert after.duration > 0


def test_cancel_before_a_segment_starts_stops_the_rest(synthesizer):
    seen = []

    def on_chunk(chunk):
        seen.append(chunk.index)
        synthesizer.cancel()

    with pytest.raises(SynthesisCancelled):
        synthesizer.run(SynthesisRequest("一。二。三。四。五。六。", **FAST), on_chunk=on_chunk)
    assert seen == [0]
