"""driver_cuda: the NVIDIA driver supports the CUDA version PyTorch was built for."""

from app.doctor import facts, torch_advice
from app.doctor.result import Verdict
from app.i18n import N_, _, join_sentences

ID, TITLE = "driver_cuda", N_("NVIDIA driver vs PyTorch CUDA")


def check(s):
    v = Verdict(ID, TITLE)
    if s.get("nvidia") is None:
        return v.skip(_("No NVIDIA driver answers on this machine."))
    torch_cuda = facts.parse_version(s.at("torch", "cuda"))
    if s.at("torch", "import_error") or torch_cuda is None:
        return v.skip(
            _("PyTorch is not a CUDA build, so the driver's CUDA version does not matter yet.")
        )
    driver = s.at("nvidia", "driver_version") or "?"
    driver_cuda = facts.cuda_from_driver_code(s.at("nvidia", "cuda_driver_version"))
    if driver_cuda is None:
        return v.unreadable(_("the CUDA version of the NVIDIA driver"))
    want = f"{torch_cuda[0]}.{torch_cuda[1]}"
    have = f"{driver_cuda[0]}.{driver_cuda[1]}"
    need = facts.min_driver(tuple(torch_cuda[:2]), s.is_windows)
    update = (
        _("Update the NVIDIA driver to {version} or newer ({url}).").format(
            version=need, url=facts.DRIVER_URL
        )
        if need
        else _("Update the NVIDIA driver ({url}).").format(url=facts.DRIVER_URL)
    )
    command = torch_advice.advice(s)[0]
    details = _(
        "Driver {driver} supports CUDA up to {have}; PyTorch was built for CUDA {want}."
    ).format(driver=driver, have=have, want=want)
    if driver_cuda[0] < torch_cuda[0]:
        return v.fail(
            _(
                "The NVIDIA driver {driver} is too old for PyTorch's CUDA {want} (it supports CUDA "
                "{have})."
            ).format(driver=driver, want=want, have=have),
            details=details,
            fix=join_sentences(
                [
                    update,
                    _("Or install a PyTorch built for your driver: {command}").format(
                        command=command
                    ),
                ]
            ),
        )
    if driver_cuda < tuple(torch_cuda[:2]):
        return v.warn(
            _(
                "The driver supports CUDA {have}, older than PyTorch's CUDA {want}; most things work, "
                "some kernels may fail to compile."
            ).format(have=have, want=want),
            details=join_sentences([details, _("(NVIDIA minor-version compatibility.)")]),
            fix=update,
        )
    return v.ok(
        _("Driver {driver} supports CUDA {have}, enough for PyTorch's CUDA {want}.").format(
            driver=driver, have=have, want=want
        )
    )
