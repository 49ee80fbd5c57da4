"""A CPU's batch cap from the compiled step's measured cost per row (app/decode/row_cap.py): the
rule, the measurement that stops where the rule does, the figures kept beside the compiled step
and read back at the next load, and a kept file that cannot be used, measured again."""

import json
import logging
from types import SimpleNamespace

import pytest
import torch

from app.decode import RowCap, memory, row_cap
from app.decode.compiled_cache import CompiledCache, step_key
from app.decode.loop import DecodeLoop
from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.synthesis.synthesizer import Synthesizer

# Per row: 13, 7.5, 5, 4.33, 4.13, 3.92, 4.13 ms: down 42%, 33%, 13%, then 4.8% at 8.
TIMES = {1: 13.0, 2: 15.0, 4: 20.0, 6: 26.0, 8: 33.0, 12: 47.0, 16: 66.0}


def _timer(times=TIMES):
    timed = []

    def time_step(_loop, batch):
        timed.append(batch)
        return times[batch]

    return time_step, timed


def test_the_cap_is_the_largest_batch_whose_cost_per_row_still_falls_by_the_margin():
    assert row_cap.cap_from_times(TIMES, 0.10) == 6
    assert row_cap.cap_from_times(TIMES, 0.04) == 12  # 8 and 12 fall by 4.8% and 5%; 16 rises
    assert row_cap.cap_from_times(TIMES, 0.50) == 1
    assert row_cap.cap_from_times({1: 10.0, 2: 12.0, 4: 14.0}) == 4
    # Going up, it stops at the first batch that gains too little, whatever comes after.
    assert row_cap.cap_from_times({1: 10.0, 2: 19.5, 4: 20.0}) == 1


def test_the_measurement_times_no_batch_above_the_first_the_rule_turns_down(tmp_path):
    loop = SimpleNamespace(row_cap=None)
    time_step, timed = _timer()
    rows = RowCap(tmp_path / "rows.json")
    assert rows.measure(loop, time_step) == 6 == loop.row_cap
    assert timed == [1, 2, 4, 6, 8, 1] and rows.measured_now  # the first again: held still
    kept = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    assert kept["cap"] == 6 and kept["ms_per_step"]["8"] == 33.0


def test_a_slow_step_stops_the_measurement_within_its_budget(tmp_path, monkeypatch):
    # Five steps per batch: batches 1-4 cost 0.22 s, with 6 0.34 s, past the budget.
    monkeypatch.setattr(row_cap, "BUDGET_S", 0.3)
    times = {1: 12.0, 2: 14.0, 4: 18.0, 6: 24.0, 8: 28.0, 12: 40.0, 16: 52.0}
    assert row_cap.cap_from_times(times) == 8  # what a longer measurement would choose
    time_step, timed = _timer(times)
    loop = SimpleNamespace(row_cap=None)
    assert RowCap(tmp_path / "rows.json").measure(loop, time_step) == 6 == loop.row_cap
    assert timed == [1, 2, 4, 6, 1]


def test_a_measurement_cut_short_below_the_devices_constant_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(row_cap, "BUDGET_S", 0.1)  # batches 1 and 2 cost 0.13 s
    time_step, timed = _timer()
    loop = SimpleNamespace(row_cap=None, device=torch.device("cpu"))
    rows = RowCap(tmp_path / "rows.json")
    assert rows.measure(loop, time_step) == memory.MAX_BATCH["cpu"]
    assert timed == [1, 2] and loop.row_cap is None and not rows.path.exists()


def test_figures_taken_while_the_machine_got_busier_are_not_kept(tmp_path, caplog):
    calls = []

    def time_step(_loop, batch):
        calls.append(batch)
        return TIMES[batch] * (1.5 if len(calls) > 5 else 1.0)  # other work by the end

    loop = SimpleNamespace(row_cap=None, device=torch.device("cpu"))
    rows = RowCap(tmp_path / "rows.json")
    with caplog.at_level(logging.INFO, logger="chattts_studio.engine"):
        assert rows.measure(loop, time_step) == memory.MAX_BATCH["cpu"]
    assert loop.row_cap is None and not rows.path.exists() and not rows.measured_now
    assert "busy" in caplog.text and "measuring at the next start" in caplog.text


def test_a_kept_measurement_is_read_back_without_timing_again(tmp_path):
    RowCap(tmp_path / "rows.json").measure(SimpleNamespace(row_cap=None), _timer()[0])
    loop = SimpleNamespace(row_cap=None)
    again = RowCap(tmp_path / "rows.json")
    assert again.apply_cached(loop) and loop.row_cap == 6
    assert again.ms_per_step[8] == 33.0 and not again.measured_now


@pytest.mark.parametrize(
    "content",
    [
        "not json {",
        "[]",
        '{"ms_per_step": {"1": -3.0}}',
        '{"ms_per_step": {"one": 3.0}}',
        "{" + " " * (row_cap.FILE_CAP + 1) + "}",
    ],
    ids=["garbage", "a-list", "negative-time", "bad-batch", "too-large"],
)
def test_a_damaged_file_is_ignored_with_a_logged_sentence_and_measured_again(
    tmp_path, caplog, content
):
    path = tmp_path / "rows.json"
    path.write_text(content, encoding="utf-8")
    loop = SimpleNamespace(row_cap=None)
    rows = RowCap(path)
    with caplog.at_level(logging.WARNING, logger="chattts_studio.engine"):
        assert not rows.apply_cached(loop)
    assert loop.row_cap is None
    assert "could not be read" in caplog.text and "measuring it again" in caplog.text
    assert rows.measure(loop, _timer()[0]) == 6
    assert RowCap(path).apply_cached(SimpleNamespace(row_cap=None))


