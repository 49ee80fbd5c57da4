"""A BERT WordPiece tokenizer in ChatTTS's layout, built offline.

The official tokenizer is a Chinese BERT vocabulary plus ChatTTS's control tokens. Ours
keeps the parts ChatTTS depends on: every CJK ideograph and ASCII character is a token
(so any Chinese or English text encodes without [UNK]), and the control tokens exist with
the same ordering property ChatTTS relies on: after refinement it keeps only ids below
`[break_0]`, so the tokens a refined text may contain ([uv_break], [laugh], [lbreak], ...)
sort before `[break_0]` and the prompt/level tokens after it.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

BASE_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
# Tokens a refined text can keep: below [break_0].
INLINE_CONTROLS = [
    "[uv_break]",
    "[v_break]",
    "[lbreak]",
    "[llbreak]",
    "[undefine]",
    "[laugh]",
    "[music]",
    "[pure]",
]
# Tokens that only ever appear in prompts: from [break_0] on.
PROMPT_CONTROLS = (
    [f"[break_{i}]" for i in range(8)]
    + [f"[laugh_{i}]" for i in range(3)]
    + [f"[oral_{i}]" for i in range(10)]
    + [f"[speed_{i}]" for i in range(10)]
    + ["[Sbreak]", "[Pbreak]", "[Ebreak]", "[Stts]", "[Ptts]", "[Etts]", "[spk_emb]", "[empty_spk]"]
)
CJK_PUNCTUATION = "，。、！？：；“”‘’（）《》【】「」『』…—～·￥％"


def vocabulary() -> list[str]:
    words: list[str] = list(BASE_SPECIALS)
    words += [c for c in string.printable if not c.isspace()]
    words += ["##" + c for c in string.ascii_lowercase + string.digits]
    words += list(CJK_PUNCTUATION)
    words += [chr(cp) for cp in range(0x4E00, 0xA000)]
    return words


def build_tokenizer(out_dir: Path) -> int:
    """Write tokenizer.json, tokenizer_config.json, special_tokens_map.json; return its size."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers
    from transformers import BertTokenizerFast

    words = vocabulary()
    controls = INLINE_CONTROLS + PROMPT_CONTROLS
    vocab = {w: i for i, w in enumerate(words)}
    core = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    core.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=True
    )
    core.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    core.decoder = decoders.WordPiece(prefix="##")
    tokenizer = BertTokenizerFast(
        tokenizer_object=core,
        unk_token="[UNK]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        mask_token="[MASK]",
        do_lower_case=True,
        tokenize_chinese_chars=True,
    )
    # Added in this order, the inline controls get ids before [break_0] and the rest after.
    tokenizer.add_special_tokens({"additional_special_tokens": controls})
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(str(out_dir))
    for extra in ("vocab.txt", "added_tokens.json", "chat_template.jinja"):
        (out_dir / extra).unlink(missing_ok=True)
    # transformers 5 no longer writes this file, but the official layout has it.
    special = {
        "unk_token": "[UNK]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "cls_token": "[CLS]",
        "mask_token": "[MASK]",
        "additional_special_tokens": controls,
    }
    (out_dir / "special_tokens_map.json").write_text(
        json.dumps(special, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return len(tokenizer)
