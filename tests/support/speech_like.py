"""Speech-shaped test audio for the player: voiced syllables, the near-silent closures of stop
consonants between some of them, and pauses between clauses, with where each pause lies. No
sample is exactly zero, so silence the player inserts (exact zeros) can be told from the
audio's own quiet and placed in the source (`inserted_silences`)."""

from __future__ import annotations

import numpy as np

from tests.support.playback_sim import SAMPLE_RATE, Arrival

ROOM_NOISE = 3e-5  # a vocoder's quiet is not digital silence


def quiet(seconds: float, rng, noise: float = ROOM_NOISE) -> np.ndarray:
    n = int(seconds * SAMPLE_RATE)
    hiss = rng.normal(0.0, noise, n).astype(np.float32)
    return np.where(hiss == 0.0, np.float32(noise), hiss)


def syllable(seconds: float, rng, noise: float = ROOM_NOISE) -> np.ndarray:
    n = int(seconds * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    pitch = rng.uniform(110, 260)
    envelope = np.sin(np.pi * np.arange(n) / n) ** 0.5 * rng.uniform(0.15, 0.5)
    wave = envelope * (np.sin(2 * np.pi * pitch * t) + 0.3 * np.sin(4 * np.pi * pitch * t))
    wave += rng.normal(0.0, noise, n)
    return np.where(wave == 0.0, noise, wave).astype(np.float32)


def sentence(
    clauses: list[int],
    seed: int,
    pause_s: float = 0.35,
    closure_s: float = 0.12,
    noise: float = ROOM_NOISE,
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """`clauses`: syllables per clause; `noise`: the RMS of the hiss under it all. Returns the
    samples and each pause's [start, end)."""
    rng = np.random.default_rng(seed)
    parts, pauses, at = [], [], 0
    for c, count in enumerate(clauses):
        for s in range(count):
            voiced = syllable(rng.uniform(0.12, 0.3), rng, noise)
            parts.append(voiced)
            at += len(voiced)
            if s < count - 1 and rng.random() < 0.5:  # a stop consonant's closure
                closure = quiet(rng.uniform(0.04, closure_s), rng, noise)
                parts.append(closure)
                at += len(closure)
        if c < len(clauses) - 1:
            pause = quiet(pause_s, rng, noise)
            pauses.append((at, at + len(pause)))
            parts.append(pause)
            at += len(pause)
    return np.concatenate(parts), pauses


def streamed(
    sentences: list[np.ndarray], speed: float, piece_s: float = 0.256, latency_s: float = 0.3
) -> list[Arrival]:
    """The sentences made `speed` seconds of audio per second, in pieces of `piece_s`."""
    arrivals, t, piece = [], latency_s, int(piece_s * SAMPLE_RATE)
    for index, audio in enumerate(sentences):
        for start in range(0, len(audio), piece):
            chunk = audio[start : start + piece]
            t += len(chunk) / SAMPLE_RATE / speed
            arrivals.append(Arrival(t, len(chunk), index, start + piece >= len(audio), chunk))
    return arrivals


def inserted_silences(output: np.ndarray, sentences: list[np.ndarray]) -> list[tuple[int, int]]:
    """(sentence, sample offset in it) where the player inserted silence; asserts that apart
    from those silences the output is the sentences, every sample once, in order."""
    source = np.concatenate(sentences)
    starts = np.cumsum([0] + [len(s) for s in sentences])
    played = output != 0.0
    assert np.array_equal(output[played], source), "the output is not the source in order"
    # Source position reached before each output sample; where a run of silence begins.
    position = np.cumsum(played) - played
    begins = np.flatnonzero(~played & np.concatenate([[True], played[:-1]]))
    found = []
    for b in begins:
        p = int(position[b])
        if p >= len(source):
            break  # the stream is over
        k = int(np.searchsorted(starts, p, side="right") - 1)
        found.append((k, p - int(starts[k])))
    return found


def outside_pauses(
    waits: list[tuple[int, int]], pauses: list[list[tuple[int, int]]]
) -> list[tuple[int, int]]:
    """The waits (from `inserted_silences`) neither at a sentence's start nor inside a pause."""
    return [(k, at) for k, at in waits if at and not any(a < at < b for a, b in pauses[k])]


def speech_over(
    arrivals: list[Arrival], seed: int = 0, syllables_per_clause: int = 6
) -> tuple[list[Arrival], list[np.ndarray], list[list[tuple[int, int]]]]:
    """The same pieces at the same moments (a real engine's, say), their samples replaced by
    speech-shaped audio with a pause every `syllables_per_clause` syllables: where a player
    would start and wait on speech made at that pace. Returns the arrivals, each sentence's
    samples and its pauses."""
    totals: dict[int, int] = {}
    for a in arrivals:
        totals[a.segment] = totals.get(a.segment, 0) + a.samples
    sentences, pauses = {}, {}
    for k, total in totals.items():
        clauses = [syllables_per_clause] * (
            1 + total // (syllables_per_clause * int(0.3 * SAMPLE_RATE))
        )
        audio, found = sentence(clauses, seed=seed + k)
        while len(audio) < total:  # short syllables: one more clause
            clauses.append(syllables_per_clause)
            audio, found = sentence(clauses, seed=seed + k)
        sentences[k] = audio[:total]
        pauses[k] = [(a, b) for a, b in found if b <= total]
    at, out = dict.fromkeys(totals, 0), []
    for a in arrivals:
        chunk = sentences[a.segment][at[a.segment] : at[a.segment] + a.samples]
        at[a.segment] += a.samples
        out.append(Arrival(a.at, a.samples, a.segment, a.final, chunk, a.vocoder_s))
    order = sorted(totals)
    return out, [sentences[k] for k in order], [pauses[k] for k in order]
