"""model/runtime builds the model's parts without importing ChatTTS; each must give exactly
what ChatTTS's own part gives on the same files (the `reference` fixture holds ChatTTS's,
loaded from the tiny model)."""

import json
from dataclasses import asdict

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.decode.llama_step import rotary_tables
from app.model.config import chattts_config
from app.model.runtime.config import llama_numbers, parts_config
from app.model.runtime.llama import LlamaShell, load_llama
from app.model.runtime.nets import load_embed, load_mel_decoder, load_vocoder
from app.model.runtime.speaker import Speaker
from app.model.runtime.tokenizer import Tokenizer
from app.model.schemas import read_model_dims
from app.model.store import ModelStore


@pytest.fixture(scope="module")
def light(tiny_model):
    cfg = ModelStore(tiny_model).studio_config()
    return parts_config(read_model_dims(tiny_model), cfg["spk_stat"])


def _numbers(cfg):
    """The numbers both name, of ChatTTS's Config or of our PartsConfig."""
    ours = not hasattr(cfg, "path")
    return (
        {k: getattr(cfg.gpt, k) for k in ("hidden_size", "num_vq", "num_audio_tokens")}
        | {"num_text_tokens": cfg.num_text_tokens if ours else cfg.gpt.num_text_tokens},
        cfg.decoder.model_dump() if ours else asdict(cfg.decoder),
        {
            k: getattr(cfg.vocos.backbone.init_args, k)
            for k in ("dim", "intermediate_dim", "num_layers")
        }
        if hasattr(cfg.vocos, "backbone")
        else cfg.vocos.model_dump(),
        asdict(cfg.path) if hasattr(cfg, "path") else cfg.paths,
        cfg.spk_stat,
    )


def test_the_official_numbers_are_chattts_defaults():
    assert _numbers(parts_config()) == _numbers(chattts_config())


def test_a_test_models_numbers_are_read_as_chattts_config_reads_them(tiny_model, light):
    cfg = ModelStore(tiny_model).studio_config()
    assert _numbers(light) == _numbers(chattts_config(read_model_dims(tiny_model), cfg["spk_stat"]))


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


def test_llama_numbers_match_the_models_own_config(tiny_model, reference):
    numbers = llama_numbers(tiny_model / "asset" / "gpt")
    cfg = reference.gpt.gpt.config
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
        {"hidden_act": "gelu"},
        {"attention_bias": True},
        {"mlp_bias": True},
    ],
)
def test_a_llama_our_runtime_does_not_build_is_refused(tiny_model, tmp_path, change):
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


def test_rotary_tables_are_the_same(tiny_model, reference):
    shell = LlamaShell(llama_numbers(tiny_model / "asset" / "gpt"))
    for dtype in (torch.float32, torch.bfloat16):
        ours = rotary_tables(shell, 300, dtype, torch.device("cpu"))
        theirs = rotary_tables(reference.gpt.gpt, 300, dtype, torch.device("cpu"))
        assert all(torch.equal(a, b) for a, b in zip(ours, theirs))


