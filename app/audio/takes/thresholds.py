"""Every limit the take checker judges by, in one place, each with how it was chosen.

Each limit lies between what good takes and injected defects gave in `bench/take_check.py`
(real speech, defects injected); the run is bench/results/take_check-2026-12-06.json, and
docs/take-check.md lists each limit's margin on both sides.
"""

from __future__ import annotations

# The voice-activity model's frame: silero-vad reads 512 samples at 16 kHz (32 ms).
VAD_SAMPLE_RATE = 16000
VAD_FRAME = 512
# A frame is speech at this probability: silero-vad's own default threshold.
SPEECH_PROBABILITY = 0.5

# Less speech than this (seconds) is no speech at all: noise, silence and the random test
# model's output give none, the shortest good take several seconds; a one-word take still
# passes.
NO_SPEECH_SECONDS = 0.15

# Speech below this share of the text's expected speech time is "little speech": half of
# the sentence missing. Far below the good takes' lowest share (margins: "speech_ratio").
LITTLE_SPEECH_RATIO = 0.5

# Speech below this share of the expectation is a take that lost its end. Kept well below
# the good takes' lowest share: a cut take is found mainly by its end (below); this catches
# one that ends in a pause.
CUT_OFF_RATIO = 0.7

# A take whose last CUT_OFF_END_SECONDS are less than CUT_OFF_END_DB below its speech level
# stopped mid-word: a whole take ends in trailing silence, far below its speech; a cut one
# ends near speech level (margins: "end_below_speech_db").
CUT_OFF_END_SECONDS = 0.05
CUT_OFF_END_DB = 20.0

# Speech above this multiple of the expectation is babble or a repetition: between the good
# takes' highest share and a sentence said twice (margins: "speech_ratio").
TOO_LONG_RATIO = 1.45

# A pause inside the speech longer than this (seconds) is a hole in the take: above every
# pause between words of a good take, below the injected holes (margins: "longest_gap_seconds").
LONG_SILENCE_SECONDS = 1.0

# Cosine similarity of GE2E speaker embeddings (resemblyzer's trained encoder) below this is
# another voice: between the good takes' lowest similarity to their voice and a voice of the
# other sex's highest (margins: "voice_similarity"). Two close variants of one voice, of the
# same sex, are often not told apart.
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
# units are Chinese characters for zh and letters/digits for en. A first guess for ordinary
# speech; later takes pass the rate learnt from the earlier ones.
DEFAULT_UNITS_PER_SECOND = {"zh": 4.5, "en": 13.0}
