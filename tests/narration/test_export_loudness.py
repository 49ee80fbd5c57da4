"""Loudness lands on the target (EBU R128) with the true peak under -1 dBTP, in the file."""

from __future__ import annotations

import numpy as np
import pyloudnorm
import pytest
import soundfile as sf

from app.narration.export import ExportSettings, export
from app.narration.export.loudness import integrated_loudness, normalize, true_peak
from app.narration.rendered import RenderedChapter, RenderedSentence

RATE = 24_000


def sine(seconds: float, level: float, freq: float = 440.0) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return (level * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def speech_like(seconds: float, seed: int = 0) -> np.ndarray:
    """Noise in syllable-long bursts with sharp clicks: a crest factor far above a sine's."""
    rng = np.random.default_rng(seed)
    audio = (
        0.03
        * rng.standard_normal(int(seconds * RATE))
        * (np.arange(int(seconds * RATE)) % 6000 < 4000)
    )
    audio[::3001] = 0.95
    return audio.astype(np.float32)


def lufs(audio) -> float:
    return pyloudnorm.Meter(RATE).integrated_loudness(np.asarray(audio, dtype=np.float64))


@pytest.mark.parametrize("target", [-23.0, -18.0, -14.0])
@pytest.mark.parametrize("make", [lambda: sine(3, 0.05), lambda: speech_like(4)])
def test_loudness_lands_on_target_and_peaks_stay_under_the_ceiling(target, make):
    result = normalize(make(), RATE, target, -1.0)
    assert abs(lufs(result.audio) - target) <= 0.5
    assert true_peak(result.audio) <= -1.0
    assert result.final == pytest.approx(lufs(result.audio))


def test_peaky_audio_is_limited_not_turned_down():
    audio = speech_like(4)
    result = normalize(audio, RATE, -12.0, -1.0)
    assert result.limited
    assert abs(lufs(result.audio) - -12.0) <= 0.5 and true_peak(result.audio) <= -1.0
    assert (
        20 * np.log10(np.abs(audio).max()) + result.gain_db > -1.0
    )  # plain gain alone would have clipped


@pytest.mark.parametrize("rate", [11_025, 22_050, 24_000, 48_000])
@pytest.mark.parametrize("seconds", [0.41, 2.3, 75.0])
def test_the_chunked_measurement_is_pyloudnorm_s(rate, seconds):
    rng = np.random.default_rng(int(seconds * 10))
    n = int(seconds * rate)
    audio = (0.05 * rng.standard_normal(n) * (np.arange(n) % 5000 < 3000)).astype(np.float32)
    audio[: n // 3] *= 0.01  # a quiet stretch the relative gate leaves out
    ours, _short = integrated_loudness(audio, rate)
    assert ours == pytest.approx(
        pyloudnorm.Meter(rate).integrated_loudness(audio.astype(np.float64)), abs=1e-6
    )


def test_true_peak_sees_between_samples():
    # A sine at a quarter of the rate, sampled at 45 degrees: samples at 0.707, the wave at 1.0.
    n = np.arange(4800)
    audio = np.sin(np.pi / 2 * n + np.pi / 4).astype(np.float32)
    assert 20 * np.log10(np.abs(audio).max()) == pytest.approx(-3.01, abs=0.01)
    assert true_peak(audio) == pytest.approx(0.0, abs=0.2)


def test_audio_shorter_than_a_gating_block_is_measured_as_repeated():
    short = sine(0.2, 0.1)
    measured, was_short = integrated_loudness(short, RATE)
    assert was_short and measured == pytest.approx(lufs(np.tile(short, 10)), abs=0.1)
    result = normalize(short, RATE, -18.0, -1.0)
    assert len(result.audio) == len(short) and result.short
    assert abs(lufs(np.tile(result.audio, 10)) - -18.0) <= 0.5


def test_silence_is_left_alone():
    result = normalize(np.zeros(RATE, np.float32), RATE, -18.0, -1.0)
    assert result.measured is None and not result.audio.any()


@pytest.mark.parametrize("fmt", ["wav", "mp3", "m4b"])
def test_the_exported_file_is_on_target(tmp_path, fmt):
    chapters = [
        RenderedChapter(
            "a", (RenderedSentence("x", speech_like(3, 1)), RenderedSentence("y", sine(2, 0.02)))
        ),
        RenderedChapter("b", (RenderedSentence("z", speech_like(3, 2)),)),
    ]
    report = export(chapters, ExportSettings(format=fmt, loudness=-16.0), tmp_path / "book")
    if fmt == "m4b":
        import av

        with av.open(str(report.audio().path)) as c:
            decoded = np.concatenate([f.to_ndarray().reshape(-1) for f in c.decode(audio=0)])
    else:
        decoded, _rate = sf.read(report.audio().path, dtype="float32")
    assert abs(lufs(decoded) - -16.0) <= 0.5
    if fmt == "wav":
        assert true_peak(decoded) <= -1.0
    else:  # a lossy codec moves peaks a little; they stay well clear of clipping
        assert true_peak(decoded) <= -0.5


def test_loudness_off_leaves_the_level_as_rendered(tmp_path):
    audio = sine(1, 0.05)
    report = export(
        [RenderedChapter("a", (RenderedSentence("x", audio),))],
        ExportSettings(format="wav", loudness=None),
        tmp_path / "a.wav",
    )
    decoded, _rate = sf.read(report.audio().path, dtype="float32")
    assert np.abs(decoded - audio).max() < 1 / 16_000
