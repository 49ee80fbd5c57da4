"""The take checker's trained models: our GE2E encoder equals resemblyzer's, another voice is
drift, and a machine without the model packages says once that takes are not checked."""

from __future__ import annotations

import logging
import sys
import types

import numpy as np
import pytest

from app.audio import Expectation, FindingKind, check_take, voice_embedding
from app.audio.takes import model_files, speaker, vad
from tests.engine.take_fixtures import RATE, fixtures

TAKES = fixtures()


def test_our_encoder_gives_resemblyzers_embeddings(monkeypatch):
    pytest.importorskip("librosa")
    # resemblyzer's package imports webrtcvad (which needs pkg_resources) for a step we do not
    # use: a stand-in lets its encoder load.
    monkeypatch.setitem(sys.modules, "webrtcvad", types.ModuleType("webrtcvad"))
    resemblyzer = pytest.importorskip("resemblyzer")
    theirs = resemblyzer.VoiceEncoder("cpu", verbose=False)
    for name in ("en_en-us_0.flac", "zh_other_speaker.flac"):
        wav = speaker.raise_quiet(TAKES[name][2])
        ours = speaker.embed_speech(wav)
        assert np.abs(ours - theirs.embed_utterance(wav)).max() < 1e-4


def test_another_speaker_is_voice_drift_and_the_same_voice_is_not():
    for language, voice in (("en", "en-us"), ("zh", "cmn")):
        reference = voice_embedding(TAKES[f"{language}_reference.flac"][2], RATE)
        same = next(n for n in TAKES if n.startswith(f"{language}_{voice}_"))
        _lang, text, audio = TAKES[same]
        good = check_take(
            audio, RATE, Expectation(text=text, language=language, reference=reference)
        )
        assert FindingKind.VOICE_DRIFT not in good.kinds()
        _lang, text, audio = TAKES[f"{language}_other_speaker.flac"]
        other = check_take(
            audio, RATE, Expectation(text=text, language=language, reference=reference)
        )
        assert FindingKind.VOICE_DRIFT in other.kinds()
        assert other.voice_similarity < good.voice_similarity


def test_models_load_on_the_first_check_and_only_once(monkeypatch):
    monkeypatch.setattr(vad, "_model", None)
    monkeypatch.setattr(speaker, "_encoder", None)
    _lang, text, audio = TAKES["en_en-us_0.flac"]
    check_take(audio, RATE, Expectation(text=text))
    loaded = vad._model
    assert loaded is not None and speaker._encoder is None  # no reference: no speaker model
    reference = voice_embedding(audio, RATE)
    encoder = speaker._encoder
    check_take(audio, RATE, Expectation(text=text, reference=reference))
    assert vad._model is loaded and speaker._encoder is encoder is not None


@pytest.fixture
def forget_models(monkeypatch):
    """A machine without the model packages: their import finds nothing."""
    monkeypatch.setattr(vad, "_model", None)
    monkeypatch.setattr(speaker, "_encoder", None)
    monkeypatch.setattr(model_files, "_said", set())
    return monkeypatch


def test_without_silero_vad_takes_are_not_checked_and_it_is_said_once(forget_models, caplog):
    forget_models.setitem(sys.modules, "silero_vad", None)
    _lang, text, audio = TAKES["en_en-us_0.flac"]
    with caplog.at_level(logging.WARNING):
        first = check_take(audio, RATE, Expectation(text=text))
        second = check_take(audio, RATE, Expectation(text=text))
    assert not first.checked and not first.flagged
    assert "not checked" in first.note and "silero-vad" in first.note
    assert second.note == first.note
    said = [r for r in caplog.records if "not checked" in r.getMessage()]
    assert len(said) == 1


def test_without_resemblyzer_voices_are_not_compared(forget_models, caplog):
    reference = voice_embedding(TAKES["en_reference.flac"][2], RATE)
    forget_models.setattr(speaker, "_encoder", None)  # the reference came from another machine
    forget_models.setitem(sys.modules, "resemblyzer", None)
    _lang, text, audio = TAKES["en_other_speaker.flac"]
    with caplog.at_level(logging.WARNING):
        report = check_take(audio, RATE, Expectation(text=text, reference=reference))
        check_take(audio, RATE, Expectation(text=text, reference=reference))
    assert report.checked and report.voice_similarity is None
    assert FindingKind.VOICE_DRIFT not in report.kinds()
    assert "resemblyzer" in report.note
    assert voice_embedding(audio, RATE) is None
    assert len([r for r in caplog.records if "resemblyzer" in r.getMessage()]) == 1
