"""How the decode runs: our loop compiled, eager, as CUDA graphs or on ONNX Runtime, or ChatTTS's
own."""

from __future__ import annotations

from enum import StrEnum

from app.core import DeviceError
from app.i18n import _


class DecodeMode(StrEnum):
    """The values are what settings, the command line, JSON and the step cache's keys hold."""

    JIT = "jit"  # our loop, TorchScript-compiled
    EAGER = "eager"  # our loop, not compiled (also where a failed compile lands)
    GRAPH = "graph"  # what JIT becomes on a GPU: replays of captured CUDA graphs; not chosen
    ORT = "ort"  # our loop, its Llama step one ONNX Runtime session (decode/ort_step.py); CPU
    UPSTREAM = "upstream"  # ChatTTS's own Chat.infer, for comparison and as a way out

    @classmethod
    def parse(cls, text: str) -> DecodeMode:
        """A chosen mode from its text, or the user's sentence naming the choices."""
        if text not in CHOICES:
            raise DeviceError(
                _("Unknown decode mode {mode}; use one of: {choices}.").format(
                    mode=repr(text), choices=", ".join(CHOICES)
                )
            )
        return cls(text)

    @property
    def ours(self) -> bool:
        """Whether our loop runs (not ChatTTS's own)."""
        return self is not DecodeMode.UPSTREAM


# What a user can choose, as plain text for argparse and settings; GRAPH is only ever reported.
CHOICES = tuple(
    m.value for m in (DecodeMode.JIT, DecodeMode.EAGER, DecodeMode.ORT, DecodeMode.UPSTREAM)
)
# What DecodeLoop itself accepts.
LOOP_CHOICES = (DecodeMode.JIT, DecodeMode.EAGER, DecodeMode.ORT)
