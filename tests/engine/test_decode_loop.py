"""Our decode loop against ChatTTS's own GPT.generate on the same (tiny, random) weights."""

import numpy as np
import pytest
import torch

from app.decode.loop import DecodeLoop
from app.decode.passes import Generated, PassParams
from app.decode.prompts import code_prompt, refine_prompt
from tests.support.decode_hooks import hooking_steps, step_hooked

TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]
EOS_AUDIO = 625


class _Recorder:
    """An upstream logits processor that keeps the logits it sees and forces argmax."""

    def __init__(self):
        self.seen = []

    def __call__(self, _ids, logits):
        self.seen.append(logits.clone())
        keep = torch.full_like(logits, float("-inf"))
        keep.scatter_(1, logits.argmax(1, keepdim=True), 0.0)
        return logits + keep


def _upstream(chat, texts, audio, steps, speaker=None):
    recorder = _Recorder()
    if audio:
        decorated = chat.speaker.decorate_code_prompts(list(texts), "[speed_5]", None, speaker)
    else:
        decorated = chat.speaker.decorate_text_prompts(list(texts), "")
    ids, mask, _ = chat.tokenizer.encode(decorated, 4, device="cpu")
    emb = (
        code_prompt(chat, texts, "[speed_5]", speaker, None, None)
        if audio
        else refine_prompt(chat, texts, "")
    )[0]
    out = next(
        chat.gpt.generate(
            emb,
            ids,
            temperature=torch.tensor([1.0] * (4 if audio else 1)),
            eos_token=EOS_AUDIO if audio else chat.tokenizer.eos_token,
            attention_mask=mask,
            max_new_token=steps,
            logits_processors=(recorder,),
            infer_text=not audio,
            return_hidden=audio,
            show_tqdm=False,
            stream=False,
            ensure_non_empty=False,
        )
    )
    return out, recorder.seen


def _ours(loop, chat, texts, audio, steps, speaker=None, greedy=True, seeds=None):
    """Our loop's result and, per step, its logits laid out like upstream's (all rows; rows
    that already ended and left our batch are NaN)."""
    seen = []
    per_row = 4 if audio else 1

    def record(_i, logits, rows):
        full = torch.full((len(texts) * per_row, logits.shape[1]), float("nan"))
        full.view(len(texts), per_row, -1)[rows] = logits.view(len(rows), per_row, -1)
        seen.append(full)

    with hooking_steps(loop, record):
        if audio:
            emb, mask = code_prompt(chat, texts, "[speed_5]", speaker, None, None)
        else:
            emb, mask = refine_prompt(chat, texts, "")
        params = PassParams(1.0, 1.0, 0, 1.0, steps, greedy=greedy)
        events = list(
            loop.generate(
                emb,
                mask,
                audio,
                params,
                seeds or list(range(len(texts))),
                eos=EOS_AUDIO if audio else chat.tokenizer.eos_token,
            )
        )
    assert isinstance(events[-1], Generated)
    return events[-1], seen


@pytest.fixture(scope="module", params=["jit", "eager"])
def loop(request, chat):
    made = DecodeLoop(chat, request.param, "fp32")
    assert made.mode == request.param, made.jit_error  # TorchScript must really compile here
    return made


@pytest.mark.parametrize("texts", [TEXTS[:1], TEXTS], ids=["single", "batch"])
def test_audio_pass_matches_upstream_logits_tokens_and_hiddens(
    loop, chat, reference, synthesizer, texts
):
    speaker = synthesizer.speaker_for_seed(7)
    theirs, their_logits = _upstream(reference, texts, True, 24, speaker)
    ours, our_logits = _ours(loop, chat, texts, True, 24, speaker)
    steps = min(len(their_logits), len(our_logits))
    assert steps >= 2
    for step in range(steps):
        live = ~our_logits[step].isnan().any(1)
        torch.testing.assert_close(
            our_logits[step][live], their_logits[step][live], rtol=1e-4, atol=1e-4
        )
    for row in range(len(texts)):
        assert torch.equal(ours.tokens[row], theirs.ids[row])
        torch.testing.assert_close(ours.hiddens[row], theirs.hiddens[row], rtol=1e-4, atol=1e-4)


