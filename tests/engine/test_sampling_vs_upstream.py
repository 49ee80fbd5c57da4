"""Sampling with ChatTTS's real settings, against ChatTTS's own GPT.generate on the same weights.

The audio pass samples with temperature 0.3, top-P 0.7, top-K 20 and a repetition penalty of
1.05 over the last 16 tokens. Upstream runs its own processors (ChatTTS's penalty, transformers'
top-P/top-K warpers); a processor appended after them records the distribution it is about to
sample from and replaces `torch.multinomial` by the draw our loop makes: the inverse CDF at the
sentence's next uniform number (the seed's CPU generator, in order). Over 48 steps the penalty
window fills and slides, so a penalty reversed, applied to no history, or to the wrong window
changes the distributions, and with them the tokens.
"""

import pytest
import torch
from ChatTTS.model.processors import gen_logits

from app.decode.loop import DecodeLoop
from app.decode.passes import Generated, PassParams
from app.decode.prompts import code_prompt, refine_prompt
from app.decode.sampling import PENALTY_WINDOW, filter_logits
from tests.support.decode_hooks import hooking_steps, step_hooked

EOS_AUDIO = 625
TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]
AUDIO = dict(temperature=0.3, top_p=0.7, top_k=20, repetition_penalty=1.05)
REFINE = dict(
    temperature=0.7, top_p=0.7, top_k=20, repetition_penalty=1.0
)  # ChatTTS's refine defaults
STEPS = 48


def uniform_stream(seed: int, steps: int, per_row: int) -> torch.Tensor:
    """The uniform numbers a sentence's draws use: its seed's CPU generator, step after step."""
    return torch.rand(steps, per_row, generator=torch.Generator(device="cpu").manual_seed(seed))


def inverse_cdf(logits: torch.Tensor, uniform: torch.Tensor) -> torch.Tensor:
    probs = torch.softmax(logits, dim=-1)
    cdf = probs.cumsum(-1)
    return torch.searchsorted(cdf, uniform[:, None] * cdf[:, -1:], right=True).clamp(
        max=logits.shape[1] - 1
    )[:, 0]


class _Before:
    """First upstream processor: records the history and the logits of each step (upstream has
    divided them by the temperature already)."""

    def __init__(self):
        self.seen = []

    def __call__(self, ids, logits):
        self.seen.append((ids.clone(), logits.clone()))
        return logits


class _FixedDraw:
    """Last upstream processor: records what upstream samples from and picks by inverse CDF."""

    def __init__(self, uniforms: torch.Tensor):
        self.uniforms = uniforms  # (steps, rows) in upstream's row order
        self.seen = []

    def __call__(self, _ids, logits):
        step = len(self.seen)
        self.seen.append(logits.clone())
        picked = inverse_cdf(logits, self.uniforms[step])
        forced = torch.full_like(logits, float("-inf"))
        forced[torch.arange(logits.shape[0]), picked] = 0.0
        return forced


def _upstream(chat, texts, audio, settings, seeds, speaker=None):
    """Upstream's result, and per step (history, logits before its processors, logits after)."""
    per_row = 4 if audio else 1
    uniforms = torch.cat([uniform_stream(s, STEPS, per_row) for s in seeds], dim=1)
    before, after = _Before(), _FixedDraw(uniforms)
    num_code = EOS_AUDIO if audio else len(chat.tokenizer._tokenizer)
    warpers, processors = gen_logits(
        num_code=num_code,
        top_P=settings["top_p"],
        top_K=settings["top_k"],
        repetition_penalty=settings["repetition_penalty"],
    )
    if audio:
        decorated = chat.speaker.decorate_code_prompts(list(texts), "[speed_5]", None, speaker)
        emb = code_prompt(chat, texts, "[speed_5]", speaker, None, None)[0]
    else:
        decorated = chat.speaker.decorate_text_prompts(list(texts), "")
        emb = refine_prompt(chat, texts, "")[0]
    ids, mask, _ = chat.tokenizer.encode(decorated, 4, device="cpu")
    out = next(
        chat.gpt.generate(
            emb,
            ids,
            temperature=torch.tensor([settings["temperature"]] * per_row),
            eos_token=EOS_AUDIO if audio else chat.tokenizer.eos_token,
            attention_mask=mask,
            max_new_token=STEPS,
            logits_processors=(before, *processors, *warpers, after),
            infer_text=not audio,
            return_hidden=audio,
            show_tqdm=False,
            stream=False,
            ensure_non_empty=False,
        )
    )
    steps = [(h, raw, filtered) for (h, raw), filtered in zip(before.seen, after.seen)]
    return out, steps


def _ours(loop, chat, texts, audio, settings, seeds, speaker=None):
    """Our result and, per step, the raw logits in upstream's row layout (rows of sentences
    that already ended, and left our batch, are NaN)."""
    per_row = 4 if audio else 1
    seen = []

    def record(_step, logits, rows):
        full = torch.full((len(texts) * per_row, logits.shape[1]), float("nan"))
        full.view(len(texts), per_row, -1)[rows] = logits.view(len(rows), per_row, -1)
        seen.append(full)

    with hooking_steps(loop, record):
        if audio:
            emb, mask = code_prompt(chat, texts, "[speed_5]", speaker, None, None)
        else:
            emb, mask = refine_prompt(chat, texts, "")
        params = PassParams(
            settings["temperature"],
            settings["top_p"],
            settings["top_k"],
            settings["repetition_penalty"],
            STEPS,
        )
        eos = EOS_AUDIO if audio else chat.tokenizer.eos_token
        result = list(loop.generate(emb, mask, audio, params, seeds, eos=eos))[-1]
    assert isinstance(result, Generated)
    return result, seen


