"""The report survives crashing and hanging checks; output formats; facts tables."""

import json
import threading
import types
from pathlib import Path

import pytest

from app.core.device import TORCH_WHEEL_URL, DeviceOption
from app.doctor import facts
from app.doctor.checks import ALL
from app.doctor.probes import SnapshotProbe
from app.doctor.probes.base import Probe, collect
from app.doctor.recommendation import Because
from app.doctor.report import render_json, render_text
from app.doctor.result import ERROR, OK, WARN, Basis
from app.doctor.runner import run_checks, run_doctor
from app.doctor.snapshot import Snapshot, load_snapshot

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _fake_check(check_id, fn):
    return types.SimpleNamespace(ID=check_id, TITLE=check_id.title(), check=fn)


def test_a_crashing_check_is_reported_and_the_rest_still_run():
    def boom(snapshot):
        raise ZeroDivisionError("bad maths")

    modules = (_fake_check("first", boom),) + ALL
    results = run_checks(Snapshot(load_snapshot(SNAPSHOTS / "win_fine.json")), modules)
    assert (results[0].status, results[0].basis) == (ERROR, Basis.CRASHED)
    assert "ZeroDivisionError: bad maths" in results[0].details
    assert results[0].summary == "The check did not complete."
    assert [r.status for r in results[1:]].count(OK) == len(ALL)
    assert {r.basis for r in results[1:]} == {Basis.JUDGED}


def test_a_hanging_check_times_out_without_stopping_the_report():
    """The hanging check comes first, so the runner waits out its timeout before it looks at
    the others: they get that whole wait (2 s) and their own to finish microseconds of work,
    which even a heavily loaded machine gives them."""
    release = threading.Event()
    modules = (_fake_check("slow", lambda s: release.wait(60)),) + ALL[:2]
    try:
        results = run_checks(
            Snapshot(load_snapshot(SNAPSHOTS / "win_fine.json")), modules, timeout_s=2.0
        )
    finally:
        release.set()
    assert (results[0].status, results[0].basis) == (ERROR, Basis.TIMED_OUT)
    assert "did not finish within 2 s" in results[0].summary
    assert [r.status for r in results[1:]] == [OK, OK]


def test_a_crashing_probe_section_becomes_null_and_is_noted():
    class Half(Probe):
        def read(self, section):
            if section == "torch":
                raise RuntimeError("driver exploded")
            return {"system": "Linux"} if section == "os" else None

    snap = collect(Half())
    assert snap["torch"] is None
    assert "driver exploded" in snap["probe_errors"]["torch"]
    results = {r.id: r for r in run_checks(snap)}
    assert (results["torch_build"].status, results["torch_build"].basis) == (WARN, Basis.UNREADABLE)
    assert results["torch_build"].summary.startswith("Could not read")


def test_text_report_has_one_marked_line_per_check_then_fixes():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_cpu_torch_rtx.json")))
    text = render_text(report)
    lines = text.splitlines()
    assert all(lines[i][:3] in ("[✓]", "[!]", "[✗]", "[-]", "[?]") for i in range(len(ALL)))
    assert any(line.startswith("[✗] PyTorch build") for line in lines)
    assert "How to fix:" in text
    assert "download.pytorch.org/whl/cu128" in text


def test_json_report_shape():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_fine.json")))
    data = json.loads(render_json(report))
    assert [c["id"] for c in data["checks"]] == [m.ID for m in ALL]
    assert set(data["checks"][0]) == {"id", "title", "status", "summary", "details", "fix", "basis"}
    assert {c["basis"] for c in data["checks"]} == {"judged"}
    assert data["recommendation"] == {
        "device": "cuda",
        "because": "gpu_works",
        "torch_install": "",
        "reason": report.recommendation.reason,
    }


def _recommendation(name):
    return run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / f"{name}.json"))).recommendation


def test_the_recommendation_says_why_in_values_not_only_in_words():
    """Code and tests act on device/because/check; the sentence is for people (and translated)."""
    low = _recommendation("win_low_vram")
    assert (low.device, low.because, low.check) == (
        DeviceOption.CPU,
        Because.LOW_GPU_MEMORY,
        "vram",
    )
    torch = _recommendation("win_cpu_torch_rtx")
    assert (torch.device, torch.because, torch.check) == (
        DeviceOption.CPU,
        Because.CHECK_FAILED,
        "torch_build",
    )
    assert "whl/cu128" in torch.torch_install
    vc = _recommendation("win_missing_vcruntime")
    assert (vc.check, vc.torch_install) == ("vc_runtime", "")  # another PyTorch would not help
    assert _recommendation("win_no_gpu").because is Because.NO_GPU
    fine = _recommendation("win_fine")
    assert (fine.device, fine.because, fine.check) == (DeviceOption.CUDA, Because.GPU_WORKS, None)
    assert (
        fine.to_dict()["device"] == "cuda" and "error" not in fine.to_dict()
    )  # as the JSON report holds it


