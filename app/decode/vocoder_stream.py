"""GPT hidden states -> audio, a piece at a time, joined without clicks or lost samples.

ChatTTS turns a sentence's hidden states into mel frames (its decoder, 2 frames per token)
and the frames into samples (Vocos, 256 samples per frame). Both are stacks of convolutions,
so a sample depends only on the tokens within their receptive field (`receptive_tokens`).
Each piece decodes a window with `context` tokens already played on its left and `lookahead`
tokens it does not send on its right, which it cannot yet hear the future of; the next piece
redoes those and cross-fades into them. With context and lookahead at least the receptive
field, the stream equals the whole decode sample for sample; smaller lookaheads trade a tiny
difference at the joins (cross-faded) for earlier sound.

Pieces lie on a fixed grid of tokens (the first `first_piece` tokens, then `min_piece` at a
time) and each is decoded from a window fixed by the grid, however late it is asked for. So a
sentence's audio is a function of its tokens alone: the same whether it streamed alone, in a
batch, joined one mid-way, or was looked at every token or every few. A sentence that sent
nothing before it ended (a later sentence of a paragraph, an export, a farm or server request
without streaming) is decoded whole in one call instead, which its grid pieces equal within
float rounding at the shipped lookahead (tests/engine/test_streaming_and_memory.py;
docs/design/constants.md#default_lookahead) at a quarter of the work.

The mel decoder (two thirds of the work) does not decode a piece's window again: it streams
layer by layer, each layer keeping the frames it has settled (mel_stream.py), to the same end
the window would read, so a piece is what its window gave, to float rounding. Vocos then
decodes the window's mel frames from its own receptive field (`vocos_tokens`) before what
was sent. The decoder's state follows the grid, so this too does not depend on when a piece
is asked for. Sentences at the same place of their grids share one mel decoder batch, and
windows of Vocos of the same length one call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from app.audio import (
    DEFAULT_FIRST_LOOKAHEAD,
    DEFAULT_FIRST_PIECE,
    DEFAULT_LOOKAHEAD,
    DEFAULT_MAX_PIECE,
    DEFAULT_MIN_PIECE,
    SAMPLES_PER_TOKEN,
    piece_size,
)
from app.decode.mel_stream import MelCall, MelStream, advance_together, reach, streamable

HALF_FRAME = 256
CROSSFADE = 256  # samples


def _conv_frames(module) -> int:
    return sum(reach(m) for m in module.modules() if isinstance(m, torch.nn.Conv1d))


def _vocos_frames(parts) -> int:
    head = parts.vocos.head
    return _conv_frames(parts.vocos.backbone) + math.ceil(
        head.istft.win_length / head.istft.hop_length / 2
    )


def receptive_tokens(parts) -> int:
    """Tokens either side of a token that can change its samples (decoder + Vocos + ISTFT)."""
    return math.ceil((_conv_frames(parts.decoder) + _vocos_frames(parts)) / 2)


def vocos_tokens(parts) -> int:
    """The same for Vocos and its ISTFT alone: the context a window of mel frames needs."""
    return math.ceil(_vocos_frames(parts) / 2)


@torch.inference_mode()
def decode_whole(parts, hiddens: torch.Tensor) -> np.ndarray:
    """(n, H) hidden states of one sentence -> float32 samples (n * 512 - 256 of them: ChatTTS's
    Vocos runs a centred ISTFT, which yields (frames - 1) * hop samples)."""
    if hiddens.shape[0] == 0:
        return np.zeros(0, dtype=np.float32)
    mel = parts.decoder(hiddens.t().unsqueeze(0).float().contiguous())
    return parts.vocos.decode(mel)[0].float().cpu().numpy()


class StreamingVocoder:
    def __init__(
        self,
        parts,
        lookahead: int = DEFAULT_LOOKAHEAD,
        context: int | None = None,
        min_piece: int = DEFAULT_MIN_PIECE,
        crossfade: int = CROSSFADE,
        first_piece: int = DEFAULT_FIRST_PIECE,
        first_lookahead: int = DEFAULT_FIRST_LOOKAHEAD,
        max_piece: int = DEFAULT_MAX_PIECE,
    ):
        self.parts = parts
        self.context = receptive_tokens(parts) if context is None else context
        # The newest half frame has no samples yet, so at least one token is always held back.
        self.lookahead = max(1, lookahead)
        self.first_lookahead = max(1, first_lookahead)
        self.min_piece = max(1, min_piece)
        self.max_piece = max(self.min_piece, max_piece)
        self.first_piece = max(1, first_piece)
        self.crossfade = crossfade
        self.emitted = 0  # samples; on the grid until the final piece
        self._tail: np.ndarray | None = (
            None  # last decode of the samples just after what was emitted
        )
        # Our mel decoder runs layer by layer, keeping settled frames (mel_stream.py); then only
        # Vocos decodes a window, with its own receptive field as context.
        self._mel = (
            MelStream(parts.decoder)
            if streamable(parts.decoder if parts is not None else None)
            else None
        )
        self._vocos_context = min(self.context, vocos_tokens(parts)) if self._mel is not None else 0

    def _next_cell(self) -> tuple[int, int]:
        """The next piece's end on the grid (tokens) and the tokens its window reads beyond it."""
        if self.emitted == 0:
            return self.first_piece, self.first_lookahead
        sent = self.emitted // SAMPLES_PER_TOKEN
        return sent + piece_size(
            sent, self.first_piece, self.min_piece, self.max_piece
        ), self.lookahead

    def plan(self, hiddens: torch.Tensor, final: bool = False) -> Window | None:
        """What `push` decodes next: the next grid piece once its window is all there, else
        (`final`) the rest of the sentence; None when no piece is ready."""
        n = hiddens.shape[0]
        target = max(0, n * SAMPLES_PER_TOKEN - HALF_FRAME)
        if final and self.emitted == 0:
            # Nothing sent yet (a sentence that did not stream): one whole decode, not its grid
            # pieces, each of which decodes its context again (4x the work for 96 tokens).
            return Window(hiddens, 0, target, True, whole=True) if target else None
        start = max(0, self.emitted // SAMPLES_PER_TOKEN - self.context)
        cut, reads = self._next_cell()
        if cut + reads <= n:
            return Window(hiddens[start : cut + reads], start, cut * SAMPLES_PER_TOKEN, False)
        if not final or target <= self.emitted:
            return None
        return Window(hiddens[start:n], start, target, True)

    def layered(self, window: Window) -> bool:
        """Whether this window's mel comes from the layer-by-layer decoder (`mel`)."""
        return self._mel is not None and not window.whole

    def mel_call(self, window: Window) -> tuple[MelCall, Window]:
        """What this sentence's mel stream is asked for `window` (its mel frames for Vocos, from
        where Vocos's context starts), and the window as Vocos decodes it (starting there):
        sentences whose streams have the same `shape_key` for it share one batch (`push_all`)."""
        start = max(0, self.emitted // SAMPLES_PER_TOKEN - self._vocos_context)
        later = max(start, window.target // SAMPLES_PER_TOKEN - self._vocos_context)
        end = window.start + window.hiddens.shape[0]
        call = MelCall(window.start, 2 * end, window.final, 2 * start, 2 * later)
        return call, Window(window.hiddens, start, window.target, window.final)

    @property
    def mel_stream(self) -> MelStream:
        if self._mel is None:  # asked only where `layered` said yes
            raise ValueError("this vocoder decodes whole sentences")
        return self._mel

    def finish(self, window: Window, wav: np.ndarray) -> np.ndarray:
        """The piece of a planned window, given that window's samples."""
        # Window sample i is global sample start * 512 + i: frames are centred on multiples of the hop.
        begin = self.emitted - window.start * SAMPLES_PER_TOKEN
        end = window.target - window.start * SAMPLES_PER_TOKEN
        piece = wav[begin:end].copy()
        if self._tail is not None:
            fade = min(len(self._tail), len(piece))
            ramp = np.linspace(0.0, 1.0, fade + 2, dtype=np.float32)[1:-1]
            piece[:fade] = self._tail[:fade] * (1 - ramp) + piece[:fade] * ramp
        self._tail = None if window.final else wav[end : end + self.crossfade].copy()
        self.emitted = window.target
        return piece

    def push(self, hiddens: torch.Tensor, final: bool = False) -> np.ndarray:
        """All hidden states so far, (n, H); returns the samples that became ready."""
        return push_all(self.parts, [(self, hiddens, final)])[0]


@dataclass(frozen=True)
class Window:
    hiddens: torch.Tensor  # (n, H): the tokens to decode, context included
    start: int  # the window's first token in the sentence
    target: int  # samples of the sentence sent once this piece is
    final: bool
    whole: bool = False  # the whole sentence in one call (it sent nothing before it ended)


@torch.inference_mode()
def vocos_batch(parts, mels: list[torch.Tensor]) -> np.ndarray:
    """Equal-length (1, mels, F) mel frames -> (B, (F - 1) * 256) samples in one Vocos call."""
    return parts.vocos.decode(torch.cat(mels)).float().cpu().numpy()


@torch.inference_mode()
def decode_batch(parts, windows: list[torch.Tensor]) -> np.ndarray:
    """Equal-length (n, H) windows -> (B, n * 512 - 256) samples in one decoder and Vocos call."""
    mel = parts.decoder(torch.stack([w.t() for w in windows]).float().contiguous())
    return parts.vocos.decode(mel).float().cpu().numpy()


def push_all(parts, asks: list[tuple[StreamingVocoder, torch.Tensor, bool]]) -> list[np.ndarray]:
    """`push` for several sentences at once: every piece that is ready, in order (a sentence
    looked at late has several); windows of the same length share one decoder (whole
    sentences) or Vocos (streamed pieces) call, and streamed pieces whose mel streams read the
    same spans one mel decoder batch, which on a CPU costs less than one call each
    (bench/vocoder_batch.py)."""
    pieces: list[list[np.ndarray]] = [[] for _ in asks]
    waiting = list(range(len(asks)))
    while waiting:
        planned = {i: asks[i][0].plan(asks[i][1], asks[i][2]) for i in waiting}
        plans = {i: window for i, window in planned.items() if window is not None}
        waiting = list(plans)
        groups: dict[tuple, list[int]] = {}
        mels = {}
        streams: dict[tuple, list[int]] = {}  # layered windows by their mel streams' shape key
        calls = {}
        for i in waiting:
            vocoder = asks[i][0]
            if vocoder.layered(plans[i]):
                window = plans[i]
                calls[i], plans[i] = vocoder.mel_call(window)
                key = vocoder.mel_stream.shape_key(calls[i], window.hiddens.shape[0])
                streams.setdefault(key, []).append(i)
            else:
                groups.setdefault(("hiddens", plans[i].hiddens.shape[0]), []).append(i)
        for rows in streams.values():
            # Most of a streamed piece's cost: sentences at the same place share one batch.
            together = advance_together(
                [asks[i][0].mel_stream for i in rows],
                [plans[i].hiddens for i in rows],  # the window's hiddens: `mel_call` keeps them
                calls[rows[0]],
            )
            for row, i in enumerate(rows):
                mels[i] = together[row : row + 1]
                groups.setdefault(("mel", together.shape[2]), []).append(i)
        for (kind, _), rows in groups.items():
            if kind == "mel":
                wavs = vocos_batch(parts, [mels[i] for i in rows])
            else:
                wavs = decode_batch(parts, [plans[i].hiddens for i in rows])
            for i, wav in zip(rows, wavs):
                pieces[i].append(asks[i][0].finish(plans[i], wav))
    return [np.concatenate(p) if p else np.zeros(0, dtype=np.float32) for p in pieces]