@pytest.fixture(scope="module", params=["jit", "eager"])
def loop(request, chat):
    made = DecodeLoop(chat, request.param, "fp32")
    assert made.mode == request.param, made.jit_error
    return made


def _check(loop, chat, reference, texts, audio, settings, seeds, speaker=None):
    theirs, their_steps = _upstream(reference, texts, audio, settings, seeds, speaker)
    ours, our_raw = _ours(loop, chat, texts, audio, settings, seeds, speaker)
    kept_sizes = set()
    for step, (history, raw, filtered) in enumerate(their_steps[: len(our_raw)]):
        live = ~our_raw[step].isnan().any(1)
        # Same weights and the same tokens so far: the same logits ...
        torch.testing.assert_close(
            our_raw[step][live] / settings["temperature"], raw[live], rtol=1e-4, atol=1e-4
        )
        # ... and our filter, given upstream's history, keeps the same tokens with the same
        # probabilities as upstream's processors and warpers (temperature 1: already divided).
        mine = filter_logits(
            raw,
            history[:, -PENALTY_WINDOW:],
            torch.ones(raw.shape[0], 1),
            settings["repetition_penalty"],
            settings["top_p"],
            settings["top_k"],
            EOS_AUDIO if audio else chat.tokenizer.eos_token,
            False,
        )
        assert torch.equal(torch.isinf(mine), torch.isinf(filtered)), (
            f"step {step}: kept tokens differ"
        )
        torch.testing.assert_close(
            torch.softmax(mine, -1), torch.softmax(filtered, -1), rtol=1e-4, atol=1e-6
        )
        kept_sizes.update((~torch.isinf(filtered)).sum(1).tolist())
    # The draws of our loop (its history, window, filter and draw together) pick the same tokens.
    for row in range(len(texts)):
        their = theirs.ids[row] if audio else theirs.ids[row].reshape(-1)
        n = ours.tokens[row].shape[0]
        assert torch.equal(ours.tokens[row], their[:n]), f"sentence {row}"
    return ours, kept_sizes


@pytest.mark.parametrize(
    "texts, seeds", [(TEXTS[:1], [7]), (TEXTS, [11, 12, 13])], ids=["single", "batch"]
)
def test_audio_sampling_with_chattts_settings_matches_upstream(
    loop, chat, reference, synthesizer, texts, seeds
):
    ours, kept = _check(
        loop, chat, reference, texts, True, AUDIO, seeds, synthesizer.speaker_for_seed(7)
    )
    assert max(t.shape[0] for t in ours.tokens) > 2 * PENALTY_WINDOW  # the window filled and slid
    assert len(kept) > 1 and max(kept) <= AUDIO["top_k"]  # top-P and top-K both cut


def test_refine_sampling_with_chattts_settings_matches_upstream(loop, chat, reference):
    _check(loop, chat, reference, TEXTS, False, REFINE, [21, 22, 23])


A, B, C = 10, 20, 30  # three audio codes


def _scripted(step: int, logits: torch.Tensor, _rows) -> None:
    """Logits that leave the choice to the repetition penalty.

    Steps 0-3 say A, steps 4-19 say C (sixteen of them: A leaves the 16-token window), then
    A=100 and B=98 every step. After the 0.3 temperature that is 333.3 against 326.7: A wins
    unless penalized. A penalty of 1.05 divides a positive logit by 1.05 per occurrence in the
    window, so a single A in the window (317.5) loses to a B that is not there, and A and B
    once each leaves A ahead (317.5 to 311.1): from step 20 the codes alternate A, B, A, B.
    A reversed penalty, no history or a window longer than 16 all give something else."""
    logits.fill_(0.0)
    if step < 4:
        logits[:, A] = 100.0
    elif step < 20:
        logits[:, C] = 100.0
    else:
        logits[:, A], logits[:, B] = 100.0, 98.0


def test_the_repetition_penalty_and_its_window_decide_the_tokens(chat):
    loop = DecodeLoop(chat, "eager", "fp32")
    loop.filter_step = step_hooked(loop, _scripted)
    emb, mask = code_prompt(chat, TEXTS[:2], "[speed_5]", None, None, None)
    result = list(
        loop.generate(
            emb, mask, True, PassParams(**AUDIO, max_new_tokens=30), [1, 2], eos=EOS_AUDIO
        )
    )[-1]
    expected = [A] * 4 + [C] * 16 + [A, B] * 5
    for row in range(2):
        for q in range(4):
            assert result.tokens[row][:, q].tolist() == expected, (row, q)


def test_the_penalty_divides_positive_and_multiplies_negative_logits():
    """Direct check of the arithmetic (ChatTTS's processor): 1.05 per occurrence in the history."""
    from app.decode.sampling import filter_logits

    logits = torch.tensor([[2.0, -2.0, 1.0, 0.5]])
    history = torch.tensor([[0, 0, 1]])
    out = filter_logits(logits, history, torch.ones(1, 1), 1.05, 1.0, 0, 99, False)
    torch.testing.assert_close(out, torch.tensor([[2.0 / 1.05**2, -2.0 * 1.05, 1.0, 0.5]]))
