"""How the decode loop uses the compiled-step cache, with a cache that records what it is asked:
which loops have a key at all (not fp32, not eager, not a GPU), that a miss converts and saves
the step under that key, that a hit is used as it is (nothing converted), that a step read
beforehand is not read again, and that a GPT loaded without weights needs one."""

from concurrent.futures import Future
from dataclasses import replace

import pytest
import torch

from app.decode import compiled_cache
from app.decode import precision as prec
from app.decode.compiled_cache import read_step, step_key
from app.decode.loop import DecodeLoop
from app.decode.options import DEFAULT, DecodeOptions
from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.model.runtime.llama import LlamaShell

CPU, GPU = torch.device("cpu"), torch.device("cuda")


class RecordingCache:
    def __init__(self, entry=None):
        self.entry, self.keys, self.loads, self.saves = entry, [], [], []

    def key(self, precision, recipe, device):
        self.keys.append((precision, recipe, device))
        return f"key-{precision}-{device}"

    def load(self, key, device):
        self.loads.append((key, device))
        return self.entry

    def save_in_background(self, key, module):
        self.saves.append((key, module))
        done = Future()
        done.set_result(None)
        return done


@pytest.mark.parametrize(
    "cache, mode, precision, device",
    [
        (None, "jit", "int8", CPU),
        (RecordingCache(), "eager", "int8", CPU),
        (RecordingCache(), "jit", "fp32", CPU),
        (RecordingCache(), "jit", "bf16", GPU),
    ],
)
def test_only_a_compiled_reduced_precision_step_on_a_cpu_has_a_key(cache, mode, precision, device):
    assert step_key(cache, mode, precision, device, DEFAULT.int8_recipe) is None
    assert cache is None or cache.keys == []


def test_the_key_names_precision_recipe_and_device():
    cache = RecordingCache()
    assert step_key(cache, "jit", "bf16", CPU, DEFAULT.int8_recipe) == "key-bf16-cpu"
    assert cache.keys == [("bf16", DEFAULT.int8_recipe, "cpu")]

    stressed = DecodeOptions(int8_recipe="another recipe")
    step_key(cache, "jit", "int8", CPU, stressed.int8_recipe)
    assert cache.keys[-1] == ("int8", "another recipe", "cpu")


def test_cached_step_reads_the_entry_of_the_precision_that_will_run(monkeypatch):
    cache = RecordingCache(entry="the step")
    assert read_step(cache, "jit", "bf16", CPU, None) == "the step"
    assert cache.loads == [("key-bf16-cpu", "cpu")]
    # "auto" is resolved the way the loop resolves it, so the key is the running precision's.
    monkeypatch.setattr(compiled_cache, "choose", lambda asked, device_type: ("int8", None))
    read_step(cache, "jit", "auto", CPU, None)
    assert cache.loads[-1] == ("key-int8-cpu", "cpu")


def test_fp32_reads_no_entry():
    cache = RecordingCache(entry="never used")
    assert read_step(cache, "jit", "fp32", CPU, None) is None and cache.loads == []


def _tokens(loop, chat):
    emb, mask = code_prompt(chat, ["今天天气很好。"], "[speed_5]", None, None, None)
    *_, last = loop.generate(
        emb, mask, True, PassParams(1.0, 1.0, 0, 1.0, 12, greedy=True), [3], eos=625
    )
    return last.tokens[0].tolist()


def test_a_miss_converts_and_saves_the_step_a_hit_is_used_as_it_is(chat, monkeypatch):
    missing = RecordingCache()
    fresh = DecodeLoop(chat, "jit", "bf16", cache=missing)
    assert missing.loads == [("key-bf16-cpu", "cpu")]
    assert [key for key, _ in missing.saves] == ["key-bf16-cpu"] and missing.saves[0][
        1
    ] is fresh._stack
    expected = _tokens(fresh, chat)

    def no_conversion(*args, **kwargs):
        raise AssertionError("a cached step must not be converted again")

    monkeypatch.setattr(prec, "convert", no_conversion)
    hit = RecordingCache(entry=fresh._stack)
    cached = DecodeLoop(chat, "jit", "bf16", cache=hit)
    assert cached._stack is fresh._stack and hit.saves == [] and cached.mode == "jit"
    assert _tokens(cached, chat) == expected


