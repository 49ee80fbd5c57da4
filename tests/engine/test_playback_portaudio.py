"""A missing PortAudio library is said in the user's language alone: sounddevice's English
"PortAudio library not found" repeated it inside the Chinese banner (issue 39, English left in
Chinese); any other loading error keeps its detail."""

import builtins
import re

import pytest

from app import i18n
from app.audio.playback import SoundDeviceOutput

real_import = builtins.__import__


def _sounddevice_fails(monkeypatch, message):
    def fake(name, *args, **kwargs):
        if name == "sounddevice":
            raise OSError(message)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_missing_portaudio_is_said_in_the_language_alone(monkeypatch, language):
    _sounddevice_fails(monkeypatch, "PortAudio library not found")
    try:
        i18n.set_language(language)
        problem = SoundDeviceOutput().problem
    finally:
        i18n.set_language("en")
    assert "not found" not in problem and "PortAudio" in problem
    if language == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", problem)


def test_another_loading_error_keeps_its_detail(monkeypatch):
    _sounddevice_fails(monkeypatch, "libportaudio.so.2: wrong ELF class")
    assert "wrong ELF class" in SoundDeviceOutput().problem
