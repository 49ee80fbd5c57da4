"""ChatTTS Studio: a desktop program that turns text into speech with ChatTTS."""

__version__ = "0.1.0"
