"""How well the take checker finds bad takes: defects injected into good takes of real speech.

    PYTHONPATH=. python bench/take_check.py [--quick] [--save]
    PYTHONPATH=. python bench/take_check.py --make-fixtures tests/data/takes

Good takes are sentences spoken by Debian's espeak-ng in several English and Chinese voices,
each with its own small changes of speed, loudness, leading and trailing silence and a faint
noise floor. Into each good take go the defects of issue 42: silence, noise, a hole of silence,
truncation mid-word, the sentence said twice, another speaker, clipping. A defect is found
when the checker reports its kind; a good take with any finding is a false alarm. The speaking
rate is learnt per voice from that voice's other good takes (as a project learns it), and the
reference voice is another sentence of the same voice. The report also gives each threshold's
margin: the worst good take and the worst defect on either side of it.

--quick reads the committed fixtures (tests/data/takes, made by --make-fixtures) and needs no
espeak-ng.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

from app.audio.takes import thresholds as th
from app.audio.takes.checker import Expectation, check_take, measure_take, voice_embedding
from app.audio.takes.expected import SpeakingRate
from bench.support.results import add_save_argument, emit
from bench.support.take_set import (
    DEFECTS,
    FIXTURES,
    RATE,
    VOICES,
    build_set,
    close_take,
    inject,
    make_fixtures,
    other_take,
)


def run(quick: bool) -> dict:
    takes, references = build_set(quick)
    rng = random.Random(7)
    good_findings: list[dict] = []
    good_total = 0
    per_defect = {d: {"injected": 0, "found": 0, "flagged": 0, "missed": []} for d in DEFECTS}
    measures: dict[str, list[float]] = {
        "good_speech_ratio": [],
        "good_end_db": [],
        "good_longest_gap": [],
        "good_similarity": [],
        "other_similarity": [],
        "close_similarity": [],
        "truncated_speech_ratio": [],
        "truncated_end_db": [],
        "repeated_speech_ratio": [],
        "noise_speech_seconds": [],
        "good_speech_seconds": [],
    }
    for language, voices in takes.items():
        for voice, sentences in voices.items():
            reference = voice_embedding(references[voice], RATE)
            spoken = [measure_take(s, RATE).speech_seconds for _t, s in sentences]
            for i, (text, take) in enumerate(sentences):
                # The rate the voice's other takes teach (a project's earlier takes).
                others = [(t, spoken[j]) for j, (t, _s) in enumerate(sentences) if j != i]
                learnt = SpeakingRate.learn(language, others)
                expect = Expectation(text=text, language=language, rate=learnt, reference=reference)
                report = check_take(take, RATE, expect)
                good_total += 1
                measures["good_speech_ratio"].append(report.measures.get("speech_ratio", 0.0))
                measures["good_end_db"].append(report.measures["end_below_speech_db"])
                measures["good_longest_gap"].append(report.measures["longest_gap_seconds"])
                measures["good_speech_seconds"].append(report.speech_seconds)
                if report.voice_similarity is not None:
                    measures["good_similarity"].append(report.voice_similarity)
                if report.flagged:
                    good_findings.append(
                        {
                            "voice": voice,
                            "text": text,
                            "found": sorted(k.value for k in report.kinds()),
                        }
                    )
                other = other_take(takes, references, language, voice, i, quick)
                close = None if quick else close_take(takes, language, voice, i)
                if close is not None:
                    similar = check_take(close, RATE, expect).voice_similarity
                    if similar is not None:
                        measures["close_similarity"].append(similar)
                for defect, kind in DEFECTS.items():
                    bad = inject(defect, take, other, rng)
                    got = check_take(bad, RATE, expect)
                    entry = per_defect[defect]
                    entry["injected"] += 1
                    entry["found"] += kind in got.kinds()
                    entry["flagged"] += got.flagged
                    if kind not in got.kinds():
                        entry["missed"].append(
                            {
                                "voice": voice,
                                "text": text,
                                "found": sorted(k.value for k in got.kinds()),
                            }
                        )
                    if defect == "other_speaker" and got.voice_similarity is not None:
                        measures["other_similarity"].append(got.voice_similarity)
                    if defect == "truncated":
                        measures["truncated_speech_ratio"].append(
                            got.measures.get("speech_ratio", 0.0)
                        )
                        measures["truncated_end_db"].append(
                            got.measures.get("end_below_speech_db", 0.0)
                        )
                    if defect == "repeated":
                        measures["repeated_speech_ratio"].append(
                            got.measures.get("speech_ratio", 0.0)
                        )
                    if defect == "noise":
                        measures["noise_speech_seconds"].append(got.speech_seconds)
    injected = sum(d["injected"] for d in per_defect.values())
    found = sum(d["found"] for d in per_defect.values())
    for entry in per_defect.values():
        entry["rate"] = round(entry["found"] / max(1, entry["injected"]), 4)
        entry["missed"] = entry["missed"][:5]
    return {
        "set": "fixtures (tests/data/takes)"
        if quick
        else "espeak-ng voices " + ", ".join(v for vs in VOICES.values() for v in vs),
        "good_takes": good_total,
        "false_alarms": len(good_findings),
        "false_alarm_rate": round(len(good_findings) / max(1, good_total), 4),
        "false_alarm_takes": good_findings[:10],
        "defects_injected": injected,
        "defects_found": found,
        "detection_rate": round(found / max(1, injected), 4),
        "per_defect": per_defect,
        "margins": margins(measures),
        "goal_met": found / max(1, injected) >= 0.95
        and len(good_findings) / max(1, good_total) <= 0.02,
    }


def sweep(good: list[float], bad: list[float], limits) -> list[dict]:
    """False alarms and detection at each candidate limit (flagged below it)."""
    return [
        {
            "limit": limit,
            "false_alarm_rate": round(sum(v < limit for v in good) / max(1, len(good)), 4),
            "detection_rate": round(sum(v < limit for v in bad) / max(1, len(bad)), 4),
        }
        for limit in limits
    ]


def margins(m: dict[str, list[float]]) -> dict:
    def lo(values):
        return round(min(values), 4) if values else None

    def hi(values):
        return round(max(values), 4) if values else None

    return {
        "speech_ratio": {
            "good_min": lo(m["good_speech_ratio"]),
            "good_max": hi(m["good_speech_ratio"]),
            "cut_off_below": th.CUT_OFF_RATIO,
            "little_speech_below": th.LITTLE_SPEECH_RATIO,
            "truncated_max": hi(m["truncated_speech_ratio"]),
            "too_long_above": th.TOO_LONG_RATIO,
            "repeated_min": lo(m["repeated_speech_ratio"]),
        },
        "end_below_speech_db": {
            "good_min": lo(m["good_end_db"]),
            "cut_off_below": th.CUT_OFF_END_DB,
            "truncated_max": hi(m["truncated_end_db"]),
        },
        "longest_gap_seconds": {
            "good_max": hi(m["good_longest_gap"]),
            "long_silence_above": th.LONG_SILENCE_SECONDS,
        },
        "voice_similarity": {
            "good_min": lo(m["good_similarity"]),
            "drift_below": th.VOICE_SIMILARITY,
            "other_speaker_max": hi(m["other_similarity"]),
            "close_voice_min": lo(m["close_similarity"]),
            "close_voice_max": hi(m["close_similarity"]),
            "close_voice_detected": round(
                sum(v < th.VOICE_SIMILARITY for v in m["close_similarity"])
                / max(1, len(m["close_similarity"])),
                4,
            ),
            "sweep": sweep(
                m["good_similarity"],
                m["other_similarity"],
                [0.7, 0.75, 0.78, 0.8, 0.82, 0.84, 0.86, 0.88],
            ),
        },
        "speech_seconds": {
            "good_min": lo(m["good_speech_seconds"]),
            "no_speech_below": th.NO_SPEECH_SECONDS,
            "noise_max": hi(m["noise_speech_seconds"]),
        },
    }


def webrtc_speech_seconds(audio: np.ndarray, mode: int = 3) -> float:
    """Speech time by webrtcvad (30 ms frames), through its C module: its Python wrapper
    imports setuptools' pkg_resources."""
    import _webrtcvad

    vad = _webrtcvad.create()
    _webrtcvad.init(vad)
    _webrtcvad.set_mode(vad, mode)
    pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
    frame = RATE * 30 // 1000
    frames = sum(
        _webrtcvad.process(vad, RATE, pcm[2 * i : 2 * (i + frame)], frame)
        for i in range(0, len(audio) - frame + 1, frame)
    )
    return frames * 0.03


