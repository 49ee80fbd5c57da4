"""ChatTTS's mel decoder run a piece at a time, each layer keeping the frames it has settled.

Decoding each streamed piece as a window of hidden states with the whole receptive field (52 tokens
on the full model) of context on its left, again for every piece, would decode six tokens per token
sent for 12-token pieces. The decoder (ChatTTS's DVAE, or runtime/nets.py's copy of it: two
convolutions, ConvNeXt blocks, two more) is two thirds of the vocoder's time, and each of its layers
is a convolution of some reach `r` followed by work on single frames. So a layer's output frame is
final once the layer's input is known `r` frames past it; until then it is provisional, computed as
the window did, with zeros past the last frame read.

Each call reads the hidden states up to the piece's window end (the token grid fixes it, so
the audio does not depend on when a piece is asked for), and each layer computes only its
frames from where it had settled to that end: the new frames and the provisional band of its
depth (the reaches of the layers up to it). Settled frames and the few input frames a layer
needs on its left are kept; nothing else is decoded again. The result is what the window
gave, to float rounding: the same convolutions, the same zeros past the end, and the true
frames instead of a window's zeros at the far left (which the window's context kept out of
what it sent anyway). Vocos (the rest of the vocoder) still decodes a window, with only its
own receptive field as context (vocoder_stream.py). This cuts a streamed sentence's vocoder
time by about a fifth, not more: the decoder's weights are read once per call whatever its
length (bench/vocoder_stream_cost.py; figures: docs/design/constants.md#streamed-mel-decoder).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import NamedTuple

import torch
import torch.nn.functional as F


def reach(conv: torch.nn.Conv1d) -> int:
    """Frames either side of an output frame that a convolution reads."""
    return conv.dilation[0] * (conv.kernel_size[0] - 1) // 2


def _conv(conv: torch.nn.Conv1d, x: torch.Tensor, left: int) -> torch.Tensor:
    """`conv` over `x` with `left` zeros before it and the conv's reach of zeros after it."""
    return F.conv1d(
        F.pad(x, (left, reach(conv))), conv.weight, conv.bias, 1, 0, conv.dilation, conv.groups
    )


class _Layer(NamedTuple):
    reach: int
    run: Callable[[torch.Tensor, int], torch.Tensor]  # (input frames, zeros on the left) -> output


def streamable(decoder) -> bool:
    """Whether `decoder` is ChatTTS's mel decoder as we know it: its DVAE without a quantizer
    (loaded by ChatTTS) or runtime/nets.py's MelDecoder (ours). Anything else is
    decoded a window at a time."""
    try:
        first, act, second = decoder.decoder.conv_in
        convs = [first, second, decoder.decoder.conv_out, decoder.out_conv]
        convs += [block.dwconv for block in decoder.decoder.decoder_block]
    except (AttributeError, TypeError, ValueError):
        return False
    return (
        getattr(decoder, "vq_layer", None) is None
        and isinstance(act, torch.nn.GELU)
        and all(
            isinstance(c, torch.nn.Conv1d) and c.stride == (1,) and c.padding == (reach(c),)
            for c in convs
        )
        and reach(decoder.decoder.conv_out) == 0
        and isinstance(getattr(decoder, "coef", None), torch.Tensor)
    )


def layers_of(decoder) -> list[_Layer]:
    """The decoder as convolutions, each with the frame-by-frame work after it."""
    net = decoder.decoder
    first, act, second = net.conv_in
    last, mel, coef = net.conv_out, decoder.out_conv, decoder.coef
    return (
        [
            _Layer(reach(first), lambda x, left: _conv(first, x, left)),
            _Layer(reach(second), lambda x, left: _conv(second, act(x), left)),
        ]
        + [
            _Layer(reach(block.dwconv), functools.partial(_block, block))
            for block in net.decoder_block
        ]
        + [_Layer(reach(mel), lambda x, left: _conv(mel, last(x), left) * coef)]
    )


def _block(block, x: torch.Tensor, left: int) -> torch.Tensor:
    """A ConvNeXt block (either decoder's) over the frames its convolution yields."""
    y = _conv(block.dwconv, x, left).transpose(1, 2)
    y = block.pwconv2(block.act(block.pwconv1(block.norm(y))))
    if block.weight is not None:  # ChatTTS's blocks may have no layer scale
        y = y * block.weight
    # The residual: the input frames the output frames stand on.
    return y.transpose(1, 2) + x[:, :, reach(block.dwconv) - left :]


class MelCall(NamedTuple):
    """What one `MelStream.advance` reads beside its hidden states (see there)."""

    first_token: int
    end: int
    final: bool
    mel_from: int
    keep_from: int