def test_a_step_read_beforehand_is_not_read_again(chat):
    cache = RecordingCache(entry="must not be read")
    given = DecodeLoop(chat, "jit", "bf16", cache=RecordingCache())._stack
    loop = DecodeLoop(chat, "jit", "bf16", cache=cache, step=given)
    assert cache.loads == [] and cache.saves == [] and loop._stack is given
    # step=None: looked up beforehand and missing, so converted here and saved.
    converted = DecodeLoop(chat, "jit", "bf16", cache=cache, step=None)
    assert cache.loads == [] and [key for key, _ in cache.saves] == ["key-bf16-cpu"]
    assert converted._stack is not given


def test_a_gpt_without_weights_needs_a_cached_step(chat):
    weightless = replace(chat, llama=LlamaShell(chat.llama.config))
    with pytest.raises(RuntimeError, match="without weights"):
        DecodeLoop(weightless, "jit", "bf16", cache=RecordingCache(), step=None)


def test_int8_is_calibrated_on_the_models_own_embeddings_and_quantized(chat, monkeypatch):
    """The loop hands the int8 conversion its own calibration (ChatTTS's text and audio
    embeddings, closer to what the step sees than the stack-only fallback) and the precision
    that will run."""
    from app.decode import int8

    seen = {}
    real = int8.quantize

    def recording(stack, calibration=None, in_place=False, recipe=int8.RECIPE):
        seen["calibration"] = calibration() if calibration is not None else None
        return real(stack, calibration, in_place=in_place, recipe=recipe)

    monkeypatch.setattr(int8, "quantize", recording)
    loop = DecodeLoop(chat, "eager", "int8")
    assert loop.precision == "int8" and seen["calibration"] is not None
    x, cos, sin = seen["calibration"]
    torch.testing.assert_close(
        x, int8.calibration_prompt(loop.emb_text, loop.emb_code), rtol=0, atol=0
    )
    assert cos is loop._cos and sin is loop._sin
    linears = [m for m in loop._stack.modules() if "Linear" in type(m).__name__]
    assert linears and all(type(m) is not torch.nn.Linear for m in linears)  # every one quantized


def test_an_int8_sentence_decodes_the_same_alone_and_in_a_batch(chat):
    """int8 scales activations row by row (decode/int8_rows.py), so a sentence's tokens do not
    depend on the sentences beside it: a server's clients each get what they would alone, and a
    retry or preemption may resume a partly played sentence in another batch. int8 with one
    activation scale per batch (fbgemm's own) changes them, so the check can tell."""
    from app.decode import int8

    texts = ["你好，世界。", "Hello there, a longer sentence than the first.", "再见。"]
    params = PassParams(0.3, 0.7, 20, 1.05, 24, min_new_tokens=24)

    def first_sentence(loop, count):
        emb, mask = code_prompt(chat, texts[:count], "[speed_5]", None, None, None)
        return list(loop.generate(emb, mask, True, params, [5, 6, 7][:count], eos=625))[-1].tokens[
            0
        ]

    for loop in (DecodeLoop(chat, "jit", "fp32"), DecodeLoop(chat, "jit", "int8")):
        assert loop.exact_across_batches and loop.mode == "jit", loop.jit_error
        assert torch.equal(first_sentence(loop, 1), first_sentence(loop, 3)), loop.precision
    per_batch = DecodeLoop(chat, "jit", "int8", options=DecodeOptions(int8_recipe=int8.PER_BATCH))
    assert not per_batch.exact_across_batches
    assert not torch.equal(first_sentence(per_batch, 1), first_sentence(per_batch, 3))
