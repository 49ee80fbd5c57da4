"""Hooks tests (and benchmarks) put on the decode loop from outside, to see what it was asked
to do and, per step, what it computed."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import torch

# hook(step, logits, rows): the batch step, the live rows' raw logits (the hook may change them
# in place to steer the tokens chosen from them) and those rows' places in the batch's table.
StepHook = Callable[[int, torch.Tensor, torch.Tensor], object]


def step_hooked(loop, hook: StepHook):
    """`loop.filter_step` (as it is now: a hook put on earlier is kept) with `hook` called first,
    once per decode step; for `monkeypatch.setattr(loop, "filter_step", ...)`."""
    real = loop.filter_step

    def filter_step(logits, table, live, t_list, *args, **kwargs):
        # A row's token count is the batch step less the step it joined at.
        hook(t_list[0] + table.start[live.id_list[0]], logits, live.ids)
        return real(logits, table, live, t_list, *args, **kwargs)

    return filter_step


@contextlib.contextmanager
def hooking_steps(loop, hook: StepHook) -> Iterator[None]:
    """`hook` on every decode step of `loop` while the block runs (see step_hooked)."""
    had = "filter_step" in vars(loop)
    before = vars(loop).get("filter_step")
    loop.filter_step = step_hooked(loop, hook)
    try:
        yield
    finally:
        if had:
            loop.filter_step = before
        else:
            del loop.filter_step


def record_audio_batches(monkeypatch, loop) -> list[int]:
    """The number of sentences of every audio pass the loop starts (which sentences, of which
    requests, shared a batch shows in how many there were)."""
    sizes = []
    real = loop.generate

    def recording(emb, mask, audio, *args, **kwargs):
        if audio:
            sizes.append(emb.shape[0])
        return real(emb, mask, audio, *args, **kwargs)

    monkeypatch.setattr(loop, "generate", recording)
    return sizes


def record_batch_rows(monkeypatch, loop) -> list[list[int]]:
    """Per audio pass the loop starts: the number of sentences it started with, then of each
    group that joined it while it ran."""
    passes = []
    real = loop.generate

    def recording(emb, mask, audio, *args, admit=None, **kwargs):
        if audio:
            rows = [emb.shape[0]]
            passes.append(rows)
            if admit is not None:
                inner = admit

                def admit(live):
                    joining = inner(live)
                    if joining is not None:
                        rows.append(joining.emb.shape[0])
                    return joining

        return real(emb, mask, audio, *args, admit=admit, **kwargs)

    monkeypatch.setattr(loop, "generate", recording)
    return passes
