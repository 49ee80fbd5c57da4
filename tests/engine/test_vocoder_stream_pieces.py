"""How the streaming vocoder cuts a growing sentence into pieces, on a stand-in vocoder whose
every sample depends on its own token only (no receptive field: sample s is token s // 512's
value, ChatTTS's 2 mel frames per token and 256 samples per frame, and a centred ISTFT's
(frames - 1) * 256 samples). So the stream must equal the whole decode exactly, whatever the
pieces; what is checked is when pieces come and how long they are."""

import types

import numpy as np
import pytest
import torch

from app.audio.piece_grid import (
    DEFAULT_FIRST_LOOKAHEAD,
    DEFAULT_FIRST_PIECE,
    DEFAULT_LOOKAHEAD,
    DEFAULT_MAX_PIECE,
    DEFAULT_MIN_PIECE,
    SAMPLES_PER_TOKEN,
)
from app.decode.vocoder_stream import StreamingVocoder, decode_whole


class _Decoder(torch.nn.Module):
    def forward(self, x):  # (1, H, n) -> (1, 1, 2n): 2 frames per token
        return x[:, :1, :].repeat_interleave(2, dim=2)


class _Vocos:
    def decode(self, mel):  # (1, 1, F) -> (1, (F - 1) * 256)
        return mel[:, 0, :-1].repeat_interleave(256, dim=1)


CHAT = types.SimpleNamespace(decoder=_Decoder(), vocos=_Vocos())
HIDDENS = torch.arange(1, 41, dtype=torch.float32)[:, None].repeat(1, 4)  # token t has value t + 1


def _stream(lookahead, min_piece, tokens=40, first_piece=None, first_lookahead=None):
    vocoder = StreamingVocoder(
        CHAT,
        lookahead=lookahead,
        context=0,
        min_piece=min_piece,
        max_piece=min_piece,
        first_piece=min_piece if first_piece is None else first_piece,
        first_lookahead=lookahead if first_lookahead is None else first_lookahead,
    )
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
    for _n, piece in pieces:
        assert len(piece) % SAMPLES_PER_TOKEN == 0
        assert len(piece) >= min_piece * SAMPLES_PER_TOKEN
    emitted = sum(len(p) for _, p in pieces)
    assert emitted == (pieces[-1][0] - lookahead) * SAMPLES_PER_TOKEN  # nothing held back is sent


@pytest.mark.parametrize("lookahead, first_piece, min_piece", [(12, 4, 12), (3, 1, 6), (5, 2, 7)])
def test_the_first_piece_comes_sooner_and_later_pieces_keep_their_size(
    lookahead, first_piece, min_piece
):
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
    assert (
        first
        == DEFAULT_FIRST_LOOKAHEAD + DEFAULT_FIRST_PIECE
        < DEFAULT_LOOKAHEAD + DEFAULT_MIN_PIECE
    )
    assert sizes[first - 1] == DEFAULT_FIRST_PIECE * SAMPLES_PER_TOKEN


@pytest.mark.parametrize("first_lookahead", [1, 3, 7])
def test_the_first_piece_looks_ahead_its_own_distance_and_the_rest_keep_the_grid(first_lookahead):
    pieces, last = _stream(5, 6, first_piece=2, first_lookahead=first_lookahead)
    np.testing.assert_allclose(
        np.concatenate([p for _, p in pieces] + [last]), decode_whole(CHAT, HIDDENS), atol=1e-6
    )
    assert pieces[0][0] == 2 + first_lookahead and len(pieces[0][1]) == 2 * SAMPLES_PER_TOKEN
    # Piece k ends at token 2 + 6k and is sent once 5 tokens beyond it are there.
    assert [n for n, _ in pieces[1:]] == list(range(2 + 6 + 5, 41, 6))
    assert all(len(p) == 6 * SAMPLES_PER_TOKEN for _, p in pieces[1:])


LONG = torch.arange(1, 301, dtype=torch.float32)[:, None].repeat(1, 4)