def compare_vad() -> dict:
    """silero-vad against webrtcvad (its most aggressive mode) on the fixtures' good takes and
    on white noise at their level: speech seconds each finds, and seconds per take."""
    import time

    import soundfile as sf

    from app.audio.takes.checker import speech_frames

    gen = np.random.default_rng(0)
    rows = []
    timings: dict[str, float] = {"silero": 0.0, "webrtcvad": 0.0}
    for line in (FIXTURES / "takes.tsv").read_text(encoding="utf-8").splitlines():
        name = line.split("\t")[0]
        good, _rate = sf.read(FIXTURES / name, dtype="float32")
        level = float(np.sqrt(np.mean(good**2)))
        noise = np.clip(gen.normal(0, level * 2, len(good)), -1, 1).astype(np.float32)
        for kind, audio in (("good", good), ("noise", noise)):
            started = time.perf_counter()
            silero = speech_frames(audio).seconds
            timings["silero"] += time.perf_counter() - started
            started = time.perf_counter()
            webrtc = webrtc_speech_seconds(audio)
            timings["webrtcvad"] += time.perf_counter() - started
            rows.append(
                {
                    "take": name,
                    "kind": kind,
                    "silero_s": round(silero, 2),
                    "webrtcvad_s": round(webrtc, 2),
                }
            )
    return {
        "takes": rows,
        "seconds_per_take": {k: round(v / len(rows), 5) for k, v in timings.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the committed fixtures only")
    parser.add_argument("--make-fixtures", metavar="DIR", help="write the quick set's fixtures")
    parser.add_argument(
        "--compare-vad", action="store_true", help="silero-vad against webrtcvad on the fixtures"
    )
    add_save_argument(parser)
    args = parser.parse_args(argv)
    if args.make_fixtures:
        make_fixtures(Path(args.make_fixtures))
        return 0
    emit(compare_vad() if args.compare_vad else run(args.quick), args, __file__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
