"""long_paths: Windows long path support when the install or model path is long."""

from app.doctor import facts
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "long_paths", N_("Long path support")
KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"
ENABLE = r"reg add HKLM\SYSTEM\CurrentControlSet\Control\FileSystem /v LongPathsEnabled /t REG_DWORD /d 1 /f"
# The folder's name inside "the {folder} folder is ... long".
FOLDERS = {"app": N_("program"), "models": N_("model"), "temp": N_("temporary")}


def fix() -> str:
    return _(
        "Enable long paths (administrator, then restart): run `{command}` in an administrator command "
        "prompt, or choose a shorter model folder such as {folder}."
    ).format(command=ENABLE, folder="C:\\ChatTTS")


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.not_applicable(
            _("Only Windows has the {limit}-character path limit.").format(limit=facts.MAX_PATH)
        )
    registry = s.get("registry")
    if registry is None:
        return v.unreadable(_("the registry"))
    enabled = (registry.get(KEY) or {}).get("LongPathsEnabled") == 1
    paths = {
        k: p for k, p in (s.get("paths") or {}).items() if p and k in ("app", "models", "temp")
    }
    longest_key, longest = max(paths.items(), key=lambda kv: len(kv[1]), default=(None, ""))
    room = facts.MAX_PATH - facts.LONG_PATH_MARGIN
    if enabled:
        return v.ok(_("Long paths are enabled."))
    if len(longest) > room:
        return v.warn(
            _(
                "Long paths are disabled and the {folder} folder is {length} characters long; files "
                "inside it can pass the {limit}-character limit."
            ).format(folder=_(FOLDERS[longest_key]), length=len(longest), limit=facts.MAX_PATH),
            details=longest,
            fix=fix(),
        )
    return v.ok(
        _(
            "Long paths are disabled, but the folders are short enough (longest {length} characters)."
        ).format(length=len(longest))
    )
