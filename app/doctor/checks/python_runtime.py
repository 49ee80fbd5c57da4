"""python_runtime: a 64-bit Python of a version PyTorch and ChatTTS support."""

from app.doctor.result import Verdict

ID, TITLE = "python_runtime", "Python"


def check(s):
    v = Verdict(ID, TITLE)
    py = s.get("python")
    if not py:
        return v.unreadable("the Python runtime")
    version = py.get("version") or "?"
    where = "the bundled Python" if py.get("frozen") else py.get("executable") or "Python"
    if py.get("bits") == 32:
        return v.fail(f"Python {version} is 32-bit; PyTorch needs a 64-bit Python.",
                      details=f"Running {where}.",
                      fix="Install 64-bit Python 3.10 or newer from python.org, or use the ChatTTS Studio installer.")
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    if parts and parts < (3, 10):
        return v.fail(f"Python {version} is too old; ChatTTS Studio needs Python 3.10 or newer.",
                      fix="Install Python 3.11 from python.org and reinstall ChatTTS Studio in it.")
    return v.ok(f"Python {version}, {py.get('bits', 64)}-bit.", details=f"Running {where}.")
