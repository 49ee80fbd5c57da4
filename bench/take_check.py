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
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from app.audio.takes import thresholds as th
from app.audio.takes.checker import Expectation, check_take, measure_take, voice_embedding
from app.audio.takes.expected import SpeakingRate
from app.audio.takes.findings import FindingKind
from bench.support.results import add_save_argument, emit

RATE = 16000
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "data" / "takes"

SENTENCES = {
    "en": [
        "The quick brown fox jumps over the lazy dog near the river bank.",
        "She opened the old wooden door and stepped into the quiet garden.",
        "Every morning the baker lights his oven before the sun comes up.",
        "We will meet again at the station when the evening train arrives.",
        "A cold wind blew across the hills and the sheep huddled together.",
        "He counted the coins twice, then put them back into the leather purse.",
        "The library closes early on Sundays, so please return your books today.",
        "Nobody noticed the small boat drifting slowly toward the harbour.",
        "After the storm, the children ran outside to look for fallen apples.",
        "Her letter arrived three weeks late, but every word of it was kind.",
        "They painted the fence bright green and waited for it to dry.",
        "The old clock in the hall struck midnight as the guests were leaving.",
    ],
    "zh": [
        "今天早上天气很好，我们一起去公园散步吧。",
        "这本书讲的是一个小女孩在山里长大的故事。",
        "火车晚点了半个小时，站台上的人越来越多。",
        "他每天晚上都会给远方的父母打一个电话。",
        "春天来了，河边的柳树慢慢长出了新的叶子。",
        "请大家把手机调成静音，会议马上就要开始了。",
        "妈妈做的红烧肉是我最喜欢吃的一道菜。",
        "老师耐心地回答了同学们提出的每一个问题。",
        "周末的时候，图书馆里总是坐满了学习的人。",
        "我们在海边看了日落，然后慢慢走回了酒店。",
    ],
}
REFERENCE = {
    "en": "This is the reference voice that every take is compared with.",
    "zh": "这是每一句都要比较的参考声音。",
}
# espeak-ng voices (variants are different speakers of one language), male then female.
VOICES = {
    "en": ["en-us", "en-gb", "en-us+m3", "en-029+m7", "en-us+f2", "en-gb-x-rp+f4"],
    "zh": ["cmn", "cmn+m4", "cmn+f3", "cmn+f5"],
}


def female(voice: str) -> bool:
    return "+f" in voice


DEFECTS = {
    "silence": FindingKind.NO_SPEECH,
    "noise": FindingKind.NO_SPEECH,
    "hole": FindingKind.LONG_SILENCE,
    "truncated": FindingKind.CUT_OFF,
    "repeated": FindingKind.TOO_LONG,
    "other_speaker": FindingKind.VOICE_DRIFT,
    "clipped": FindingKind.CLIPPING,
}


def espeak(text: str, voice: str, speed: int) -> np.ndarray:
    import soundfile as sf

    from app.audio.takes.resample import to_model_rate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "take.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(path), text],
            check=True,
            capture_output=True,
        )
        audio, rate = sf.read(path, dtype="float32")
    return to_model_rate(audio, rate)


def trim(audio: np.ndarray) -> np.ndarray:
    """espeak's own silence off both ends, so each take's silences are the ones we add."""
    loud = np.flatnonzero(np.abs(audio) > 0.01)
    return audio[loud[0] : loud[-1] + 1] if len(loud) else audio


def dress(speech: np.ndarray, rng: random.Random, floor: bool = True) -> np.ndarray:
    """A good take from clean speech: its own loudness, silences around it, a noise floor
    (the committed fixtures go without: noise does not compress)."""
    gain = 10 ** (rng.uniform(-6, 2) / 20)
    lead = np.zeros(int(RATE * rng.uniform(0.1, 0.5)), np.float32)
    tail = np.zeros(int(RATE * rng.uniform(0.15, 0.6)), np.float32)
    take = np.concatenate([lead, speech * gain / max(1e-6, np.abs(speech).max()) * 0.7, tail])
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 10 ** (-65 / 20), len(take))
    return (take + noise * floor).astype(np.float32)


