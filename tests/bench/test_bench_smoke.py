"""Every benchmark runs in its quick mode and prints a sound JSON report, so none rots unseen.

Each bench/*.py (the glob: a new benchmark is checked the day it lands) runs in its own process
with --quick on the session's tiny random-weight model. Its whole stdout must be one JSON
object with no "error" anywhere, its key figures present and sane (counts as asked, times and
rates positive), and a quick run must not write to bench/results/ (only --save does). The runs
go two at a time (BENCH_SMOKE_JOBS) in a pool started with the first of these tests, so on two
cores the set takes about half the sum of its runs; what each report must hold is in CHECKS.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("*.py"))
JOBS = int(os.environ.get("BENCH_SMOKE_JOBS", "2"))
TIMEOUT_S = 480

pytestmark = pytest.mark.slow


def _positive(value) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def _non_negative(value) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value >= 0


def _errors(node, where="") -> list[str]:
    """Every "error" entry anywhere in the report (benchmarks report a failed child that way)."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "error" and value:
                found.append(f"{where}: {value}")
            found += _errors(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _errors(value, f"{where}[{i}]")
    return found


def _run(name: str, model: Path, home: Path) -> dict:
    script = ROOT / "bench" / f"{name}.py"
    args = [sys.executable, str(script), "--quick"]
    if '"--model"' in script.read_text(encoding="utf-8"):
        args += ["--model", str(model)]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "CHATTTS_STUDIO_HOME": str(home / name),
        "HF_HUB_OFFLINE": "1",
        "QT_QPA_PLATFORM": "offscreen",
        # Runs share the cores (JOBS at a time): one thread each, so they do not oversubscribe
        # them; quick figures are not measurements.
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    started = time.perf_counter()
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    return {
        "returncode": out.returncode,
        "stdout": out.stdout,
        "stderr": out.stderr,
        "wall_s": round(time.perf_counter() - started, 1),
    }


@pytest.fixture(scope="session")
def quick_runs(request, tiny_model, tmp_path_factory):
    """name -> a future of its quick run; only the benchmarks this session selected start."""
    wanted = {
        item.callspec.params["name"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_quick_mode" and hasattr(item, "callspec")
    }
    order = [n for n in BENCHES if n in wanted]  # the tests' order: each waits about its own run
    home = tmp_path_factory.mktemp("bench-homes")
    results_before = set((ROOT / "bench" / "results").glob("*"))
    pool = ThreadPoolExecutor(max_workers=JOBS)
    futures = {name: pool.submit(_run, name, tiny_model, home) for name in order}
    yield futures, results_before
    pool.shutdown(wait=True, cancel_futures=True)


# ---- what each report must hold -------------------------------------------------------------


def _check_batch_rows(r):
    batches = ["1", "2", "4", "6", "8", "12", "16"]
    assert list(r["ms_per_step"]) == list(r["ms_per_row"]) == batches
    assert all(_positive(ms) for ms in r["ms_per_step"].values())
    assert r["cap"] in map(int, batches) and r["in_app"]["cap"] in map(int, batches)
    assert _positive(r["in_app"]["seconds"]) and isinstance(r["in_app"]["kept"], bool)


def _check_compare_revisions(r):
    runs = r["modes"]["jit-int8"]["runs"]
    assert len(runs["base"]) == len(runs["head"]) == 1
    for side in ("base", "head"):
        assert _positive(r["modes"]["jit-int8"][f"median_{side}"]["tokens_per_s_b1"])
    assert _positive(r["modes"]["jit-int8"]["head_vs_base"]["tokens_per_s_b1"])


def _check_decode(r):
    assert _positive(r["upstream"]["tokens_per_s_b1"]) and r["upstream"]["decode"] == "upstream"
    for mode in ("jit-int8", "ort-int8"):
        ours = r["modes"][mode]
        assert ours["decode"] == mode
        for key in ("tokens_per_s_b1", "tokens_per_s_b4", "rtf_paragraph", "first_chunk_s"):
            assert _positive(ours[key]), (mode, key)
        assert _positive(ours["floor_ms_per_step"]), mode
        assert _positive(r["speedup_vs_upstream"][mode]["tokens_per_s_b1"]), mode


def _check_engine_thread(r):
    assert len(r["runs"]) == 3  # shipped, the thread beside it, upstream
    for variant, runs in r["runs"].items():
        assert len(runs) == 1 and _positive(runs[0]["tokens_per_s"]), variant
    assert any(runs[0]["decode"] == "upstream" for runs in r["runs"].values())


def _check_farm(r):
    for key in ("in_process", "local_1", "local_2", "upstream_sentence_by_sentence"):
        assert _positive(r[key]["audio_s_per_wall_s"]), key
    assert r["local_1"]["workers"] == 1 and r["local_2"]["workers"] == 2
    assert _positive(r["local_2"]["scaling_efficiency"])
    assert "skipped" in r["ray_2"]


def _check_first_call(r):
    assert set(r["median"]) == {"upstream", "int8"}
    for variant, figures in r["median"].items():
        assert _positive(figures["first_s"]) and _positive(figures["tokens_per_s"]), variant


def _check_gpu_check(r):
    assert "fp32" in r["graphs"] and "bf16" in r["agreement"]
    assert r["graphs"]["fp32"]["sentence_lengths"] == [r["steps"]] * 3
    assert 0.9 < r["agreement"]["bf16"]["first_step_logit_cosine"] <= 1.0001
    if r["device"] == "cpu":
        assert r["skipped"] and r["gpu"] is None  # it says what only a card shows


def _check_int8_speed(r):
    ways = ["fp32", "int8-per-tensor", "int8-per-batch", "int8", "int8-7bit", "ort-fp32"]
    ways += ["ort-int8", "ort-int8-spin", "ort-int4", "ov-fp32", "ov-int8", "ov-int4"]
    ways += ["torchao-int8", "torchao-int4"]  # the compiled one runs only when named
    assert set(r["ms_per_step"]) == {f"{way} b1" for way in ways}
    assert all(_positive(v) for v in r["ms_per_step"].values())
    assert r["speedup_vs_fp32"]["fp32 b1"] == 1.0
    assert set(r["floor_ms"]) == set(ways) and all(_positive(v) for v in r["floor_ms"].values())
    assert r["onnxruntime"] and r["openvino"] and r["torchao"]


def _check_narrate(r):
    chapter = r["chapter"]
    assert _positive(chapter["ours"]["audio_s_per_wall_s"])
    assert _positive(chapter["upstream_sentence_by_sentence"]["audio_s_per_wall_s"])
    assert _positive(chapter["speedup"])
    resume = r["resume"]
    assert resume["rendered"] == resume["sentences"] // 2
    assert _non_negative(resume["open_s"]) and resume["open_and_continue_s"] >= resume["open_s"]


def _check_playback(r):
    mode = r["modes"]["jit-int8"]
    assert mode["decode"] == "jit-int8" and _positive(mode["audio_s"])
    assert _positive(mode["first_sound_s"]) and _non_negative(mode["gaps_per_min"])
    assert mode["first_sound_s"] >= mode["first_piece_s"]
    assert _non_negative(mode["speech_shaped"]["waits_inside_words"])


def _check_precision_quality(r):
    assert set(r["results"]) == {"random", "unit_gain", "outliers"}
    for model, modes in r["results"].items():
        for mode in ("bf16", "int8"):
            assert -1.0001 <= modes[mode]["min_cosine"] <= 1.0001, (model, mode)
            assert 0 <= modes[mode]["top1_agreement"] <= 1, (model, mode)


def _check_serve(r):
    for mode in ("batched", "one_at_a_time"):
        rounds = r["modes"][mode]
        assert [x["clients"] for x in rounds] == [1, 2], mode
        for x in rounds:
            assert x["errors"] == [] and x["requests"] == x["clients"], (mode, x)
            assert _positive(x["requests_per_s"]) and _positive(x["first_byte_s"]["p50"])
    assert set(r["throughput_gain"]) == {"1", "2"}
    assert r["batch_cap"]["cap"] >= 1 and r["batch_cap"]["source"]


def _check_soak(r):
    assert set(r["modes"]) == {"jit-fp32", "upstream"}
    for mode, figures in r["modes"].items():
        assert figures["syntheses"] == 4, mode
        assert _positive(figures["rss_start_mb"]) and _positive(figures["rss_end_mb"]), mode
        assert math.isfinite(figures["rss_slope_mb_per_1000"]), mode


def _check_startup(r):
    assert len(r["runs"]) == 1
    for launch, events in r["runs"][0].items():
        assert 0 < events["window_s"] < events["ready_s"] <= events["first_sound_s"], launch
        assert _positive(events["replay_sound_s"]) and events["decode"], launch


def _check_stream_joins(r):
    assert any("upstream" in name for name in r["variants"])
    assert any(name.startswith("shipped") for name in r["variants"])
    for name, v in r["variants"].items():
        assert len(v["snr_db"]) == 1 and _non_negative(v["max_abs_error"]), name
        assert 0 < v["first_audio_at_token"] <= r["tokens"], name


def _check_take_check(r):
    assert r["good_takes"] >= 4 and r["defects_injected"] == 7 * r["good_takes"]
    assert set(r["per_defect"]) == {
        "silence",
        "noise",
        "hole",
        "truncated",
        "repeated",
        "other_speaker",
        "clipped",
    }
    assert 0 <= r["false_alarm_rate"] <= 1 and 0 < r["detection_rate"] <= 1
    assert r["margins"]["voice_similarity"]["good_min"] > 0


def _check_text_quality(r):
    assert r["normalization"] and {"boundaries_en", "boundaries_zh"} <= set(r["boundaries"])
    for yardstick, systems in r["normalization"].items():
        scores = systems["ours"]["all"]
        assert scores["cases"] > 0 and 0 <= scores["percent"] <= 100, yardstick


def _check_time_stretch(r):
    shipped = r["candidates"]["pytsmod.wsola"]["speeds"]
    assert [x["speed"] for x in shipped] == [1.5] and r["rounds"] == 1
    for x in shipped:
        assert _positive(x["s_per_audio_s"]) and 0.9 < x["duration_ratio"] < 1.1
        assert 0.9 < x["f0_ratio"] < 1.1
    assert "audiotsm.wsola" in r["candidates"]  # measured, or said to be skipped


def _check_ui_responsiveness(r):
    window, upstream = r["window_worker_thread"], r["upstream_infer_on_gui_thread"]
    tray = r["tray_clipboard_read"]
    assert len(window["runs"]) == len(tray["runs"]) == len(upstream["runs"]) == 1  # alternating
    for run in window["runs"] + tray["runs"] + upstream["runs"]:
        assert run["ticks"] > 0 and _non_negative(run["max_stall_ms"]) and _positive(run["synth_s"])
    assert window["max_stall_ms"] == max(x["max_stall_ms"] for x in window["runs"])
    assert tray["max_stall_ms"] == max(x["max_stall_ms"] for x in tray["runs"])
    for run in tray["runs"]:  # the mini-player opened and followed what the "card" played
        assert run["mini_player_shown"] is True and run["sentences_heard"] >= 1
    assert len(r["load_average_1m"]) == 2
    assert r["window_decode"].startswith("jit")


def _check_vocoder_batch(r):
    assert [(x["tokens"], x["batch"]) for x in r["rows"]] == [(16, 1), (16, 2)]
    for row in r["rows"]:
        for key in ("one_call_each_ms", "batched_ms", "upstream_batched_ms"):
            assert _non_negative(row[key]), key
    assert [(x["tokens"], x["batch"]) for x in r["streamed"]] == [(16, 1), (16, 2)]
    for row in r["streamed"]:
        for key in ("one_sentence_at_a_time_ms", "together_ms", "upstream_whole_batched_ms"):
            assert _positive(row[key]), key


def _check_vocoder_stream_cost(r):
    variants = r["results"]["48 tokens"]
    assert len(variants) == 4 and any("upstream" in name for name in variants)
    assert all(_positive(v["median"]) for v in variants.values())


CHECKS = {
    name[len("_check_") :]: fn for name, fn in globals().items() if name.startswith("_check_")
}


@pytest.mark.parametrize("name", BENCHES)
def test_quick_mode(name, quick_runs):
    futures, results_before = quick_runs
    run = futures[name].result()
    assert run["returncode"] == 0, f"bench/{name}.py --quick failed:\n{run['stderr'][-3000:]}"
    try:
        report = json.loads(run["stdout"])
    except ValueError:
        pytest.fail(
            f"bench/{name}.py --quick printed no JSON (stdout must be only the report):\n"
            f"{run['stdout'][-2000:]}"
        )
    assert isinstance(report, dict) and report
    assert not _errors(report), f"bench/{name}.py reported errors: {_errors(report)}"
    assert name in CHECKS, f"bench/{name}.py is new: say what its report must hold in CHECKS"
    CHECKS[name](report)
    new = set((ROOT / "bench" / "results").glob("*")) - results_before
    assert not new, f"a quick run wrote {sorted(new)}: only --save may"
