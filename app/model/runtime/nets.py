"""The networks around the decode step, built from the model's own files without ChatTTS:

- Embed: ChatTTS's text and code embeddings and its weight-normed heads (the loop reads the
  heads as plain matrices; torch's weight_norm computes them as ChatTTS's does);
- MelDecoder: ChatTTS's DVAE used as the decoder (no encoder, no quantizer): hidden states
  -> mel frames, the same layer names so that Decoder.safetensors loads strictly;
- the vocoder: Vocos as ChatTTS builds it from the `vocos` package's classes, built here
  (runtime/vocos_net.py) so that a start does not import that package and what it imports.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import torch
from torch import nn

from app.model.dims import CoderDims, GptDims, VocosDims
from app.model.runtime.vocos_net import Vocos
from app.model.runtime.zero_init import no_init

M = TypeVar("M", bound=nn.Module)


def _load_strict(make: Callable[[], M], path, device) -> M:
    """`make()`, then the file's tensors, strictly: every name and shape must match."""
    from safetensors.torch import load_file

    return assign_strict(built(make), load_file(str(path), device=str(device)), device)


def built(make: Callable[[], M]) -> M:
    """`make()` without PyTorch's random initial weights (drawing, or even zero-filling, them
    only to drop them cost a start seconds: runtime/zero_init.py); `assign_strict` must follow."""
    with no_init():
        return make()


def assign_strict(module: M, state: dict, device) -> M:
    """`state`'s tensors put in place of `module`'s, strictly, so that every weight `built` left
    unwritten is replaced."""
    module.load_state_dict(state, strict=True, assign=True)
    return module.to(device).eval()


class Embed(nn.Module):
    def __init__(self, gpt: GptDims, num_text_tokens: int):
        from torch.nn.utils.parametrizations import weight_norm

        super().__init__()
        self.num_vq = gpt.num_vq
        dim = gpt.hidden_size
        self.emb_code = nn.ModuleList(
            [nn.Embedding(gpt.num_audio_tokens, dim) for _ in range(gpt.num_vq)]
        )
        self.emb_text = nn.Embedding(num_text_tokens, dim)
        self.head_text = weight_norm(nn.Linear(dim, num_text_tokens, bias=False), name="weight")
        self.head_code = nn.ModuleList(
            [
                weight_norm(nn.Linear(dim, gpt.num_audio_tokens, bias=False), name="weight")
                for _ in range(gpt.num_vq)
            ]
        )

    @torch.inference_mode()
    def forward(self, input_ids: torch.Tensor, text_mask: torch.Tensor) -> torch.Tensor:
        """Text positions take the text embedding of their first column; code positions the sum
        of one code embedding per codebook (ChatTTS's Embed.forward)."""
        device = self.emb_text.weight.device
        input_ids, text_mask = input_ids.to(device), text_mask.to(device)
        emb_text = self.emb_text(input_ids[text_mask].narrow(1, 0, 1).squeeze_(1))
        code_mask = text_mask.logical_not()
        codes = input_ids[code_mask]
        emb_code = torch.stack([self.emb_code[i](codes[:, i]) for i in range(self.num_vq)], 2).sum(
            2
        )
        emb = torch.zeros(
            input_ids.shape[:-1] + (emb_text.shape[-1],), device=device, dtype=emb_text.dtype
        )
        emb[text_mask] = emb_text
        emb[code_mask] = emb_code.to(emb.dtype)
        return emb


class _ConvNeXtBlock(nn.Module):
    def __init__(self, dim: int, intermediate_dim: int, kernel: int, dilation: int):
        super().__init__()
        self.dwconv = nn.Conv1d(
            dim,
            dim,
            kernel_size=kernel,
            padding=dilation * (kernel // 2),
            dilation=dilation,
            groups=dim,
        )
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, intermediate_dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(intermediate_dim, dim)
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.dwconv(x).transpose(1, 2)
        y = self.pwconv2(self.act(self.pwconv1(self.norm(y))))
        y = y * self.weight
        return y.transpose(1, 2) + x


class _DecoderNet(nn.Module):
    def __init__(self, d: CoderDims, kernel: int = 7, dilation: int = 2):
        super().__init__()
        self.conv_in = nn.Sequential(
            nn.Conv1d(d.idim, d.bn_dim, 3, 1, 1), nn.GELU(), nn.Conv1d(d.bn_dim, d.hidden, 3, 1, 1)
        )
        self.decoder_block = nn.ModuleList(
            [_ConvNeXtBlock(d.hidden, d.hidden * 4, kernel, dilation) for _ in range(d.n_layer)]
        )
        self.conv_out = nn.Conv1d(d.hidden, d.odim, kernel_size=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv_in(x)
        for block in self.decoder_block:
            y = block(y)
        return self.conv_out(y)


class MelDecoder(nn.Module):
    def __init__(self, d: CoderDims, mel_bins: int = 100):
        super().__init__()
        self.register_buffer("coef", torch.zeros(1, mel_bins, 1))
        self.decoder = _DecoderNet(d)
        self.out_conv = nn.Conv1d(d.idim, mel_bins, 3, 1, 1, bias=False)

    @torch.inference_mode()
    def forward(self, hiddens: torch.Tensor) -> torch.Tensor:
        """(B, H, T) hidden states -> (B, 100, 2T) mel frames: each hidden state's two halves
        are two frames (ChatTTS's DVAE.forward in decode mode, without a quantizer)."""
        b, h, t = hiddens.shape
        feats = hiddens.view(b, 2, h // 2, t).permute(0, 2, 3, 1).flatten(2)
        return self.out_conv(self.decoder(feats)) * self.coef


def load_embed(gpt: GptDims, num_text_tokens: int, path, device) -> Embed:
    return _load_strict(lambda: Embed(gpt, num_text_tokens), path, device)


def load_mel_decoder(d: CoderDims, path, device) -> MelDecoder:
    return _load_strict(lambda: MelDecoder(d), path, device)


def load_vocoder(v: VocosDims, path, device):
    return _load_strict(lambda: Vocos(v), path, device)
