"""Synthesis: a loaded model and the order of work over it.

- chattts_model.py: ChatTTS loaded on a device, its normalizer, the hooks decoders need
- tickets.py:       a request's priority (Priority) and its record in the scheduler
- decoders.py:      decoders as strategies: ChatTTS's Chat.infer, and our loop
- scheduler.py:     batches sentences across requests, priorities, per-request cancel
- running_batch.py: the running batch's session (join, leave, emit), the round-robin pick
- engine.py:        one thread serving many clients through the scheduler
- synthesizer.py:   the model with its voices and text; one request on the caller's thread
- messages.py:      the sentences a result may carry
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.engine import Engine, Job
    from app.synthesis.synthesizer import Synthesizer
    from app.synthesis.tickets import Priority

__all__ = [
    "Engine",
    "Job",
    "Priority",
    "Synthesizer",
    "quiet_libraries",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "Engine": "app.synthesis.engine",
        "Job": "app.synthesis.engine",
        "Priority": "app.synthesis.tickets",
        "Synthesizer": "app.synthesis.synthesizer",
        "quiet_libraries": "app.synthesis.chattts_model",
    },
)
