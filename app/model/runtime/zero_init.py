"""ChatTTS builds each of its modules with PyTorch's random initialisation and then loads every
weight over it (`load_state_dict`, strict): the random numbers are thrown away, and drawing them is
a large part of a start (most of it `kaiming_uniform_` for the Linear and convolution layers;
docs/design/constants.md#a-start-without-chattts). While the model is built, PyTorch's initialisers write
zeros instead: a memset, and a value no file replaced would still be the same at every start, never
noise from memory.
"""

from __future__ import annotations

import contextlib
import threading

# The initialisers PyTorch's layers call on construction (nn.Linear, nn.Conv1d, nn.Embedding).
RANDOM_INITS = (
    "uniform_",
    "normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "xavier_uniform_",
    "xavier_normal_",
    "trunc_normal_",
)


def _zeros(tensor, *args, **kwargs):
    import torch

    with torch.no_grad():
        return tensor.zero_()


# The initialisers are module globals: two blocks on two threads (a start's parts while
# ChatTTS loads in the background) would save each other's zeros as "the originals".
_LOCK = threading.RLock()


def _untouched(tensor, *args, **kwargs):
    return tensor


@contextlib.contextmanager
def zero_init(fill=_zeros):
    """Within: `torch.nn.init`'s random initialisers fill with zeros (one thread at a time)."""
    import torch.nn.init as init

    with _LOCK:
        saved = {name: getattr(init, name) for name in RANDOM_INITS}
        try:
            for name in RANDOM_INITS:
                setattr(init, name, fill)
            yield
        finally:
            for name, function in saved.items():
                setattr(init, name, function)


def no_init():
    """Within: the random initialisers leave memory as allocated, never written nor read: only
    for modules whose every weight is then replaced by a strict, assigning load (model/runtime),
    where zero-filling memory that is dropped unread would be most of a start."""
    return zero_init(_untouched)
