"""audio_output: PortAudio and an output device for playback (export works without)."""

from app.doctor.result import Verdict
from app.i18n import N_, _, ngettext

ID, TITLE = "audio_output", N_("Sound output")


def check(s):
    v = Verdict(ID, TITLE)
    audio = s.get("audio")
    if audio is None:
        return v.unreadable(_("the sound devices"))
    if not audio.get("portaudio"):
        return v.warn(
            _("PortAudio is missing, so Play is silent; Export WAV still works."),
            details=audio.get("error") or "",
            fix=_(
                "Reinstall ChatTTS Studio (Windows), or install PortAudio (Debian/Ubuntu: "
                "`{command}`)."
            ).format(command="sudo apt install libportaudio2"),
        )
    devices = audio.get("output_devices") or []
    if not devices:
        return v.warn(
            _("No sound output device was found; Export WAV still works."),
            fix=_("Plug in or enable speakers or headphones, then restart ChatTTS Studio."),
        )
    return v.ok(
        ngettext(
            "{count} output device; default: {device}.",
            "{count} output devices; default: {device}.",
            len(devices),
        ).format(count=len(devices), device=audio.get("default_output") or devices[0])
    )
