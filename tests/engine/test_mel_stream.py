"""The mel decoder streamed layer by layer (decode/mel_stream.py): the same audio as decoding a
window with the whole receptive field of context for every piece, for a fraction of the work."""

import numpy as np
import pytest
import torch

from app.decode.mel_stream import MelStream, _Layer
from app.decode.vocoder_stream import StreamingVocoder, decode_whole, receptive_tokens


@pytest.fixture(scope="module")
def hiddens(chat):
    torch.manual_seed(1)
    return torch.randn(130, chat.config.gpt.hidden_size)


def _stream(vocoder, hiddens, counts):
    return np.concatenate(
        [vocoder.push(hiddens[:n]) for n in counts] + [vocoder.push(hiddens, final=True)]
    )


def _windowed(chat, **kwargs):
    vocoder = StreamingVocoder(chat, **kwargs)
    vocoder._mel = None  # every piece decodes its whole window, as before
    return vocoder


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        dict(lookahead=3, first_lookahead=2, min_piece=5, max_piece=9),
        dict(first_piece=1, min_piece=2, max_piece=2),
    ],
)
def test_layered_pieces_equal_the_windowed_pieces(chat, hiddens, kwargs):
    counts = list(range(3, 130, 3))
    layered = StreamingVocoder(chat, **kwargs)
    assert layered._mel is not None
    got = _stream(layered, hiddens, counts)
    want = _stream(_windowed(chat, **kwargs), hiddens, counts)
    assert got.shape == want.shape == decode_whole(chat, hiddens).shape
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_with_a_full_lookahead_the_layered_stream_equals_the_whole_decode(chat, hiddens):
    rf = receptive_tokens(chat)
    got = _stream(
        StreamingVocoder(chat, lookahead=rf, first_lookahead=rf), hiddens, range(4, 130, 4)
    )
    np.testing.assert_allclose(got, decode_whole(chat, hiddens), atol=1e-5)


def test_each_layer_decodes_only_the_new_frames_and_its_provisional_band(chat, hiddens):
    vocoder = StreamingVocoder(chat)
    stream = vocoder._mel
    computed = []

    def counting(layer):
        def run(x, left):
            y = layer.run(x, left)
            computed[-1].append(y.shape[2])
            return y

        return _Layer(layer.reach, run)

    stream._layers = [counting(layer) for layer in stream._layers]
    ends = []
    for n in range(4, 130, 4):
        before = stream.end
        computed.append([])
        vocoder.push(hiddens[:n])
        if stream.end == before:
            computed.pop()
        else:
            ends.append((before, stream.end))
    assert len(ends) >= 4
    bands = list(np.cumsum([layer.reach for layer in stream._layers]))
    # From the third piece on every layer is past its start: it computes the frames read since
    # the last piece and the band it left provisional then, never the window's context again.
    for (before, end), lengths in list(zip(ends, computed))[2:]:
        assert lengths == [end - before + band for band in bands]
        window = 2 * (vocoder.context + (end - before) // 2 + vocoder.lookahead)
        assert max(lengths) < window


def test_pieces_out_of_order_are_refused(chat, hiddens):
    stream = MelStream(chat.decoder)
    stream.advance(hiddens[:20], 0, 40, False, 0, 10)
    with pytest.raises(ValueError):
        stream.advance(hiddens[:20], 0, 30, False, 10, 10)


def _light_decoder():
    from app.model.dims import CoderDims
    from app.model.runtime.nets import MelDecoder

    torch.manual_seed(2)
    decoder = MelDecoder(CoderDims(idim=8, odim=8, hidden=16, n_layer=3, bn_dim=8), mel_bins=5)
    with torch.no_grad():
        for p in decoder.parameters():
            p.normal_(0, 0.5)  # layer scales of 1: the blocks' convolutions matter
        decoder.coef.normal_()
    return decoder


@pytest.mark.parametrize("which", ["chattts", "light"])
def test_settled_frames_and_the_final_piece_equal_the_whole_decode(reference, which):
    """Both mel decoders a program may run (ChatTTS's DVAE with --decode upstream, or
    runtime/nets.py's) stream: once the sentence ends, what the last piece gives equals the
    whole decode."""
    from app.decode.mel_stream import streamable

    decoder = reference.decoder if which == "chattts" else _light_decoder()
    assert streamable(decoder)
    width = decoder.decoder.conv_in[0].in_channels * 2
    torch.manual_seed(3)
    hiddens = torch.randn(60, width)
    with torch.inference_mode():
        whole = decoder(hiddens.t()[None].contiguous())
    stream = MelStream(decoder)
    mel_from = 0
    for tokens in (5, 13, 21, 33, 45):
        stream.advance(hiddens, 0, 2 * tokens, False, mel_from, 2 * (tokens - 4))
        mel_from = 2 * (tokens - 4)
    last = stream.advance(hiddens, 0, 120, True, mel_from, mel_from)
    # rtol: the light decoder's values reach ~100, where a convolution's sums in another order
    # (the kernel each CPU picks) differ by a few float32 steps (seen: 3e-7 relative on AVX2).
    np.testing.assert_allclose(last.numpy(), whole[:, :, mel_from:].numpy(), rtol=2e-6, atol=1e-5)


def test_an_unknown_decoder_is_decoded_in_windows():
    from app.decode.mel_stream import streamable

    assert not streamable(torch.nn.Conv1d(4, 4, 3))
    assert not streamable(None)
