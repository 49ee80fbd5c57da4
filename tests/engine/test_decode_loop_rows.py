"""The decode loop's own bookkeeping, in short decodes on the tiny model, TorchScript and eager:
rows that end early leave the batch without disturbing the others, streamed progress, the
token limits, Stop, the position limit, invalid numbers and the text pass. The end of each row
is forced through the loop's logits hook, so every case is decided, not left to chance."""

import threading

import pytest
import torch

from app.core.errors import InputTextError, NumericalError, SynthesisCancelled
from app.decode.loop import DecodeLoop
from app.decode.passes import Generated, PassParams, Progress
from app.decode.prompts import code_prompt, refine_prompt
from tests.support.decode_hooks import hooking_steps, step_hooked

TEXTS = ["你好，世界。", "Hello there, a longer sentence than the first。", "再见。"]
EOS = 625
CHATTTS = dict(temperature=0.3, top_p=0.7, top_k=20, repetition_penalty=1.05)  # its audio defaults


@pytest.fixture(scope="module", params=["jit", "eager"])
def loop(request, chat):
    made = DecodeLoop(chat, request.param, "fp32")
    assert made.mode == request.param and made.jit_error is None
    if request.param == "jit":  # the compiled step, filter and draw really run
        assert all(isinstance(f, torch.jit.ScriptFunction) for f in (made._filter, made._draw))
        assert isinstance(made._stack, torch.jit.ScriptModule)
    return made


def _ends(at: dict[int, int], per_row: int, eos: int):
    """Hook: request row r emits the end token at step at[r] and never before; rows not in
    `at` never end (they run to the token limit)."""

    def hook(step, logits, rows):
        for place, row in enumerate(rows.tolist()):
            block = logits[place * per_row : (place + 1) * per_row]
            if at.get(row) == step:
                block.fill_(float("-inf"))
                block[:, eos] = 0.0
            else:
                block[:, eos] = float("-inf")

    return hook


def _run(
    loop, chat, texts, steps, seeds, ends=None, audio=True, stream_every=0, cancel=None, **params
):
    emb, mask = (
        code_prompt(chat, texts, "[speed_5]", None, None, None)
        if audio
        else refine_prompt(chat, texts, "")
    )
    eos = EOS if audio else chat.tokenizer.eos_token
    with hooking_steps(loop, _ends(ends or {}, 4 if audio else 1, eos)):
        settings = {**CHATTTS, **params}
        return list(
            loop.generate(
                emb,
                mask,
                audio,
                PassParams(max_new_tokens=steps, **settings),
                seeds,
                eos=eos,
                cancel=cancel,
                stream_every=stream_every,
            )
        )


def _same_rows(together: Generated, row: int, alone: Generated) -> None:
    assert torch.equal(together.tokens[row], alone.tokens[0])
    if alone.hiddens:
        torch.testing.assert_close(together.hiddens[row], alone.hiddens[0], rtol=1e-4, atol=1e-4)
    assert together.hit_limit[row] == alone.hit_limit[0]


def test_rows_that_end_early_leave_the_batch_and_the_rest_decode_as_if_alone(loop, chat):
    """Row 0 ends at step 2 and row 2 at step 5 while row 1 runs on: the caches, positions and
    random streams of the rows kept must follow them out of the shrinking batch."""
    ends, seeds = {0: 2, 2: 5}, [21, 22, 23]
    together = _run(loop, chat, TEXTS, 9, seeds, ends)[-1]
    assert [t.shape for t in together.tokens] == [(2, 4), (9, 4), (5, 4)]
    assert [h.shape[0] for h in together.hiddens] == [2, 9, 5]
    assert together.hit_limit == [False, True, False]
    for row, text in enumerate(TEXTS):
        alone = _run(loop, chat, [text], 9, [seeds[row]], {0: ends[row]} if row in ends else {})[-1]
        _same_rows(together, row, alone)


