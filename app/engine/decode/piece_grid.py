"""The token grid streamed pieces lie on, without torch: the vocoder cuts pieces on it
(vocoder_stream.py) and the player (audio/buffering.py) knows from it how long the next pieces
will take to arrive."""

from __future__ import annotations

SAMPLES_PER_TOKEN = 512  # 2 mel frames per token, hop 256
# Tokens held back (0.17 s of audio). 8 gives the whole decode's samples to within float
# rounding (121-125 dB, max error 0.0, bench/stream_joins.py, full-size random weights, 200
# tokens, 3 seeds), as a lookahead of the receptive field (52) does; 6 gave 98-102 dB.
DEFAULT_LOOKAHEAD = 8
DEFAULT_MIN_PIECE = 12  # tokens per piece after the first, so pieces are not mostly context
# Every piece decodes its context again (52 tokens on the full model) and costs a fixed ~20 ms a
# call: 12-token pieces spent 34% of a CPU sentence in the vocoder, 7x a whole decode. Later
# pieces grow (up to this) so the rest costs less.
DEFAULT_MAX_PIECE = 48
# ... to a GROWTH-th of what was sent. A piece of n tokens arrives n tokens' time after the one
# before, so the listener must have that much queued by then. Growing to half, a sentence made
# at 1.25x could not have started before about 0.53 s without running dry, later than its
# second piece (0.46 s); growing to a quarter it could from 0.37 s, before its second piece
# (tests/engine/test_gapless_bound.py; the player, with its margin, starts there from about
# 1.3x, or, told the vocoder's time, from 12-token pieces at about 1.2x). Price: the streamed
# vocoder's time for a 290-token sentence, 0.63 s instead of 0.50 (medians of 6 interleaved
# rounds, full model; growing to a sixth, 0.73), about 3% of the sentence's making on the
# 2-core CPU, and only when it streams.
GROWTH = 4
# The first piece is short: the player starts once the second piece shows the production rate,
# and that piece comes 12 tokens after the first only if both look as far ahead. With the first
# piece looking less far (2 + 6, then 12), the second came 20 tokens later with 12 tokens of
# audio, the rate looked 0.6 of what it was, and a machine making 1.5x real time waited for its
# fifth piece (tests/engine/test_playback_buffering.py).
DEFAULT_FIRST_PIECE = 4
DEFAULT_FIRST_LOOKAHEAD = DEFAULT_LOOKAHEAD


def piece_size(
    sent: int,
    first_piece: int = DEFAULT_FIRST_PIECE,
    min_piece: int = DEFAULT_MIN_PIECE,
    max_piece: int = DEFAULT_MAX_PIECE,
) -> int:
    """Tokens of the piece after the `sent` tokens already sent."""
    if sent == 0:
        return first_piece
    return min(max_piece, max(min_piece, sent // GROWTH // min_piece * min_piece))