def test_the_torch_the_advice_installs_is_the_one_pyproject_pins_and_the_docs_show():
    import tomllib

    root = Path(__file__).parents[2]
    pyproject = tomllib.loads((root / "pyproject.toml").read_text())
    assert f"torch=={facts.TORCH_VERSION}" in pyproject["project"]["dependencies"]
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_cpu_torch_rtx.json")))
    assert report.recommendation.torch_install == facts.torch_install_command("cu128")
    # Markdown and CI cannot import the constants: they must spell the same version and index.
    wheel = f"torch=={facts.TORCH_VERSION} --index-url {TORCH_WHEEL_URL.format(tag='cu128')}"
    for doc in ("README.md", "installer/README.md", ".github/workflows/windows.yml"):
        assert wheel in (root / doc).read_text(encoding="utf-8"), doc


def test_facts_helpers():
    assert facts.cuda_from_driver_code(12080) == (12, 8)
    assert facts.min_driver((12, 8), windows=True) == "570.65"
    assert facts.min_driver((12, 7), windows=False) == "560.28.03"  # nearest listed at or below
    assert facts.wmi_driver_to_nvidia("31.0.15.7652") == "576.52"


def test_the_model_kind_is_read_as_a_value_and_the_check_acts_on_it(tiny_model):
    from app.core import ModelKind
    from app.doctor.checks import model_files
    from app.doctor.probes.system import read_model

    model = read_model(tiny_model, verify=False)
    assert model["kind"] == ModelKind.RANDOM_WEIGHTS
    snap = Snapshot(load_snapshot(SNAPSHOTS / "win_fine.json"))
    official = model_files.check(snap).summary
    snap["model"] = dict(snap["model"], kind=model["kind"])
    assert (
        model_files.check(snap).summary != official and "noise" in model_files.check(snap).summary
    )
    snap["model"]["kind"] = ["not", "a", "kind"]  # what a hostile snapshot may hold
    assert model_files.check(snap).summary == official


WINDOWS_ONLY = ["vc_runtime", "path_length", "long_paths", "non_ascii_path", "tdr", "wsl"]


def test_on_linux_the_windows_checks_are_one_not_applicable_line_and_complete_in_json():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "linux_cpu_only.json")))
    titles = {r.id: r.title for r in report.results}
    lines = render_text(report).splitlines()
    folded = [line for line in lines if line.startswith("[-] Not applicable here")]
    assert folded == [folded[0]] and folded[0].endswith(
        ", ".join(titles[i] for i in WINDOWS_ONLY) + "."
    )
    assert not any(line.startswith(f"[-] {titles[i]} ") for line in lines for i in WINDOWS_ONLY)
    assert (
        len([line for line in lines if line[:3] in ("[✓]", "[!]", "[✗]", "[-]", "[?]")])
        == len(ALL) - 5
    )
    detailed = render_text(report, verbose=True)
    assert "    GPU timeout (TDR): TDR is a Windows display-driver setting." in detailed
    checks = json.loads(render_json(report))["checks"]
    assert [c["id"] for c in checks] == [m.ID for m in ALL]
    assert [c["id"] for c in checks if c["basis"] == "not_applicable"] == WINDOWS_ONLY
    assert all(
        c["status"] == "skip" and c["summary"] for c in checks if c["basis"] == "not_applicable"
    )
    # A GPU check without a GPU is skipped on Linux too, but it applies here: it keeps its line.
    assert any(line.startswith("[-] GPU memory") for line in lines)


def test_on_windows_nothing_is_folded():
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_no_gpu.json")))
    assert "Not applicable here" not in render_text(report, verbose=True)


def test_an_unreachable_host_is_explained_in_a_sentence_not_a_cut_exception():
    snapshot = load_snapshot(SNAPSHOTS / "win_hub_unreachable_no_model.json")
    # What the probe recorded before: the exception, cut at 200 characters in the middle of a word.
    snapshot["network"]["error"] = (
        "ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with "
        "url: / (Caused by NameResolutionError(\"HTTPSConnection(host='huggingface.co', port=443): Failed "
        "to resolve 'huggingface."
    )
    report = run_doctor(SnapshotProbe(snapshot))
    hub = report.result("hub_reachable")
    assert hub.details == (
        "The name huggingface.co could not be looked up: this computer may be offline, "
        "or its DNS server does not answer."
    )
    text = render_text(report)
    assert (
        "(The name huggingface.co could not be looked up" in text
        and "HTTPSConnectionPool" not in text
    )


@pytest.mark.parametrize(
    "error, said",
    [("HTTP 503", " 503;"), ("HTTP ²", "a server error;"), ("HTTP 5O3", "a server error;")],
)
def test_an_old_snapshots_http_error_gives_its_status_or_none_never_a_crash(error, said):
    snapshot = load_snapshot(SNAPSHOTS / "win_hub_unreachable_no_model.json")
    snapshot["network"]["error"] = error  # a hostile or older snapshot: text only
    snapshot["network"].pop("error_kind", None)
    snapshot["network"].pop("http_status", None)
    hub = run_doctor(SnapshotProbe(snapshot)).result("hub_reachable")
    assert hub.status == "warn" and said in hub.details
