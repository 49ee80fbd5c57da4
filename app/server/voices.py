"""What a request's `voice` names: OpenAI's voice names (fixed seeds), `seed:N`, a saved voice
of the library, or a speaker string. The library is read, never written, and a voice name is
only a key in it: no request names a file."""

from __future__ import annotations

from dataclasses import dataclass

from app.core import SEED_MAX, StudioError, VoiceError
from app.i18n import _
from app.voices import check_speaker

# OpenAI's voice names, each a fixed seed, so a tool that only offers those names still picks
# distinct, repeatable ChatTTS voices. 2222 is ChatTTS-ui's default voice.
OPENAI_VOICES = {
    "alloy": 2222,
    "ash": 1031,
    "ballad": 1509,
    "coral": 6653,
    "echo": 7869,
    "fable": 4099,
    "onyx": 1397,
    "nova": 2155,
    "sage": 3333,
    "shimmer": 9999,
    "verse": 1111,
    "marin": 4444,
    "cedar": 5555,
}
SEED_PREFIX = "seed:"


@dataclass
class ResolvedVoice:
    seed: int | None = None
    speaker: str | None = None
    reference: str | None = None
    reference_text: str | None = None


class UnknownVoice(StudioError):
    """The voice names nothing this server knows."""


def resolve_voice(voice: str, saved, hidden_size: int) -> ResolvedVoice:
    """`saved(name)` looks a saved voice up (None if there is none)."""
    name = voice.strip()
    if name.lower() in OPENAI_VOICES:
        return ResolvedVoice(seed=OPENAI_VOICES[name.lower()])
    if name.lower().startswith(SEED_PREFIX):
        digits = name[len(SEED_PREFIX) :].strip()
        if not (digits.isascii() and digits.isdigit()) or int(digits) > SEED_MAX:
            raise VoiceError(
                _("The voice {voice} is not a seed: write seed:N with N from 0 to {high}.").format(
                    voice=repr(name[:40]), high=SEED_MAX
                )
            )
        return ResolvedVoice(seed=int(digits))
    found = saved(name) if name else None
    if found is not None:
        if found.reference:
            return ResolvedVoice(
                seed=found.seed,
                speaker=found.speaker or None,
                reference=found.reference,
                reference_text=found.reference_text,
            )
        return ResolvedVoice(seed=found.seed, speaker=found.speaker)
    try:
        return ResolvedVoice(speaker=check_speaker(name, hidden_size))
    except VoiceError:
        if len(name) > 64:  # meant as a speaker string: say why it does not fit
            raise
    raise UnknownVoice(
        _(
            "There is no voice named {voice}; GET /v1/voices lists the voices, or give "
            "seed:N or a speaker string."
        ).format(voice=repr(name[:80]))
    )


def voice_names(saved_voices) -> list[dict]:
    """The voices GET /v1/voices lists: OpenAI's names with their seeds, then the saved ones."""
    listed = [
        {"id": name, "name": name, "kind": "seed", "seed": seed}
        for name, seed in OPENAI_VOICES.items()
    ]
    listed += [
        {"id": v.name, "name": v.name, "kind": "saved", "seed": v.seed} for v in saved_voices
    ]
    return listed
