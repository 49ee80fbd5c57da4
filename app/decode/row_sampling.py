"""What each row of a step samples with: its logits filtered at its own token count, and its
own sentence's random numbers (rows that joined a batch later are earlier in their sentence)."""

from __future__ import annotations

from collections.abc import Callable

import torch

from app.decode.passes import PassParams
from app.decode.rows_state import LiveRows, RowTable
from app.decode.sampling import PENALTY_WINDOW


def filter_rows(
    filter_logits: Callable[..., torch.Tensor],
    logits: torch.Tensor,
    table: RowTable,
    live: LiveRows,
    t_list: list[int],
    params: PassParams,
    eos: int,
) -> torch.Tensor:
    """Filtered logits; rows at different token counts (one joined later) are filtered per
    count, each row exactly as it would be alone (the filter works row by row).
    `filter_logits`: sampling.filter_logits, or its TorchScript."""
    groups: dict[int, list[int]] = {}
    for j, t in enumerate(t_list):
        groups.setdefault(t, []).append(j)
    per_row = table.per_row
    if len(groups) == 1:
        parts: list[tuple[int, torch.Tensor | None]] = [(t_list[0], None)]
    else:
        parts = [
            (
                t,
                torch.tensor(
                    [j * per_row + q for j in js for q in range(per_row)], device=logits.device
                ),
            )
            for t, js in groups.items()
        ]
    filtered = logits if len(parts) == 1 else torch.empty_like(logits)
    for t, tokens in parts:
        rows = live.token_rows if tokens is None else live.token_rows[tokens]
        start = max(0, t - PENALTY_WINDOW)
        out = filter_logits(
            logits if tokens is None else logits[tokens],
            table.generated[rows, start:t],
            live.temperature if tokens is None else live.temperature[tokens],
            float(params.repetition_penalty),
            float(params.top_p),
            int(params.top_k),
            eos,
            t < params.min_new_tokens,
        )
        if tokens is None:
            filtered = out
        else:
            filtered[tokens] = out
    return filtered


def row_uniforms(seeds: list[int], steps: int, per_row: int, device) -> torch.Tensor:
    """(batch, steps, per_row) uniform numbers, each row from its own sentence's generator,
    drawn at once and moved to the device once: the same numbers as one draw per step
    (a CPU generator yields them in order), without a host copy per token."""
    table = torch.stack(
        [
            torch.rand(steps, per_row, generator=torch.Generator(device="cpu").manual_seed(int(s)))
            for s in seeds
        ]
    )
    return table.to(device)
