"""The GPT's Llama built from its checkpoint (asset/gpt/) by our own code, without transformers.

`Llama` has transformers' LlamaModel's module names, so that the checkpoint's tensors load
strictly by name; it holds weights only, its step is decode/llama_step.py's `LlamaStack`
(which reads these modules by attribute). `LlamaShell` is the same without its layers, for a
start whose step (and so its weights) comes from the compiled cache.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from app.model.runtime.config import LlamaNumbers
from app.model.runtime.nets import assign_strict, built

WEIGHTS_FILE = "model.safetensors"
# Stored by LlamaModel.save_pretrained, never read: ChatTTS's GPT embeds with its own tables.
UNUSED = ("embed_tokens.",)


class _Rotary(nn.Module):
    """transformers 5's default Llama rotary embedding, step for step (same numbers)."""

    inv_freq: torch.Tensor  # a buffer (register_buffer)

    def __init__(self, head_dim: int, theta: float):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float) / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x: torch.Tensor, position_ids: torch.Tensor):
        freqs = position_ids[..., None].float() * self.inv_freq.to(
            device=x.device, dtype=torch.float
        )
        emb = torch.cat((freqs, freqs), dim=-1)
        # transformers multiplies by its attention scaling, 1.0 for the default rotary type.
        return (emb.cos() * 1.0).to(dtype=x.dtype), (emb.sin() * 1.0).to(dtype=x.dtype)


class _RMSNorm(nn.Module):
    def __init__(self, size: int, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.variance_epsilon = eps


class _Attention(nn.Module):
    def __init__(self, n: LlamaNumbers):
        super().__init__()
        h = n.hidden_size
        self.q_proj = nn.Linear(h, h, bias=False)
        self.k_proj = nn.Linear(h, h, bias=False)
        self.v_proj = nn.Linear(h, h, bias=False)
        self.o_proj = nn.Linear(h, h, bias=False)


class _FeedForward(nn.Module):
    def __init__(self, n: LlamaNumbers):
        super().__init__()
        self.gate_proj = nn.Linear(n.hidden_size, n.intermediate_size, bias=False)
        self.up_proj = nn.Linear(n.hidden_size, n.intermediate_size, bias=False)
        self.down_proj = nn.Linear(n.intermediate_size, n.hidden_size, bias=False)


class _Layer(nn.Module):
    def __init__(self, n: LlamaNumbers):
        super().__init__()
        self.self_attn = _Attention(n)
        self.mlp = _FeedForward(n)
        self.input_layernorm = _RMSNorm(n.hidden_size, n.rms_norm_eps)
        self.post_attention_layernorm = _RMSNorm(n.hidden_size, n.rms_norm_eps)


class LlamaShell(nn.Module):
    """The Llama without its layers: what the loop reads of it (config, rotary tables, device)."""

    # Whether its weights are absent: the loop then needs a step that brings its own.
    weightless = True

    def __init__(self, numbers: LlamaNumbers):
        super().__init__()
        self.config = numbers
        self.rotary_emb = _Rotary(
            numbers.hidden_size // numbers.num_attention_heads, numbers.rope_theta
        )
        # One empty parameter: where the model is, as `next(llama.parameters()).device` asks.
        self.device_probe = nn.Parameter(torch.zeros(0), requires_grad=False)


class Llama(LlamaShell):
    """The whole Llama: its layers and final norm, in transformers' names."""

    weightless = False

    def __init__(self, numbers: LlamaNumbers):
        super().__init__(numbers)
        self.layers = nn.ModuleList([_Layer(numbers) for _ in range(numbers.num_hidden_layers)])
        self.norm = _RMSNorm(numbers.hidden_size, numbers.rms_norm_eps)


def load_llama(numbers: LlamaNumbers, folder: Path, device) -> Llama:
    """The checkpoint's tensors in fp32 (the loop converts them to its own precision), every
    name and shape checked against the built model."""
    from app.model.runtime.tensor_file import read_tensors

    # Read, not mapped: int8 smoothing scales these weights in place (tensor_file.py says why).
    read = read_tensors(Path(folder) / WEIGHTS_FILE, lambda name: not name.startswith(UNUSED))
    state = {}
    for name in list(read):  # each read copy let go once converted (a GPU holds its own)
        state[name] = read.pop(name).to(device=device, dtype=torch.float32)
    state["device_probe"] = torch.zeros(0, device=device)
    llama = assign_strict(built(lambda: Llama(numbers)), state, device)
    llama.device_probe.requires_grad_(False)
    return llama
