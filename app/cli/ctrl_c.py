"""Ctrl+C during `chattts-studio synth`: stop the decode, not the interpreter.

Python turns SIGINT into KeyboardInterrupt wherever the main thread happens to be: inside a
PyTorch call, a numba function or a half-written cache. The first Ctrl+C instead asks the
synthesizer to cancel, which the decode loop honours between two steps, so the run ends
through the same path as the window's Stop. A second Ctrl+C gets Python's default handling,
so a stuck program can still be interrupted at once.
"""

from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def ctrl_c_cancels(synth):
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can only be set from the main thread
        return
    previous = signal.getsignal(signal.SIGINT)

    def first_ctrl_c(_signum, _frame):
        signal.signal(signal.SIGINT, previous)
        synth.cancel()

    signal.signal(signal.SIGINT, first_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
