"""A stress variant of the random-weight model: activation outlier channels, same fp32 function.

Why: trained transformers have a few hidden channels whose activations are 20-100x larger
than the rest (Dettmers et al., LLM.int8(), 2022; Xiao et al., SmoothQuant, 2022). Int8 that
quantizes a Linear's input with one scale per tensor gives those channels the whole range and
the others a few levels. Random weights have no such channels, so a check on them alone cannot
tell a robust int8 from a fragile one.

How: for a handful of channels c with factors f_c drawn from [20, 100], in every layer
- the RMSNorm weights before q/k/v and before gate/up are multiplied by f_c at c, and column c
  of q/k/v (resp. gate/up) is divided by f_c: their inputs get outliers, their outputs do not
  change;
- row c of v_proj is multiplied by f_c and column c of o_proj divided by it (attention is
  linear in the values): o_proj's input gets outliers;
- row c of up_proj (intermediate channels) is multiplied by f_c and column c of down_proj divided
  by it (silu(gate) * up is linear in up): down_proj's input gets outliers.
The same channels in every layer, as in trained models. In exact arithmetic the model computes
the same function (fp32 logits agree to rounding, which tests check), so every difference a
reduced precision shows on it is that precision's. Not modelled: outliers of the residual
stream itself (the norm would rescale every channel), and weights whose outlier columns are not
small; a recipe that is only scale-equivariant is therefore favoured here, which is said where
the numbers are reported.

Layers that matter: a freshly initialized Llama (weights of std 0.02) adds about 1% to the
residual stream per layer at the tiny dimensions, so an error inside the layers hardly reaches
the logits and any precision looks exact. The stress model first gives every Linear weight the
std 1/sqrt(fan_in) (each projection keeps its input's magnitude, as in a trained model), so
each layer's update is as large as its input; then it adds the outliers.

`stress_view(parts)` returns the model's parts (model/runtime's ModelParts) with their own copy
of the Llama, so the loaded model the other tests share stays as it was;
`stress_view(parts, outliers=False)` is the same model without outliers (the same fp32 function).
"""

from __future__ import annotations

import copy
from dataclasses import replace

import torch

CHANNELS = 6
LOW, HIGH = 20.0, 100.0
SEED = 7


def _factors(
    width: int, count: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    channels = torch.randperm(width, generator=generator)[:count]
    factors = LOW + (HIGH - LOW) * torch.rand(count, generator=generator)
    return channels, factors


@torch.no_grad()
def add_outliers(llama: torch.nn.Module, count: int = CHANNELS, seed: int = SEED) -> dict:
    """Give `llama` (model/runtime's Llama, or transformers' LlamaModel) outlier channels in place; returns the channels
    and factors used, by where they appear."""
    g = torch.Generator().manual_seed(seed)
    hidden = llama.config.hidden_size
    norm_c, norm_f = _factors(hidden, count, g)
    attn_c, attn_f = _factors(hidden, count, g)
    mlp_c, mlp_f = _factors(llama.config.intermediate_size, count, g)
    for layer in llama.layers:
        attn, mlp = layer.self_attn, layer.mlp
        for norm, consumers in (
            (layer.input_layernorm, (attn.q_proj, attn.k_proj, attn.v_proj)),
            (layer.post_attention_layernorm, (mlp.gate_proj, mlp.up_proj)),
        ):
            norm.weight[norm_c] *= norm_f
            for linear in consumers:
                linear.weight[:, norm_c] /= norm_f
        attn.v_proj.weight[attn_c] *= attn_f[:, None]
        attn.o_proj.weight[:, attn_c] /= attn_f
        mlp.up_proj.weight[mlp_c] *= mlp_f[:, None]
        mlp.down_proj.weight[:, mlp_c] /= mlp_f
    return {"norm": (norm_c, norm_f), "o_proj": (attn_c, attn_f), "down_proj": (mlp_c, mlp_f)}


@torch.no_grad()
def unit_gain(llama: torch.nn.Module) -> None:
    """Every Linear weight of the layers rescaled to std 1/sqrt(fan_in), in place."""
    for module in llama.layers.modules():
        if isinstance(module, torch.nn.Linear):
            module.weight.mul_(1.0 / (module.weight.std() * module.in_features**0.5))


def stress_view(parts, outliers: bool = True, count: int = CHANNELS, seed: int = SEED):
    """The model's parts for DecodeLoop with their own Llama, whose layers matter and (unless
    `outliers` is False) have outlier channels."""
    llama = copy.deepcopy(parts.llama)
    unit_gain(llama)
    if outliers:
        add_outliers(llama, count, seed)
    return replace(parts, llama=llama)


def plain(parts):
    """The loaded model as it is."""
    return replace(parts)
