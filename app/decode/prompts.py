"""Prompt embeddings for our loop, built by the model's tokenizer, speaker and Embed
(model/runtime, each equal to ChatTTS's own).

These are the first lines of ChatTTS 0.2.5's `_refine_text` / `_infer_code`, so both loops
start from the very same tensors and only the decoding differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from app.model import ModelParts


@torch.inference_mode()
def refine_prompt(
    parts: ModelParts, texts: list[str], prompt: str
) -> tuple[torch.Tensor, torch.Tensor]:
    input_ids, attention_mask, text_mask = parts.tokenizer.encode(
        parts.speaker.decorate_text_prompts(list(texts), prompt),
        parts.config.gpt.num_vq,
        device=parts.device,
    )
    return parts.embed(input_ids, text_mask), attention_mask


@torch.inference_mode()
def code_prompt(
    parts: ModelParts,
    texts: list[str],
    prompt: str,
    spk_emb: str | None,
    spk_smp: str | None,
    txt_smp: str | None,
) -> tuple[torch.Tensor, torch.Tensor]:
    input_ids, attention_mask, text_mask = parts.tokenizer.encode(
        parts.speaker.decorate_code_prompts(list(texts), prompt, txt_smp, spk_emb),
        parts.config.gpt.num_vq,
        prompt=parts.speaker.decode_prompt(spk_smp) if spk_smp is not None else None,
        device=parts.device,
    )
    emb = parts.embed(input_ids, text_mask)
    if spk_emb is not None:
        parts.speaker.apply(emb, spk_emb, input_ids, parts.tokenizer.spk_emb_ids, parts.device)
    return emb, attention_mask


def refined_texts(parts: ModelParts, tokens: list[torch.Tensor]) -> list[str]:
    """Generated refine ids back to text, dropping what ChatTTS drops ([break_0] and after)."""
    kept = [t[t.less(parts.tokenizer.break_0_ids)].cpu() for t in tokens]
    return parts.tokenizer.decode(kept)


def code_prompts(
    parts: ModelParts,
    texts: list[str],
    prompt: str,
    speakers: list[str | None],
    references: list[tuple[str, str] | None],
) -> tuple[torch.Tensor, torch.Tensor]:
    """`code_prompt` for rows that may each have their own voice (sentences of different
    requests in one batch): each voice's rows are encoded as ChatTTS would encode them alone,
    then left-padded to one length. Padding is masked, so a row's tokens do not change."""
    keys = [(speakers[i], references[i]) for i in range(len(texts))]
    voices: dict = {}
    for i, key in enumerate(keys):
        voices.setdefault(key, []).append(i)
    if len(voices) == 1:
        speaker, reference = keys[0]
        spk_smp, txt_smp = reference if reference else (None, None)
        return code_prompt(parts, texts, prompt, speaker, spk_smp, txt_smp)
    encoded = {}
    for (speaker, reference), rows in voices.items():
        spk_smp, txt_smp = reference if reference else (None, None)
        encoded[(speaker, reference)] = code_prompt(
            parts, [texts[i] for i in rows], prompt, speaker, spk_smp, txt_smp
        )
    length = max(emb.shape[1] for emb, _mask in encoded.values())
    first_emb, first_mask = next(iter(encoded.values()))
    emb = first_emb.new_zeros(len(texts), length, first_emb.shape[2])
    mask = first_mask.new_zeros(len(texts), length)
    for key, rows in voices.items():
        part_emb, part_mask = encoded[key]
        width = part_emb.shape[1]
        for place, i in enumerate(rows):
            emb[i, length - width :] = part_emb[place]
            mask[i, length - width :] = part_mask[place]
    return emb, mask
