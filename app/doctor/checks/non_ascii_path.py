"""non_ascii_path: folders with non-ASCII names break native code using narrow Windows APIs."""

from app.doctor.result import Verdict
from app.i18n import N_, _, join_clauses, join_sentences

ID, TITLE = "non_ascii_path", N_("Non-ASCII folder names")
# The folder's name as the subject of a sentence (capitalized where it starts one).
NAMES = {
    "home": N_("Your user folder"),
    "app": N_("The program folder"),
    "models": N_("The model folder"),
    "temp": N_("The temporary folder"),
    "hf_home": "HF_HOME",
}


def _name(key: str) -> str:
    return _(NAMES[key]) if key in NAMES else key


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.not_applicable(_("Only Windows' narrow (ANSI) file APIs break on such names."))
    paths = s.get("paths")
    if paths is None:
        return v.unreadable(_("the folder locations"))
    bad = {k: p for k, p in paths.items() if p and not str(p).isascii()}
    code_page = s.get("code_page")
    cp = ""
    if code_page:
        cp = (
            _("The ANSI code page is {code_page} (UTF-8).")
            if code_page == 65001
            else _("The ANSI code page is {code_page}.")
        ).format(code_page=code_page)
    if not bad:
        return v.ok(join_sentences([_("All folders have ASCII names."), cp]))
    worst = "models" if "models" in bad else next(iter(bad))
    return v.warn(
        _(
            "{folder} has non-ASCII characters ({path}); some native code (for example "
            "torch.jit.load) cannot open files there."
        ).format(folder=_name(worst), path=bad[worst]),
        details=join_sentences(
            [
                _("{folders}.").format(
                    folders=join_clauses(
                        _("{folder}: {path}").format(folder=_name(k), path=p)
                        for k, p in bad.items()
                    )
                ),
                cp,
            ]
        ),
        fix=_(
            "Keep the model in an ASCII-only folder such as {model_dir} (Model > Choose model "
            "folder), and set HF_HOME and TEMP to ASCII folders such as {cache_dir}."
        ).format(model_dir="C:\\ChatTTS\\model", cache_dir="C:\\ChatTTS\\cache"),
    )