def test_our_llama_holds_chattts_weights_and_steps_the_same(tiny_model, reference):
    """The GPT read by our own loader (no transformers) has every weight of ChatTTS's Llama, and
    one step of decode/llama_step.py's stack over each gives the same hidden states."""
    from app.decode.llama_step import LlamaStack

    folder = tiny_model / "asset" / "gpt"
    ours, theirs = load_llama(llama_numbers(folder), folder, "cpu"), reference.gpt.gpt
    their_state = {k: v for k, v in theirs.state_dict().items() if not k.startswith("embed")}
    our_state = {k: v for k, v in ours.state_dict().items() if k != "device_probe"}
    assert our_state.keys() == their_state.keys()
    assert all(torch.equal(our_state[k], their_state[k]) for k in our_state)
    assert all(p.dtype == torch.float32 for p in ours.parameters())
    heads, length = ours.config.num_attention_heads, 5
    width = ours.config.hidden_size
    x = torch.randn(2, length, width, generator=torch.Generator().manual_seed(0))
    mask = torch.ones(length, length, dtype=torch.bool).tril_()[None, None].expand(2, 1, -1, -1)
    results = []
    for llama in (ours, theirs):
        cos, sin = rotary_tables(llama, length, torch.float32, torch.device("cpu"))
        shape = (ours.config.num_hidden_layers, 2, heads, length, width // heads)
        k, v = torch.zeros(shape), torch.zeros(shape)
        with torch.no_grad():
            results.append(LlamaStack(llama)(x, cos, sin, mask, k, v, torch.arange(length), length))
    assert torch.equal(results[0], results[1])


# -- tokenizer ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tokenizers(tiny_model, reference):
    return Tokenizer(tiny_model / "asset" / "tokenizer"), reference.tokenizer


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
def test_prompt_decoration_is_the_same(reference):
    texts = ["[Stts][spk_emb] 你好 [empty_spk]", "Hello."]
    for txt_smp, spk in ((None, None), ("参考", "x"), (None, "x")):
        assert Speaker.decorate_code_prompts(
            list(texts), "[speed_5]", txt_smp, spk
        ) == reference.speaker.decorate_code_prompts(list(texts), "[speed_5]", txt_smp, spk)
    assert Speaker.decorate_text_prompts(
        texts, "[oral_2]"
    ) == reference.speaker.decorate_text_prompts(texts, "[oral_2]")


def test_reference_codes_unpack_the_same(reference):
    codes = torch.randint(0, 625, (4, 37), dtype=torch.int32)
    packed = reference.speaker.encode_prompt(codes)
    assert torch.equal(Speaker.decode_prompt(packed), reference.speaker.decode_prompt(packed))
    assert torch.equal(Speaker.decode_prompt(packed), codes)


def test_the_speaker_embedding_is_placed_the_same(reference, synthesizer, tokenizers):
    ours_tok, _ = tokenizers
    speaker = synthesizer.speaker_for_seed(11)
    ids, _, _ = ours_tok.encode(
        Speaker.decorate_code_prompts(["你好。"], "", None, speaker), reference.config.gpt.num_vq
    )
    emb = torch.randn(ids.shape[0], ids.shape[1], reference.config.gpt.hidden_size)
    got = Speaker().apply(emb.clone(), speaker, ids, ours_tok.spk_emb_ids, torch.device("cpu"))
    expected = reference.speaker.apply(
        emb.clone(), speaker, ids, ours_tok.spk_emb_ids, torch.device("cpu")
    )
    assert torch.equal(got, expected) and not torch.equal(got, emb)


# -- networks ----------------------------------------------------------------------------------
def test_embeddings_and_heads_are_the_same(tiny_model, reference, light, tokenizers):
    embed = load_embed(
        light.gpt, light.num_text_tokens, tiny_model / light.paths["embed_path"], "cpu"
    )
    assert torch.equal(embed.head_text.weight, reference.embed.head_text.weight)
    assert all(
        torch.equal(a.weight, b.weight) for a, b in zip(embed.head_code, reference.embed.head_code)
    )
    ours_tok, _ = tokenizers
    ids, _, mask = ours_tok.encode(["你好 hello", "世界"], 4, prompt=torch.randint(0, 600, (4, 6)))
    assert torch.equal(embed(ids, mask), reference.embed(ids, mask))


def test_the_mel_decoder_is_the_same(tiny_model, reference, light):
    decoder = load_mel_decoder(light.decoder, tiny_model / light.paths["decoder_ckpt_path"], "cpu")
    hiddens = torch.randn(2, light.gpt.hidden_size, 23)
    with torch.inference_mode():
        torch.testing.assert_close(
            decoder(hiddens.clone()), reference.decoder(hiddens.clone()), rtol=0, atol=1e-6
        )


def test_the_vocoder_is_the_same(tiny_model, reference, light):
    vocos = load_vocoder(light.vocos, tiny_model / light.paths["vocos_ckpt_path"], "cpu")
    mel = torch.randn(2, 100, 40)
    with torch.inference_mode():
        assert torch.equal(vocos.decode(mel), reference.vocos.decode(mel))


def test_a_weights_file_of_other_shapes_is_refused(tiny_model, light, tmp_path):
    """Strict loading: an Embed file for other dimensions cannot give silently wrong tables."""
    from safetensors.torch import load_file, save_file

    tables = load_file(str(tiny_model / light.paths["embed_path"]))
    tables["emb_text.weight"] = tables["emb_text.weight"][:-1]
    save_file(tables, str(tmp_path / "Embed.safetensors"))
    with pytest.raises(RuntimeError):
        load_embed(light.gpt, light.num_text_tokens, tmp_path / "Embed.safetensors", "cpu")
