"""GPT hidden states -> audio, a piece at a time, joined without clicks or lost samples.

ChatTTS turns a sentence's hidden states into mel frames (its decoder, 2 frames per token)
and the frames into samples (Vocos, 256 samples per frame). Both are stacks of convolutions,
so a sample depends only on the tokens within their receptive field (`receptive_tokens`).
Each piece decodes a window with `context` tokens already played on its left and holds back
the last `lookahead` tokens it has, which it cannot yet hear the future of; the next piece
redoes those and cross-fades into them. With context and lookahead at least the receptive
field, the stream equals the whole decode sample for sample; smaller lookaheads trade a tiny
difference at the joins (cross-faded) for earlier sound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np
import torch

SAMPLES_PER_TOKEN = 512      # 2 mel frames per token, hop 256
HALF_FRAME = 256
DEFAULT_LOOKAHEAD = 12       # tokens held back (0.26 s of audio); see bench/decode.py
DEFAULT_MIN_PIECE = 12       # tokens per piece at least, so pieces are not mostly context
# The first piece may be shorter: it has no context to redo, and every token it waits for is
# latency before the first sound (8 tokens fewer is 8 decode steps sooner).
DEFAULT_FIRST_PIECE = 4
CROSSFADE = 256              # samples


def receptive_tokens(chat) -> int:
    """Tokens either side of a token that can change its samples (decoder + Vocos + ISTFT)."""
    frames = 0
    for module in (chat.decoder, chat.vocos.backbone):
        for m in module.modules():
            if isinstance(m, torch.nn.Conv1d):
                frames += m.dilation[0] * (m.kernel_size[0] - 1) // 2
    head = chat.vocos.head
    frames += math.ceil(head.istft.win_length / head.istft.hop_length / 2)
    return math.ceil(frames / 2)


@torch.inference_mode()
def decode_whole(chat, hiddens: torch.Tensor) -> np.ndarray:
    """(n, H) hidden states of one sentence -> float32 samples (n * 512 - 256 of them: ChatTTS's
    Vocos runs a centred ISTFT, which yields (frames - 1) * hop samples)."""
    if hiddens.shape[0] == 0:
        return np.zeros(0, dtype=np.float32)
    mel = chat.decoder(hiddens.t().unsqueeze(0).float().contiguous())
    return chat.vocos.decode(mel)[0].float().cpu().numpy()


class StreamingVocoder:
    def __init__(self, chat, lookahead: int = DEFAULT_LOOKAHEAD, context: int | None = None,
                 min_piece: int = DEFAULT_MIN_PIECE, crossfade: int = CROSSFADE,
                 first_piece: int = DEFAULT_FIRST_PIECE):
        self.chat = chat
        self.context = receptive_tokens(chat) if context is None else context
        self.lookahead = max(1, lookahead)   # the newest half frame has no samples yet
        self.min_piece = min_piece
        self.first_piece = first_piece
        self.crossfade = crossfade
        self.emitted = 0                       # samples
        self._tail: np.ndarray | None = None   # last decode of the samples just after what was emitted

    def plan(self, hiddens: torch.Tensor, final: bool = False) -> Optional["Window"]:
        """What `push` would decode now: None when no piece is ready."""
        n = hiddens.shape[0]
        target = max(0, n * SAMPLES_PER_TOKEN - HALF_FRAME) if final else (n - self.lookahead) * SAMPLES_PER_TOKEN
        least = self.min_piece if self.emitted else self.first_piece
        if target <= self.emitted or (not final and target - self.emitted < least * SAMPLES_PER_TOKEN):
            return None
        start = max(0, self.emitted // SAMPLES_PER_TOKEN - self.context)
        return Window(hiddens[start:n], start, target, final)

    def finish(self, window: "Window", wav: np.ndarray) -> np.ndarray:
        """The piece of a planned window, given that window's samples."""
        # Window sample i is global sample start * 512 + i: frames are centred on multiples of the hop.
        begin = self.emitted - window.start * SAMPLES_PER_TOKEN
        end = window.target - window.start * SAMPLES_PER_TOKEN
        piece = wav[begin:end].copy()
        if self._tail is not None:
            fade = min(len(self._tail), len(piece))
            ramp = np.linspace(0.0, 1.0, fade + 2, dtype=np.float32)[1:-1]
            piece[:fade] = self._tail[:fade] * (1 - ramp) + piece[:fade] * ramp
        self._tail = None if window.final else wav[end:end + self.crossfade].copy()
        self.emitted = window.target
        return piece

    def push(self, hiddens: torch.Tensor, final: bool = False) -> np.ndarray:
        """All hidden states so far, (n, H); returns the samples that became ready."""
        return push_all(self.chat, [(self, hiddens, final)])[0]


@dataclass(frozen=True)
class Window:
    hiddens: torch.Tensor       # (n, H): the tokens to decode, context included
    start: int                  # the window's first token in the sentence
    target: int                 # samples of the sentence sent once this piece is
    final: bool


@torch.inference_mode()
def decode_batch(chat, windows: list[torch.Tensor]) -> np.ndarray:
    """Equal-length (n, H) windows -> (B, n * 512 - 256) samples in one decoder and Vocos call."""
    mel = chat.decoder(torch.stack([w.t() for w in windows]).float().contiguous())
    return chat.vocos.decode(mel).float().cpu().numpy()


def push_all(chat, asks: list[tuple[StreamingVocoder, torch.Tensor, bool]]) -> list[np.ndarray]:
    """`push` for several sentences at once: windows of the same length share one decoder and
    Vocos call, which on a CPU costs less than one call each (bench/vocoder_batch.py)."""
    plans = [vocoder.plan(hiddens, final) for vocoder, hiddens, final in asks]
    pieces = [np.zeros(0, dtype=np.float32)] * len(asks)
    groups: dict[int, list[int]] = {}
    for i, window in enumerate(plans):
        if window is not None:
            groups.setdefault(window.hiddens.shape[0], []).append(i)
    for length, rows in groups.items():
        wavs = decode_batch(chat, [plans[i].hiddens for i in rows])
        for i, wav in zip(rows, wavs):
            pieces[i] = asks[i][0].finish(plans[i], wav)
    return pieces