def inject(defect: str, take: np.ndarray, other: np.ndarray, rng: random.Random) -> np.ndarray:
    gen = np.random.default_rng(rng.randrange(1 << 30))
    level = float(np.sqrt(np.mean(take**2)))
    if defect == "silence":
        return gen.normal(0, 10 ** (-65 / 20), len(take)).astype(np.float32)
    if defect == "noise":
        return np.clip(gen.normal(0, level * 2, len(take)), -1, 1).astype(np.float32)
    loud = np.flatnonzero(np.abs(take) > 0.05 * np.abs(take).max())
    start, end = int(loud[0]), int(loud[-1])
    if defect == "hole":
        at = start + int((end - start) * rng.uniform(0.3, 0.7))
        hole = gen.normal(0, 10 ** (-65 / 20), int(RATE * rng.uniform(1.5, 2.5)))
        return np.concatenate([take[:at], hole.astype(np.float32), take[at:]])
    if defect == "truncated":
        # Cut inside a word: a point between 40% and 75% of the speech where the voice is loud.
        lo, hi = start + int((end - start) * 0.4), start + int((end - start) * 0.75)
        window = np.abs(take[lo:hi])
        envelope = np.convolve(window, np.ones(400) / 400, mode="same")
        voiced = np.flatnonzero(envelope > 0.3 * envelope.max())
        at = lo + int(rng.choice(list(voiced)))
        return take[:at]
    if defect == "repeated":
        pause = np.zeros(int(RATE * rng.uniform(0.2, 0.5)), np.float32)
        return np.concatenate([take, pause, take])
    if defect == "other_speaker":
        return other
    if defect == "clipped":
        return np.clip(take * (4.0 / max(1e-6, np.abs(take).max())), -1, 1).astype(np.float32)
    raise ValueError(defect)


def build_set(quick: bool, seed: int = 0):
    """{language: {voice: [(text, good take)]}} and the reference take per voice."""
    rng = random.Random(seed)
    if quick:
        return load_fixtures()
    if shutil.which("espeak-ng") is None:
        raise SystemExit("espeak-ng is not installed (Debian: apt-get install espeak-ng)")
    takes: dict[str, dict[str, list[tuple[str, np.ndarray]]]] = {}
    references: dict[str, np.ndarray] = {}
    for language, voices in VOICES.items():
        takes[language] = {}
        for voice in voices:
            base = rng.choice([150, 165, 180])
            takes[language][voice] = [
                (text, dress(trim(espeak(text, voice, int(base * rng.uniform(0.92, 1.08)))), rng))
                for text in SENTENCES[language]
            ]
            references[voice] = dress(trim(espeak(REFERENCE[language], voice, base)), rng)
    return takes, references


def make_fixtures(folder: Path) -> None:
    import soundfile as sf

    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    lines = []
    # (voice, another speaker, takes, espeak speed: cmn speaks slowly at en's speed)
    chosen = {"en": ("en-us", "en-us+f2", 3, 175), "zh": ("cmn", "cmn+f3", 2, 240)}
    for language, (voice, other, count, speed) in chosen.items():
        for i, text in enumerate(SENTENCES[language][:count]):
            name = f"{language}_{voice.replace('+', '_')}_{i}.flac"
            sf.write(folder / name, dress(trim(espeak(text, voice, speed)), rng, False), RATE)
            lines.append(f"{name}\t{language}\t{voice}\t{text}")
        for name, spoken, text in (
            (f"{language}_reference.flac", voice, REFERENCE[language]),
            (f"{language}_other_speaker.flac", other, SENTENCES[language][0]),
        ):
            sf.write(folder / name, dress(trim(espeak(text, spoken, speed)), rng, False), RATE)
            lines.append(f"{name}\t{language}\t{spoken}\t{text}")
    (folder / "takes.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def load_fixtures():
    import soundfile as sf

    takes: dict[str, dict[str, list[tuple[str, np.ndarray]]]] = {}
    references: dict[str, np.ndarray] = {}
    others: dict[str, np.ndarray] = {}
    for line in (FIXTURES / "takes.tsv").read_text(encoding="utf-8").splitlines():
        name, language, voice, text = line.split("\t")
        audio, _rate = sf.read(FIXTURES / name, dtype="float32")
        if name.endswith("_reference.flac"):
            references[language] = audio
        elif name.endswith("_other_speaker.flac"):
            others[language] = audio
        else:
            takes.setdefault(language, {}).setdefault(voice, []).append((text, audio))
    # The quick set's other speaker is a fixture of its own; by voice for run() below.
    for language, voices in takes.items():
        for voice in voices:
            references[voice] = references[language]
            references[f"other:{voice}"] = others[language]
    return takes, references


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


def other_take(takes, references, language, voice, i, quick) -> np.ndarray:
    """The same sentence by another speaker of the language: a voice of the other sex, as
    different as two of ChatTTS's seeds usually are."""
    if quick:
        return references[f"other:{voice}"]
    voices = [v for v in takes[language] if female(v) != female(voice)]
    return takes[language][voices[i % len(voices)]][i][1]


def close_take(takes, language, voice, i) -> np.ndarray | None:
    """The same sentence by another espeak variant of the same sex: a close voice, measured but
    not counted as a defect (two male variants are nearly one voice)."""
    voices = [v for v in takes[language] if v != voice and female(v) == female(voice)]
    return takes[language][voices[i % len(voices)]][i][1] if voices else None


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
