"""The prefill: prompts through the Llama stack at once, into a fresh KV cache (a batch's, or
those of sentences joining a running batch, which are then placed beside its rows)."""

from __future__ import annotations

from collections.abc import Callable

import torch

from app.decode.passes import PassParams
from app.decode.row_sampling import row_uniforms
from app.decode.rows_state import Joining, LiveRows, RowTable


def prefill(
    run_stack: Callable[..., torch.Tensor],
    emb: torch.Tensor,
    mask_in: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
) -> torch.Tensor:
    """Run the prompt through the stack into caches `k`, `v`; the last position's hidden state.

    `run_stack(x, positions, mask, k, v, write_at, length)`: the loop's step (DecodeLoop.run_stack);
    `mask_in` (rows, prompt) marks real tokens, on the caches' device."""
    device = k.device
    prompt_len = emb.shape[1]
    # ChatTTS's positions: count of real tokens so far; padding sits at position 1.
    positions = (mask_in.long().cumsum(-1) - 1).masked_fill_(~mask_in, 1)
    causal = torch.ones(prompt_len, prompt_len, dtype=torch.bool, device=device).tril_()
    eye = torch.eye(prompt_len, dtype=torch.bool, device=device)
    # A padding query may only see itself: a row with no visible key would be NaN, and
    # NaN in a cached padding value poisons the real rows even through a zero weight.
    prefill_mask = (causal & (mask_in[:, None, :] | eye)).unsqueeze(1)
    out = run_stack(
        emb.to(device),
        positions,
        prefill_mask,
        k,
        v,
        torch.arange(prompt_len, device=device),
        prompt_len,
    )
    return out[:, -1]


def join_rows(
    run_stack: Callable[..., torch.Tensor],
    allocate_cache: Callable[[int, int], tuple[torch.Tensor, torch.Tensor]],
    table: RowTable,
    live: LiveRows,
    hidden: torch.Tensor,
    joining: Joining,
    at: int,
    step: int,
    params: PassParams,
) -> tuple[torch.Tensor, int]:
    """Prefill sentences joining a running batch alone, then add them to the live rows at batch
    step `step`: the hidden states of all live rows and the slot the batch writes next.
    `allocate_cache(rows, length)`: a KV cache (DecodeLoop.allocate_cache)."""
    count, prompt_len = joining.emb.shape[0], joining.emb.shape[1]
    device = hidden.device
    mask = joining.mask.to(device).bool()
    k, v = allocate_cache(count, prompt_len)
    joined_hidden = prefill(run_stack, joining.emb, mask, k, v)
    ids = torch.arange(table.count, table.count + count, device=device)
    uniforms = (
        None
        if params.greedy
        else row_uniforms(joining.seeds, params.max_new_tokens, table.per_row, device)
    )
    table.extend(count, step, uniforms)
    at = live.join(ids, mask, k, v, at, params.max_new_tokens)
    return torch.cat([hidden, joined_hidden]), at
