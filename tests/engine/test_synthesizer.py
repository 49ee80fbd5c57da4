import threading

import numpy as np
import pytest

from app.core import ModelKind
from app.core.errors import InputTextError, SynthesisCancelled, VoiceError
from app.core.request import AudioChunk, SamplingParams, SynthesisRequest, SynthesisResult

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=96))


def test_chunks_arrive_in_order_then_the_result(synthesizer):
    items = list(
        synthesizer.synthesize(SynthesisRequest("你好，世界。Hello there. 再见。", **FAST))
    )
    chunks, result = items[:-1], items[-1]
    assert all(isinstance(c, AudioChunk) for c in chunks)
    assert isinstance(result, SynthesisResult)
    # Segments may stream in several pieces: in order, each ending with one final piece.
    assert [c.index for c in chunks if c.final] == [0, 1, 2]
    assert [c.index for c in chunks] == sorted(c.index for c in chunks)
    assert all(c.total == 3 and c.sample_rate == 24_000 for c in chunks)
    assert all(c.samples.dtype == np.float32 and c.samples.ndim == 1 for c in chunks)
    # Each carries the time of the vocoder call that made it (the player's grid rule uses it).
    assert all(0 < c.vocoder_s < result.synth_seconds for c in chunks if c.samples.size)
    assert np.array_equal(result.audio, np.concatenate([c.samples for c in chunks]))
    assert result.segments == 3
    assert result.duration > 0.2
    assert result.device == "cpu"
    assert synthesizer.model_kind is ModelKind.RANDOM_WEIGHTS  # the edges call it noise
    assert result.synth_seconds > 0


def test_same_text_seed_and_speaker_give_identical_samples(synthesizer):
    request = SynthesisRequest(
        "你好，世界。", seed=42, refine_text=True, sampling=SamplingParams(max_new_tokens=96)
    )
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
        synthesizer.run(SynthesisRequest("!!! ??? ### @@@", **FAST))


def test_digits_are_spoken_not_dropped(synthesizer):
    result = synthesizer.run(SynthesisRequest("618", **FAST))
    assert result.spoken_text == "六百一十八。"
    assert result.duration > 0


def test_unknown_tokens_are_removed_with_a_warning(synthesizer):
    result = synthesizer.run(SynthesisRequest("你好[foo]世界。", **FAST))
    assert "[foo]" not in result.spoken_text
    assert result.warnings and "[foo]" in result.warnings[0]


def _record_infer_calls(synthesizer, monkeypatch):
    """Every audio pass the synthesizer starts: its sentences and reference voice."""
    speech = synthesizer.speech
    real_speak = speech.speak
    calls = []

    def recording(rows, *args, **kwargs):
        texts = [r.text for r in rows]
        for row in rows:
            spk_smp, txt_smp = row.reference if row.reference else (None, None)
            calls.append({"texts": texts, "spk_smp": spk_smp, "txt_smp": txt_smp})
        return real_speak(rows, *args, **kwargs)

    monkeypatch.setattr(speech, "speak", recording)
    return calls


def test_voice_lock_makes_the_first_sentence_the_reference_for_the_rest(synthesizer, monkeypatch):
    calls = _record_infer_calls(synthesizer, monkeypatch)
    seen = []
    real_reference = synthesizer.reference_from_audio

    def spy(audio, text):
        seen.append((audio.copy(), text))
        return real_reference(audio, text)

    monkeypatch.setattr(synthesizer, "reference_from_audio", spy)
    result = synthesizer.run(SynthesisRequest("第一句。第二句。第三句。", **FAST))
    assert result.segments == 3
    assert calls[0]["spk_smp"] is None  # the first sentence sets the voice
    first_audio, first_text = seen[0]
    assert first_text == "第一句。"
    expected_codes = synthesizer.parts.sample_audio_speaker(
        __import__("torch").from_numpy(first_audio)
    )
    assert all(c["spk_smp"] == expected_codes and c["txt_smp"] == "第一句。" for c in calls[1:])
    assert np.array_equal(first_audio, result.audio[: first_audio.size])


def test_a_first_sentence_too_short_to_encode_leaves_the_rest_unlocked_with_a_warning(
    synthesizer, monkeypatch
):
    """One audio token is 256 samples, fewer than the encoder's mel can pad: the paragraph
    failed with a PyTorch padding error. Now its other sentences play without the lock."""
    calls = _record_infer_calls(synthesizer, monkeypatch)
    result = synthesizer.run(
        SynthesisRequest(
            "第一句。第二句。", refine_text=False, sampling=SamplingParams(max_new_tokens=1)
        )
    )
    assert result.segments == 2 and result.audio.size > 0
    assert [c["spk_smp"] for c in calls] == [None, None]
    assert "The first sentence was too short to lock the voice to" in " ".join(result.warnings)


def test_voice_lock_can_be_switched_off(synthesizer, monkeypatch):
    calls = _record_infer_calls(synthesizer, monkeypatch)
    synthesizer.run(SynthesisRequest("第一句。第二句。", voice_lock=False, **FAST))
    assert [c["spk_smp"] for c in calls] == [None, None]


def test_voice_from_a_recording_is_used_as_the_reference(synthesizer, monkeypatch, tmp_path):
    import soundfile as sf

    wav = tmp_path / "me.wav"
    t = np.linspace(0, 2, 32_000, dtype=np.float32)
    sf.write(str(wav), 0.3 * np.sin(2 * np.pi * 220 * t), 16_000)  # resampled to 24 kHz
    codes, transcript = synthesizer.voice_from_recording(wav, "你好，我是参考。")
    assert codes and transcript == "你好，我是参考。"
    calls = _record_infer_calls(synthesizer, monkeypatch)
    synthesizer.run(SynthesisRequest("测试。", reference=codes, reference_text=transcript, **FAST))
    assert calls[0]["spk_smp"] == codes and calls[0]["txt_smp"] == transcript


def test_bad_speaker_string_is_refused_before_synthesis(synthesizer):
    with pytest.raises(VoiceError):
        synthesizer.run(SynthesisRequest("你好。", speaker="garbage", **FAST))


def _count_decode_steps(synthesizer, monkeypatch, on_step):
    """Wrap the Llama step so a test sees every forward (prefill, then one per token)."""
    loop = synthesizer.loop
    real_forward = loop.run_stack
    steps = []

    def counting_forward(*args, **kwargs):
        steps.append(1)
        on_step(len(steps))
        return real_forward(*args, **kwargs)

    monkeypatch.setattr(loop, "run_stack", counting_forward)
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
    request = SynthesisRequest(
        "你好，世界。" * 3,
        refine_text=False,
        sampling=SamplingParams(max_new_tokens=2000, temperature=0.3),
    )
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


def test_a_sentence_cut_off_by_the_token_limit_is_reported(synthesizer):
    # Random weights rarely end within 6 tokens: ChatTTS stops at the limit and says so.
    result = synthesizer.run(
        SynthesisRequest(
            "第一句。第二句。",
            voice_lock=False,
            refine_text=False,
            sampling=SamplingParams(max_new_tokens=6),
        )
    )
    cut = [w for w in result.warnings if "limit of 6 audio tokens" in w]
    assert cut and cut[0].startswith("Sentence 1 ")


def test_no_limit_warning_when_a_sentence_ends_on_its_own(synthesizer):
    result = synthesizer.run(
        SynthesisRequest("你好。", refine_text=False, sampling=SamplingParams(max_new_tokens=2048))
    )
    assert result.duration < 2048 * 512 / 24_000 / 2  # it stopped well before the limit
    assert result.warnings == []
