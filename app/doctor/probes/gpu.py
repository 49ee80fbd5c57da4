"""NVIDIA driver and GPUs (NVML, then nvidia-smi) and what PyTorch makes of them."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from app.hidden_process import run_hidden


def _nvml() -> dict | None:
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except Exception:
        return None
    try:

        def text(value):
            return value.decode() if isinstance(value, bytes) else value

        info = {
            "driver_version": text(pynvml.nvmlSystemGetDriverVersion()),
            "cuda_driver_version": int(pynvml.nvmlSystemGetCudaDriverVersion_v2()),
            "gpus": [],
            "source": "nvml",
        }
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            gpu = {
                "name": text(pynvml.nvmlDeviceGetName(handle)),
                "memory_total_mb": memory.total // 2**20,
                "memory_free_mb": memory.free // 2**20,
                "compute_capability": list(pynvml.nvmlDeviceGetCudaComputeCapability(handle)),
                "driver_model": None,
            }
            if sys.platform == "win32":
                try:
                    current, _pending = pynvml.nvmlDeviceGetDriverModel(handle)
                    gpu["driver_model"] = "WDDM" if current == pynvml.NVML_DRIVER_WDDM else "TCC"
                except Exception:
                    pass
            info["gpus"].append(gpu)
        return info
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:
            pass


def _nvidia_smi_path() -> str | None:
    found = shutil.which("nvidia-smi")
    if found:
        return found
    if sys.platform == "win32":
        root = os.environ.get("SystemRoot", r"C:\Windows")
        for candidate in (
            Path(root) / "System32" / "nvidia-smi.exe",
            Path(os.environ.get("ProgramFiles", r"C:\Program Files"))
            / "NVIDIA Corporation"
            / "NVSMI"
            / "nvidia-smi.exe",
        ):
            if candidate.is_file():
                return str(candidate)
    return None


def parse_nvidia_smi(csv: str, header: str = "") -> dict | None:
    gpus, driver = [], None
    for line in csv.strip().splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 3:
            continue
        driver = parts[0]
        gpus.append(
            {
                "name": parts[1],
                "memory_total_mb": int(float(parts[2])),
                "memory_free_mb": int(float(parts[3])) if len(parts) > 3 and parts[3] else None,
                "compute_capability": [int(x) for x in parts[4].split(".")]
                if len(parts) > 4 and parts[4]
                else None,
                "driver_model": None,
            }
        )
    if driver is None:
        return None
    cuda = re.search(r"CUDA Version:\s*(\d+)\.(\d+)", header)
    return {
        "driver_version": driver,
        "cuda_driver_version": int(cuda.group(1)) * 1000 + int(cuda.group(2)) * 10
        if cuda
        else None,
        "gpus": gpus,
        "source": "nvidia-smi",
    }


def _nvidia_smi() -> dict | None:
    exe = _nvidia_smi_path()
    if not exe:
        return None
    try:
        query = run_hidden(
            [
                exe,
                "--query-gpu=driver_version,name,memory.total,memory.free,compute_cap",
                "--format=csv,noheader,nounits",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
        header = run_hidden([exe], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_nvidia_smi(query.stdout, header) if query.returncode == 0 else None


def read_nvidia() -> dict | None:
    return _nvml() or _nvidia_smi()


def _torch_version_file() -> dict:
    """torch/version.py read as text: works even when importing torch crashes on a DLL."""
    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return {}
    text = (Path(spec.origin).parent / "version.py").read_text(encoding="utf-8", errors="replace")
    found = {}
    for key in ("__version__", "cuda"):
        m = re.search(rf"^{re.escape(key)}\s*(?::\s*[^=]+)?=\s*['\"]([^'\"]+)['\"]", text, re.M)
        found[key] = m.group(1) if m else None
    return found


def read_torch() -> dict:
    result = {
        "version": None,
        "cuda": None,
        "cudnn": None,
        "cuda_available": None,
        "arch_list": None,
        "kernel_ok": None,
        "import_error": None,
    }
    try:
        from_file = _torch_version_file()
    except OSError:
        from_file = {}
    if importlib.util.find_spec("torch") is None:
        result["import_error"] = "No module named 'torch'"
        return result
    try:
        import torch
    except Exception as exc:  # ImportError, OSError [WinError 126] ...
        result.update(
            version=from_file.get("__version__"),
            cuda=from_file.get("cuda"),
            import_error=f"{type(exc).__name__}: {exc}",
        )
        return result
    result["version"] = torch.__version__
    result["cuda"] = torch.version.cuda
    try:
        result["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        result["cudnn"] = None
    result["cuda_available"] = bool(torch.cuda.is_available())
    if torch.version.cuda is not None:
        try:
            result["arch_list"] = list(torch.cuda.get_arch_list())
        except Exception:
            result["arch_list"] = None
    if result["cuda_available"]:
        try:
            x = torch.ones(64, 64, device="cuda")
            result["kernel_ok"] = bool(torch.isfinite((x @ x).sum()).item())
        except Exception as exc:
            result["kernel_ok"] = False
            result["kernel_error"] = f"{type(exc).__name__}: {exc}"
    return result
