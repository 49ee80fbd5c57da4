"""path_length: user, system and merged PATH, and the whole environment block, within limits."""

from app.doctor import facts
from app.doctor.result import Verdict

ID, TITLE = "path_length", "PATH length"
USER_ENV = r"HKCU\Environment"
SYSTEM_ENV = r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment"
FIX = ("Remove folders you no longer need from PATH: Start > 'Edit the system environment "
       "variables' > Environment Variables > Path > Edit (delete entries, do not use setx, which "
       "cuts PATH to 1,024 characters), then sign out and in again.")


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.skip("Only Windows limits PATH this way.")
    registry = s.get("registry")
    if registry is None:
        return v.unreadable("the registry")
    user = (registry.get(USER_ENV) or {}).get("Path") or ""
    system = (registry.get(SYSTEM_ENV) or {}).get("Path") or ""
    merged = len(system) + (1 if system and user else 0) + len(user)
    block = s.get("env_block_bytes")
    details = (f"System PATH {len(system):,}, user PATH {len(user):,}, merged {merged:,} characters"
               + (f"; environment block {block:,} bytes." if block else "."))
    if max(len(user), len(system)) > facts.ENV_VAR_MAX:
        return v.fail("A PATH value is longer than Windows allows for one variable (32,767).", details, FIX)
    if block and block > facts.ENV_BLOCK_MAX_BYTES:
        return v.fail(f"The environment is {block:,} bytes, over the 65,535 that PowerShell and .NET "
                      "can pass to programs they start.", details, FIX)
    if merged > facts.CMD_LINE_MAX:
        return v.fail(f"The merged PATH is {merged:,} characters, over the 8,191 a command prompt "
                      "can hold; programs started from it miss the folders at the end.", details, FIX)
    if max(len(user), len(system)) > facts.LEGACY_PATH_DIALOG_MAX:
        return v.warn("PATH is longer than the old Windows editor handles (2,047 characters, our "
                      "own threshold); editing it there may cut it.", details,
                      "Use the list editor in Windows 10/11, never setx; consider removing unused entries.")
    return v.ok(f"PATH fits comfortably ({merged:,} characters merged).", details)
