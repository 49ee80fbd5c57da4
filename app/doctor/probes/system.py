"""Operating system, Python, environment, paths, disk, model files, network and audio."""

from __future__ import annotations

import os
import platform
import shutil
import struct
import sys
import tempfile
from pathlib import Path

ENV_NAMES = (
    "PATH",
    "CUDA_PATH",
    "HF_ENDPOINT",
    "HF_HOME",
    "TEMP",
    "WSL_DISTRO_NAME",
    "HF_HUB_OFFLINE",
    "LD_LIBRARY_PATH",
)


def read_os() -> dict:
    return {
        "system": platform.system(),
        "release": platform.release(),
        "version": platform.version(),
        "machine": platform.machine(),
    }


def read_python() -> dict:
    return {
        "version": platform.python_version(),
        "bits": struct.calcsize("P") * 8,
        "executable": sys.executable,
        "frozen": bool(getattr(sys, "frozen", False)),
    }


def read_env() -> dict:
    env = {name: os.environ.get(name) for name in ENV_NAMES}
    if env["TEMP"] is None:
        env["TEMP"] = os.environ.get("TMP") or os.environ.get("TMPDIR")
    return env


def env_block_bytes() -> int:
    """Size of the environment block Windows passes to a child (UTF-16, NUL-separated)."""
    return sum((len(k) + len(v) + 2) * 2 for k, v in os.environ.items()) + 2


def missing_path_entries() -> list[str]:
    seen, missing = set(), []
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if entry and entry not in seen:
            seen.add(entry)
            if not os.path.isdir(os.path.expandvars(entry)):
                missing.append(entry)
    return missing


def read_paths(model_dir: Path) -> dict:
    app_dir = (
        Path(sys.executable).parent
        if getattr(sys, "frozen", False)
        else Path(__file__).resolve().parents[3]
    )
    return {
        "home": str(Path.home()),
        "app": str(app_dir),
        "models": str(model_dir),
        "temp": tempfile.gettempdir(),
        "hf_home": os.environ.get("HF_HOME"),
    }


def read_disk_free(model_dir: Path) -> dict:
    probe = model_dir
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    return {"models": shutil.disk_usage(probe).free}


def read_model(model_dir: Path, verify: bool) -> dict:
    from app.model import MODEL_FILES, ModelStore

    store = ModelStore(model_dir)
    files = {}
    if verify and store.root.is_dir():
        for check in store.verify().files:
            if check.present:
                files[check.relpath] = {"size": check.size, "sha256_ok": check.sha256_ok}
    else:
        for rel in MODEL_FILES:
            path = store.root / rel
            if path.is_file():
                files[rel] = {"size": path.stat().st_size, "sha256_ok": None}
    try:
        kind = store.model_kind.value
    except Exception:
        kind = None
    return {"dir": str(store.root), "files": files, "expected": list(MODEL_FILES), "kind": kind}


HUB_TIMEOUT_S = 8.0
_ERROR_CHARS = 500


def network_error_kind(exc: BaseException) -> str:
    """What stopped a request, as a value the hub check turns into a sentence: "dns", "refused",
    "timeout", "tls", "proxy" or "other". requests wraps urllib3 wraps socket, so the whole
    chain of causes is looked at."""
    import socket

    import requests

    chain, seen = [], set()
    node = exc
    while node is not None and id(node) not in seen and len(chain) < 20:
        seen.add(id(node))
        chain.append(node)
        node = node.__cause__ or node.__context__ or getattr(node, "reason", None)
        node = node if isinstance(node, BaseException) else None
    text = " ".join(f"{type(e).__name__} {e}" for e in chain)
    if isinstance(exc, requests.exceptions.ProxyError):
        return "proxy"
    if isinstance(exc, requests.exceptions.SSLError):
        return "tls"
    if isinstance(exc, requests.exceptions.Timeout) or any(
        isinstance(e, TimeoutError) for e in chain
    ):
        return "timeout"
    if any(isinstance(e, socket.gaierror) for e in chain) or "NameResolutionError" in text:
        return "dns"
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return "refused"
    return "other"


def one_line_error(exc: BaseException) -> str:
    """The exception on one line, whole words only: for the snapshot and the log, not a sentence."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    if len(text) <= _ERROR_CHARS:
        return text
    return text[:_ERROR_CHARS].rsplit(" ", 1)[0] + " ..."


def read_network(offline: bool) -> dict:
    from app.model import HF_DEFAULT

    endpoint = os.environ.get("HF_ENDPOINT") or HF_DEFAULT
    if offline or os.environ.get("HF_HUB_OFFLINE") in ("1", "true", "True"):
        return {"hub_endpoint": endpoint, "hub_reachable": None, "error": "offline mode"}
    import requests

    try:
        response = requests.head(endpoint, timeout=HUB_TIMEOUT_S, allow_redirects=True)
        ok = response.status_code < 500
        return {
            "hub_endpoint": endpoint,
            "hub_reachable": ok,
            "error": None if ok else f"HTTP {response.status_code}",
            "error_kind": None if ok else "http",
            "http_status": response.status_code,
        }
    except requests.RequestException as exc:
        return {
            "hub_endpoint": endpoint,
            "hub_reachable": False,
            "error": one_line_error(exc),
            "error_kind": network_error_kind(exc),
        }


def read_audio() -> dict:
    try:
        import sounddevice  # noqa: F401  (raises OSError without PortAudio)
    except OSError as exc:
        return {"portaudio": False, "output_devices": [], "default_output": None, "error": str(exc)}
    from app.audio import list_output_devices

    names, default = list_output_devices()
    return {"portaudio": True, "output_devices": names, "default_output": default}


def read_wsl_inside() -> dict:
    """On Linux: are we inside WSL, and which libcuda.so would the loader pick first?"""
    release = ""
    for source in ("/proc/sys/kernel/osrelease", "/proc/version"):
        try:
            release += Path(source).read_text()
        except OSError:
            pass
    inside = "microsoft" in release.lower() or bool(os.environ.get("WSL_DISTRO_NAME"))
    libcuda = []
    if inside:
        import subprocess

        from app.hidden_process import run_hidden

        try:
            out = run_hidden(["ldconfig", "-p"], capture_output=True, text=True, timeout=15).stdout
            libcuda = [
                line.split("=>")[-1].strip()
                for line in out.splitlines()
                if "libcuda.so" in line and "=>" in line
            ]
        except (OSError, subprocess.TimeoutExpired):
            libcuda = []
    return {"installed": inside, "distros": [], "inside_wsl": inside, "libcuda_paths": libcuda}
