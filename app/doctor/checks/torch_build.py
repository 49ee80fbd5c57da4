"""torch_build: PyTorch imports, and is a CUDA build when an NVIDIA GPU is present."""

from app.doctor import torch_advice
from app.doctor.facts import VC_REDIST_URL
from app.doctor.result import Verdict

ID, TITLE = "torch_build", "PyTorch build"


def _import_fix(error: str) -> str:
    if "fbgemm.dll" in error:
        return ("torch 2.4.0 misses libomp140 (fbgemm.dll fails to load): upgrade PyTorch with "
                "`pip install --upgrade torch`, or reinstall ChatTTS Studio.")
    if "WinError 126" in error or "DLL load failed" in error:
        return (f"A DLL that PyTorch needs is missing. Install the Visual C++ 2015-2022 x64 "
                f"redistributable ({VC_REDIST_URL}), restart, and if it persists reinstall PyTorch.")
    return "Reinstall PyTorch (`pip install --force-reinstall torch`) or reinstall ChatTTS Studio."


def check(s):
    v = Verdict(ID, TITLE)
    t = s.get("torch")
    if not t:
        return v.unreadable("the PyTorch installation")
    error = t.get("import_error")
    if error:
        return v.fail("PyTorch cannot be imported, so nothing can be synthesized.",
                      details=error, fix=_import_fix(error))
    version, cuda = t.get("version"), t.get("cuda")
    gpus = s.gpus
    if cuda is None:
        if gpus:
            command, driver_note = torch_advice.advice(s)
            return v.fail(
                f"PyTorch {version} is a CPU-only build, so your {gpus[0].get('name', 'NVIDIA GPU')} is not used.",
                details="PyPI's Windows PyTorch is CPU-only and has no '+cpu' suffix; torch.version.cuda is None.",
                fix=" ".join(filter(None, [driver_note, f"Install the CUDA build: {command}"])))
        return v.ok(f"PyTorch {version}, CPU build (no NVIDIA GPU found, so this is the right one).")
    if not gpus:
        return v.ok(f"PyTorch {version} built for CUDA {cuda}; no NVIDIA GPU found, so it runs on the CPU.")
    return v.ok(f"PyTorch {version} built for CUDA {cuda}.")
