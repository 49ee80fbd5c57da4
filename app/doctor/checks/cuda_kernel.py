"""cuda_kernel: a real CUDA kernel runs (is_available() can be true while kernels fail)."""

from app.doctor.result import Verdict

ID, TITLE = "cuda_kernel", "CUDA kernel test"


def check(s):
    v = Verdict(ID, TITLE)
    t = s.get("torch") or {}
    if t.get("import_error") or t.get("cuda") is None:
        return v.skip("PyTorch is not a working CUDA build.")
    if not s.gpus:
        return v.skip("No NVIDIA GPU found.")
    if t.get("cuda_available") is False:
        return v.fail("PyTorch cannot see the GPU (torch.cuda.is_available() is False).",
                      details="Usually the driver is too old or missing, or another program holds the GPU.",
                      fix="Update the NVIDIA driver, restart Windows, then run the doctor again.")
    if t.get("kernel_ok") is None:
        return v.skip("No kernel was tried.")
    if t.get("kernel_ok") is False:
        return v.fail("A small CUDA computation failed on the GPU.",
                      details=t.get("kernel_error") or "",
                      fix="Update the NVIDIA driver and make sure PyTorch's CUDA build fits the GPU "
                          "(see the checks above).")
    return v.ok("A CUDA computation ran on the GPU.")
