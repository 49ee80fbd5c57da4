"""The token grid streamed pieces lie on, without torch: the vocoder cuts pieces on it
(vocoder_stream.py) and the player (audio/buffering.py) knows from it how long the next pieces
will take to arrive."""

from __future__ import annotations

SAMPLES_PER_TOKEN = 512  # 2 mel frames per token, hop 256
# Tokens held back: the least that gives the whole decode's samples to within float rounding,
# as a lookahead of the full receptive field (52) does; fewer leaves audible joins.
# Figures: docs/design/constants.md#default_lookahead (bench/stream_joins.py).
DEFAULT_LOOKAHEAD = 8
DEFAULT_MIN_PIECE = 12  # tokens per piece after the first, so pieces are not mostly context
# Every piece decodes its context again (52 tokens on the full model) and pays a fixed cost per
# call, so small pieces are mostly context: later pieces grow (up to this) so the rest costs
# less. Figures: docs/design/constants.md#default_max_piece-and-growth
DEFAULT_MAX_PIECE = 48
# ... to a GROWTH-th of what was sent. A piece of n tokens arrives n tokens' time after the one
# before, so the listener must have that much queued by then: smaller growth lets a sentence
# made just above real time start at its second piece, at the price of more vocoder calls
# (tests/engine/test_gapless_bound.py::
# test_pieces_growing_by_a_quarter_let_a_125x_sentence_start_at_its_second_piece; figures:
# docs/design/constants.md#default_max_piece-and-growth).
GROWTH = 4
# The first piece is short: the player starts once the second piece shows the production rate,
# and that piece comes DEFAULT_MIN_PIECE tokens after the first only if both look as far ahead;
# a first piece that looked less far would hide the rate and delay the sound
# (tests/engine/test_playback_buffering.py::
# test_a_first_piece_that_looks_less_far_ahead_hid_the_rate_and_delayed_the_sound).
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
