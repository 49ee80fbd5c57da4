"""Probe parsing, the live probe on this machine, and snapshot replay equal to the live run."""

import json

from app.doctor.probes import SnapshotProbe
from app.doctor.probes.gpu import parse_nvidia_smi, read_torch
from app.doctor.probes.live import LiveProbe
from app.doctor.probes.windows import parse_wsl_list
from app.doctor.runner import run_doctor
from app.doctor.snapshot import SECTIONS, load_snapshot, save_snapshot


def test_wsl_list_in_utf16_is_parsed():
    raw = "  NAME            STATE           VERSION\r\n* Ubuntu-22.04    Running         2\r\n  Debian          Stopped         1\r\n"
    text = raw.encode("utf-16-le").decode("utf-16-le")
    assert parse_wsl_list(text) == [{"name": "Ubuntu-22.04", "state": "Running", "version": 2},
                                    {"name": "Debian", "state": "Stopped", "version": 1}]


def test_nvidia_smi_csv_and_header_are_parsed():
    csv = "572.61, NVIDIA GeForce RTX 3060, 12288, 11000, 8.6\n"
    header = "| NVIDIA-SMI 572.61    Driver Version: 572.61     CUDA Version: 12.8     |"
    info = parse_nvidia_smi(csv, header)
    assert info["driver_version"] == "572.61" and info["cuda_driver_version"] == 12080
    assert info["gpus"][0] == {"name": "NVIDIA GeForce RTX 3060", "memory_total_mb": 12288,
                               "memory_free_mb": 11000, "compute_capability": [8, 6], "driver_model": None}


def test_torch_probe_reads_this_installation():
    import torch

    info = read_torch()
    assert info["version"] == torch.__version__
    assert info["cuda"] == torch.version.cuda
    assert info["import_error"] is None
    assert info["cuda_available"] is torch.cuda.is_available()


def test_live_probe_fills_every_section(tiny_model, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    report = run_doctor(LiveProbe(tiny_model))
    snap = report.snapshot
    assert snap["snapshot_version"] == 1
    assert set(SECTIONS) <= set(snap)
    assert snap["registry"] is None and snap["dlls"] is None      # not Windows
    assert snap["model"]["dir"] == str(tiny_model)
    assert all(f["sha256_ok"] for f in snap["model"]["files"].values())
    assert snap["network"]["hub_reachable"] is None                # offline: nothing contacted
    statuses = {r.id: r.status for r in report.results}
    assert statuses["tdr"] == statuses["vc_runtime"] == "skip"
    assert statuses["model_files"] == "ok"
    assert "error" not in statuses.values()


def test_saved_snapshot_replays_to_the_same_verdicts(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    live = run_doctor(LiveProbe(tiny_model))
    path = save_snapshot(live.snapshot, tmp_path / "machine.json")
    json.loads(path.read_text())   # valid JSON on disk
    replay = run_doctor(SnapshotProbe(load_snapshot(path)))
    assert [r.to_dict() for r in replay.results] == [r.to_dict() for r in live.results]
    assert replay.recommendation == live.recommendation
