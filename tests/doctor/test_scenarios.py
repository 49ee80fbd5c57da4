"""Each recorded machine gives the verdicts it is about: Windows checks run here on Linux."""

from pathlib import Path

import pytest

from app.doctor.probes import SnapshotProbe
from app.doctor.result import Basis
from app.doctor.runner import run_doctor
from app.doctor.snapshot import load_snapshot

SNAPSHOTS = Path(__file__).parent / "snapshots"

# scenario -> {check id: expected status}; plus the recommended device.
EXPECTED = {
    "win_fine": (
        {
            "python_runtime": "ok",
            "torch_build": "ok",
            "driver_cuda": "ok",
            "gpu_arch": "ok",
            "cuda_kernel": "ok",
            "vram": "ok",
            "vc_runtime": "ok",
            "path_length": "ok",
            "path_entries": "ok",
            "long_paths": "ok",
            "non_ascii_path": "ok",
            "tdr": "ok",
            "wsl": "ok",
            "disk_space": "ok",
            "model_files": "ok",
            "hub_reachable": "ok",
            "audio_output": "ok",
            "hotkeys": "ok",
        },
        "cuda",
    ),
    "win_cpu_torch_rtx": (
        {"torch_build": "fail", "driver_cuda": "skip", "gpu_arch": "skip", "cuda_kernel": "skip"},
        "cpu",
    ),
    "win_driver_too_old_major": (
        {"driver_cuda": "fail", "cuda_kernel": "fail", "torch_build": "ok"},
        "cpu",
    ),
    "win_driver_minor_mismatch": ({"driver_cuda": "warn", "cuda_kernel": "ok"}, "cuda"),
    "win_rtx5090_cu126": ({"gpu_arch": "fail", "cuda_kernel": "fail", "driver_cuda": "ok"}, "cpu"),
    "win_tdr_default": ({"tdr": "warn"}, "cuda"),
    "win_path_over_8191": ({"path_length": "fail"}, "cuda"),
    "win_two_cuda_bins": ({"path_entries": "warn", "path_length": "ok"}, "cuda"),
    "wsl_linux_driver_inside": (
        {
            "wsl": "fail",
            "tdr": "skip",
            "path_length": "skip",
            "vc_runtime": "skip",
            "long_paths": "skip",
        },
        "cpu",
    ),
    "win_chinese_user_cp936": ({"non_ascii_path": "warn"}, "cuda"),
    "win_missing_vcruntime": ({"vc_runtime": "fail"}, "cpu"),
    "win_vcruntime_before_14_38": ({"vc_runtime": "fail"}, "cpu"),
    "win_torch_winerror126": (
        {"torch_build": "fail", "driver_cuda": "skip", "gpu_arch": "skip", "cuda_kernel": "skip"},
        "cpu",
    ),
    "win_no_gpu": (
        {
            "torch_build": "ok",
            "driver_cuda": "skip",
            "gpu_arch": "skip",
            "cuda_kernel": "skip",
            "vram": "skip",
            "tdr": "skip",
        },
        "cpu",
    ),
    "win_low_vram": ({"vram": "warn", "gpu_arch": "ok"}, "cpu"),
    "win_hub_unreachable_no_model": (
        {"hub_reachable": "warn", "model_files": "fail", "disk_space": "ok"},
        "cuda",
    ),
    "linux_cpu_only": (
        {
            "torch_build": "ok",
            "path_length": "skip",
            "long_paths": "skip",
            "tdr": "skip",
            "vc_runtime": "skip",
            "non_ascii_path": "skip",
            "wsl": "skip",
            "hotkeys": "ok",
        },
        "cpu",
    ),
    "linux_wayland_no_hotkeys": ({"hotkeys": "warn", "audio_output": "ok"}, "cpu"),
    "linux_hotkey_taken": ({"hotkeys": "warn"}, "cpu"),
    "win_hotkey_library_missing": ({"hotkeys": "warn", "torch_build": "ok"}, "cuda"),
    "win_long_path_disabled": ({"long_paths": "warn"}, "cuda"),
    "win_gtx1080_cu128": ({"gpu_arch": "fail"}, "cpu"),
    "win_corrupt_model": ({"model_files": "fail"}, "cuda"),
    "win_probes_unreadable": (
        {"torch_build": "warn", "tdr": "warn", "path_length": "warn", "python_runtime": "ok"},
        "cpu",
    ),
}


def test_every_snapshot_file_has_expectations():
    assert {p.stem for p in SNAPSHOTS.glob("*.json")} == set(EXPECTED)
    assert len(EXPECTED) >= 15


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_scenario_verdicts(name):
    expected, device = EXPECTED[name]
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / f"{name}.json")))
    statuses = {r.id: r.status for r in report.results}
    assert {k: statuses[k] for k in expected} == expected
    assert report.recommendation.device == device
    assert "error" not in statuses.values()
    for r in report.results:
        assert r.summary.endswith((".", ")")), (r.id, r.summary)
        if r.status in ("warn", "fail") and r.basis is not Basis.UNREADABLE:
            assert r.fix, f"{r.id} says {r.status} without a fix"


def test_fixes_name_the_right_pytorch_wheel_index():
    def rec(name):
        return run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / f"{name}.json"))).recommendation

    assert "whl/cu128" in rec("win_cpu_torch_rtx").torch_install  # RTX 3060, driver 572
    assert "whl/cu128" in rec("win_rtx5090_cu126").torch_install  # sm_120 needs cu128
    assert "whl/cu126" in rec("win_gtx1080_cu128").torch_install  # sm_61 needs cu126
    assert rec("win_missing_vcruntime").torch_install == ""  # another PyTorch won't help
    assert rec("win_no_gpu").torch_install == ""


def test_old_driver_fix_names_the_minimum_driver():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_driver_too_old_major.json")))
    fix = report.result("driver_cuda").fix
    assert "570.65" in fix  # Windows minimum for CUDA 12.8 (doctor-facts table)


def test_winerror_126_on_fbgemm_gets_the_known_fix():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_torch_winerror126.json")))
    assert "libomp140" in report.result("torch_build").fix


def test_unreadable_sections_say_so_instead_of_guessing():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_probes_unreadable.json")))
    assert report.result("torch_build").basis is Basis.UNREADABLE
    assert report.result("tdr").basis is Basis.UNREADABLE
    assert report.result("torch_build").summary.startswith("Could not read")


def test_hotkey_problems_are_said_in_one_sentence_each():
    def hotkeys(name):
        report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / f"{name}.json")))
        return report.result("hotkeys")

    assert "Wayland" in hotkeys("linux_wayland_no_hotkeys").summary
    assert "X11" in hotkeys("linux_wayland_no_hotkeys").fix
    taken = hotkeys("linux_hotkey_taken")
    assert "Ctrl+Alt+R" in taken.summary and "another" in taken.fix.lower()
    missing = hotkeys("win_hotkey_library_missing")
    assert "pynput" in missing.summary and "pynput" in missing.details
    assert hotkeys("win_fine").summary == "Global hotkeys can be registered (Ctrl+Alt+R is free)."


def test_a_snapshot_from_before_hotkeys_says_it_could_not_read_them():
    snapshot = load_snapshot(SNAPSHOTS / "win_fine.json")
    del snapshot["hotkeys"]
    result = run_doctor(SnapshotProbe(snapshot)).result("hotkeys")
    assert result.basis is Basis.UNREADABLE
