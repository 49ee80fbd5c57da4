"""engine/light rebuilds ChatTTS's parts around the decode step without importing ChatTTS; each
must give exactly what ChatTTS's own part gives on the same files (the session's synthesizer
holds ChatTTS's, loaded from the tiny model)."""

import json
from dataclasses import asdict

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.decode.llama_step import rotary_tables
from app.engine.light.config import light_config, llama_numbers
from app.engine.light.nets import LlamaShell, load_embed, load_mel_decoder, load_vocoder
from app.engine.light.speaker import LightSpeaker
from app.engine.light.tokenizer import LightTokenizer
from app.engine.models.config import chattts_config
from app.engine.models.store import ModelStore


@pytest.fixture(scope="module")
def light(tiny_model):
    cfg = ModelStore(tiny_model).studio_config()
    return light_config(cfg["dimensions"], cfg["spk_stat"])


def _numbers(cfg):
    return (
        {
            k: getattr(cfg.gpt, k)
            for k in ("hidden_size", "num_vq", "num_audio_tokens", "num_text_tokens")
        },
        asdict(cfg.decoder),
        {
            k: getattr(cfg.vocos.backbone.init_args, k)
            for k in ("dim", "intermediate_dim", "num_layers")
        }
        if hasattr(cfg.vocos, "backbone")
        else asdict(cfg.vocos),
        asdict(cfg.path) if hasattr(cfg, "path") else cfg.paths,
        cfg.spk_stat,
    )


def test_the_official_numbers_are_chattts_defaults():
    assert _numbers(light_config()) == _numbers(chattts_config())


def test_a_test_models_numbers_are_read_as_chattts_config_reads_them(tiny_model, light):
    cfg = ModelStore(tiny_model).studio_config()
    assert _numbers(light) == _numbers(chattts_config(cfg["dimensions"], cfg["spk_stat"]))


def test_the_vocoders_fixed_arguments_are_chattts_defaults():
    v = asdict(chattts_config().vocos)
    assert v["feature_extractor"]["init_args"] == {
        "sample_rate": 24000,
        "n_fft": 1024,
        "hop_length": 256,
        "n_mels": 100,
        "padding": "center",
    }
    assert v["head"]["init_args"] | {"dim": 0} == {
        "dim": 0,
        "n_fft": 1024,
        "hop_length": 256,
        "padding": "center",
    }
    assert v["backbone"]["init_args"]["input_channels"] == 100


def test_llama_numbers_match_the_models_own_config(tiny_model, chat):
    numbers = llama_numbers(tiny_model / "asset" / "gpt")
    cfg = chat.gpt.gpt.config
    assert (
        numbers.num_hidden_layers,
        numbers.num_attention_heads,
        numbers.hidden_size,
        numbers.max_position_embeddings,
    ) == (
        cfg.num_hidden_layers,
        cfg.num_attention_heads,
        cfg.hidden_size,
        cfg.max_position_embeddings,
    )


@pytest.mark.parametrize(
    "change",
    [
        {"rope_parameters": {"rope_theta": 10000.0, "rope_type": "linear", "factor": 2.0}},
        {"head_dim": 8},
        {"num_key_value_heads": 2},
    ],
)
def test_a_llama_the_light_path_does_not_cover_is_left_to_chattts(tiny_model, tmp_path, change):
    data = json.loads((tiny_model / "asset" / "gpt" / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(data | change))
    assert llama_numbers(tmp_path) is None


@pytest.mark.parametrize(
    "text", ['{"hidden_size": "64"}', "[1, 2]", "{" + " " * 70000 + "}", "not json"]
)
def test_a_hostile_llama_config_raises(tmp_path, text):
    (tmp_path / "config.json").write_text(text)
    with pytest.raises(ValueError):
        llama_numbers(tmp_path)


def test_rotary_tables_are_the_same(tiny_model, chat):
    shell = LlamaShell(llama_numbers(tiny_model / "asset" / "gpt"))
    for dtype in (torch.float32, torch.bfloat16):
        ours = rotary_tables(shell, 300, dtype, torch.device("cpu"))
        theirs = rotary_tables(chat.gpt.gpt, 300, dtype, torch.device("cpu"))
        assert all(torch.equal(a, b) for a, b in zip(ours, theirs))


# -- tokenizer ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tokenizers(tiny_model, chat):
    return LightTokenizer(tiny_model / "asset" / "tokenizer"), chat.tokenizer


def test_the_tokenizers_special_ids_are_the_same(tokenizers):
    ours, theirs = tokenizers
    assert (ours.len, ours.spk_emb_ids, ours.break_0_ids, ours.eos_token) == (
        theirs.len,
        theirs.spk_emb_ids,
        theirs.break_0_ids,
        theirs.eos_token,
    )


_PIECES = st.sampled_from(
    [
        "你好",
        "世界",
        "，",
        "。",
        "Hello",
        "WORLD",
        "café",
        "naïve",
        "Ünïcödé",
        " ",
        "  ",
        "\t",
        "\n",
        "\x00",
        "\u200b",
        "[uv_break]",
        "[laugh]",
        "[Stts]",
        "[spk_emb]",
        "[Ptts]",
        "[speed_5]",
        "[oral_2]",
        "[break_0]",
        "[",
        "]",
        "##",
        "123",
        "x" * 120,
        "ＡＢＣ",
        "!",
        "'s",
        " n't",
        ".",
    ]
)
_TEXTS = st.lists(st.lists(_PIECES, min_size=1, max_size=12).map("".join), min_size=1, max_size=3)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(texts=_TEXTS, with_prompt=st.booleans())
def test_encoding_is_the_same(tokenizers, texts, with_prompt):
    ours, theirs = tokenizers
    prompt = torch.randint(0, 600, (4, 5), dtype=torch.int32) if with_prompt else None
    got, expected = (
        ours.encode(list(texts), 4, prompt=prompt),
        theirs.encode(list(texts), 4, prompt=prompt),
    )
    for a, b in zip(got, expected):
        assert a.dtype == b.dtype and torch.equal(a, b)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ids=st.lists(st.lists(st.integers(0, 21200), max_size=20), min_size=1, max_size=3))
