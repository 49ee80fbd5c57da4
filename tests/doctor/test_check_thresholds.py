"""The edges of the checks that decide whether and where ChatTTS runs: each case sits on a
threshold from shared/doctor-facts.md (ChatTTS picks the CPU below 2 GB of free GPU memory,
4 GB is comfortable; the model's bytes plus a margin on its drive; a GPU runs a cubin of its
own major and an older minor, or PTX of its capability or older). The recorded scenarios sit
well inside each range; these sit on the line."""

import json
from pathlib import Path

import pytest

from app.doctor import facts
from app.doctor.checks import (
    cuda_kernel,
    disk_space,
    driver_cuda,
    gpu_arch,
    model_files,
    torch_build,
    vc_runtime,
    vram,
)
from app.doctor.probes.windows import RUNTIME_DLLS
from app.doctor.snapshot import Snapshot

FINE = json.loads(
    (Path(__file__).parent / "snapshots" / "win_fine.json").read_text(encoding="utf-8")
)


def _snap(**changes) -> Snapshot:
    snap = json.loads(json.dumps(FINE))
    snap.update(changes)
    return Snapshot(snap)


def _gpus(*gpus) -> dict:
    return dict(FINE["nvidia"], gpus=list(gpus))


# --- vram --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "free, status, on_cpu",
    [
        (facts.MIN_FREE_GPU_MB - 1, "warn", True),  # below 2 GB: ChatTTS runs on the CPU
        (facts.MIN_FREE_GPU_MB, "warn", False),  # exactly 2 GB: on the GPU, but tight
        (facts.VRAM_COMFORTABLE_MB - 1, "warn", False),
        (facts.VRAM_COMFORTABLE_MB, "ok", False),  # 4 GB is comfortable
    ],
)
def test_free_gpu_memory_thresholds(free, status, on_cpu):
    snap = _snap(nvidia=_gpus({"name": "A", "memory_total_mb": 16000, "memory_free_mb": free}))
    assert vram.check(snap).status == status
    assert vram.falls_back_to_cpu(snap) is on_cpu


def test_the_roomiest_gpu_decides_and_a_missing_free_reading_falls_back_to_the_total():
    small = {"name": "small", "memory_total_mb": 8000, "memory_free_mb": 500}
    big = {"name": "big", "memory_total_mb": 24000, "memory_free_mb": 20000}
    for order in ((small, big), (big, small)):
        result = vram.check(_snap(nvidia=_gpus(*order)))
        assert result.status == "ok" and "big" in result.details
    # No free reading: the total stands in for it (a card nobody else is using).
    total_only = _snap(nvidia=_gpus({"name": "T", "memory_total_mb": 3000, "memory_free_mb": None}))
    assert vram.check(total_only).status == "warn" and not vram.falls_back_to_cpu(total_only)
    assert vram.falls_back_to_cpu(_snap(nvidia=_gpus({"name": "T", "memory_total_mb": 1024})))


def test_unreadable_or_absent_gpu_memory():
    assert vram.check(_snap(nvidia=_gpus({"name": "X"}))).basis == "unreadable"
    assert not vram.falls_back_to_cpu(_snap(nvidia=_gpus({"name": "X"})))
    assert vram.check(_snap(nvidia=_gpus())).status == "skip"
    assert not vram.falls_back_to_cpu(_snap(nvidia=_gpus()))


# --- disk_space --------------------------------------------------------------------------------


def _no_model_room(free: int) -> Snapshot:
    return _snap(
        model={"dir": "D:\\m", "expected": FINE["model"]["expected"], "files": {}},
        disk_free_bytes={"models": free},
    )


