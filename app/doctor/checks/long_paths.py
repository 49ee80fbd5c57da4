"""long_paths: Windows long path support when the install or model path is long."""

from app.doctor import facts
from app.doctor.result import Verdict

ID, TITLE = "long_paths", "Long path support"
KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem"
FIX = ("Enable long paths (administrator, then restart): run `reg add "
       r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem /v LongPathsEnabled /t REG_DWORD /d 1 /f` "
       "in an administrator command prompt, or choose a shorter model folder such as C:\\ChatTTS.")


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.skip("Only Windows has the 260-character path limit.")
    registry = s.get("registry")
    if registry is None:
        return v.unreadable("the registry")
    enabled = (registry.get(KEY) or {}).get("LongPathsEnabled") == 1
    paths = {k: p for k, p in (s.get("paths") or {}).items() if p and k in ("app", "models", "temp")}
    longest_key, longest = max(paths.items(), key=lambda kv: len(kv[1]), default=(None, ""))
    room = facts.MAX_PATH - facts.LONG_PATH_MARGIN
    if enabled:
        return v.ok("Long paths are enabled.")
    if len(longest) > room:
        return v.warn(f"Long paths are disabled and the {longest_key} folder is {len(longest)} characters "
                      f"long; files inside it can pass the {facts.MAX_PATH}-character limit.",
                      details=longest, fix=FIX)
    return v.ok(f"Long paths are disabled, but the folders are short enough (longest {len(longest)} characters).")
