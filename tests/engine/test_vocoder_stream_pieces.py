"""How the streaming vocoder cuts a growing sentence into pieces, on a stand-in vocoder whose
every sample depends on its own token only (no receptive field: sample s is token s // 512's
value, ChatTTS's 2 mel frames per token and 256 samples per frame, and a centred ISTFT's
(frames - 1) * 256 samples). So the stream must equal the whole decode exactly, whatever the
pieces; what is checked is when pieces come and how long they are."""

import types

import numpy as np
import pytest
import torch

from app.engine.decode.vocoder_stream import (DEFAULT_FIRST_PIECE, DEFAULT_LOOKAHEAD, DEFAULT_MIN_PIECE,
                                             SAMPLES_PER_TOKEN, StreamingVocoder, decode_whole)


class _Decoder(torch.nn.Module):
    def forward(self, x):                        # (1, H, n) -> (1, 1, 2n): 2 frames per token
        return x[:, :1, :].repeat_interleave(2, dim=2)


class _Vocos:
    def decode(self, mel):                       # (1, 1, F) -> (1, (F - 1) * 256)
        return mel[:, 0, :-1].repeat_interleave(256, dim=1)


CHAT = types.SimpleNamespace(decoder=_Decoder(), vocos=_Vocos())
HIDDENS = torch.arange(1, 41, dtype=torch.float32)[:, None].repeat(1, 4)     # token t has value t + 1


def _stream(lookahead, min_piece, tokens=40, first_piece=None):
    vocoder = StreamingVocoder(CHAT, lookahead=lookahead, context=0, min_piece=min_piece,
                               first_piece=min_piece if first_piece is None else first_piece)
    pieces = []
    for n in range(1, tokens + 1):
        piece = vocoder.push(HIDDENS[:n])
        if len(piece):
            pieces.append((n, piece))
    last = vocoder.push(HIDDENS[:tokens], final=True)
    return pieces, last


def test_the_stand_in_decodes_each_token_to_512_samples():
    whole = decode_whole(CHAT, HIDDENS[:3])
    assert len(whole) == 3 * SAMPLES_PER_TOKEN - 256
    assert whole[0] == 1 and whole[511] == 1 and whole[512] == 2 and whole[-1] == 3


@pytest.mark.parametrize("lookahead, min_piece", [(3, 4), (1, 1), (12, 12), (5, 7)])
def test_pieces_come_once_min_piece_tokens_are_heard_and_add_up_to_the_whole(lookahead, min_piece):
    pieces, last = _stream(lookahead, min_piece)
    streamed = np.concatenate([p for _, p in pieces] + [last])
    np.testing.assert_allclose(streamed, decode_whole(CHAT, HIDDENS), atol=1e-6)
    # The first piece: as soon as min_piece tokens are beyond the lookahead, not before.
    assert pieces[0][0] == lookahead + min_piece
    for (n, piece) in pieces:
        assert len(piece) % SAMPLES_PER_TOKEN == 0
        assert len(piece) >= min_piece * SAMPLES_PER_TOKEN
    emitted = sum(len(p) for _, p in pieces)
    assert emitted == (pieces[-1][0] - lookahead) * SAMPLES_PER_TOKEN      # nothing held back is sent


@pytest.mark.parametrize("lookahead, first_piece, min_piece", [(12, 4, 12), (3, 1, 6), (5, 2, 7)])
def test_the_first_piece_comes_sooner_and_later_pieces_keep_their_size(lookahead, first_piece, min_piece):
    pieces, last = _stream(lookahead, min_piece, first_piece=first_piece)
    streamed = np.concatenate([p for _, p in pieces] + [last])
    np.testing.assert_allclose(streamed, decode_whole(CHAT, HIDDENS), atol=1e-6)
    assert pieces[0][0] == lookahead + first_piece
    assert len(pieces[0][1]) == first_piece * SAMPLES_PER_TOKEN
    # The second piece waits for min_piece more tokens, counted from the end of the first.
    assert pieces[1][0] == lookahead + first_piece + min_piece
    assert all(len(p) >= min_piece * SAMPLES_PER_TOKEN for _, p in pieces[1:])


def test_the_shipped_first_piece_is_shorter_than_the_others():
    vocoder = StreamingVocoder(CHAT, context=0)
    sizes = [len(vocoder.push(HIDDENS[:n])) for n in range(1, 41)]
    first = next(n for n, size in enumerate(sizes, 1) if size)
    assert first == DEFAULT_LOOKAHEAD + DEFAULT_FIRST_PIECE < DEFAULT_LOOKAHEAD + DEFAULT_MIN_PIECE


def test_a_lookahead_of_0_still_holds_back_the_newest_token():
    pieces, _ = _stream(0, 2)
    assert pieces[0][0] == 3 and len(pieces[0][1]) == 2 * SAMPLES_PER_TOKEN


def test_the_final_push_sends_the_rest_and_then_nothing():
    vocoder = StreamingVocoder(CHAT, lookahead=3, context=0, min_piece=4)
    first = vocoder.push(HIDDENS[:10])
    rest = vocoder.push(HIDDENS[:10], final=True)
    assert len(first) + len(rest) == 10 * SAMPLES_PER_TOKEN - 256
    assert len(vocoder.push(HIDDENS[:10], final=True)) == 0
    assert len(StreamingVocoder(CHAT, context=0).push(HIDDENS[:0], final=True)) == 0
