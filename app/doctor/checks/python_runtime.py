"""python_runtime: a 64-bit Python of a version PyTorch and ChatTTS support."""

from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "python_runtime", N_("Python")


def check(s):
    v = Verdict(ID, TITLE)
    py = s.get("python")
    if not py:
        return v.unreadable(_("the Python runtime"))
    version = py.get("version") or "?"
    where = _("the bundled Python") if py.get("frozen") else py.get("executable") or "Python"
    running = _("Running {python}.").format(python=where)
    if py.get("bits") == 32:
        return v.fail(
            _("Python {version} is 32-bit; PyTorch needs a 64-bit Python.").format(version=version),
            details=running,
            fix=_(
                "Install 64-bit Python 3.10 or newer from python.org, or use the ChatTTS Studio "
                "installer."
            ),
        )
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    if parts and parts < (3, 10):
        return v.fail(
            _("Python {version} is too old; ChatTTS Studio needs Python 3.10 or newer.").format(
                version=version
            ),
            fix=_("Install Python 3.11 from python.org and reinstall ChatTTS Studio in it."),
        )
    return v.ok(
        _("Python {version}, {bits}-bit.").format(version=version, bits=py.get("bits", 64)),
        details=running,
    )