def test_decoding_is_the_same(tokenizers, ids):
    ours, theirs = tokenizers
    seqs = [torch.tensor(x, dtype=torch.long) for x in ids]
    assert ours.decode(seqs) == theirs.decode(seqs)


# -- speaker -----------------------------------------------------------------------------------
def test_prompt_decoration_is_the_same(chat):
    texts = ["[Stts][spk_emb] 你好 [empty_spk]", "Hello."]
    for txt_smp, spk in ((None, None), ("参考", "x"), (None, "x")):
        assert LightSpeaker.decorate_code_prompts(
            list(texts), "[speed_5]", txt_smp, spk
        ) == chat.speaker.decorate_code_prompts(list(texts), "[speed_5]", txt_smp, spk)
    assert LightSpeaker.decorate_text_prompts(
        texts, "[oral_2]"
    ) == chat.speaker.decorate_text_prompts(texts, "[oral_2]")


def test_reference_codes_unpack_the_same(chat):
    codes = torch.randint(0, 625, (4, 37), dtype=torch.int32)
    packed = chat.speaker.encode_prompt(codes)
    assert torch.equal(LightSpeaker.decode_prompt(packed), chat.speaker.decode_prompt(packed))
    assert torch.equal(LightSpeaker.decode_prompt(packed), codes)


def test_the_speaker_embedding_is_placed_the_same(chat, synthesizer, tokenizers):
    ours_tok, _ = tokenizers
    speaker = synthesizer.speaker_for_seed(11)
    ids, _, _ = ours_tok.encode(
        LightSpeaker.decorate_code_prompts(["你好。"], "", None, speaker), chat.config.gpt.num_vq
    )
    emb = torch.randn(ids.shape[0], ids.shape[1], chat.config.gpt.hidden_size)
    got = LightSpeaker().apply(emb.clone(), speaker, ids, ours_tok.spk_emb_ids, torch.device("cpu"))
    expected = chat.speaker.apply(
        emb.clone(), speaker, ids, ours_tok.spk_emb_ids, torch.device("cpu")
    )
    assert torch.equal(got, expected) and not torch.equal(got, emb)


# -- networks ----------------------------------------------------------------------------------
def test_embeddings_and_heads_are_the_same(tiny_model, chat, light, tokenizers):
    embed = load_embed(light.gpt, tiny_model / light.paths["embed_path"], "cpu")
    assert torch.equal(embed.head_text.weight, chat.embed.head_text.weight)
    assert all(
        torch.equal(a.weight, b.weight) for a, b in zip(embed.head_code, chat.embed.head_code)
    )
    ours_tok, _ = tokenizers
    ids, _, mask = ours_tok.encode(["你好 hello", "世界"], 4, prompt=torch.randint(0, 600, (4, 6)))
    assert torch.equal(embed(ids, mask), chat.embed(ids, mask))


def test_the_mel_decoder_is_the_same(tiny_model, chat, light):
    decoder = load_mel_decoder(light.decoder, tiny_model / light.paths["decoder_ckpt_path"], "cpu")
    hiddens = torch.randn(2, light.gpt.hidden_size, 23)
    with torch.inference_mode():
        torch.testing.assert_close(
            decoder(hiddens.clone()), chat.decoder(hiddens.clone()), rtol=0, atol=1e-6
        )


def test_the_vocoder_is_the_same(tiny_model, chat, light):
    vocos = load_vocoder(light.vocos, tiny_model / light.paths["vocos_ckpt_path"], "cpu")
    mel = torch.randn(2, 100, 40)
    with torch.inference_mode():
        assert torch.equal(vocos.decode(mel), chat.vocos.decode(mel))


def test_a_weights_file_of_other_shapes_is_refused(tiny_model, light, tmp_path):
    """Strict loading: an Embed file for other dimensions cannot give silently wrong tables."""
    from safetensors.torch import load_file, save_file

    tables = load_file(str(tiny_model / light.paths["embed_path"]))
    tables["emb_text.weight"] = tables["emb_text.weight"][:-1]
    save_file(tables, str(tmp_path / "Embed.safetensors"))
    with pytest.raises(RuntimeError):
        load_embed(light.gpt, tmp_path / "Embed.safetensors", "cpu")
