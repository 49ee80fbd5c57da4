"""Every child process starts without a console window on Windows: the doctor runs at start-up
of the windowed app, and a console tool (nvidia-smi, wsl.exe) would flash one (issue 18)."""

import re
import subprocess
import sys
from pathlib import Path, PureWindowsPath

import pytest

from app import hidden_process
from app.doctor.probes import gpu, system, windows

APP = Path(__file__).parents[2] / "app"
CREATE_NO_WINDOW = 0x08000000

SMI_CSV = "572.61, NVIDIA GeForce RTX 3060, 12288, 11000, 8.6\n"
SMI_HEADER = "| NVIDIA-SMI 572.61   Driver Version: 572.61   CUDA Version: 12.8 |"
WSL_LIST = "  NAME      STATE           VERSION\n* Ubuntu    Running         2\n".encode(
    "utf-16-le"
)


@pytest.fixture
def recorded_runs(monkeypatch):
    """subprocess.run replaced by a recorder that answers like nvidia-smi and wsl.exe."""
    calls = []

    def fake_run(args, **kwargs):
        calls.append((list(args), kwargs))
        name = PureWindowsPath(args[0]).name
        if name.startswith("nvidia-smi"):
            out = SMI_CSV if len(args) > 1 else SMI_HEADER
        elif name == "wsl.exe":
            out = WSL_LIST
        else:
            out = "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n"
        return subprocess.CompletedProcess(args, 0, stdout=out, stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    return calls


def test_on_windows_every_doctor_subprocess_gets_create_no_window(recorded_runs, monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(gpu, "_nvidia_smi_path", lambda: r"C:\Windows\System32\nvidia-smi.exe")
    monkeypatch.setattr(system, "Path", _FakeWslPath)  # pretend to be inside WSL for ldconfig

    nvidia = gpu._nvidia_smi()
    wsl = windows.read_wsl_from_windows()
    inside = system.read_wsl_inside()

    assert nvidia["driver_version"] == "572.61" and nvidia["cuda_driver_version"] == 12080
    assert wsl["distros"] == [{"name": "Ubuntu", "state": "Running", "version": 2}]
    assert inside["libcuda_paths"] == ["/usr/lib/wsl/lib/libcuda.so.1"]
    programs = [PureWindowsPath(args[0]).name for args, _ in recorded_runs]
    assert programs == ["nvidia-smi.exe", "nvidia-smi.exe", "wsl.exe", "ldconfig"]
    for _args, kwargs in recorded_runs:
        assert kwargs["creationflags"] & CREATE_NO_WINDOW


def test_elsewhere_no_creationflags(recorded_runs, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    hidden_process.run_hidden(["ldconfig", "-p"], capture_output=True, text=True)
    ((_args, kwargs),) = recorded_runs
    assert "creationflags" not in kwargs  # POSIX's subprocess rejects it
    assert kwargs["errors"] == "replace"  # a stray byte must not crash a check


def test_existing_flags_are_kept(recorded_runs, monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    hidden_process.run_hidden(["x.exe"], creationflags=0x00000200)  # CREATE_NEW_PROCESS_GROUP
    assert recorded_runs[0][1]["creationflags"] == 0x00000200 | CREATE_NO_WINDOW


def test_nothing_in_app_starts_a_process_another_way():
    """A new subprocess call that bypasses run_hidden would flash a window again."""
    pattern = re.compile(
        r"subprocess\.(run|Popen|call|check_call|check_output)\(|os\.(system|popen|spawn\w*)\("
        r"|QProcess\b"
    )
    offenders = [
        f"{path.relative_to(APP)}:{n}"
        for path in APP.rglob("*.py")
        if path.name != "hidden_process.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []


class _FakeWslPath(type(Path())):
    """/proc/version as inside WSL 2; other paths as usual."""

    def read_text(self, *args, **kwargs):
        if str(self) in ("/proc/sys/kernel/osrelease", "/proc/version"):
            return "5.15.167.4-microsoft-standard-WSL2"
        return super().read_text(*args, **kwargs)
