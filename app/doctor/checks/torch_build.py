"""torch_build: PyTorch imports, and is a CUDA build when an NVIDIA GPU is present."""

from app.doctor import torch_advice
from app.doctor.facts import VC_REDIST_URL
from app.doctor.result import Verdict
from app.i18n import N_, _, join_sentences

ID, TITLE = "torch_build", N_("PyTorch build")


def _import_fix(error: str) -> str:
    if "fbgemm.dll" in error:
        return _(
            "torch 2.4.0 misses libomp140 (fbgemm.dll fails to load): upgrade PyTorch with "
            "`{command}`, or reinstall ChatTTS Studio."
        ).format(command="pip install --upgrade torch")
    if "WinError 126" in error or "DLL load failed" in error:
        return _(
            "A DLL that PyTorch needs is missing. Install the Visual C++ 2015-2022 x64 "
            "redistributable ({url}), restart, and if it persists reinstall PyTorch."
        ).format(url=VC_REDIST_URL)
    return _("Reinstall PyTorch (`{command}`) or reinstall ChatTTS Studio.").format(
        command="pip install --force-reinstall torch"
    )


def check(s):
    v = Verdict(ID, TITLE)
    t = s.get("torch")
    if not t:
        return v.unreadable(_("the PyTorch installation"))
    error = t.get("import_error")
    if error:
        return v.fail(
            _("PyTorch cannot be imported, so nothing can be synthesized."),
            details=error,
            fix=_import_fix(error),
        )
    version, cuda = t.get("version"), t.get("cuda")
    gpus = s.gpus
    if cuda is None:
        if gpus:
            command, driver_note = torch_advice.advice(s)
            name = gpus[0].get("name")
            summary = (
                _("PyTorch {version} is a CPU-only build, so your {gpu} is not used.").format(
                    version=version, gpu=name
                )
                if name
                else _(
                    "PyTorch {version} is a CPU-only build, so your NVIDIA GPU is not used."
                ).format(version=version)
            )
            return v.fail(
                summary,
                details=_(
                    "PyPI's Windows PyTorch is CPU-only and has no '+cpu' suffix; torch.version.cuda is None."
                ),
                fix=join_sentences(
                    [driver_note, _("Install the CUDA build: {command}").format(command=command)]
                ),
            )
        return v.ok(
            _(
                "PyTorch {version}, CPU build (no NVIDIA GPU found, so this is the right one)."
            ).format(version=version)
        )
    if not gpus:
        return v.ok(
            _(
                "PyTorch {version} built for CUDA {cuda}; no NVIDIA GPU found, so it runs on the CPU."
            ).format(version=version, cuda=cuda)
        )
    return v.ok(_("PyTorch {version} built for CUDA {cuda}.").format(version=version, cuda=cuda))
