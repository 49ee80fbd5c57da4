"""Time-stretch libraries for the playback speed of saved audio, compared in one run.

A speech recording (espeak-ng, or a voiced test signal without it) is played at each speed by
each candidate, alternating candidates, twice: seconds per audio second (lower is faster), the
length against the target, and the pitch (median f0 of the voiced frames, by autocorrelation)
against the original's. Prints JSON. A candidate that is not installed is reported as skipped
(the shipped one, pytsmod, always is installed).

    PYTHONPATH=$PWD python bench/time_stretch.py [--speeds 0.75 1.25 1.5 2.0] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.results import add_save_argument, emit

RATE = 24_000
TEXT = (
    "The quick brown fox jumps over the lazy dog. Reading programs highlight each sentence "
    "as it is spoken, and a listener may speed it up or slow it down."
)


def speech(seconds: float | None) -> tuple[np.ndarray, str]:
    """A spoken recording at RATE (espeak-ng), else a voiced 140 Hz signal with harmonics."""
    import soundfile as sf

    if shutil.which("espeak-ng"):
        with tempfile.TemporaryDirectory() as folder:
            wav = Path(folder) / "speech.wav"
            subprocess.run(["espeak-ng", "-w", str(wav), TEXT], check=True, capture_output=True)
            data, rate = sf.read(str(wav), dtype="float32")
        from scipy.signal import resample_poly

        audio, source = resample_poly(data, RATE, rate).astype(np.float32), "espeak-ng"
    else:
        t = np.arange(RATE * 6) / RATE
        voiced = sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 12))
        audio, source = (0.2 * voiced).astype(np.float32), "synthetic 140 Hz"
    return (audio[: int(seconds * RATE)] if seconds else audio), source


def median_f0(samples: np.ndarray) -> float:
    """The median pitch of the loud frames (autocorrelation peak between 60 and 400 Hz)."""
    frame, hop = 1024, 512
    frames = [samples[i : i + frame] for i in range(0, len(samples) - frame, hop)]
    rms = np.array([np.sqrt(np.mean(f**2)) for f in frames])
    lo, hi = RATE // 400, RATE // 60
    pitches = []
    for f, level in zip(frames, rms):
        if level < 0.3 * rms.max():
            continue
        f = f - f.mean()
        corr = np.correlate(f, f, "full")[frame - 1 :]
        lag = lo + int(np.argmax(corr[lo:hi]))
        if corr[lag] > 0.3 * corr[0]:
            pitches.append(RATE / lag)
    return float(np.median(pitches)) if pitches else float("nan")


def audiotsm_wsola(samples: np.ndarray, speed: float) -> np.ndarray:
    from audiotsm import wsola
    from audiotsm.io.array import ArrayReader, ArrayWriter

    reader, writer = ArrayReader(samples[np.newaxis, :].astype(np.float64)), ArrayWriter(1)
    wsola(1, speed=speed).run(reader, writer)
    return writer.data[0]


def pytsmod_wsola(samples: np.ndarray, speed: float) -> np.ndarray:
    from app.audio import time_stretch  # what the window plays: pytsmod's WSOLA

    return time_stretch(samples, speed)


CANDIDATES = {
    "pytsmod.wsola": ("pytsmod", pytsmod_wsola),
    "audiotsm.wsola": ("audiotsm", audiotsm_wsola),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--speeds", type=float, nargs="+", default=[0.75, 1.25, 1.5, 2.0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="2 s of audio, one speed, one round")
    add_save_argument(parser)
    args = parser.parse_args()
    speeds, rounds = ([1.5], 1) if args.quick else (args.speeds, args.rounds)
    samples, source = speech(2.0 if args.quick else None)
    seconds = len(samples) / RATE
    base_f0 = median_f0(samples)
    present = {
        name: fn for name, (module, fn) in CANDIDATES.items() if importlib.util.find_spec(module)
    }
    timings: dict = {name: {speed: [] for speed in speeds} for name in present}
    quality: dict = {name: {} for name in present}
    for fn in present.values():
        fn(samples[:RATE], 1.5)  # imports and first-call work outside the timing
    for _round in range(rounds):
        for speed in speeds:
            for name, fn in present.items():
                started = time.perf_counter()
                out = np.asarray(fn(samples, speed), dtype=np.float32)
                timings[name][speed].append(time.perf_counter() - started)
                quality[name][speed] = (len(out) / len(samples) * speed, median_f0(out) / base_f0)
    report: dict = {
        "source": source,
        "seconds": round(seconds, 2),
        "f0_hz": round(base_f0, 1),
        "rounds": rounds,
        "candidates": {},
    }
    for name in CANDIDATES:
        if name not in present:
            report["candidates"][name] = {"skipped": f"{CANDIDATES[name][0]} is not installed"}
            continue
        report["candidates"][name] = {
            "speeds": [
                {
                    "speed": speed,
                    "s_per_audio_s": round(statistics.median(timings[name][speed]) / seconds, 4),
                    "duration_ratio": round(quality[name][speed][0], 3),
                    "f0_ratio": round(quality[name][speed][1], 3),
                }
                for speed in speeds
            ]
        }
    emit(report, args, __file__)


if __name__ == "__main__":
    main()
