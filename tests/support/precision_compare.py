"""How far a decode precision strays from fp32 on the same weights (tests and bench/precision_quality.py).

Both loops decode the same audio prompt greedily (argmax of the raw logits of each codebook)
for `steps` steps:
- free running: each loop feeds back its own tokens; `first_divergence` is the first step whose
  codes differ (None: none did) and `free_agreement` the share of codes equal to fp32's;
- teacher forced: the candidate is fed fp32's tokens, so each step compares the two on the same
  history: `top1_agreement` (share of codes whose argmax matches), logit `max_abs`,
  `max_rel` (largest ||d|| / ||fp32|| of a step), `min_cosine` and `mean_cosine`.
"""

from __future__ import annotations

import torch

from app.decode.prompts import code_prompt

TEXT = "今天天气很好，我们一起去公园散步吧。"


def _decode(loop, emb: torch.Tensor, steps: int, forced: torch.Tensor | None = None):
    """(per-step logits (4, A), per-step codes (4,)) of one sentence, batch 1."""
    prompt = emb.shape[1]
    k, v = loop.allocate_cache(1, prompt + steps, torch.zeros)
    slots = torch.arange(prompt + steps)
    positions = torch.arange(prompt)[None]
    mask = torch.ones(prompt, prompt, dtype=torch.bool).tril_()[None, None]
    with torch.inference_mode():
        hidden = loop.run_stack(emb, positions, mask, k, v, slots[:prompt], prompt)[:, -1]
        logits, codes = [], []
        for i in range(steps):
            step_logits = loop.logits(hidden, audio=True).float()
            logits.append(step_logits)
            picked = step_logits.argmax(-1)
            codes.append(picked)
            fed = picked if forced is None else forced[i]
            at = prompt + i
            x = loop.embed_tokens(fed.view(1, -1), audio=True)
            step_mask = torch.ones(1, 1, 1, at + 1, dtype=torch.bool)
            hidden = loop.run_stack(
                x, torch.tensor([[at]]), step_mask, k, v, slots[at : at + 1], at + 1
            )[:, -1]
    return torch.stack(logits), torch.stack(codes)


def prompt_embedding(chat, speaker: str | None = None) -> torch.Tensor:
    emb, _mask = code_prompt(chat, [TEXT], "[speed_5]", speaker, None, None)
    return emb


def reference_run(reference, emb: torch.Tensor, steps: int):
    """The fp32 loop's greedy decode, to compare several candidates with (see `compare`)."""
    return _decode(reference, emb, steps)


def compare(reference, candidate, emb: torch.Tensor, steps: int) -> dict:
    """Numbers for `candidate` (a DecodeLoop) against `reference`: the fp32 DecodeLoop, or its
    `reference_run` over the same prompt and steps."""
    ref_logits, ref_codes = (
        reference if isinstance(reference, tuple) else _decode(reference, emb, steps)
    )
    free_logits, free_codes = _decode(candidate, emb, steps)
    forced_logits, _ = _decode(candidate, emb, steps, forced=ref_codes)
    same = (free_codes == ref_codes).all(-1)
    diverged = (~same).nonzero()
    d = (forced_logits - ref_logits).flatten(1)
    ref = ref_logits.flatten(1)
    cosine = torch.nn.functional.cosine_similarity(forced_logits.flatten(1), ref, dim=1)
    return {
        "steps": steps,
        "first_divergence": int(diverged[0, 0]) if diverged.numel() else None,
        "free_agreement": round(float((free_codes == ref_codes).float().mean()), 4),
        "top1_agreement": round(float((forced_logits.argmax(-1) == ref_codes).float().mean()), 4),
        "max_abs": float(f"{float(d.abs().max()):.4g}"),
        "max_rel": float(f"{float((d.norm(dim=1) / ref.norm(dim=1)).max()):.4g}"),
        "min_cosine": round(float(cosine.min()), 5),
        "mean_cosine": round(float(cosine.mean()), 5),
    }


def on_runtime(loop_class, view, weights: str, **options):
    """A bench step runtime (bench/support's OrtLoop, OvLoop, TorchaoLoop) over the model `view`
    with `weights`, its embeddings and heads from an eager fp32 loop."""
    from app.decode.llama_step import LlamaStack
    from app.decode.loop import DecodeLoop

    reference = DecodeLoop(view, "eager", "fp32")
    return loop_class(reference, LlamaStack(view.llama).eval(), weights, **options)
