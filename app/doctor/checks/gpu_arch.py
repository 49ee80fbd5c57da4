"""gpu_arch: PyTorch carries kernels for this GPU's architecture (e.g. sm_120 needs cu128)."""

from app.doctor import torch_advice
from app.doctor.result import Verdict
from app.i18n import N_, _, join_sentences

ID, TITLE = "gpu_arch", N_("GPU architecture support")


def _supported(cap: tuple[int, int], arch_list: list[str]) -> bool:
    for arch in arch_list:
        kind, _sep, num = arch.partition("_")
        if not num.isdigit():
            continue
        major, minor = int(num[:-1]), int(num[-1])
        if kind == "sm" and major == cap[0] and minor <= cap[1]:
            return True  # same major: newer minors run older cubins
        if kind == "compute" and (major, minor) <= cap:
            return True  # PTX is compiled for newer GPUs at load time
    return False


def check(s):
    v = Verdict(ID, TITLE)
    if not s.gpus:
        return v.skip(_("No NVIDIA GPU found."))
    if s.at("torch", "import_error") or s.at("torch", "cuda") is None:
        return v.skip(_("PyTorch is not a working CUDA build."))
    arch_list = s.at("torch", "arch_list")
    if not arch_list:
        return v.unreadable(_("PyTorch's list of GPU architectures"))
    failures = []
    for gpu in s.gpus:
        cap = gpu.get("compute_capability")
        if not cap:
            continue
        if not _supported(tuple(cap), arch_list):
            failures.append(f"{gpu.get('name')} (sm_{cap[0]}{cap[1]})")
    if failures:
        command, driver_note = torch_advice.advice(s)
        return v.fail(
            _("This PyTorch has no kernels for {gpus}.").format(gpus=", ".join(failures)),
            details=_("PyTorch supports: {archs}").format(archs=", ".join(arch_list)),
            fix=join_sentences(
                [
                    driver_note,
                    _("Install a build that covers it: {command}").format(command=command),
                ]
            ),
        )
    caps = ", ".join(
        f"sm_{g['compute_capability'][0]}{g['compute_capability'][1]}"
        for g in s.gpus
        if g.get("compute_capability")
    )
    return v.ok(_("PyTorch supports this GPU ({archs}).").format(archs=caps))
