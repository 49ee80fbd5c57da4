"""Edges of the token filter and draw that the upstream comparison with ChatTTS's own settings
cannot reach: there the logits are so spread that top-P always falls back to its 3-token floor.

Expected values come from ChatTTS 0.2.5's processors (its repetition penalty and transformers'
TopPLogitsWarper / TopKLogitsWarper with min_tokens_to_keep=3) or are worked out by hand below.
"""

import pytest
import torch

from app.decode.sampling import draw, filter_logits, greedy

EOS = 10_000  # outside every vocabulary below: never banned by accident


def _upstream(logits, history, temperature, penalty, top_p, top_k):
    from ChatTTS.model.processors import gen_logits

    warpers, processors = gen_logits(
        num_code=logits.shape[1] - 1, top_P=top_p, top_K=top_k or None, repetition_penalty=penalty
    )
    expected = logits / temperature
    for f in (*processors, *warpers):
        expected = f(history, expected)
    return expected


@pytest.mark.parametrize(
    "rows, vocab, width, temperature, penalty, top_p, top_k",
    [
        (4, 626, 16, 0.3, 1.05, 0.7, 20),  # ChatTTS's settings on flat logits: top-P keeps many
        (1, 40, 1, 1.0, 2.0, 0.5, 1),  # one row, one token of history, top-K below the floor
        (3, 64, 5, 0.7, 1.3, 0.95, 0),  # no top-K at all
        (2, 64, 16, 1.0, 1.05, 1.0, 7),  # top-P of 1 keeps everything
    ],
)
def test_filter_matches_chattts_where_every_stage_decides(
    rows, vocab, width, temperature, penalty, top_p, top_k
):
    gen = torch.Generator().manual_seed(rows * vocab + width)
    logits = torch.randn(rows, vocab, generator=gen) * 0.5  # many logits in (0, 1) and near 0
    history = torch.randint(0, vocab, (rows, width), generator=gen)
    history[:, : max(1, width // 3)] = torch.argmax(
        logits, dim=1, keepdim=True
    )  # the favourite repeats
    expected = _upstream(logits, history, temperature, penalty, top_p, top_k)
    ours = filter_logits(
        logits, history, torch.full((rows, 1), temperature), penalty, top_p, top_k, EOS, False
    )
    assert torch.equal(torch.isinf(ours), torch.isinf(expected))
    finite = ~torch.isinf(ours)
    torch.testing.assert_close(ours[finite], expected[finite])
    kept = finite.sum(dim=1)
    if top_k:
        assert (kept <= max(top_k, 3)).all()
    assert (kept >= 3).all()


def test_the_penalty_also_applies_to_one_token_of_history_and_to_logits_between_0_and_1():
    logits = torch.tensor([[0.5, 0.25, -0.5, 3.0]])
    out = filter_logits(logits, torch.tensor([[0]]), torch.ones(1, 1), 2.0, 1.0, 0, EOS, False)
    torch.testing.assert_close(out, torch.tensor([[0.25, 0.25, -0.5, 3.0]]))  # 0.5 / 2
    out = filter_logits(logits, torch.tensor([[2, 2]]), torch.ones(1, 1), 2.0, 1.0, 0, EOS, False)
    torch.testing.assert_close(out, torch.tensor([[0.5, 0.25, -2.0, 3.0]]))  # -0.5 * 2 ** 2


def test_top_p_removes_tokens_whose_cumulative_share_is_at_most_1_minus_p():
    # Four equal logits: shares 1/4 each, cumulative 0.25, 0.5, 0.75, 1 (exact in binary).
    # transformers removes cumulative <= 1 - p: with p = 0.5 that is two of them.
    out = filter_logits(
        torch.zeros(1, 4),
        torch.zeros(1, 0, dtype=torch.long),
        torch.ones(1, 1),
        1.0,
        0.5,
        0,
        EOS,
        False,
        min_keep=1,
    )
    assert int(torch.isinf(out).sum()) == 2
    # With p = 0.75, 1 - p = 0.25: only the first (a `<` would remove none, `<=` one).
    out = filter_logits(
        torch.zeros(1, 4),
        torch.zeros(1, 0, dtype=torch.long),
        torch.ones(1, 1),
        1.0,
        0.75,
        0,
        EOS,
        False,
        min_keep=1,
    )
    assert int(torch.isinf(out).sum()) == 1


def test_top_k_keeps_exactly_k_distinct_logits_and_never_fewer_than_3():
    logits = torch.tensor([[5.0, 1.0, 4.0, 2.0, 3.0, 0.0]])
    none = torch.zeros(1, 0, dtype=torch.long)
    out = filter_logits(logits, none, torch.ones(1, 1), 1.0, 1.0, 4, EOS, False)
    assert torch.isfinite(out[0]).tolist() == [True, False, True, True, True, False]
    out = filter_logits(logits, none, torch.ones(1, 1), 1.0, 1.0, 1, EOS, False)
    assert torch.isfinite(out[0]).tolist() == [True, False, True, False, True, False]


def test_the_banned_end_token_is_minus_infinity():
    out = filter_logits(
        torch.zeros(2, 5),
        torch.zeros(2, 0, dtype=torch.long),
        torch.ones(2, 1),
        1.0,
        1.0,
        0,
        4,
        True,
    )
    assert out[:, 4].tolist() == [float("-inf")] * 2
    assert torch.isfinite(out[:, :4]).all()


def test_a_draw_at_zero_never_picks_a_removed_token():
    # Token 0 has probability 0: its CDF entry is 0, and u = 0 must fall past it.
    logits = torch.tensor([[float("-inf"), 0.0, 0.0], [float("-inf"), float("-inf"), 0.0]])
    assert draw(logits, torch.zeros(2, 1)).tolist() == [1, 2]


def test_a_draw_at_the_top_of_the_cdf_stays_inside_the_vocabulary():
    # u * total can round up to the total; the pick is then clamped to the last token.
    assert draw(torch.zeros(2, 4), torch.ones(2, 1)).tolist() == [3, 3]


def test_greedy_picks_each_rows_best_token():
    assert greedy(torch.tensor([[0.0, 2.0, 1.0], [3.0, 0.0, 1.0]])).tolist() == [1, 0]
