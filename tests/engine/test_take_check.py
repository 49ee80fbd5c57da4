"""The take checker on real speech (espeak-ng fixtures): each injected defect is found, good
takes pass, and the random test model's noise is no speech."""

from __future__ import annotations

import numpy as np
import pytest

from app.audio import Expectation, FindingKind, SpeakingRate, check_take, text_units
from app.audio.takes import thresholds as th
from tests.engine.take_fixtures import RATE, fixtures

TAKES = fixtures()
GOOD = [name for name in TAKES if "_reference" not in name and "_other" not in name]


def expect(name: str, **extra) -> Expectation:
    language, text, _audio = TAKES[name]
    return Expectation(text=text, language=language, rate=learnt(language, name), **extra)


def learnt(language: str, leave_out: str) -> SpeakingRate:
    """The rate the same voice's other takes teach (as a project learns it)."""
    from app.audio import measure_take

    others = [
        (text, measure_take(audio, RATE).speech_seconds)
        for name, (lang, text, audio) in TAKES.items()
        if lang == language and name != leave_out and "_other" not in name
    ]
    return SpeakingRate.learn(language, others)


@pytest.mark.parametrize("name", GOOD)
def test_a_good_take_passes(name):
    report = check_take(TAKES[name][2], RATE, expect(name))
    assert report.findings == ()
    assert report.checked and report.score == 1.0
    assert 0.8 < report.speech_seconds / report.expected_speech_seconds < 1.25


def _speech_span(audio: np.ndarray) -> tuple[int, int]:
    loud = np.flatnonzero(np.abs(audio) > 0.05 * np.abs(audio).max())
    return int(loud[0]), int(loud[-1])


@pytest.mark.parametrize("name", ["en_en-us_0.flac", "zh_cmn_0.flac"])
def test_each_injected_defect_is_found(name):
    audio = TAKES[name][2]
    start, end = _speech_span(audio)
    rng = np.random.default_rng(0)
    mid = start + (end - start) // 2
    # A cut inside a loud stretch of speech (a word), 60% through.
    cut = start + int((end - start) * 0.6)
    cut += int(np.argmax(np.abs(audio[cut : cut + 1600])))
    defects = {
        FindingKind.NO_SPEECH: [
            rng.normal(0, 1e-4, len(audio)).astype(np.float32),
            np.clip(rng.normal(0, 0.1, len(audio)), -1, 1).astype(np.float32),
        ],
        FindingKind.LONG_SILENCE: [
            np.concatenate([audio[:mid], np.zeros(2 * RATE, np.float32), audio[mid:]])
        ],
        FindingKind.CUT_OFF: [audio[:cut]],
        FindingKind.TOO_LONG: [np.concatenate([audio, np.zeros(RATE // 4, np.float32), audio])],
        FindingKind.CLIPPING: [np.clip(audio * 4 / np.abs(audio).max(), -1, 1)],
    }
    for kind, takes in defects.items():
        for take in takes:
            report = check_take(take, RATE, expect(name))
            assert kind in report.kinds(), (kind, report.as_dict())
            assert report.score < 1.0
            assert all(str(f.reason).endswith(".") for f in report.findings)


def test_the_end_of_a_take_cut_mid_word_is_found_even_when_little_is_lost():
    audio = TAKES["en_en-us_1.flac"][2]
    start, end = _speech_span(audio)
    # The last word cut: the duration is still about right, its end is at speech level.
    at = end - RATE // 10
    at += int(np.argmax(np.abs(audio[at - 400 : at]))) - 400
    report = check_take(audio[:at], RATE, expect("en_en-us_1.flac"))
    assert FindingKind.CUT_OFF in report.kinds()


def test_a_quiet_take_and_one_louder_than_the_others_are_a_level_finding():
    name = "en_en-us_2.flac"
    audio = TAKES[name][2]
    quiet = check_take(audio * 10 ** (-40 / 20), RATE, expect(name))
    assert FindingKind.LEVEL in quiet.kinds()
    normal = check_take(audio, RATE, expect(name))
    assert FindingKind.LEVEL not in normal.kinds()
    apart = check_take(audio, RATE, expect(name, level_dbfs=normal.speech_dbfs - 15))
    assert FindingKind.LEVEL in apart.kinds()


def test_the_best_take_scores_highest():
    name = "zh_cmn_1.flac"
    audio = TAKES[name][2]
    good = check_take(audio, RATE, expect(name))
    twice = check_take(np.concatenate([audio, audio]), RATE, expect(name))
    silent = check_take(np.zeros_like(audio), RATE, expect(name))
    assert good.score > twice.score > silent.score == 0.0


def test_a_given_duration_replaces_the_text():
    audio = TAKES["en_en-us_0.flac"][2]
    speech = check_take(audio, RATE, Expectation()).speech_seconds
    assert check_take(audio, RATE, Expectation(speech_seconds=speech)).findings == ()
    long = check_take(audio, RATE, Expectation(speech_seconds=speech * 3))
    assert FindingKind.LITTLE_SPEECH in long.kinds()


def test_the_speaking_rate_is_learnt_from_earlier_takes_not_a_constant():
    text = "今天天气很好。"
    assert text_units(text, "zh") == 6
    assert text_units("Hello, world 42!", "en") == 12
    learnt = SpeakingRate.learn("zh", [(text, 2.0), (text, 3.0), (text, 100.0)])
    assert learnt.units_per_second == pytest.approx(2.0)  # the median: one bad take moves nothing
    assert SpeakingRate.learn("zh", []) == SpeakingRate.default("zh")
    assert SpeakingRate.default("zh").units_per_second == th.DEFAULT_UNITS_PER_SECOND["zh"]
    assert learnt.expected_seconds(text) == pytest.approx(3.0)


def test_odd_input_gives_a_report_not_an_error():
    for audio, rate in [
        (np.zeros(0, np.float32), RATE),
        (np.zeros(100, np.float32), RATE),
        (np.full(RATE, np.nan, np.float32), RATE),
        (np.zeros((RATE, 2), np.float32), 44100),
    ]:
        report = check_take(audio, rate, Expectation(text="Hello.", language="en"))
        assert report.kinds() == {FindingKind.NO_SPEECH}


def test_the_random_test_model_makes_no_speech(synthesizer):
    from app.core import ModelKind, SamplingParams, SynthesisRequest

    text = "Hello there, this sentence should be speech."
    result = synthesizer.run(
        SynthesisRequest(text, refine_text=False, sampling=SamplingParams(max_new_tokens=96))
    )
    assert synthesizer.model_kind is ModelKind.RANDOM_WEIGHTS and result.audio.size
    report = check_take(result.audio, result.sample_rate, Expectation(text=text, language="en"))
    assert FindingKind.NO_SPEECH in report.kinds()