def test_figures_from_another_machine_or_rule_are_measured_again(tmp_path, monkeypatch):
    path = tmp_path / "rows.json"
    RowCap(path).measure(SimpleNamespace(row_cap=None), _timer()[0])
    monkeypatch.setattr(row_cap, "machine", lambda: {"cpu": "another", "cores": 16, "threads": 16})
    assert RowCap(path).read() is None
    monkeypatch.undo()
    monkeypatch.setattr(row_cap, "MARGIN", 0.2)
    assert RowCap(path).read() is None


def test_the_measured_cap_replaces_the_devices_constant_and_memory_still_bounds_it(monkeypatch):
    per_row = 1000 + memory.EXTRA_PER_ROW
    loop = SimpleNamespace(
        device=torch.device("cpu"), row_cap=None, cache_bytes_per_row=lambda _n: 1000
    )
    monkeypatch.setattr(memory, "free_bytes", lambda _d: 2**50)
    assert memory.max_batch(loop) == memory.MAX_BATCH["cpu"] == 4
    loop.row_cap = 12
    assert memory.max_batch(loop) == 12
    assert memory.choose_batch(loop, 2304, memory.max_batch(loop)) == 12
    monkeypatch.setattr(memory, "free_bytes", lambda _d: int(per_row * 2 * 3.5))
    assert memory.choose_batch(loop, 2304, memory.max_batch(loop)) == 3


def test_only_a_cached_compiled_step_gets_a_measured_cap(tmp_path):
    cache = CompiledCache({"model": "m"}, tmp_path)
    cpu = torch.device("cpu")
    int8 = SimpleNamespace(mode="jit", precision="int8", device=cpu)
    rows = RowCap.of(cache, int8, None)
    assert rows is not None
    assert rows.path == cache.rows_path(step_key(cache, "jit", "int8", cpu, None))
    assert RowCap.of(cache, SimpleNamespace(mode="jit", precision="fp32", device=cpu), None) is None
    assert RowCap.of(None, int8, None) is None


def test_the_kept_cap_goes_with_its_compiled_step(tmp_path):
    cache = CompiledCache({"model": "m"}, tmp_path)
    key = cache.key("int8", None, "cpu")
    RowCap(cache.rows_path(key)).measure(SimpleNamespace(row_cap=None), _timer()[0])
    (tmp_path / f"step-{key}.pt").write_bytes(b"damaged")
    assert cache.load(key, "cpu") is None  # a damaged step: removed, its measurement with it
    assert not cache.rows_path(key).exists()


def test_a_real_step_is_timed(chat):
    loop = DecodeLoop(chat, "jit", "int8")
    assert 0 < row_cap.step_ms(loop, 2, steps=1) < 10_000


def test_the_first_warm_up_measures_and_the_next_load_reads_it_back(
    tiny_model, tmp_path, monkeypatch
):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    time_step, timed = _timer()
    monkeypatch.setattr(row_cap, "step_ms", time_step)
    first = Synthesizer(tiny_model, device="cpu", precision="int8")
    first.load(verify=False)
    assert first.loop.row_cap == 6 and first.row_cap.measured_now and timed
    assert memory.max_batch(first.loop) == 6
    timed.clear()
    second = Synthesizer(tiny_model, device="cpu", precision="int8")
    second.load(verify=False, warm_up=False)
    assert second.loop.row_cap == 6  # before any warm-up
    second.warm_up()
    assert not timed and not second.row_cap.measured_now


def test_an_int8_sentence_decodes_the_same_alone_and_in_the_largest_batch(chat):
    """Per-row activation scales keep a sentence's tokens whatever the batch, up to the largest
    cap the measurement can choose."""
    batch = max(row_cap.BATCHES)
    texts = ["你好，世界。"] + [f"第{n}句，长短不一的话。" * (1 + n % 3) for n in range(batch - 1)]
    params = PassParams(0.3, 0.7, 20, 1.05, 16, min_new_tokens=16)
    loop = DecodeLoop(chat, "jit", "int8")

    def first_sentence(count):
        emb, mask = code_prompt(chat, texts[:count], "[speed_5]", None, None, None)
        seeds = list(range(5, 5 + count))
        return list(loop.generate(emb, mask, True, params, seeds, eos=625))[-1].tokens[0]

    assert loop.exact_across_batches and loop.mode == "jit", loop.jit_error
    assert torch.equal(first_sentence(1), first_sentence(batch))


def test_the_measurement_waits_for_its_step_to_be_written_first(tmp_path):
    """A first start writes its compiled step in the background; timing the step meanwhile
    would keep figures of a busy machine, so the measurement's first part waits for the save."""
    cache = CompiledCache({"model": "m"}, tmp_path)
    cpu = torch.device("cpu")
    rows = RowCap.of(cache, SimpleNamespace(mode="jit", precision="int8", device=cpu), None)
    assert rows is not None
    order = []
    rows.saved = lambda: order.append("saved")
    time_step, timed = _timer()

    def timing(loop, batch):
        order.append(batch)
        return time_step(loop, batch)

    rows.measure(SimpleNamespace(row_cap=None), timing)
    assert order[0] == "saved" and order[1:] == timed == [1, 2, 4, 6, 8, 1]
