"""bench/compare_revisions.py compares whole benchmarks too: start-up and serving, base tree
against this one, each run in its own process, medians and head/base ratios per metric."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import compare_revisions as cr  # noqa: E402

# What each whole benchmark must report on both sides, as a ratio of head to base.
KEY_METRICS = {
    "startup": ["cold_ready_s", "warm_ready_s", "warm_first_sound_s"],
    "serve": ["batched_1_requests_per_s", "one_at_a_time_2_requests_per_s"],
}


def _quick_comparison(bench: str, model, tmp_path) -> dict:
    """compare_revisions.py --quick --bench BENCH's report (HEAD against this tree)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "CHATTTS_STUDIO_HOME": str(tmp_path / "home"),
        "HF_HUB_OFFLINE": "1",
        "QT_QPA_PLATFORM": "offscreen",
    }
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "compare_revisions.py"), "--quick"]
        + ["--bench", bench, "--model", str(model)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("bench", sorted(KEY_METRICS))
def test_a_whole_benchmark_is_compared_run_by_run(bench, tiny_model, tmp_path):
    report = _quick_comparison(bench, tiny_model, tmp_path)
    entry = report["modes"][bench]
    assert report["bench"] == bench
    for side in ("base", "head"):
        assert len(entry["runs"][side]) == 1 and "error" not in entry["runs"][side][0], entry
        for metric in KEY_METRICS[bench]:
            assert entry[f"median_{side}"][metric] > 0
    for metric in KEY_METRICS[bench]:
        assert entry["head_vs_base"][metric] > 0


def test_a_failed_run_is_kept_but_left_out_of_the_medians():
    runs = {
        "base": [{"cold_ready_s": 2.0}, {"error": "the launched program wrote no events"}],
        "head": [{"cold_ready_s": 1.0}, {"cold_ready_s": 3.0}],
    }
    entry = cr._compare(runs)
    assert entry["runs"] is runs
    assert entry["median_base"] == {"cold_ready_s": 2.0}
    assert entry["median_head"] == {"cold_ready_s": 2.0}
    assert entry["head_vs_base"] == {"cold_ready_s": 1.0}


def test_more_requests_per_second_and_fewer_seconds_both_count_as_better():
    runs = {
        "base": [{"batched_4_requests_per_s": 2.0, "batched_4_first_byte_p50_s": 0.4}],
        "head": [{"batched_4_requests_per_s": 3.0, "batched_4_first_byte_p50_s": 0.2}],
    }
    ratio = cr._compare(runs)["head_vs_base"]
    assert ratio == {"batched_4_requests_per_s": 1.5, "batched_4_first_byte_p50_s": 2.0}


def test_a_report_without_its_fields_is_a_failed_run_not_a_crash():
    assert cr.startup_metrics({"runs": [{"cold": {"error": "x"}, "warm": {"ready_s": 1.0}}]}) == {
        "error": "x",
        "warm_ready_s": 1.0,
    }
    assert "error" in cr.serve_metrics(
        {"modes": {"batched": [{"clients": 1, "requests_per_s": 0.0, "errors": ["boom"]}]}}
    )


def test_the_rounds_take_turns_going_first():
    base = Path("/base")
    firsts = [cr._order(r, base)[0][0] for r in range(4)]
    assert firsts == ["base", "head", "base", "head"]
    assert {side for side, _tree in cr._order(1, base)} == {"base", "head"}


@pytest.mark.slow
def test_steady_decode_times_each_shape_many_times_per_process(tiny_model, tmp_path):
    entry = _quick_comparison("steady", tiny_model, tmp_path)["modes"]["jit-int8"]
    for side in ("base", "head"):
        run = entry["runs"][side][0]
        assert "error" not in run, run
        assert run["decode"] == "jit-int8"
        for metric in cr.STEADY_METRICS:
            assert entry[f"median_{side}"][metric] > 0
    # more tokens per second is better, fewer seconds is better: both as head/base > 0
    assert set(entry["head_vs_base"]) == set(cr.STEADY_METRICS)


def test_the_steady_harness_finds_an_older_trees_modules():
    from bench.support.steady_decode import _module

    assert _module("app.engine_that_moved.synthesizer", "json").__name__ == "json"
    with pytest.raises(ModuleNotFoundError):
        _module("no.such.module", "nor.this")
