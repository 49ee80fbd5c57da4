"""The playback speed of saved audio keeps the pitch and changes the length by the factor."""

from __future__ import annotations

import numpy as np
import pytest

from app.audio import time_stretch

RATE = 24_000


def _dominant_hz(samples: np.ndarray) -> float:
    window = samples * np.hanning(len(samples))
    spectrum = np.abs(np.fft.rfft(window, n=8 * len(samples)))
    return float(np.argmax(spectrum) * RATE / (8 * len(samples)))


@pytest.mark.parametrize("speed", [0.75, 1.5, 2.0])
def test_a_voiced_tone_keeps_its_pitch_and_lasts_one_over_the_speed(speed):
    t = np.arange(RATE * 2) / RATE
    tone = (0.3 * np.sin(2 * np.pi * 220 * t) + 0.1 * np.sin(2 * np.pi * 440 * t)).astype(
        np.float32
    )
    out = time_stretch(tone, speed)
    assert out.dtype == np.float32 and out.ndim == 1
    assert len(out) == pytest.approx(len(tone) / speed, rel=0.02)
    middle = out[len(out) // 4 : 3 * len(out) // 4]
    assert _dominant_hz(middle) == pytest.approx(220, rel=0.03)


def test_normal_speed_and_empty_audio_are_left_alone_and_the_speed_is_bounded():
    tone = np.ones(1000, dtype=np.float32)
    assert np.array_equal(time_stretch(tone, 1.0), tone)
    assert time_stretch(np.zeros(0, dtype=np.float32), 2.0).size == 0
    long = np.random.default_rng(0).standard_normal(RATE).astype(np.float32)
    # 10x is taken as the most there is, 2x.
    assert len(time_stretch(long, 10.0)) == pytest.approx(RATE / 2, rel=0.02)
