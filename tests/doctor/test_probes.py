"""Probe parsing, the live probe on this machine, and snapshot replay equal to the live run."""

import json
import socket

from app.doctor.checks import hub_reachable
from app.doctor.probes import SnapshotProbe, system
from app.doctor.probes.gpu import parse_nvidia_smi, read_torch
from app.doctor.probes.live import LiveProbe
from app.doctor.probes.windows import parse_wsl_list
from app.doctor.runner import run_doctor
from app.doctor.snapshot import SECTIONS, Snapshot, load_snapshot, save_snapshot


def test_wsl_list_in_utf16_is_parsed():
    raw = "  NAME            STATE           VERSION\r\n* Ubuntu-22.04    Running         2\r\n  Debian          Stopped         1\r\n"
    text = raw.encode("utf-16-le").decode("utf-16-le")
    assert parse_wsl_list(text) == [
        {"name": "Ubuntu-22.04", "state": "Running", "version": 2},
        {"name": "Debian", "state": "Stopped", "version": 1},
    ]


def test_nvidia_smi_csv_and_header_are_parsed():
    csv = "572.61, NVIDIA GeForce RTX 3060, 12288, 11000, 8.6\n"
    header = "| NVIDIA-SMI 572.61    Driver Version: 572.61     CUDA Version: 12.8     |"
    info = parse_nvidia_smi(csv, header)
    assert info["driver_version"] == "572.61" and info["cuda_driver_version"] == 12080
    assert info["gpus"][0] == {
        "name": "NVIDIA GeForce RTX 3060",
        "memory_total_mb": 12288,
        "memory_free_mb": 11000,
        "compute_capability": [8, 6],
        "driver_model": None,
    }


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
    assert snap["registry"] is None and snap["dlls"] is None  # not Windows
    assert snap["model"]["dir"] == str(tiny_model)
    assert all(f["sha256_ok"] for f in snap["model"]["files"].values())
    assert snap["network"]["hub_reachable"] is None  # offline: nothing contacted
    statuses = {r.id: r.status for r in report.results}
    assert statuses["tdr"] == statuses["vc_runtime"] == "skip"
    assert statuses["model_files"] == "ok"
    assert "error" not in statuses.values()


def test_saved_snapshot_replays_to_the_same_verdicts(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    live = run_doctor(LiveProbe(tiny_model))
    path = save_snapshot(live.snapshot, tmp_path / "machine.json")
    json.loads(path.read_text())  # valid JSON on disk
    replay = run_doctor(SnapshotProbe(load_snapshot(path)))
    assert [r.to_dict() for r in replay.results] == [r.to_dict() for r in live.results]
    assert replay.recommendation == live.recommendation


def _hub_report(monkeypatch, endpoint):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    net = system.read_network(offline=False)
    return net, hub_reachable.check(Snapshot({"network": net, "model": {"files": {}}}))


def test_a_refused_connection_is_classified_and_said_in_one_sentence(monkeypatch):
    with socket.socket() as s:  # bound but not listening: this port refuses
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        net, hub = _hub_report(monkeypatch, f"http://127.0.0.1:{port}")
    assert (net["hub_reachable"], net["error_kind"]) == (False, "refused")
    assert (
        hub.details == "127.0.0.1 refused the connection: nothing answers at that address and port."
    )


def test_a_host_that_never_answers_is_a_timeout(monkeypatch):
    monkeypatch.setattr(system, "HUB_TIMEOUT_S", 0.2)
    with socket.socket() as s:  # listening, never answering
        s.bind(("127.0.0.1", 0))
        s.listen()
        net, hub = _hub_report(monkeypatch, f"http://127.0.0.1:{s.getsockname()[1]}")
    assert net["error_kind"] == "timeout"
    assert hub.details.startswith("127.0.0.1 did not answer in time")


def test_a_name_that_does_not_resolve_is_a_dns_failure_and_the_raw_error_keeps_whole_words(
    monkeypatch,
):
    def no_dns(*_args, **_kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    net, hub = _hub_report(monkeypatch, "https://huggingface.co")
    assert net["error_kind"] == "dns"
    assert hub.details.startswith("The name huggingface.co could not be looked up")
    assert net["error"].endswith(("...", ")")) and "\n" not in net["error"]


def test_a_host_that_answers_with_a_server_error_says_its_status(monkeypatch):
    import http.server
    import threading

    class Busy(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):
            self.send_response(503)
            self.end_headers()

        def log_message(self, *_args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Busy)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        net, hub = _hub_report(monkeypatch, f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
    assert (net["hub_reachable"], net["error_kind"], net["http_status"]) == (False, "http", 503)
    assert hub.details == "127.0.0.1 answered with the server error 503; try again later."