def test_a_row_that_ends_at_the_first_step_leaves_the_others_intact(loop, chat):
    together = _run(loop, chat, TEXTS[:2], 6, [3, 4], {0: 0})[-1]
    alone = _run(loop, chat, TEXTS[1:2], 6, [4])[-1]
    assert together.tokens[0].shape == (0, 4) and together.hiddens[0].shape[0] == 0
    _same_rows(together, 1, alone)


def test_the_text_pass_keeps_each_rows_own_tokens_as_rows_leave(loop, chat):
    ends, seeds = {0: 2}, [5, 6]
    together = _run(
        loop, chat, TEXTS[:2], 5, seeds, ends, audio=False, temperature=0.7, top_p=0.7, top_k=20
    )[-1]
    assert [tuple(t.shape) for t in together.tokens] == [(2,), (5,)]
    assert together.hiddens == []
    for row, text in enumerate(TEXTS[:2]):
        alone = _run(
            loop,
            chat,
            [text],
            5,
            [seeds[row]],
            {0: ends[row]} if row in ends else {},
            audio=False,
            temperature=0.7,
            top_p=0.7,
            top_k=20,
        )[-1]
        _same_rows(together, row, alone)


def test_streamed_progress_counts_each_rows_final_tokens_and_ends(loop, chat):
    events = _run(loop, chat, TEXTS, 7, [1, 2, 3], {0: 1, 2: 4}, stream_every=2)
    progress, result = events[:-1], events[-1]
    assert all(isinstance(e, Progress) for e in progress) and isinstance(result, Generated)
    assert [e.lengths for e in progress] == [[1, 2, 2], [1, 4, 4], [1, 6, 4]]
    assert [e.finished for e in progress] == [
        [True, False, False],
        [True, False, False],
        [True, False, True],
    ]
    assert [e.hiddens.shape[:2] for e in progress] == [(3, 2), (3, 4), (3, 6)]
    # What was streamed is what the whole decode returns.
    last = progress[-1]
    for row in range(3):
        n = last.lengths[row]
        torch.testing.assert_close(last.hiddens[row, :n], result.hiddens[row][:n], rtol=0, atol=0)
    whole = _run(loop, chat, TEXTS, 7, [1, 2, 3], {0: 1, 2: 4})
    assert len(whole) == 1
    for row in range(3):
        assert torch.equal(whole[0].tokens[row], result.tokens[row])


def test_a_batch_whose_rows_all_ended_stops_stepping(loop, chat):
    steps = []
    hook = _ends({0: 1, 1: 3}, 4, EOS)
    emb, mask = code_prompt(chat, TEXTS[:2], "[speed_5]", None, None, None)
    with hooking_steps(
        loop, lambda i, logits, rows: (steps.append((i, len(rows))), hook(i, logits, rows))
    ):
        result = list(
            loop.generate(
                emb, mask, True, PassParams(max_new_tokens=50, **CHATTTS), [1, 2], eos=EOS
            )
        )[-1]
    assert steps == [(0, 2), (1, 2), (2, 1), (3, 1)]
    assert [t.shape[0] for t in result.tokens] == [1, 3] and result.hit_limit == [False, False]


def test_stop_ends_the_decode_before_another_step(loop, chat):
    cancel = threading.Event()
    steps = []
    emb, mask = code_prompt(chat, TEXTS[:1], "[speed_5]", None, None, None)

    def hook(i, _logits, _rows):
        steps.append(i)
        if i == 3:
            cancel.set()

    with hooking_steps(loop, hook):
        with pytest.raises(SynthesisCancelled):
            list(
                loop.generate(
                    emb,
                    mask,
                    True,
                    PassParams(max_new_tokens=30, **CHATTTS),
                    [1],
                    eos=EOS,
                    cancel=cancel,
                )
            )
    assert steps == [0, 1, 2, 3]


