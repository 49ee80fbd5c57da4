"""Choosing the next token the way ChatTTS does, in one TorchScript-able function.

Order and arithmetic follow ChatTTS 0.2.5's `GPT.generate`: logits / temperature, its
repetition penalty over the last 16 generated tokens, transformers' top-P then top-K (both
keeping at least 3 tokens), the end token banned before `min_new_token`, softmax. The draw
is an inverse-CDF lookup of a uniform number the caller takes from a per-sentence generator,
so a sentence's tokens do not depend on which other sentences share its batch.
"""

from __future__ import annotations

import torch

MIN_TOKENS_TO_KEEP = 3
PENALTY_WINDOW = 16


def filter_logits(
    logits: torch.Tensor,
    history: torch.Tensor,
    temperature: torch.Tensor,
    penalty: float,
    top_p: float,
    top_k: int,
    eos: int,
    ban_eos: bool,
    min_keep: int = MIN_TOKENS_TO_KEEP,
) -> torch.Tensor:
    """logits (N, V) -> filtered logits; history (N, W) holds the last W generated tokens."""
    logits = logits / temperature
    if penalty != 1.0 and history.shape[1] > 0:
        freq = torch.zeros_like(logits).scatter_add_(
            1, history, torch.ones_like(history, dtype=logits.dtype)
        )
        alpha = torch.pow(torch.full_like(freq, penalty), freq)
        logits = torch.where(logits < 0, logits * alpha, logits / alpha)
    if top_p < 1.0:
        sorted_logits, sorted_index = torch.sort(logits, descending=False)
        cumulative = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
        remove = cumulative <= (1 - top_p)
        remove[:, -min_keep:] = False
        logits = logits.masked_fill(remove.scatter(1, sorted_index, remove), float("-inf"))
    if top_k > 0:
        k = min(max(top_k, min_keep), logits.shape[-1])
        kth = torch.topk(logits, k)[0][:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if ban_eos:
        logits[:, eos] = float("-inf")
    return logits


def draw(logits: torch.Tensor, uniform: torch.Tensor) -> torch.Tensor:
    """One token per row: inverse CDF of softmax(logits) at `uniform` (N, 1) in [0, 1)."""
    probs = torch.softmax(logits, dim=-1)
    cdf = probs.cumsum(dim=-1)
    picked = torch.searchsorted(cdf, uniform * cdf[:, -1:], right=True)
    return picked.clamp_(max=logits.shape[-1] - 1).squeeze(1)


def greedy(logits: torch.Tensor) -> torch.Tensor:
    return logits.argmax(dim=-1)
