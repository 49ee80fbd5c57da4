"""cuda_kernel: a real CUDA kernel runs (is_available() can be true while kernels fail)."""

from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "cuda_kernel", N_("CUDA kernel test")


def check(s):
    v = Verdict(ID, TITLE)
    t = s.get("torch") or {}
    if t.get("import_error") or t.get("cuda") is None:
        return v.skip(_("PyTorch is not a working CUDA build."))
    if not s.gpus:
        return v.skip(_("No NVIDIA GPU found."))
    if t.get("cuda_available") is False:
        return v.fail(
            _("PyTorch cannot see the GPU (torch.cuda.is_available() is False)."),
            details=_(
                "Usually the driver is too old or missing, or another program holds the GPU."
            ),
            fix=_("Update the NVIDIA driver, restart Windows, then run the doctor again."),
        )
    if t.get("kernel_ok") is None:
        return v.skip(_("No kernel was tried."))
    if t.get("kernel_ok") is False:
        return v.fail(
            _("A small CUDA computation failed on the GPU."),
            details=t.get("kernel_error") or "",
            fix=_(
                "Update the NVIDIA driver and make sure PyTorch's CUDA build fits the GPU (see the "
                "checks above)."
            ),
        )
    return v.ok(_("A CUDA computation ran on the GPU."))
