"""ChatTTS 0.2.5's Tokenizer (ChatTTS/model/tokenizer.py) over the `tokenizers` library.

ChatTTS wraps transformers' BertTokenizer, which (transformers 5) rebuilds the normalizer,
pre-tokenizer and decoder from tokenizer_config.json's flags over the vocabulary and added
tokens of tokenizer.json; so does this, and `encode` pads and places a reference prompt exactly
as ChatTTS's does. Importing `tokenizers` costs milliseconds, transformers' Llama seconds.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch

CONFIG_CAP = 1024 * 1024
# As ChatTTS's tokenizer module does: no warning from `tokenizers` when a process forks later.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _flags(folder: Path) -> dict:
    path = folder / "tokenizer_config.json"
    try:
        if path.stat().st_size > CONFIG_CAP:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _flag(flags: dict, name: str, default):
    value = flags.get(name, default)
    return value if value is None or isinstance(value, bool) else default


class Tokenizer:
    def __init__(self, folder: Path | str):
        from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers

        folder = Path(folder)
        flags = _flags(folder)
        tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tok.normalizer = normalizers.BertNormalizer(
            clean_text=True,
            handle_chinese_chars=_flag(flags, "tokenize_chinese_chars", True),
            strip_accents=_flag(flags, "strip_accents", None),
            lowercase=_flag(flags, "do_lower_case", True),
        )
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece(prefix="##")
        self._tokenizer = tok
        self._clean_up = bool(_flag(flags, "clean_up_tokenization_spaces", False))
        self.len = tok.get_vocab_size(with_added_tokens=True)
        self.spk_emb_ids = self._id("[spk_emb]")
        self.break_0_ids = self._id("[break_0]")
        self.eos_token = self._id("[Ebreak]")

    def _id(self, token: str) -> int:
        found = self._tokenizer.token_to_id(token)
        if found is None:
            raise ValueError(f"the tokenizer has no {token}")
        return found

    @torch.inference_mode()
    def encode(
        self, text: list[str], num_vq: int, prompt: torch.Tensor | None = None, device="cpu"
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(input ids (B, T, num_vq), attention mask, text mask), left-padded, a reference
        prompt's codes at the end of every row (as ChatTTS's Tokenizer.encode)."""
        prompt_size = 0
        if prompt is not None:
            if prompt.size(0) != num_vq:
                raise ValueError("prompt dim 0 must equal to num_vq")
            prompt_size = prompt.size(1)
        ids = [
            torch.tensor(self._tokenizer.encode(t, add_special_tokens=False).ids, dtype=torch.long)
            for t in text
        ]
        width = max(x.size(0) for x in ids) + prompt_size
        input_ids = torch.zeros(len(ids), width, device=device, dtype=torch.long)
        attention_mask = torch.zeros(len(ids), width, device=device, dtype=torch.long)
        for i, row in enumerate(ids):
            start = width - prompt_size - row.size(0)
            input_ids[i, start : start + row.size(0)] = row
            attention_mask[i, start:width] = 1
        text_mask = attention_mask.bool()
        new_input_ids = input_ids.unsqueeze_(-1).expand(-1, -1, num_vq).clone()
        if prompt is not None and prompt_size > 0:
            text_mask[:, width - prompt_size :] = False
            new_input_ids[:, width - prompt_size :] = prompt.t().unsqueeze(0).to(device)
        return new_input_ids, attention_mask, text_mask

    @torch.inference_mode()
    def decode(self, sequences, skip_special_tokens: bool = False) -> list[str]:
        out = []
        for seq in sequences:
            ids = seq.tolist() if isinstance(seq, torch.Tensor) else list(seq)
            text = self._tokenizer.decode(ids, skip_special_tokens=skip_special_tokens)
            if self._clean_up:
                for a, b in (
                    (" .", "."),
                    (" ?", "?"),
                    (" !", "!"),
                    (" ,", ","),
                    (" ' ", "'"),
                    (" n't", "n't"),
                    (" 'm", "'m"),
                    (" 's", "'s"),
                    (" 've", "'ve"),
                    (" 're", "'re"),
                ):
                    text = text.replace(a, b)
            out.append(text)
        return out
