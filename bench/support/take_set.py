"""The labelled set of bench/take_check.py: good takes of real speech (espeak-ng voices, or the
committed fixtures in tests/data/takes) and the defects of issue 42 injected into them."""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from app.audio import FindingKind

RATE = 16000
FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "data" / "takes"

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
