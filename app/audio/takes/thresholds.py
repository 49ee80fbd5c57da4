"""Every limit the take checker judges by, in one place, each with how it was chosen.

The figures come from `bench/take_check.py` on espeak-ng speech with injected defects; its
result file is bench/results/take_check-2026-12-06.json (docs/take-check.md shows the margins).
"""

from __future__ import annotations

# The voice-activity model's frame: silero-vad reads 512 samples at 16 kHz (32 ms).
VAD_SAMPLE_RATE = 16000
VAD_FRAME = 512
# A frame is speech at this probability: silero-vad's own default threshold.
SPEECH_PROBABILITY = 0.5

# Less speech than this (seconds) is no speech at all: the random test model's noise and
# white noise score a few stray frames; the shortest good take (one word) has over 0.3 s.
NO_SPEECH_SECONDS = 0.15

# Speech below this share of the text's expected speech time is "little speech": half a
# sentence missing. Good takes stay above 0.82 of the rate learnt from the voice's other takes
# (bench margins: "speech_ratio").
LITTLE_SPEECH_RATIO = 0.5

# Speech below this share of the expectation is a take that lost its end. Kept well below the
# good takes' 0.82: a cut take is found mainly by its end (below); this catches what ends in
# a pause.
CUT_OFF_RATIO = 0.7

# A take whose last CUT_OFF_END_SECONDS are less than CUT_OFF_END_DB below its speech level
# stopped mid-word: a whole take ends in the model's (or the voice's) trailing silence, far
# below its speech; a cut one ends at speech level (bench: "end_below_speech_db").
CUT_OFF_END_SECONDS = 0.05
CUT_OFF_END_DB = 20.0

# Speech above this multiple of the expectation is babble or a repetition: a sentence said
# twice measured 1.65 or more, good takes 1.16 or less of the learnt rate.
TOO_LONG_RATIO = 1.45

# A pause inside the speech longer than this (seconds) is a hole in the take: pauses in good
# takes measured 0.26 s at most, the injected holes 1.5 s or more.
LONG_SILENCE_SECONDS = 1.0

# Cosine similarity of GE2E speaker embeddings (resemblyzer's trained encoder) below this is
# another voice: good takes scored 0.847 or more against another sentence of their voice, a
# voice of the other sex 0.801 at most; the limit lies between (bench: "voice_similarity",
# its "sweep"). Two close variants of one voice (same sex) are often not told apart.
VOICE_SIMILARITY = 0.82

# Samples at or above this magnitude are clipped; more than this share of them is clipping
# that a listener hears (a good take has none).
CLIP_LEVEL = 0.99
CLIPPED_SHARE = 0.001

# Speech loudness (RMS of the speech frames, dBFS) below this is too quiet to use, and more
# than LEVEL_SPREAD_DB away from the other takes' level stands out in a chapter.
QUIET_DBFS = -45.0
LEVEL_SPREAD_DB = 10.0

# Expected speaking rates for a first take, before any take of the same voice taught one:
# units are Chinese characters for zh and letters/digits for en. A first guess (ordinary
# speech: about 4.5 syllables, 13 letters per second); later takes pass the learnt rate.
DEFAULT_UNITS_PER_SECOND = {"zh": 4.5, "en": 13.0}
