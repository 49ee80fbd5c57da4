"""The take checker's trained models: our GE2E encoder, on the weights we ship, gives
resemblyzer's embeddings (recorded once in tests/data/takes), another voice is drift, and a
machine without silero-vad says once that takes are not checked."""

from __future__ import annotations

import logging
import sys

import numpy as np
import pytest

from app.audio import Expectation, FindingKind, check_take, voice_embedding
from app.audio.takes import model_files, speaker, vad
from tests.engine.take_fixtures import FOLDER, RATE, fixtures

TAKES = fixtures()


def test_our_encoder_gives_resemblyzers_embeddings():
    # resemblyzer's own embeddings of these takes, made by scripts/ge2e_weights.py --embeddings
    # (resemblyzer is no dependency: its webrtcvad has no Windows wheels).
    with np.load(FOLDER / "resemblyzer_embeddings.npz") as recorded:
        theirs = {name: recorded[name] for name in recorded.files}
    assert set(theirs) == {"en_en-us_0.flac", "zh_other_speaker.flac"}
    for name, embedding in theirs.items():
        ours = speaker.embed_speech(speaker.raise_quiet(TAKES[name][2]))
        assert embedding.shape == ours.shape == (256,)
        assert np.abs(ours - embedding).max() < 1e-4


def test_the_shipped_weights_are_the_whole_encoder_and_nothing_else():
    from safetensors import safe_open

    with safe_open(str(speaker.WEIGHTS), framework="np") as weights:
        names = set(weights.keys())
        dtypes = {str(weights.get_tensor(n).dtype) for n in names}
    assert {n.split(".")[0] for n in names} == {"lstm", "linear"}
    assert len(names) == 14 and dtypes == {"float32"}  # 3 LSTM layers x 4 tensors, linear x 2
    assert speaker.WEIGHTS.with_name("LICENSE-resemblyzer").is_file()


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


def test_without_resemblyzer_voices_are_still_compared(forget_models, caplog):
    # The speaker weights ship with us: no resemblyzer package is needed to compare voices.
    forget_models.setitem(sys.modules, "resemblyzer", None)
    forget_models.setitem(sys.modules, "webrtcvad", None)
    reference = voice_embedding(TAKES["en_reference.flac"][2], RATE)
    _lang, text, audio = TAKES["en_other_speaker.flac"]
    with caplog.at_level(logging.WARNING):
        report = check_take(audio, RATE, Expectation(text=text, reference=reference))
    assert report.checked and report.voice_similarity is not None and report.note is None
    assert FindingKind.VOICE_DRIFT in report.kinds()
    assert voice_embedding(audio, RATE) is not None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
