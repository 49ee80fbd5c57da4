"""Sentences the synthesis tells the user about a result (each in English and Chinese)."""

from __future__ import annotations

from app.i18n import _


def token_cut_warning(first: int, count: int, limit: int) -> str:
    """A sentence (or one of a batch, 0-based `first`) hit the audio-token limit."""
    if count == 1:
        text = _(
            "Sentence {n} reached the limit of {limit} audio tokens and may be cut off at the end; "
            "shorten it or raise the limit ({option})."
        )
    else:
        text = _(
            "One of sentences {first}-{last} reached the limit of {limit} audio tokens and may be cut "
            "off at the end; shorten it or raise the limit ({option})."
        )
    return text.format(
        n=first + 1, first=first + 1, last=first + count, limit=limit, option="--max-tokens"
    )


def refine_cut_warning(first: int, count: int) -> str:
    """Refinement hit its length limit; where the switch is, in the window and on the command line."""
    if count == 1:
        text = _(
            "Sentence {n}: text refinement reached its length limit, so words may be missing; try again "
            'with text refinement off (in the window: untick "Refine text first"; on the command '
            "line: {option})."
        )
    else:
        text = _(
            "One of sentences {first}-{last}: text refinement reached its length limit, so words may be "
            'missing; try again with text refinement off (in the window: untick "Refine text first"; '
            "on the command line: {option})."
        )
    return text.format(n=first + 1, first=first + 1, last=first + count, option="--no-refine")


def cut_short_warning(index: int) -> str:
    return _(
        "Sentence {n} was cut short when memory ran out while it played; play the "
        "text again to hear it whole."
    ).format(n=index + 1)


def voice_lock_too_short() -> str:
    return _(
        "The first sentence was too short to lock the voice to; the other sentences use the "
        "chosen voice without the lock."
    )


def out_of_memory_alone(device: str) -> str:
    return _(
        "{device} ran out of memory even with one sentence at a time; close other programs, "
        "lower the token limit, or use {option}."
    ).format(device=device, option="--device cpu")


def out_of_memory_speaking(device: str) -> str:
    return _(
        "{device} ran out of memory while speaking; try a shorter text, close other programs, "
        "or use {option}."
    ).format(device=device, option="--device cpu")


def stopped() -> str:
    return _("Synthesis was stopped.")