@pytest.mark.parametrize("least", [0, 4])
def test_no_end_before_the_minimum_token_count(loop, chat, least):
    emb, mask = code_prompt(chat, TEXTS[:1], "[speed_5]", None, None, None)

    def eager_to_end(_i, logits, _rows):
        logits[:, EOS] = logits.max() + 50.0  # the end token wins whenever it is allowed

    with hooking_steps(loop, eager_to_end):
        result = list(
            loop.generate(
                emb,
                mask,
                True,
                PassParams(max_new_tokens=10, min_new_tokens=least, **CHATTTS),
                [1],
                eos=EOS,
            )
        )[-1]
    assert result.tokens[0].shape[0] == least and result.hit_limit == [False]


def test_the_longest_decode_the_positions_allow_runs_and_one_more_token_is_refused(loop, chat):
    emb, mask = code_prompt(chat, TEXTS[:1], "[speed_5]", None, None, None)
    room = loop._max_positions - emb.shape[1]
    with hooking_steps(loop, _ends({0: 1}, 4, EOS)):
        result = list(
            loop.generate(emb, mask, True, PassParams(max_new_tokens=room, **CHATTTS), [1], eos=EOS)
        )[-1]
    assert result.tokens[0].shape[0] == 1
    with pytest.raises(InputTextError) as refused:
        list(
            loop.generate(
                emb, mask, True, PassParams(max_new_tokens=room + 1, **CHATTTS), [1], eos=EOS
            )
        )
    message = str(refused.value)
    assert (
        f"{emb.shape[1]} prompt tokens" in message and f"up to {room + 1} audio tokens" in message
    )
    assert (
        f"{loop._max_positions} positions" in message
        and f"--max-tokens) to {room} or less" in message
    )


def test_fits_is_true_up_to_the_last_position_and_false_past_it(loop):
    most = loop._max_positions
    assert loop.fits(100, most - 100) and loop.fits(0, most)
    assert not loop.fits(100, most - 99) and not loop.fits(most, 1)


def test_the_first_token_is_in_the_penalty_history_from_the_second_step(loop, chat):
    """Two text tokens, 10 and 9 at every step, greedy, a penalty of 1000: the first step takes
    the 10, and the second must take the 9 because the first token now counts against the 10."""
    a, b = 30, 31
    emb, mask = refine_prompt(chat, TEXTS[:1], "")

    def two_choices(_i, logits, _rows):
        logits.fill_(float("-inf"))
        logits[:, a], logits[:, b] = 10.0, 9.0

    with hooking_steps(loop, two_choices):
        params = PassParams(
            temperature=1.0,
            top_p=1.0,
            top_k=0,
            repetition_penalty=1000.0,
            max_new_tokens=3,
            greedy=True,
        )
        result = list(loop.generate(emb, mask, False, params, [1], eos=chat.tokenizer.eos_token))[
            -1
        ]
    # Third step: both seen once, 10/1000 > 9/1000.
    assert result.tokens[0].tolist() == [a, b, a]


def test_rows_that_end_on_their_end_token_are_streamed_as_ended_not_cut(loop, chat):
    # (A row is streamed as cut only while another runs on past its limit: a later joiner,
    # tests/engine/test_batch_joins.py; here all rows start together.)
    events = _run(loop, chat, TEXTS, 7, [1, 2, 3], {0: 1, 2: 4}, stream_every=2)
    progress = [e for e in events if isinstance(e, Progress)]
    assert [e.finished for e in progress] == [
        [True, False, False],
        [True, False, False],
        [True, False, True],
    ]
    assert all(e.cut == [False, False, False] for e in progress)
    text = _run(loop, chat, TEXTS[:2], 4, [1, 2], {0: 1}, audio=False, stream_every=2)
    streamed, whole = text[-2], text[-1]
    assert (
        isinstance(streamed, Progress) and streamed.hiddens.dtype == torch.long
    )  # the text pass streams tokens
    assert streamed.hiddens[1, :2].tolist() == whole.tokens[1][:2].tolist()