def test_refine_pass_matches_upstream(loop, chat, reference):
    theirs, their_logits = _upstream(reference, TEXTS, False, 16)
    ours, our_logits = _ours(loop, chat, TEXTS, False, 16)
    for step in range(min(len(their_logits), len(our_logits))):
        live = ~our_logits[step].isnan().any(1)
        torch.testing.assert_close(
            our_logits[step][live], their_logits[step][live], rtol=1e-4, atol=1e-4
        )
    for row in range(len(TEXTS)):
        assert torch.equal(ours.tokens[row].cpu(), theirs.ids[row].cpu())


@pytest.mark.parametrize("greedy", [True, False], ids=["greedy", "sampled"])
def test_a_batch_decodes_each_sentence_as_if_alone(loop, chat, greedy):
    together, _ = _ours(loop, chat, TEXTS, True, 40, greedy=greedy, seeds=[11, 12, 13])
    for row, text in enumerate(TEXTS):
        alone, _ = _ours(loop, chat, [text], True, 40, greedy=greedy, seeds=[11 + row])
        assert torch.equal(together.tokens[row], alone.tokens[0])
        torch.testing.assert_close(together.hiddens[row], alone.hiddens[0], rtol=1e-4, atol=1e-4)


def test_each_sentence_stops_at_its_own_end_token(chat):
    """Rows that end early keep their length and leave the batch; the others go on exactly as
    in the fixed-shape step, where every row stays to the end."""
    ends = {0: 3, 2: 7}  # row -> step at which we make it emit the end token

    def force_ends(step, logits, rows):
        for place, row in enumerate(rows.tolist()):
            if ends.get(row) == step:
                logits[place * 4 : (place + 1) * 4] = float("-inf")
                logits[place * 4 : (place + 1) * 4, EOS_AUDIO] = 0.0

    results, batch_sizes = [], []
    for static in (False, True):
        loop = DecodeLoop(chat, "eager", "fp32")
        loop.static_steps = static
        loop.filter_step = step_hooked(
            loop,
            lambda step, logits, rows, static=static: (
                batch_sizes.append((static, len(rows))),
                force_ends(step, logits, rows),
            ),
        )
        emb, mask = code_prompt(chat, TEXTS, "[speed_5]", None, None, None)
        results.append(
            list(
                loop.generate(
                    emb, mask, True, PassParams(0.3, 0.7, 20, 1.05, 12), [0, 1, 2], eos=EOS_AUDIO
                )
            )[-1]
        )
    growing, fixed = results
    lengths = [t.shape[0] for t in growing.tokens]
    assert lengths[0] == 3 and lengths[2] == 7
    assert growing.hit_limit[1] == (lengths[1] == 12)
    assert growing.hit_limit[0] is False and growing.hit_limit[2] is False
    assert all(t.shape[1] == 4 and not (t == EOS_AUDIO).any() for t in growing.tokens)
    assert min(n for s, n in batch_sizes if not s) < 3  # ended rows really left the batch
    assert min(n for s, n in batch_sizes if s) == 3
    for row in range(3):
        assert torch.equal(growing.tokens[row], fixed.tokens[row])
        torch.testing.assert_close(growing.hiddens[row], fixed.hiddens[row], rtol=1e-4, atol=1e-4)


def test_sampling_is_seeded_per_sentence(loop, chat):
    a, _ = _ours(loop, chat, TEXTS[:1], True, 30, greedy=False, seeds=[5])
    b, _ = _ours(loop, chat, TEXTS[:1], True, 30, greedy=False, seeds=[5])
    c, _ = _ours(loop, chat, TEXTS[:1], True, 30, greedy=False, seeds=[6])
    assert torch.equal(a.tokens[0], b.tokens[0])
    assert not torch.equal(a.tokens[0], c.tokens[0])


