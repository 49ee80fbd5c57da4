"""Test helpers for the window's speech controller."""

from __future__ import annotations


def recorded_starts(monkeypatch, window) -> list:
    """Every request the speech controller is asked to start, then started as usual."""
    requests, real = [], window.speech.start

    def start(request, audition=False):
        requests.append(request)
        return real(request, audition)

    monkeypatch.setattr(window.speech, "start", start)
    return requests