def test_invalid_numbers_in_one_row_stop_the_decode_naming_that_sentence(chat, monkeypatch):
    loop = DecodeLoop(chat, "eager", "fp32")
    real, calls = loop.run_stack, []

    def poisoned(x, *args):
        out = real(x, *args)
        calls.append(1)
        if len(calls) == 3:  # the prefill, then two steps
            out = out.clone()
            out[2] = float("nan")
        return out

    monkeypatch.setattr(loop, "run_stack", poisoned)
    steps = []
    loop.filter_step = step_hooked(loop, lambda i, *_: steps.append(i))
    with pytest.raises(NumericalError, match="sentence 3 of the batch"):
        _generate_plain(loop, chat)
    assert steps == [0, 1, 2]  # found at the step its hidden state is read, not later


def _generate_plain(loop, chat):
    emb, mask = code_prompt(chat, TEXTS, "[speed_5]", None, None, None)
    return list(
        loop.generate(emb, mask, True, PassParams(max_new_tokens=8, **CHATTTS), [1, 2, 3], eos=EOS)
    )


def test_a_replayed_graph_step_gets_this_steps_inputs(chat, monkeypatch):
    """What a captured CUDA graph replays is fed through its static inputs: a stand-in graph
    that runs the step on exactly what was loaded into them must decode like the growing step."""
    from app.decode import cuda_graph

    replays = []

    class Replaying:
        def __init__(self, stack, inputs, size, k, v, _pool):
            self.stack, self.inputs, self.size, self.k, self.v = stack, inputs, size, k, v

        def replay(self):
            replays.append(self.size)
            i = self.inputs
            return self.stack(
                i.x, i.cos, i.sin, i.mask[..., : self.size], self.k, self.v, i.at, self.size
            )

    monkeypatch.setattr(cuda_graph, "capture", Replaying)
    monkeypatch.setattr(torch.cuda, "graph_pool_handle", lambda: None)
    graphed = DecodeLoop(chat, "eager", "fp32")
    graphed.static_steps = graphed.cuda_graphs = True
    growing = DecodeLoop(chat, "eager", "fp32")
    a = _run(growing, chat, TEXTS, 6, [1, 2, 3], {0: 2})[-1]
    b = _run(graphed, chat, TEXTS, 6, [1, 2, 3], {0: 2})[-1]
    # Every token after the first comes from a replay, in the smallest bucket.
    assert len(replays) >= 5 and set(replays) == {256}
    for row in range(3):
        _same_rows(a, row, Generated([b.tokens[row]], [b.hiddens[row]], [b.hit_limit[row]]))


def test_a_graph_that_cannot_be_captured_is_not_tried_again(chat, monkeypatch):
    """On a machine where capture fails, the loop steps without graphs from then on."""
    from app.decode import cuda_graph

    tried = []
    monkeypatch.setattr(cuda_graph, "capture", lambda _stack, _inputs, size, *_: tried.append(size))
    monkeypatch.setattr(torch.cuda, "graph_pool_handle", lambda: None)
    loop = DecodeLoop(chat, "eager", "fp32")
    loop.static_steps = loop.cuda_graphs = True
    loop.mode = "graph"
    result = _run(loop, chat, TEXTS[:1], 4, [1])[-1]
    alone = _run(DecodeLoop(chat, "eager", "fp32"), chat, TEXTS[:1], 4, [1])[-1]
    assert tried == [256] and loop.cuda_graphs is False and loop.mode == "eager"
    _same_rows(result, 0, alone)


def test_rows_leave_a_reduced_precision_batch_with_their_caches_in_that_precision(chat):
    loop = DecodeLoop(chat, "eager", "bf16")
    result = _run(loop, chat, TEXTS[:2], 4, [1, 2], {0: 1})[-1]
    assert [t.shape[0] for t in result.tokens] == [1, 4]
    assert all(torch.isfinite(h).all() for h in result.hiddens)
