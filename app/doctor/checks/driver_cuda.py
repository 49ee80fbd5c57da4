"""driver_cuda: the NVIDIA driver supports the CUDA version PyTorch was built for."""

from app.doctor import facts, torch_advice
from app.doctor.result import Verdict

ID, TITLE = "driver_cuda", "NVIDIA driver vs PyTorch CUDA"


def check(s):
    v = Verdict(ID, TITLE)
    if s.get("nvidia") is None:
        return v.skip("No NVIDIA driver answers on this machine.")
    torch_cuda = facts.parse_version(s.at("torch", "cuda"))
    if s.at("torch", "import_error") or torch_cuda is None:
        return v.skip("PyTorch is not a CUDA build, so the driver's CUDA version does not matter yet.")
    driver = s.at("nvidia", "driver_version") or "?"
    driver_cuda = facts.cuda_from_driver_code(s.at("nvidia", "cuda_driver_version"))
    if driver_cuda is None:
        return v.unreadable("the CUDA version of the NVIDIA driver")
    want = f"{torch_cuda[0]}.{torch_cuda[1]}"
    have = f"{driver_cuda[0]}.{driver_cuda[1]}"
    need = facts.min_driver(tuple(torch_cuda[:2]), s.is_windows)
    update = (f"Update the NVIDIA driver to {need} or newer (https://www.nvidia.com/Download/index.aspx)"
              if need else "Update the NVIDIA driver (https://www.nvidia.com/Download/index.aspx)")
    command, _ = torch_advice.advice(s)
    details = f"Driver {driver} supports CUDA up to {have}; PyTorch was built for CUDA {want}."
    if driver_cuda[0] < torch_cuda[0]:
        return v.fail(f"The NVIDIA driver {driver} is too old for PyTorch's CUDA {want} (it supports CUDA {have}).",
                      details=details,
                      fix=f"{update}, or install a PyTorch built for your driver: {command}.")
    if driver_cuda < tuple(torch_cuda[:2]):
        return v.warn(f"The driver supports CUDA {have}, older than PyTorch's CUDA {want}; "
                      "most things work, some kernels may fail to compile.",
                      details=details + " (NVIDIA minor-version compatibility.)", fix=f"{update}.")
    return v.ok(f"Driver {driver} supports CUDA {have}, enough for PyTorch's CUDA {want}.")