@pytest.mark.parametrize(
    "free, status",
    [
        (facts.OFFICIAL_MODEL_BYTES - 1, "fail"),
        (facts.OFFICIAL_MODEL_BYTES, "warn"),  # it fits, nothing more
        (facts.OFFICIAL_MODEL_BYTES + facts.DISK_MARGIN_BYTES // 2, "warn"),
        (facts.OFFICIAL_MODEL_BYTES + facts.DISK_MARGIN_BYTES - 1, "warn"),
        (facts.OFFICIAL_MODEL_BYTES + facts.DISK_MARGIN_BYTES, "ok"),
    ],
)
def test_room_for_the_model_and_a_margin(free, status):
    assert disk_space.check(_no_model_room(free)).status == status


def test_free_space_is_said_in_gigabytes():
    assert "2.5 GB free" in disk_space.check(_no_model_room(2_500_000_000)).summary
    assert "0.1 GB" in disk_space.check(_no_model_room(100_000_000)).summary


def test_a_complete_model_needs_no_room_but_an_incomplete_one_does():
    full = _snap(disk_free_bytes={"models": 1000})
    assert disk_space.check(full).status == "ok"
    partial = json.loads(json.dumps(FINE["model"]))
    partial["files"].pop("asset/DVAE.safetensors")
    assert disk_space.check(_snap(model=partial, disk_free_bytes={"models": 1000})).status == "fail"
    # No model section read at all: judged by the room alone.
    snap = _snap(disk_free_bytes={"models": 1000})
    del snap["model"]
    assert disk_space.check(snap).status == "fail"


# --- gpu_arch ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cap, archs, supported",
    [
        ((8, 6), ["sm_80"], True),  # same major, newer minor runs an older cubin
        ((8, 6), ["sm_86"], True),
        ((8, 0), ["sm_86"], False),  # never a newer minor's cubin
        ((9, 0), ["sm_80", "sm_86"], False),  # nor another major's
        ((9, 0), ["compute_80"], True),  # PTX of an older capability is compiled at load
        ((8, 0), ["compute_80"], True),
        ((7, 5), ["compute_80"], False),  # PTX newer than the GPU is not
        ((12, 0), ["sm_90", "sm_120"], True),  # three digits: sm_120 is 12.0
        ((12, 0), ["sm_100"], False),
        ((1, 0), ["sm_120"], False),
        ((8, 6), ["sm_90a", "sm_86"], True),  # an entry that is not sm_NN is passed over
    ],
)
def test_which_kernels_run_on_which_gpu(cap, archs, supported):
    assert gpu_arch._supported(cap, archs) is supported


def test_gpu_arch_judges_every_gpu_and_skips_without_cuda_torch():
    gpus = _gpus(
        {"name": "new", "compute_capability": [12, 0]},
        {"name": "old", "compute_capability": [6, 1]},
    )
    result = gpu_arch.check(_snap(nvidia=gpus))
    assert (
        result.status == "fail" and "old (sm_61)" in result.summary and "new" not in result.summary
    )
    broken = dict(FINE["torch"], import_error="DLL load failed")
    assert gpu_arch.check(_snap(torch=broken)).status == "skip"


# --- torch_build / model_files -----------------------------------------------------------------


@pytest.mark.parametrize(
    "error, words",
    [
        (
            "OSError: [WinError 126] Error loading fbgemm.dll or one of its dependencies.",
            "pip install --upgrade torch",
        ),
        (
            "OSError: [WinError 126] The specified module could not be found (c10.dll)",
            facts.VC_REDIST_URL,
        ),
        ("ImportError: DLL load failed while importing _C", facts.VC_REDIST_URL),
        ("ModuleNotFoundError: No module named 'torch'", "pip install --force-reinstall torch"),
    ],
)
def test_an_import_failure_gets_the_fix_for_its_cause(error, words):
    result = torch_build.check(_snap(torch={"import_error": error}))
    assert result.status == "fail" and words in result.fix and result.details == error


