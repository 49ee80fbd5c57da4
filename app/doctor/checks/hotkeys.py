"""hotkeys: whether the global hotkey (reading the clipboard from any program) can be heard."""

from app.doctor.probes.hotkeys import DEFAULT_HOTKEY
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "hotkeys", N_("Global hotkey")
INSTALL = "pip install pynput"


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def check(s):
    v = Verdict(ID, TITLE)
    h = s.get("hotkeys")
    if not isinstance(h, dict):
        return v.unreadable(_("whether global hotkeys work"))
    session = h.get("session")
    hotkey = _text(h.get("hotkey")) or DEFAULT_HOTKEY
    error = _text(h.get("error"))
    if session == "wayland":
        return v.warn(
            _(
                "Global hotkeys cannot be registered in a Wayland session; the tray menu and "
                "Text > Read the clipboard aloud still work."
            ),
            details=error,
            fix=_("Log in with an X11 (Xorg) session to use the global hotkey."),
        )
    if h.get("library") is not True:
        if session == "none":
            return v.warn(
                _("Global hotkeys cannot be registered: there is no X display to listen on."),
                details=error,
                fix=_("Start ChatTTS Studio in a desktop session (X11) to use the global hotkey."),
            )
        return v.warn(
            _("Global hotkeys cannot be registered: the pynput library is missing or broken."),
            details=error,
            fix=_("Reinstall ChatTTS Studio (Windows), or run `{command}`.").format(
                command=INSTALL
            ),
        )
    if h.get("taken") is True:
        return v.warn(
            _(
                "Another program already uses {hotkey}, so both would react to it; choose "
                "another hotkey."
            ).format(hotkey=hotkey),
            fix=_(
                "Pick another combination in Text > Reading from anywhere, or free {hotkey} in "
                "the other program."
            ).format(hotkey=hotkey),
        )
    return v.ok(_("Global hotkeys can be registered ({hotkey} is free).").format(hotkey=hotkey))