def test_later_pieces_grow_to_a_quarter_of_what_was_sent_up_to_the_cap():
    """Each piece decodes its context again and costs a call: once four times a piece's length
    has been sent, pieces grow in steps of min_piece, up to max_piece."""
    vocoder = StreamingVocoder(
        CHAT, lookahead=3, context=5, min_piece=4, max_piece=16, first_piece=2, first_lookahead=1
    )
    cells = []
    while (window := vocoder.plan(LONG[:120])) is not None:
        cells.append(window.target // SAMPLES_PER_TOKEN)
        vocoder.finish(window, decode_whole(CHAT, window.hiddens))
    sizes = np.diff([0] + cells).tolist()
    # Sent 2 -> 4; 6 ... 30 -> 4 (a quarter of 30 is 7: one step); 34, 42 -> 8; 50, 62 -> 12;
    # 74 -> 16 (18); then the cap, until 106 + 16 + 3 needs more than 120 tokens.
    assert sizes == [2, 4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 12, 12, 16, 16]
    final = vocoder.plan(LONG[:120], final=True)
    assert final.final and final.start == cells[-1] - 5


def test_growing_pieces_still_add_up_to_the_whole_decode():
    vocoder = StreamingVocoder(CHAT, context=0)
    pieces = [vocoder.push(LONG[:n]) for n in range(4, 301, 4)] + [vocoder.push(LONG, final=True)]
    np.testing.assert_allclose(np.concatenate(pieces), decode_whole(CHAT, LONG), rtol=1e-6)
    sizes = [len(p) // SAMPLES_PER_TOKEN for p in pieces[:-1] if len(p)]
    assert max(sizes) == DEFAULT_MAX_PIECE and min(sizes[1:]) == DEFAULT_MIN_PIECE
    assert sizes == sorted(sizes)


def test_a_late_look_sends_every_grid_piece_it_missed_each_from_its_own_window():
    vocoder = StreamingVocoder(
        CHAT, lookahead=3, context=2, min_piece=4, first_piece=2, first_lookahead=1
    )
    windows = []
    while (window := vocoder.plan(HIDDENS[:20])) is not None:
        windows.append(
            (
                window.start,
                window.hiddens.shape[0],
                window.target // SAMPLES_PER_TOKEN,
                window.final,
            )
        )
        vocoder.finish(window, decode_whole(CHAT, window.hiddens))
    # Cells end at 2, 6, 10, 14 (heard: 3, 9, 13, 17); 18 needs 21 tokens. Each window: 2 tokens
    # of context, the cell, 3 beyond it: never the 20 tokens that happen to be there.
    assert windows == [(0, 3, 2, False), (0, 9, 6, False), (4, 9, 10, False), (8, 9, 14, False)]
    assert vocoder.plan(HIDDENS[:20]) is None
    final = vocoder.plan(HIDDENS[:20], final=True)
    assert (final.start, final.hiddens.shape[0], final.final) == (12, 8, True)


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


def test_a_new_piece_fades_in_over_the_last_decode_of_its_first_samples():
    """With less context than the receptive field, a piece's first samples differ from what the
    previous window decoded for them (kept as its tail): the piece starts on that tail and
    ramps linearly to its own samples over `crossfade` samples, the ramp's ends excluded."""
    vocoder = StreamingVocoder(
        CHAT, lookahead=1, context=0, min_piece=2, first_piece=2, first_lookahead=1, crossfade=4
    )
    first = vocoder.plan(torch.zeros(3, 4))
    assert (first.start, first.target) == (0, 2 * SAMPLES_PER_TOKEN)
    wav = np.arange(3 * SAMPLES_PER_TOKEN - 256, dtype=np.float32)  # sample i is i
    assert np.array_equal(vocoder.finish(first, wav), wav[:1024])
    second = vocoder.plan(torch.zeros(5, 4))
    assert (second.start, second.target) == (
        2,
        4 * SAMPLES_PER_TOKEN,
    )  # no context: starts where it left off
    piece = vocoder.finish(second, np.full(3 * SAMPLES_PER_TOKEN - 256, -1.0, dtype=np.float32))
    ramp = np.array([0.2, 0.4, 0.6, 0.8])
    tail = np.array([1024.0, 1025.0, 1026.0, 1027.0])  # the first window's samples 1024..1027
    np.testing.assert_allclose(piece[:4], tail * (1 - ramp) - ramp, rtol=1e-6)
    assert len(piece) == 1024 and (piece[4:] == -1.0).all()
    last = vocoder.plan(torch.zeros(5, 4), final=True)
    end = vocoder.finish(last, np.full(3 * SAMPLES_PER_TOKEN - 256, 5.0, dtype=np.float32))
    assert len(end) == 5 * SAMPLES_PER_TOKEN - 256 - 2048 and vocoder._tail is None


def _convs(*specs):
    """Conv1d layers from (kernel, dilation) pairs."""
    return torch.nn.Sequential(*(torch.nn.Conv1d(1, 1, k, dilation=d) for k, d in specs))


@pytest.mark.parametrize(
    "decoder, backbone, window, tokens",
    [
        # 3 + 1 frames (kernels 7 and 4: (k - 1) // 2), 1 (kernel 3), ISTFT 1280 / 256 = 5 hops -> 3:
        # 8 frames, 4 tokens.
        ([(7, 1), (4, 1)], [(3, 1)], 1280, 4),
        # 4 frames (kernel 5, dilation 2), 0 (kernel 1), 3 for the ISTFT: 7 frames, 4 tokens.
        ([(5, 2)], [(1, 1)], 1280, 4),
        # 1 + 0 frames, ISTFT 1024 / 256 = 4 hops -> 2: 3 frames, 2 tokens.
        ([(3, 1)], [(2, 1)], 1024, 2),
    ],
)
def test_the_receptive_field_counts_every_convolutions_reach_and_the_istft_window(
    decoder, backbone, window, tokens
):
    head = types.SimpleNamespace(istft=types.SimpleNamespace(win_length=window, hop_length=256))
    chat = types.SimpleNamespace(
        decoder=_convs(*decoder), vocos=types.SimpleNamespace(backbone=_convs(*backbone), head=head)
    )
    from app.decode.vocoder_stream import receptive_tokens

    assert receptive_tokens(chat) == tokens