def test_model_files_names_what_is_missing_or_damaged():
    model = json.loads(json.dumps(FINE["model"]))
    model["files"].pop("asset/Vocos.safetensors")
    model["files"]["asset/DVAE.safetensors"]["sha256_ok"] = False
    missing = model_files.check(_snap(model=model))
    assert missing.status == "fail" and missing.details == "asset/Vocos.safetensors"
    model["expected"].remove("asset/Vocos.safetensors")
    damaged = model_files.check(_snap(model=model))
    assert damaged.status == "fail" and damaged.details == "asset/DVAE.safetensors"


def test_model_files_without_a_list_of_expected_files_judges_the_files_present():
    model = dict(FINE["model"], expected=None)
    assert model_files.check(_snap(model=model)).status == "ok"
    assert "9" in model_files.check(_snap(model=model)).summary
    quick = json.loads(json.dumps(FINE["model"]))
    for info in quick["files"].values():
        info["sha256_ok"] = None
    assert "not checked" in model_files.check(_snap(model=quick)).summary
    assert (
        "random-weight"
        in model_files.check(_snap(model=dict(FINE["model"], kind="random-weights"))).summary
    )
    assert "random-weight" not in model_files.check(_snap(model=FINE["model"])).summary


# --- driver_cuda / cuda_kernel -----------------------------------------------------------------


@pytest.mark.parametrize(
    "driver_code, torch_cuda, status",
    [
        (11080, "12.8", "fail"),  # an older major: nothing runs
        (12060, "12.8", "warn"),  # same major, older minor: minor-version compatibility
        (12080, "12.8", "ok"),
        (12090, "12.8", "ok"),
        (13000, "12.8", "ok"),
        (12000, "12.0", "ok"),
    ],
)
def test_driver_cuda_against_the_cuda_pytorch_was_built_for(driver_code, torch_cuda, status):
    nvidia = dict(FINE["nvidia"], cuda_driver_version=driver_code)
    result = driver_cuda.check(_snap(nvidia=nvidia, torch=dict(FINE["torch"], cuda=torch_cuda)))
    assert result.status == status


def test_driver_cuda_names_the_minimum_driver_for_the_system():
    old = dict(FINE["nvidia"], cuda_driver_version=11080)
    windows = driver_cuda.check(_snap(nvidia=old))
    linux = driver_cuda.check(_snap(nvidia=old, os=dict(FINE["os"], system="Linux")))
    assert facts.DRIVER_MIN[(12, 8)][1] in windows.fix and facts.DRIVER_MIN[(12, 8)][0] in linux.fix
    assert "12.8" in windows.details and "11.8" in windows.details


def test_driver_cuda_skips_or_cannot_read():
    assert driver_cuda.check(_snap(nvidia=None)).status == "skip"
    assert driver_cuda.check(_snap(torch=dict(FINE["torch"], cuda=None))).status == "skip"
    assert driver_cuda.check(_snap(torch=dict(FINE["torch"], import_error="boom"))).status == "skip"
    unreadable = driver_cuda.check(_snap(nvidia=dict(FINE["nvidia"], cuda_driver_version=None)))
    assert unreadable.basis == "unreadable"


@pytest.mark.parametrize(
    "torch_changes, gpus, status",
    [
        ({}, True, "ok"),
        ({"cuda_available": False}, True, "fail"),
        ({"kernel_ok": False, "kernel_error": "no kernel image"}, True, "fail"),
        ({"kernel_ok": None}, True, "skip"),
        ({"cuda": None}, True, "skip"),
        ({"import_error": "DLL load failed"}, True, "skip"),
        ({}, False, "skip"),
    ],
)
def test_cuda_kernel(torch_changes, gpus, status):
    snap = _snap(
        torch=dict(FINE["torch"], **torch_changes), nvidia=FINE["nvidia"] if gpus else _gpus()
    )
    result = cuda_kernel.check(snap)
    assert result.status == status
    if torch_changes.get("kernel_error"):
        assert result.details == "no kernel image"


# --- what each result says: titles, names and versions -----------------------------------------


