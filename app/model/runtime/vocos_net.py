"""ChatTTS's Vocos (mel frames -> 24 kHz samples) built here, layer for layer as the `vocos`
package builds it (VocosBackbone, ConvNeXtBlock, ISTFTHead with a centred ISTFT), with the same
names so that Vocos.safetensors loads strictly.

Importing `vocos` imports huggingface_hub, httpx, torchaudio, encodec and scipy with it, none of
which decoding uses: a start paid for them before ready. The decode is the same operations in
the same order, so the samples are the same bits (tests/engine/test_runtime_parts.py
`test_the_vocoder_is_the_same`); tests/engine/test_runtime_start.py holds the imports out.
"""

from __future__ import annotations

import torch
from torch import nn

from app.model.dims import VocosDims

EPS = 1e-6
N_FFT = 1024
HOP = 256
MEL_BINS = 100


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim: int, intermediate_dim: int):
        super().__init__()
        self.dwconv = nn.Conv1d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=EPS)
        self.pwconv1 = nn.Linear(dim, intermediate_dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(intermediate_dim, dim)
        self.gamma = nn.Parameter(torch.empty(dim))  # the layer scale: the file's replaces it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.dwconv(x).transpose(1, 2)
        y = self.gamma * self.pwconv2(self.act(self.pwconv1(self.norm(y))))
        return x + y.transpose(1, 2)


class VocosBackbone(nn.Module):
    """(B, mel bins, T) -> (B, T, dim)."""

    def __init__(self, v: VocosDims, input_channels: int = MEL_BINS):
        super().__init__()
        self.embed = nn.Conv1d(input_channels, v.dim, kernel_size=7, padding=3)
        self.norm = nn.LayerNorm(v.dim, eps=EPS)
        self.convnext = nn.ModuleList(
            ConvNeXtBlock(v.dim, v.intermediate_dim) for _ in range(v.num_layers)
        )
        self.final_layer_norm = nn.LayerNorm(v.dim, eps=EPS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.norm(self.embed(x).transpose(1, 2)).transpose(1, 2)
        for block in self.convnext:
            x = block(x)
        return self.final_layer_norm(x.transpose(1, 2))


class ISTFT(nn.Module):
    window: torch.Tensor

    def __init__(self, n_fft: int, hop_length: int):
        super().__init__()
        self.n_fft, self.hop_length, self.win_length = n_fft, hop_length, n_fft
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, spec: torch.Tensor) -> torch.Tensor:
        return torch.istft(
            spec, self.n_fft, self.hop_length, self.win_length, self.window, center=True
        )


class ISTFTHead(nn.Module):
    """(B, T, dim) -> (B, samples): magnitudes (exp, capped at 100) and phases of a spectrum."""

    def __init__(self, dim: int, n_fft: int = N_FFT, hop_length: int = HOP):
        super().__init__()
        self.out = nn.Linear(dim, n_fft + 2)
        self.istft = ISTFT(n_fft, hop_length)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mag, p = self.out(x).transpose(1, 2).chunk(2, dim=1)
        mag = torch.clip(torch.exp(mag), max=1e2)
        return self.istft(mag * (torch.cos(p) + 1j * torch.sin(p)))


class _Buffers(nn.Module):
    def __init__(self, **shapes: tuple[int, ...]):
        super().__init__()
        for name, shape in shapes.items():
            self.register_buffer(name, torch.empty(shape))


class _MelFeatures(nn.Module):
    """The analysis side's buffers, which the weights file holds and decoding never reads."""

    def __init__(self):
        super().__init__()
        self.mel_spec = nn.Module()
        self.mel_spec.spectrogram = _Buffers(window=(N_FFT,))
        self.mel_spec.mel_scale = _Buffers(fb=(N_FFT // 2 + 1, MEL_BINS))


class Vocos(nn.Module):
    def __init__(self, v: VocosDims):
        super().__init__()
        self.feature_extractor = _MelFeatures()
        self.backbone = VocosBackbone(v)
        self.head = ISTFTHead(v.dim)

    @torch.inference_mode()
    def decode(self, mel: torch.Tensor) -> torch.Tensor:
        """(B, mel bins, frames) -> (B, (frames - 1) * hop) samples."""
        return self.head(self.backbone(mel))
