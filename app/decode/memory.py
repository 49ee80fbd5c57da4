"""How many sentences to decode at once, from the memory that is free right now."""

from __future__ import annotations

# Beyond these a step costs nearly proportionally more (CPU) or the GPU is already saturated;
# a CPU's compiled step measures its own (row_cap.py), this stands until it has.
MAX_BATCH = {"cpu": 4, "cuda": 16}
# Leave half of what is free to everything else (the vocoder, the window, other programs).
SHARE = 0.5
# Activations, logits and the vocoder per sentence, beyond the KV cache: a bound with room to
# spare for the full model at 2,048 tokens.
EXTRA_PER_ROW = 64 * 2**20


def max_batch(loop) -> int:
    """The most sentences `loop` decodes at once: its measured cap (row_cap.py), else its
    device's constant."""
    measured = getattr(loop, "row_cap", None)
    return measured or MAX_BATCH.get(loop.device.type, MAX_BATCH["cpu"])


def free_bytes(device) -> int:
    import torch

    if device.type == "cuda":
        free, _total = torch.cuda.mem_get_info(device)
        # What PyTorch's allocator holds but does not use is free to us too; the driver
        # counts it as taken.
        idle = torch.cuda.memory_reserved(device) - torch.cuda.memory_allocated(device)
        return int(free) + max(0, int(idle))
    import psutil

    return int(psutil.virtual_memory().available)


def choose_batch(loop, tokens: int, wanted: int) -> int:
    """Largest batch (<= wanted) whose caches fit in a share of free memory; at least 1."""
    per_row = loop.cache_bytes_per_row(tokens) + EXTRA_PER_ROW
    kept = loop.kept_cache_bytes() if hasattr(loop, "kept_cache_bytes") else 0
    fits = int((free_bytes(loop.device) + kept) * SHARE // per_row)
    return max(1, min(wanted, max_batch(loop), fits))