@pytest.mark.parametrize(
    "module", [cuda_kernel, disk_space, driver_cuda, gpu_arch, model_files, torch_build, vram]
)
def test_each_result_carries_its_checks_title(module):
    result = module.check(_snap())
    assert (result.id, result.title) == (module.ID, module.TITLE)  # English: the title as written


def test_the_roomiest_gpu_is_judged_by_free_memory_or_else_its_total():
    by_free = _gpus(
        {"name": "A", "memory_free_mb": 10000, "memory_total_mb": 12000},
        {"name": "B", "memory_free_mb": 2000, "memory_total_mb": 24000},
    )
    assert vram.check(_snap(nvidia=by_free)).details.startswith("A:")
    by_total = _gpus(
        {"name": "A", "memory_total_mb": 8000},
        {"name": "B", "memory_free_mb": 3000, "memory_total_mb": 4000},
    )
    result = vram.check(_snap(nvidia=by_total))
    assert result.details == "A: 8000 MB free of 8000 MB."


def test_driver_cuda_names_the_driver_and_the_install_command():
    from app.doctor import torch_advice

    old = _snap(nvidia=dict(FINE["nvidia"], cuda_driver_version=11080))
    result = driver_cuda.check(old)
    assert "572.61" in result.summary and torch_advice.advice(old)[0] in result.fix
    unnamed = driver_cuda.check(_snap(nvidia=dict(FINE["nvidia"], driver_version=None)))
    assert "Driver ? supports" in unnamed.summary


def test_gpu_arch_names_each_gpus_architecture_and_judges_every_gpu():
    gpus = _gpus({"name": "unknown"}, {"name": "old", "compute_capability": [6, 1]})
    assert "old (sm_61)" in gpu_arch.check(_snap(nvidia=gpus)).summary
    two = _gpus(
        {"name": "a", "compute_capability": [8, 6]},
        {"name": "b"},
        {"name": "c", "compute_capability": [12, 0]},
    )
    assert "(sm_86, sm_120)" in gpu_arch.check(_snap(nvidia=two)).summary


def test_torch_build_says_which_build_and_which_gpu():
    assert "2.14.1+cu128" in torch_build.check(_snap()).summary
    cpu_torch = dict(FINE["torch"], cuda=None, version="2.5.1")
    assert (
        "NVIDIA GeForce RTX 3060 is not used" in torch_build.check(_snap(torch=cpu_torch)).summary
    )
    nameless = _gpus({"memory_total_mb": 8000})
    assert (
        "your NVIDIA GPU is not used"
        in torch_build.check(_snap(torch=cpu_torch, nvidia=nameless)).summary
    )
    no_gpu = torch_build.check(_snap(nvidia=_gpus()))
    assert no_gpu.status == "ok" and "no NVIDIA GPU found" in no_gpu.summary


def test_model_files_verified_or_only_present():
    assert "present and verified" in model_files.check(_snap()).summary


# --- vc_runtime --------------------------------------------------------------------------------


def test_the_runtime_check_probes_what_torch_cpu_imports():
    # torch_cpu.dll imports both (redistributable 14.38+): issue 37's bundle lacked the first.
    assert {"vcruntime140_threads.dll", "msvcp140_atomic_wait.dll"} <= set(RUNTIME_DLLS)
    for name in ("vcruntime140_threads.dll", "msvcp140_atomic_wait.dll"):
        result = vc_runtime.check(_snap(dlls=dict(FINE["dlls"], **{name: False})))
        assert result.status == "fail" and name in result.summary


def test_a_snapshot_that_did_not_probe_every_runtime_dll_is_not_called_fine():
    older = {"vcruntime140.dll": True, "vcruntime140_1.dll": True, "msvcp140.dll": True}
    result = vc_runtime.check(_snap(dlls=older))
    assert result.status != "ok" and result.basis.name == "UNREADABLE"
    assert vc_runtime.check(_snap(dlls=dict(older, **{"msvcp140.dll": False}))).status == "fail"
