import json

import pytest

from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME
from app.selftest.dimensions import dimensions
from app.selftest.random_model import build_random_model
from app.selftest.tokenizer import INLINE_CONTROLS, PROMPT_CONTROLS


def test_tiny_model_has_the_official_layout_and_a_config(tiny_model):
    for rel in MODEL_FILES:
        assert (tiny_model / rel).is_file(), rel
    cfg = json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())
    assert cfg["kind"] == "random-weights"
    assert cfg["size"] == "tiny"
    assert set(cfg["sha256"]) == set(MODEL_FILES)
    assert cfg["dimensions"]["gpt"]["hidden_size"] == dimensions("tiny").gpt.hidden_size
    assert "noise" in cfg["note"]


def test_full_dimensions_are_chattts_defaults():
    from ChatTTS.config.config import Config

    official = Config()
    full = dimensions("full").model_dump()
    for key in (
        "hidden_size",
        "intermediate_size",
        "num_attention_heads",
        "num_hidden_layers",
        "num_audio_tokens",
        "num_vq",
    ):
        assert full["gpt"][key] == getattr(official.gpt, key), key
    for key, value in full["decoder"].items():
        assert getattr(official.decoder, key) == value, key
    assert full["dvae"]["vq"]["dim"] == official.dvae.vq.dim
    assert full["vocos"]["dim"] == official.vocos.backbone.init_args.dim
    # ChatTTS's speaker statistics: 2 x hidden_size float16 values.
    from app.voices.speakers import decode_stat

    std, mean = decode_stat(official.spk_stat)
    assert std.shape[0] == mean.shape[0] == full["gpt"]["hidden_size"]


def test_tokenizer_keeps_chattts_control_token_order(tiny_model):
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast.from_pretrained(str(tiny_model / "asset" / "tokenizer"))
    break0 = tok.convert_tokens_to_ids("[break_0]")
    # ChatTTS keeps refined tokens below [break_0]: inline controls must sort before it.
    assert all(tok.convert_tokens_to_ids(t) < break0 for t in INLINE_CONTROLS)
    assert all(tok.convert_tokens_to_ids(t) >= break0 for t in PROMPT_CONTROLS)
    ids = tok._encode_plus("[Stts][spk_emb]你好，world[uv_break][Ptts]", add_special_tokens=False)[
        "input_ids"
    ]
    assert tok.unk_token_id not in ids
    assert tok.convert_ids_to_tokens(ids)[:3] == ["[Stts]", "[spk_emb]", "你"]


def test_build_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="not empty"):
        build_random_model(tmp_path, "tiny")
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_same_seed_builds_identical_weights(tiny_model, tmp_path):
    again = build_random_model(tmp_path / "again", "tiny", seed=0)
    first = json.loads((tiny_model / STUDIO_CONFIG_NAME).read_text())["sha256"]
    second = json.loads((again / STUDIO_CONFIG_NAME).read_text())["sha256"]
    assert first == second
    assert not list(tmp_path.glob(".again.building-*"))