@pytest.mark.parametrize("precision", ["bf16", "int8"])
def test_reduced_precisions_stay_close_to_fp32(chat, precision):
    """int8/bf16 change the numbers a little, not the model: the first greedy step agrees."""
    exact = DecodeLoop(chat, "jit", "fp32")
    reduced = DecodeLoop(chat, "jit", precision)
    assert reduced.precision == precision and reduced.mode == "jit", reduced.jit_error
    _, exact_logits = _ours(exact, chat, TEXTS[:1], True, 1)
    _, reduced_logits = _ours(reduced, chat, TEXTS[:1], True, 1)
    a, b = exact_logits[0].flatten(), reduced_logits[0].flatten()
    assert not a.isnan().any()
    assert torch.nn.functional.cosine_similarity(a, b, dim=0) > 0.98
    assert not torch.equal(a, b)  # it really ran in another precision


def test_repetition_penalty_and_filters_follow_chattts():
    """Our TorchScript filter against ChatTTS's processor and transformers' warpers."""
    from ChatTTS.model.processors import gen_logits

    from app.decode.sampling import filter_logits

    torch.manual_seed(0)
    logits = torch.randn(8, 626) * 3
    history = torch.randint(0, 626, (8, 16))
    history[:, :6] = 3  # a token repeated: the penalty must bite
    warpers, processors = gen_logits(num_code=625, top_P=0.7, top_K=20, repetition_penalty=1.05)
    expected = logits / 0.3
    for f in (*processors, *warpers):
        expected = f(history, expected)
    ours = filter_logits(logits, history, torch.full((8, 1), 0.3), 1.05, 0.7, 20, 625, False)
    assert torch.equal(torch.isinf(ours), torch.isinf(expected))
    finite = ~torch.isinf(ours)
    torch.testing.assert_close(ours[finite], expected[finite])
    banned = filter_logits(logits, history, torch.full((8, 1), 0.3), 1.05, 0.7, 20, 625, True)
    assert torch.isinf(banned[:, 625]).all()


def test_draw_follows_the_distribution():
    from app.decode.sampling import draw

    logits = torch.log(torch.tensor([[0.1, 0.0001, 0.6, 0.2999]]))
    picks = [int(draw(logits, torch.tensor([[u]]))[0]) for u in np.linspace(0.0, 0.999, 1000)]
    counts = np.bincount(picks, minlength=4) / 1000
    np.testing.assert_allclose(counts, [0.1, 0.0, 0.6, 0.3], atol=0.01)


def test_fixed_shape_step_used_by_cuda_graphs_gives_the_same_result(chat):
    """The static step (whole cache, future masked) is what a CUDA graph replays; on the CPU
    it runs without the graph, so its arithmetic is checked here against the growing step."""
    growing = DecodeLoop(chat, "jit", "fp32")
    static = DecodeLoop(chat, "jit", "fp32")
    static.static_steps, static.cuda_graphs = True, False
    a, _ = _ours(growing, chat, TEXTS, True, 30, greedy=False, seeds=[1, 2, 3])
    b, _ = _ours(static, chat, TEXTS, True, 30, greedy=False, seeds=[1, 2, 3])
    for row in range(len(TEXTS)):
        assert torch.equal(a.tokens[row], b.tokens[row])
        torch.testing.assert_close(a.hiddens[row], b.hiddens[row], rtol=1e-4, atol=1e-4)


def test_when_torchscript_fails_the_same_loop_runs_eagerly(chat, monkeypatch, caplog):
    def refuse(_fn):
        raise RuntimeError("this TorchScript cannot compile that")

    compiled = DecodeLoop(chat, "jit", "fp32")
    monkeypatch.setattr(torch.jit, "script", refuse)
    fallback = DecodeLoop(chat, "jit", "fp32")
    assert (
        fallback.mode == "eager"
        and fallback.jit_error == "RuntimeError: this TorchScript cannot compile that"
    )
    assert "running it eagerly" in caplog.text
    a, _ = _ours(compiled, chat, TEXTS, True, 20, greedy=False, seeds=[4, 5, 6])
    b, _ = _ours(fallback, chat, TEXTS, True, 20, greedy=False, seeds=[4, 5, 6])
    for row in range(len(TEXTS)):
        assert torch.equal(a.tokens[row], b.tokens[row])
