"""ChatTTS's Llama (the GPT behind both passes) as one TorchScript-able step over a KV cache.

The layers hold the very same weights as transformers' LlamaModel (shared, not copied, in
fp32), but a step is one call: no Cache objects, no mask building, no per-step Python in
twenty layers. The cache is allocated once per request by the caller; a step writes its keys
and values at `positions` and attends to the first `length` of them, so the same code serves
the growing-length CPU loop (length = what has been written) and the fixed-shape CUDA graph
(length = the whole cache, future positions hidden by the mask).
"""

from __future__ import annotations

from typing import Any, cast

import torch
import torch.nn as nn
import torch.nn.functional as F


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    # Same arithmetic as transformers' LlamaRMSNorm: variance in fp32, weight after the cast.
    dtype = x.dtype
    h = x.to(torch.float32)
    h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
    return weight * h.to(dtype)


def _rotate(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


class LlamaLayer(nn.Module):
    # `src`: a Llama decoder layer (transformers', or app/model/runtime's), read by attribute.
    def __init__(self, src: Any, heads: int):
        super().__init__()
        attn, mlp = src.self_attn, src.mlp
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (
            attn.q_proj,
            attn.k_proj,
            attn.v_proj,
            attn.o_proj,
        )
        self.gate_proj, self.up_proj, self.down_proj = mlp.gate_proj, mlp.up_proj, mlp.down_proj
        self.ln_in = src.input_layernorm.weight
        self.ln_post = src.post_attention_layernorm.weight
        self.eps = float(src.input_layernorm.variance_epsilon)
        self.heads = heads

    def forward(
        self,
        x: torch.Tensor,
        cos: torch.Tensor,
        sin: torch.Tensor,
        mask: torch.Tensor,
        k_cache: torch.Tensor,
        v_cache: torch.Tensor,
        positions: torch.Tensor,
        length: int,
    ) -> torch.Tensor:
        b, t, width = x.shape[0], x.shape[1], x.shape[2]
        h = _rms_norm(x, self.ln_in, self.eps)
        q, k, v = self.attention_inputs(h)
        q = q.view(b, t, self.heads, -1).transpose(1, 2)
        k = k.view(b, t, self.heads, -1).transpose(1, 2)
        v = v.view(b, t, self.heads, -1).transpose(1, 2)
        q = _rotate(q, cos, sin)
        k = _rotate(k, cos, sin)
        k_cache.index_copy_(2, positions, k.to(k_cache.dtype))
        v_cache.index_copy_(2, positions, v.to(v_cache.dtype))
        keys = k_cache.narrow(2, 0, length)
        values = v_cache.narrow(2, 0, length)
        a = F.scaled_dot_product_attention(q, keys.to(q.dtype), values.to(q.dtype), attn_mask=mask)
        x = self.add_attention_output(x, a.transpose(1, 2).reshape(b, t, width))
        return self.add_feed_forward(x, _rms_norm(x, self.ln_post, self.eps))

    # The projections, apart so that int8 (decode/int8_rows.py) can run them its own way.
    def attention_inputs(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        return self.q_proj(h), self.k_proj(h), self.v_proj(h)

    def add_attention_output(self, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        return x + self.o_proj(a)

    def add_feed_forward(self, x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class LlamaStack(nn.Module):
    """All layers and the final norm; returns fp32 hidden states whatever the compute dtype."""

    # `llama`: a Llama model (transformers', or app/model/runtime's), read by attribute.
    def __init__(self, llama: Any):
        super().__init__()
        heads = int(llama.config.num_attention_heads)
        self.layers = nn.ModuleList([LlamaLayer(layer, heads) for layer in llama.layers])
        self.norm = llama.norm.weight
        self.eps = float(llama.norm.variance_epsilon)

    def forward(
        self,
        x: torch.Tensor,
        cos: torch.Tensor,
        sin: torch.Tensor,
        mask: torch.Tensor,
        k_cache: torch.Tensor,
        v_cache: torch.Tensor,
        positions: torch.Tensor,
        length: int,
    ) -> torch.Tensor:
        i = 0
        for layer in self.layers:
            x = layer(x, cos, sin, mask, k_cache[i], v_cache[i], positions, length)
            i += 1  # noqa: SIM113 (TorchScript compiles no enumerate over a ModuleList)
        return _rms_norm(x, self.norm, self.eps).to(torch.float32)


def rotary_tables(
    llama: Any, count: int, dtype: torch.dtype, device: torch.device
) -> list[torch.Tensor]:
    """cos/sin for positions 0..count-1 from the model's own rotary module (same numbers);
    `llama` as LlamaStack takes it."""
    positions = torch.arange(count, device=device).unsqueeze(0)
    probe = torch.zeros(1, 1, device=device, dtype=torch.float32)
    cos, sin = llama.rotary_emb(probe, positions)
    return [cos[0].to(dtype), sin[0].to(dtype)]


def layers_of(stack: nn.Module) -> list[LlamaLayer]:
    """A LlamaStack's layers, typed (a ModuleList yields nn.Module)."""
    return [cast(LlamaLayer, layer) for layer in cast(nn.ModuleList, stack.layers)]
