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

import numpy as np
import torch

SAMPLES_PER_TOKEN = 512      # 2 mel frames per token, hop 256
HALF_FRAME = 256
DEFAULT_LOOKAHEAD = 12       # tokens held back (0.26 s of audio); see bench/decode.py
DEFAULT_MIN_PIECE = 12       # tokens per piece at least, so pieces are not mostly context
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
                 min_piece: int = DEFAULT_MIN_PIECE, crossfade: int = CROSSFADE):
        self.chat = chat
        self.context = receptive_tokens(chat) if context is None else context
        self.lookahead = max(1, lookahead)   # the newest half frame has no samples yet
        self.min_piece = min_piece
        self.crossfade = crossfade
        self.emitted = 0                       # samples
        self._tail: np.ndarray | None = None   # last decode of the samples just after what was emitted

    def push(self, hiddens: torch.Tensor, final: bool = False) -> np.ndarray:
        """All hidden states so far, (n, H); returns the samples that became ready."""
        n = hiddens.shape[0]
        target = max(0, n * SAMPLES_PER_TOKEN - HALF_FRAME) if final else (n - self.lookahead) * SAMPLES_PER_TOKEN
        if target <= self.emitted or (not final and target - self.emitted < self.min_piece * SAMPLES_PER_TOKEN):
            return np.zeros(0, dtype=np.float32)
        start = max(0, self.emitted // SAMPLES_PER_TOKEN - self.context)
        wav = decode_whole(self.chat, hiddens[start:n])
        # Window sample i is global sample start * 512 + i: frames are centred on multiples of the hop.
        begin = self.emitted - start * SAMPLES_PER_TOKEN
        end = target - start * SAMPLES_PER_TOKEN
        piece = wav[begin:end].copy()
        if self._tail is not None:
            fade = min(len(self._tail), len(piece))
            ramp = np.linspace(0.0, 1.0, fade + 2, dtype=np.float32)[1:-1]
            piece[:fade] = self._tail[:fade] * (1 - ramp) + piece[:fade] * ramp
        self._tail = None if final else wav[end:end + self.crossfade].copy()
        self.emitted = target
        return piece
