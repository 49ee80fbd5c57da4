"""ChatTTS's DVAE as an audio encoder, without ChatTTS: a recording -> the codes (num_vq, T)
that voice a reference prompt (a cloned voice, and the voice lock's first sentence).

Importing ChatTTS for this would cost a start seconds (transformers, and the quantizer's
package importing torch._dynamo) the first time a paragraph is played, between its first and
second sentence. The steps are ChatTTS 0.2.5's DVAE.forward(mode="encode"), and the
quantizer is vector_quantize_pytorch 1.x's GroupedResidualFSQ as ChatTTS builds it (hard-clamped
input, symmetry-preserving levels), in the same operations so that the codes are the same bits:
tests/engine/test_runtime_encoder.py compares them with ChatTTS's on random recordings.
"""

from __future__ import annotations

from typing import cast

import torch
from torch import nn

from app.model.dims import DvaeDims
from app.model.runtime.nets import _DecoderNet

MEL_BINS = 100


class _ResidualGroup(nn.Module):
    """One group's ResidualFSQ: only its input projection has weights."""

    def __init__(self, dim: int, levels: int):
        super().__init__()
        self.project_in = nn.Linear(dim, levels)


class _Quantizer(nn.Module):
    def __init__(self, d: DvaeDims):
        super().__init__()
        self.rvqs = nn.ModuleList(
            [_ResidualGroup(d.vq.dim // d.vq.G, len(d.vq.levels)) for _ in range(d.vq.G)]
        )

    def groups(self) -> list[_ResidualGroup]:
        return [cast(_ResidualGroup, group) for group in self.rvqs]  # ModuleList yields Module


class _VqLayer(nn.Module):
    def __init__(self, d: DvaeDims):
        super().__init__()
        self.quantizer = _Quantizer(d)


class _MelPreprocessor(nn.Module):
    def __init__(self):
        import torchaudio

        super().__init__()
        self.mel_spec = torchaudio.transforms.MelSpectrogram(
            sample_rate=24000, n_fft=1024, hop_length=256, n_mels=MEL_BINS, center=True, power=1
        )


class AudioEncoder(nn.Module):
    """The names are DVAE.safetensors' own, so that the encoder's part of it loads strictly."""

    # Buffers (register_buffer): the mel scaling and the quantizer's constants.
    coef: torch.Tensor
    levels: torch.Tensor
    soft_clamp: torch.Tensor
    basis: torch.Tensor

    def __init__(self, d: DvaeDims, dim: int):
        super().__init__()
        self.dims = d
        self.register_buffer("coef", torch.zeros(1, MEL_BINS, 1))
        self.downsample_conv = nn.Sequential(
            nn.Conv1d(MEL_BINS, dim, 3, 1, 1), nn.GELU(), nn.Conv1d(dim, dim, 4, 2, 1), nn.GELU()
        )
        self.encoder = _DecoderNet(d.encoder)
        self.vq_layer = _VqLayer(d)
        self.preprocessor_mel = _MelPreprocessor()  # its window and filter bank are in the file too
        # The quantizer's constants, as vector_quantize_pytorch derives them from the levels.
        levels = torch.tensor(d.vq.levels)
        self.register_buffer("levels", levels, persistent=False)
        self.register_buffer("soft_clamp", 1 + (1 / (levels - 1)), persistent=False)
        self.register_buffer(
            "basis",
            torch.cumprod(torch.tensor([1] + list(d.vq.levels[:-1])), dim=0, dtype=torch.int32),
            persistent=False,
        )

    @torch.inference_mode()
    def forward(self, wav: torch.Tensor) -> torch.Tensor:
        """(samples,) float32 at 24 kHz -> (groups * residuals, frames) int32 codes."""
        mel = self.preprocessor_mel.mel_spec(wav.to(self.coef.device))
        mel = torch.log(torch.clip(mel, min=1e-5))
        mel = mel / self.coef.view(MEL_BINS, 1).expand(mel.shape)
        x = self.encoder(self.downsample_conv(mel).unsqueeze_(0)).transpose(1, 2)
        groups = [
            self._residual(group, chunk)
            for group, chunk in zip(
                self.vq_layer.quantizer.groups(), x.chunk(self.dims.vq.G, dim=-1)
            )
        ]
        ind = torch.stack(groups).permute(1, 2, 0, 3).contiguous()  # (b, n, G, R)
        ind = ind.view(ind.size(0), ind.size(1), -1).transpose(1, 2)  # (b, G * R, n)
        return ind.squeeze(0)

    def _residual(self, group: _ResidualGroup, x: torch.Tensor) -> torch.Tensor:
        x = group.project_in(x)
        x = (x / self.soft_clamp).tanh() * self.soft_clamp
        residual, indices = x, []
        for i in range(self.dims.vq.R):
            scale = self.levels.float() ** -i
            codes, index = self._fsq(residual / scale)
            residual = residual - codes * scale
            indices.append(index)
        return torch.stack(indices, dim=-1)

    def _fsq(self, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        levels_minus_1 = self.levels.to(torch.int32) - 1
        bracket = (levels_minus_1 * (torch.clamp(z, min=-1.0, max=1.0) + 1) / 2.0) + 0.5
        bracket = bracket + (bracket.floor() - bracket)  # floor_ste's arithmetic, kept for its bits
        codes = 2.0 / levels_minus_1 * bracket - 1.0
        index = (
            ((codes + 1.0) / (2.0 / levels_minus_1) * self.basis)
            .sum(dim=-1)
            .round()
            .to(torch.int32)
        )
        return codes, index


def load_audio_encoder(d: DvaeDims, path, device) -> AudioEncoder:
    """The encoder's part of DVAE.safetensors, strictly: each of its names present, of its shape
    (the decoder half of the file is ChatTTS's own use, not read here)."""
    from safetensors import safe_open

    from app.model.runtime.nets import assign_strict, built

    module = built(lambda: AudioEncoder(d, d.encoder.idim))
    wanted = module.state_dict().keys()
    with safe_open(str(path), framework="pt", device=str(device)) as f:
        state = {name: f.get_tensor(name) for name in f.keys() if name in wanted}  # noqa: SIM118 (safe_open is not iterable)
    return assign_strict(module, state, device)