class MelStream:
    """One sentence's mel frames, decoded a piece at a time (pieces in order, ends growing)."""

    def __init__(self, decoder):
        self._decoder = decoder
        self._layers = layers_of(decoder)
        # Each layer's provisional band: the reaches of the layers up to it.
        self._depth = list(itertools.accumulate(layer.reach for layer in self._layers))
        self._settled = [0] * len(self._layers)  # output frames final, per layer
        self._kept: list[torch.Tensor | None] = [None] * len(self._layers)  # settled inputs kept
        self._mel: torch.Tensor | None = None  # settled mel frames kept ...
        self._mel_from = 0  # ... from this frame on
        self.end = 0  # frames read so far

    def shape_key(self, call: MelCall, tokens: int) -> tuple:
        """Streams with equal keys, each given `tokens` hidden states for the same `call`, keep
        and read frames of the same spans: `advance_together` decodes them in one batch."""
        kept = tuple(None if k is None else k.shape[2] for k in self._kept)
        mel = None if self._mel is None else self._mel.shape[2]
        state = (tuple(self._settled), kept, mel, self._mel_from, self.end)
        return (id(self._decoder), state, call, tokens)

    def advance(
        self,
        hiddens: torch.Tensor,
        first_token: int,
        end: int,
        final: bool,
        mel_from: int,
        keep_from: int,
    ) -> torch.Tensor:
        """(1, mels, end - mel_from) mel frames: the hidden states up to frame `end` decoded
        (zeros past it; `final`: it is the sentence's end). `hiddens` (n, H) start at token
        `first_token`; `keep_from`: the first frame a later call's `mel_from` may ask for."""
        call = MelCall(first_token, end, final, mel_from, keep_from)
        return advance_together([self], [hiddens], call)


@torch.inference_mode()
def advance_together(
    streams: list[MelStream], hiddens: list[torch.Tensor], call: MelCall
) -> torch.Tensor:
    """`MelStream.advance` of several streams of one `shape_key` in one batch: (B, mels,
    frames), row b that of streams[b]. Each row's frames are its own (the convolutions and the
    work on single frames do not mix rows), to float rounding (test_streaming_and_memory.py)."""
    lead = streams[0]
    first_token, end, final, mel_from, keep_from = call
    if end < lead.end or mel_from < lead._mel_from or keep_from < lead._mel_from:
        raise ValueError("pieces must come in order")
    key = lead.shape_key(call, hiddens[0].shape[0])
    if any(s.shape_key(call, h.shape[0]) != key for s, h in zip(streams, hiddens)):
        raise ValueError("streams decoded together must read the same spans")
    x: torch.Tensor | None = None
    settled_before = 0  # the previous layer's new settled frames
    for i, layer in enumerate(lead._layers):
        start = lead._settled[i]
        begin = max(0, start - layer.reach)  # first input frame read
        if i == 0:
            x = torch.cat([_frames(h, first_token, begin, end) for h in hiddens])
        else:
            assert x is not None  # the layer before made it
            kept = [s._kept[i] for s in streams]
            if kept[0] is not None:
                x = torch.cat([torch.cat(kept), x], dim=2)  # type: ignore[arg-type]
        # x: input frames [begin, end) -> y: output frames [start, end)
        y = layer.run(x, layer.reach - (start - begin))
        settled = end if final else max(start, end - lead._depth[i])
        if i:
            # What this layer reads on its left next time: settled input frames.
            kept_from = max(0, settled - layer.reach)
            band = x[:, :, kept_from - begin : settled_before - begin]
            for row, stream in enumerate(streams):
                stream._kept[i] = band[row : row + 1].clone()
        for stream in streams:
            stream._settled[i] = settled
        settled_before = settled
        x = y
    if x is None:
        raise ValueError("the decoder has no layers")
    mel_start = lead._mel_from
    if lead._mel is not None:  # [mel_start, end)
        x = torch.cat([torch.cat([s._mel for s in streams]), x], dim=2)  # type: ignore[misc]
    keep = min(keep_from, settled_before)
    for row, stream in enumerate(streams):
        stream._mel = x[row : row + 1, :, keep - mel_start : settled_before - mel_start].clone()
        stream._mel_from = keep
        stream.end = end
    return x[:, :, mel_from - mel_start :]


def _frames(hiddens: torch.Tensor, first_token: int, begin: int, end: int) -> torch.Tensor:
    """(1, H/2, end - begin) decoder input frames: each hidden state's halves are 2 frames."""
    t0, t1 = begin // 2, (end + 1) // 2
    if t0 < first_token:
        raise ValueError("the hidden states given start after the first frame needed")
    part = hiddens[t0 - first_token : t1 - first_token].float()
    n, h = part.shape
    frames = part.reshape(n, 2, h // 2).permute(2, 0, 1).reshape(1, h // 2, 2 * n)
    return frames[:, :, begin - 2 * t0 : end - 2 * t0]
