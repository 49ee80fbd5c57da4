"""Loudness to a target (EBU R128 integrated, pyloudnorm), then peaks under a true-peak ceiling.

pyloudnorm's meter holds several float64 copies of its input (a book of hours would need
tens of GB), so the measurement runs here in chunks through pyloudnorm's own K-weighting
filters and gating; a test holds it equal to pyloudnorm's.

The true peak is estimated at 4x oversampling (ITU-R BS.1770-4 annex 2), since a lossy codec
rebuilds the waveform between samples. A peak over the ceiling is brought down by a short
look-ahead gain dip around it (a limiter), not by turning the whole narration down, so the
loudness stays on target.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# pyloudnorm's gating block: shorter audio cannot be measured as it is.
BLOCK_SECONDS = 0.4
MAX_GAIN_DB = 40.0  # never lift near-silence into loud noise
_OVERSAMPLE = 4
_CHUNK = 1 << 18  # samples per oversampling step (bounded memory)
_MARGIN = 64  # filter history carried across chunk edges
_HOLD_SECONDS = 0.005  # the limiter's look-ahead/hold, and its release


@dataclass(frozen=True)
class LoudnessResult:
    audio: np.ndarray
    measured: float | None  # LUFS before; None when silent
    final: float | None  # LUFS after
    true_peak: float  # dBTP after
    gain_db: float
    limited: bool  # the ceiling had to dip some peaks
    short: bool  # measured on the sound repeated to a gating block


def integrated_loudness(audio: np.ndarray, rate: int) -> tuple[float | None, bool]:
    """LUFS, or None for silence; a sound shorter than a gating block is measured as if it
    repeated (its loudness as a steady sound), and the flag says so."""
    import pyloudnorm

    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if audio.size == 0 or not np.any(audio):
        return None, False
    need = int(np.ceil(BLOCK_SECONDS * rate)) + 1
    short = audio.size < need
    if short:
        audio = np.tile(audio, int(np.ceil(need / audio.size)))
    value = _gated_loudness(audio, rate, pyloudnorm.Meter(rate, block_size=BLOCK_SECONDS))
    return (value if np.isfinite(value) else None), short


def _gated_loudness(audio: np.ndarray, rate: int, meter) -> float:
    """pyloudnorm's `integrated_loudness` for mono (BS.1770-4: 400 ms blocks, 75 % overlap,
    -70 LUFS absolute and -10 LU relative gates), with the filters run chunk by chunk."""
    from scipy.signal import lfilter, lfilter_zi

    block, step = meter.block_size, 1.0 - meter.overlap
    count = int(np.round((audio.size / rate - block) / (block * step))) + 1
    j = np.arange(count)
    lower = (block * (j * step) * rate).astype(np.int64)  # the same bounds pyloudnorm takes
    upper = (block * (j * step + 1) * rate).astype(np.int64)
    bounds = np.unique(np.concatenate([lower, upper]))
    sums = np.zeros(bounds.size)  # sum of squares before each bound
    stages = list(meter._filters.values())
    states = [lfilter_zi(f.b, f.a) * 0.0 for f in stages]
    total, at = 0.0, 0
    for start in range(0, audio.size, _CHUNK):
        piece = audio[start : start + _CHUNK].astype(np.float64)
        for n, f in enumerate(stages):
            piece, states[n] = lfilter(f.b, f.a, piece, zi=states[n])
            piece *= f.passband_gain
        running = total + np.concatenate([[0.0], np.cumsum(piece * piece)])
        inside = (bounds >= start) & (bounds <= start + piece.size)
        sums[inside] = running[bounds[inside] - start]
        total, at = running[-1], start + piece.size
    sums[bounds > at] = total
    z = (sums[np.searchsorted(bounds, upper)] - sums[np.searchsorted(bounds, lower)]) / (
        block * rate
    )
    with np.errstate(divide="ignore"):
        loudness = -0.691 + 10.0 * np.log10(z)
        kept = z[loudness >= -70.0]
        if kept.size == 0:
            return float("-inf")
        relative = -0.691 + 10.0 * np.log10(kept.mean()) - 10.0
        gated = z[(loudness > relative) & (loudness > -70.0)]
        return float(-0.691 + 10.0 * np.log10(gated.mean())) if gated.size else float("-inf")


def _oversampled_chunks(audio: np.ndarray):
    """(start sample, |4x oversampled| of samples [start, start+len)) in bounded pieces."""
    from scipy.signal import resample_poly

    n = audio.size
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        lo, hi = max(0, start - _MARGIN), min(n, stop + _MARGIN)
        up = resample_poly(audio[lo:hi].astype(np.float64), _OVERSAMPLE, 1)
        a = (start - lo) * _OVERSAMPLE
        yield start, np.abs(up[a : a + (stop - start) * _OVERSAMPLE])


def true_peak(audio: np.ndarray) -> float:
    """dBTP: the highest peak of the 4x oversampled signal (-inf for silence)."""
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    peak = 0.0
    for _start, up in _oversampled_chunks(audio):
        if up.size:
            peak = max(peak, float(up.max()))
    return 20.0 * np.log10(peak) if peak > 0 else float("-inf")


def _limit(audio: np.ndarray, ceiling_db: float, rate: int) -> tuple[np.ndarray, bool, float]:
    """Dip the gain around every true peak above the ceiling. The minimum of the needed gain
    over a hold window, then averaged over half of it, is at or under the need at each peak."""
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    ceiling = 10.0 ** (ceiling_db / 20.0)
    need = np.ones(audio.size, np.float32)
    highest = 0.0
    for start, up in _oversampled_chunks(audio):
        peaks = up.reshape(-1, _OVERSAMPLE).max(axis=1)
        highest = max(highest, float(peaks.max(initial=0.0)))
        over = peaks > ceiling
        if over.any():
            need[start : start + peaks.size][over] = (
                ceiling / peaks[over] * (1 - 1e-6)
            )  # float32 rounds up
    peak_db = 20.0 * np.log10(highest) if highest > 0 else float("-inf")
    if not (need < 1.0).any():
        return audio, False, peak_db
    hold = max(1, int(_HOLD_SECONDS * rate))
    gain = uniform_filter1d(
        minimum_filter1d(need, 2 * hold + 1, mode="nearest"), hold + 1, mode="nearest"
    )
    return (audio * gain).astype(np.float32), True, peak_db


def normalize(
    audio: np.ndarray, rate: int, target: float | None, ceiling_db: float
) -> LoudnessResult:
    """The audio at `target` LUFS (None: as it is) with its true peak under `ceiling_db`."""
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    measured, short = integrated_loudness(audio, rate)
    gain_db = 0.0
    if target is not None and measured is not None:
        gain_db = min(MAX_GAIN_DB, target - measured)
        audio = (audio * 10.0 ** (gain_db / 20.0)).astype(np.float32)
    limited = False
    # The limiter's dips take a little loudness; lift and limit again until on target.
    for _round in range(4):
        audio, dipped, peak = _limit(audio, ceiling_db - 0.05, rate)
        limited |= dipped
        if (
            not dipped and not limited
        ):  # a plain gain moves loudness dB for dB: no second measurement
            final = None if measured is None else measured + gain_db
            return LoudnessResult(audio, measured, final, peak, gain_db, limited, short)
        if not dipped:
            break
        if target is None or measured is None:
            break
        now, _ = integrated_loudness(audio, rate)
        if now is None or target - now < 0.1 or gain_db >= MAX_GAIN_DB:
            break
        step = min(target - now, MAX_GAIN_DB - gain_db)
        gain_db += step
        audio = (audio * 10.0 ** (step / 20.0)).astype(np.float32)
    peak = true_peak(audio)
    if peak > ceiling_db:  # the smoothed gain missed by a hair between samples: a last flat trim
        audio = (audio * 10.0 ** ((ceiling_db - 0.05 - peak) / 20.0)).astype(np.float32)
        peak = true_peak(audio)
    final, _ = integrated_loudness(audio, rate)
    return LoudnessResult(audio, measured, final, peak, gain_db, limited, short)
