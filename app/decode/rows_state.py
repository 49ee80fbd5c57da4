"""The decode loop's per-sentence state, and sentences joining a running batch.

Every sentence of a batch (those it started with and those that joined it between steps)
has a row here: its tokens, hidden states, random numbers and where it stands. A sentence
that joins is prefilled alone into its own cache, then placed so that its prompt ends at the
slot the batch writes next: from then on it steps with the others, at its own positions, with
its own random stream and token count, so its tokens are those it gets decoded alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class Joining:
    """Sentences to add to a running batch: their prompts (left-padded among themselves, as
    any batch) and their seeds."""

    emb: torch.Tensor  # (n, prompt, H)
    mask: torch.Tensor  # (n, prompt)
    seeds: list[int]


class RowTable:
    """Per-sentence results, indexed by the sentence's row in the batch (joined rows last)."""

    def audio_hiddens(self) -> torch.Tensor:
        """The hidden states (B, steps, H): the audio pass keeps them, the text pass does not."""
        if self.hiddens is None:
            raise ValueError("a text pass keeps no hidden states")
        return self.hiddens

    def __init__(self, loop, batch: int, per_row: int, steps: int, audio: bool, uniforms):
        device = loop.device
        self.per_row, self.steps = per_row, steps
        self.generated = torch.zeros(batch * per_row, steps, dtype=torch.long, device=device)
        self.hiddens = torch.zeros(batch, steps, loop.hidden_size, device=device) if audio else None
        self.uniforms = uniforms  # (batch, steps, per_row) or None (greedy)
        self.finished = torch.zeros(
            batch, dtype=torch.bool, device=device
        )  # ended with its end token
        self.done = torch.zeros(batch, dtype=torch.bool, device=device)  # ended, or at the limit
        self.nonfinite = torch.zeros(batch, dtype=torch.bool, device=device)
        self.lengths = torch.zeros(batch, dtype=torch.long, device=device)
        self.left = torch.zeros(batch, dtype=torch.bool, device=device)  # its request went away
        self.start = [0] * batch  # the batch step at which each row began

    @property
    def count(self) -> int:
        return len(self.start)

    def extend(self, n: int, step: int, uniforms) -> None:
        def grow(t: torch.Tensor, rows: int) -> torch.Tensor:
            return torch.cat([t, t.new_zeros((rows,) + tuple(t.shape[1:]))])

        self.generated = grow(self.generated, n * self.per_row)
        if self.hiddens is not None:
            self.hiddens = grow(self.hiddens, n)
        if self.uniforms is not None:
            self.uniforms = torch.cat([self.uniforms, uniforms])
        self.finished, self.done = grow(self.finished, n), grow(self.done, n)
        self.nonfinite, self.lengths = grow(self.nonfinite, n), grow(self.lengths, n)
        self.left = grow(self.left, n)
        self.start += [step] * n

    def cut(self) -> list[bool]:
        """Per row: it stopped at the token limit (not at its end token, nor because it left)."""
        return [
            d and not f and not gone
            for d, f, gone in zip(self.done.tolist(), self.finished.tolist(), self.left.tolist())
        ]


class LiveRows:
    """The sentences of a batch still being decoded, and their per-sentence state.

    `ids` are their rows in the RowTable; everything else is indexed like `ids`."""

    def __init__(self, ids, per_row, valid, next_position, k, v, temperature: float):
        self.ids, self.per_row = ids, per_row
        self.valid, self.next_position, self.k, self.v = valid, next_position, k, v
        self._temperature = temperature
        self._refresh()

    def _refresh(self) -> None:
        offsets = torch.arange(self.per_row, device=self.ids.device)
        self.token_rows = (self.ids[:, None] * self.per_row + offsets).reshape(-1)
        self.temperature = torch.full(
            (self.token_rows.numel(), 1), self._temperature, device=self.ids.device
        )
        self.id_list = self.ids.tolist()

    def keep(self, keep: torch.Tensor, written: int) -> None:
        """Drop the rows where `keep` is False; the caches keep the first `written` positions."""
        index = keep.nonzero().squeeze(1)
        self.ids = self.ids[index]
        self.valid, self.next_position = self.valid[index], self.next_position[index]
        k = torch.empty(
            (self.k.shape[0], index.numel()) + tuple(self.k.shape[2:]),
            dtype=self.k.dtype,
            device=self.k.device,
        )
        v = torch.empty_like(k)
        k[:, :, :, :written] = self.k[:, index, :, :written]
        v[:, :, :, :written] = self.v[:, index, :, :written]
        self.k, self.v = k, v
        self._refresh()

    def join(
        self,
        ids: torch.Tensor,
        mask: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        written: int,
        room: int,
    ) -> int:
        """Add rows whose prompt (`mask`, keys `k`, values `v`: (layers, n, heads, prompt, dim))
        was prefilled alone. Slots no live row uses any more are dropped and every row's
        written slots end at the same place; returns that place (the slot written next).
        `room`: slots to leave after it (the most tokens a row may still add)."""
        used = self.valid[:, :written].any(0).nonzero()
        low = int(used[0, 0]) if used.numel() else written
        span, prompt = written - low, mask.shape[1]
        end = max(span, prompt)
        old, new = self.ids.numel(), ids.numel()
        shape = (self.k.shape[0], old + new, self.k.shape[2], end + room, self.k.shape[4])
        caches = []
        for have, add in ((self.k, k), (self.v, v)):
            cache = torch.empty(shape, dtype=have.dtype, device=have.device)
            # Slots before a row's first are masked, but read: zeros, never stale NaNs.
            cache[:, :old, :, : end - span].zero_()
            cache[:, :old, :, end - span : end] = have[:, :, :, low:written]
            cache[:, old:, :, : end - prompt].zero_()
            cache[:, old:, :, end - prompt : end] = add.to(have.dtype)
            caches.append(cache)
        valid = torch.ones(old + new, end + room, dtype=torch.bool, device=self.valid.device)
        valid[:old, : end - span] = False
        valid[:old, end - span : end] = self.valid[:, low:written]
        valid[old:, : end - prompt] = False
        valid[old:, end - prompt : end] = mask
        self.valid = valid
        self.k, self.v = caches
        self.ids = torch.cat([self.ids, ids])
        self.next_position = torch.cat([self.next_position, mask.long().sum(-1)])
        self._refresh()
        return end


def leave(
    table: RowTable, live: LiveRows, hidden: torch.Tensor, rows: list[int], written: int
) -> torch.Tensor:
    """Rows whose requests went away (cancelled) stop decoding now and leave the batch, so the
    others' steps no longer pay for them; the hidden states of the rows that stay."""
    going = [r for r in rows if r in live.id_list]
    if not going:
        return hidden
    index = torch.tensor(going, device=table.done.device)
    table.done[index] = True
    table.left[index] = True
    stay = torch.tensor([r not in going for r in live.id_list], device=hidden.device)
    live.keep(stay, written=written)
    return hidden[stay]
