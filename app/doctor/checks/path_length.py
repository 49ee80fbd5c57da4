"""path_length: user, system and merged PATH, and the whole environment block, within limits."""

from app.doctor import facts
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "path_length", N_("PATH length")
USER_ENV = r"HKCU\Environment"
SYSTEM_ENV = r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment"


def fix() -> str:
    return _(
        "Remove folders you no longer need from PATH: Start > 'Edit the system environment variables' > "
        "Environment Variables > Path > Edit (delete entries, do not use setx, which cuts PATH to "
        "1,024 characters), then sign out and in again."
    )


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.not_applicable(_("Only Windows limits PATH this way."))
    registry = s.get("registry")
    if registry is None:
        return v.unreadable(_("the registry"))
    user = (registry.get(USER_ENV) or {}).get("Path") or ""
    system = (registry.get(SYSTEM_ENV) or {}).get("Path") or ""
    merged = len(system) + (1 if system and user else 0) + len(user)
    block = s.get("env_block_bytes")
    sizes = dict(system=f"{len(system):,}", user=f"{len(user):,}", merged=f"{merged:,}")
    details = (
        _(
            "System PATH {system}, user PATH {user}, merged {merged} characters; environment block "
            "{block} bytes."
        ).format(block=f"{block:,}", **sizes)
        if block
        else _("System PATH {system}, user PATH {user}, merged {merged} characters.").format(
            **sizes
        )
    )
    if max(len(user), len(system)) > facts.ENV_VAR_MAX:
        return v.fail(
            _("A PATH value is longer than Windows allows for one variable ({limit}).").format(
                limit=f"{facts.ENV_VAR_MAX:,}"
            ),
            details,
            fix(),
        )
    if block and block > facts.ENV_BLOCK_MAX_BYTES:
        return v.fail(
            _(
                "The environment is {block} bytes, over the {limit} that PowerShell and .NET can pass "
                "to programs they start."
            ).format(block=f"{block:,}", limit=f"{facts.ENV_BLOCK_MAX_BYTES:,}"),
            details,
            fix(),
        )
    if merged > facts.CMD_LINE_MAX:
        return v.fail(
            _(
                "The merged PATH is {merged} characters, over the {limit} a command prompt can hold; "
                "programs started from it miss the folders at the end."
            ).format(merged=f"{merged:,}", limit=f"{facts.CMD_LINE_MAX:,}"),
            details,
            fix(),
        )
    if max(len(user), len(system)) > facts.LEGACY_PATH_DIALOG_MAX:
        return v.warn(
            _(
                "PATH is longer than the old Windows editor handles ({limit} characters, our own "
                "threshold); editing it there may cut it."
            ).format(limit=f"{facts.LEGACY_PATH_DIALOG_MAX:,}"),
            details,
            _(
                "Use the list editor in Windows 10/11, never setx; consider removing unused entries."
            ),
        )
    return v.ok(
        _("PATH fits comfortably ({merged} characters merged).").format(merged=f"{merged:,}"),
        details,
    )
