"""audio_output: PortAudio and an output device for playback (export works without)."""

from app.doctor.result import Verdict

ID, TITLE = "audio_output", "Sound output"


def check(s):
    v = Verdict(ID, TITLE)
    audio = s.get("audio")
    if audio is None:
        return v.unreadable("the sound devices")
    if not audio.get("portaudio"):
        return v.warn("PortAudio is missing, so Play is silent; Export WAV still works.",
                      details=audio.get("error") or "",
                      fix="Reinstall ChatTTS Studio (Windows), or install PortAudio (Debian/Ubuntu: "
                          "`sudo apt install libportaudio2`).")
    devices = audio.get("output_devices") or []
    if not devices:
        return v.warn("No sound output device was found; Export WAV still works.",
                      fix="Plug in or enable speakers or headphones, then restart ChatTTS Studio.")
    return v.ok(f"{len(devices)} output device(s); default: {audio.get('default_output') or devices[0]}.")
