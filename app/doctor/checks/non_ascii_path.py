"""non_ascii_path: folders with non-ASCII names break native code using narrow Windows APIs."""

from app.doctor.result import Verdict

ID, TITLE = "non_ascii_path", "Non-ASCII folder names"
NAMES = {"home": "your user folder", "app": "the program folder", "models": "the model folder",
         "temp": "the temporary folder", "hf_home": "HF_HOME"}


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.skip("Only Windows' narrow (ANSI) file APIs break on such names.")
    paths = s.get("paths")
    if paths is None:
        return v.unreadable("the folder locations")
    bad = {k: p for k, p in paths.items() if p and not str(p).isascii()}
    code_page = s.get("code_page")
    cp = f" The ANSI code page is {code_page}" + (" (UTF-8)." if code_page == 65001 else ".") if code_page else ""
    if not bad:
        return v.ok("All folders have ASCII names." + cp)
    worst = "models" if "models" in bad else next(iter(bad))
    return v.warn(f"{NAMES.get(worst, worst).capitalize()} has non-ASCII characters ({bad[worst]}); "
                  "some native code (for example torch.jit.load) cannot open files there.",
                  details="; ".join(f"{NAMES.get(k, k)}: {p}" for k, p in bad.items()) + "." + cp,
                  fix="Keep the model in an ASCII-only folder such as C:\\ChatTTS\\model (Model > Choose "
                      "model folder), and set HF_HOME and TEMP to ASCII folders such as C:\\ChatTTS\\cache.")
