"""The main window's menu bar, as data: File, Text, Model, Audio, Language, Help.

Handlers are the window's own slots and the controllers' methods, handed in; nothing here
keeps state of its own.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QUrl
from PySide6.QtGui import QActionGroup, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox

from app import __version__, paths
from app.audio import SoundDeviceOutput, list_output_devices
from app.core import DeviceOption
from app.decode import Precision
from app.resources import LANGUAGE_NAMES
from app.ui.menus import Entry, Menu

DEVICE_LABELS = {
    DeviceOption.AUTO: QT_TRANSLATE_NOOP("Menus", "Device: automatic"),
    DeviceOption.CPU: QT_TRANSLATE_NOOP("Menus", "Device: CPU"),
    DeviceOption.CUDA: QT_TRANSLATE_NOOP("Menus", "Device: NVIDIA GPU (CUDA)"),
}
PRECISION_LABELS = {
    Precision.AUTO: QT_TRANSLATE_NOOP(
        "Menus", "Precision: automatic (int8 on a CPU, bf16 or fp16 on a GPU)"
    ),
    Precision.INT8: QT_TRANSLATE_NOOP(
        "Menus", "Precision: int8, several times faster on a CPU, close to fp32"
    ),
    Precision.BF16: QT_TRANSLATE_NOOP("Menus", "Precision: bf16 (experimental)"),
    Precision.FP32: QT_TRANSLATE_NOOP("Menus", "Precision: fp32 (exact, slowest on a CPU)"),
}
# Playback speeds of saved audio (pitch kept, app/audio/stretch.py).
SPEED_LABELS = {
    0.75: QT_TRANSLATE_NOOP("Menus", "Speed 0.75x"),
    1.0: QT_TRANSLATE_NOOP("Menus", "Speed 1x (normal)"),
    1.25: QT_TRANSLATE_NOOP("Menus", "Speed 1.25x"),
    1.5: QT_TRANSLATE_NOOP("Menus", "Speed 1.5x"),
    1.75: QT_TRANSLATE_NOOP("Menus", "Speed 1.75x"),
    2.0: QT_TRANSLATE_NOOP("Menus", "Speed 2x"),
}
# Language names are written in their own language, never translated.
LANGUAGE_LABELS = {"system": QT_TRANSLATE_NOOP("Menus", "Follow the system"), **LANGUAGE_NAMES}


def _choices(prefix: str, labels: dict, current, pick) -> list[Entry]:
    """One checkable entry per value, exclusive; `current()` is the value in effect."""
    return [
        Entry(
            f"{prefix}.{value}",
            label,
            handler=lambda v=value: pick(v),
            checked_when=lambda v=value: current() == v,
            group=prefix,
            translated=not (prefix == "language" and value != "system"),
        )
        for value, label in labels.items()
    ]


def _device_choices(model, settings) -> list[Entry]:
    """A device that cannot run here is disabled, with the doctor's reason beside it."""
    return [
        Entry(
            f"device.{value}",
            label,
            handler=lambda v=value: model.set_device(v),
            checked_when=lambda v=value: settings.device == v,
            group="device",
            enabled_when=lambda v=value: model.device_problem(v) is None,
            note_when=lambda v=value: model.device_problem(v),
        )
        for value, label in DEVICE_LABELS.items()
    ]


def main_menus(window, model, folders, speech, settings) -> list[Menu]:
    return [
        Menu(
            "file",
            QT_TRANSLATE_NOOP("Menus", "&File"),
            [
                Entry(
                    "file.open",
                    QT_TRANSLATE_NOOP("Menus", "&Open text..."),
                    window.text_panel.choose_file,
                    shortcut=QKeySequence.StandardKey.Open,
                ),
                Entry(
                    "file.export",
                    QT_TRANSLATE_NOOP("Menus", "&Export WAV..."),
                    window.export_current,
                    enabled_when=window.can_export,
                ),
                None,
                Entry(
                    "file.narration_new",
                    QT_TRANSLATE_NOOP("Menus", "New &narration from file..."),
                    window.narration.new_from_file,
                ),
                Entry(
                    "file.narration_open",
                    QT_TRANSLATE_NOOP("Menus", "Open narration pro&ject..."),
                    window.narration.open_project,
                ),
                None,
                Entry(
                    "file.quit",
                    QT_TRANSLATE_NOOP("Menus", "&Quit"),
                    window.close,
                    shortcut=QKeySequence.StandardKey.Quit,
                ),
            ],
        ),
        Menu(
            "text",
            QT_TRANSLATE_NOOP("Menus", "&Text"),
            [
                Entry(
                    "text.preview",
                    QT_TRANSLATE_NOOP("Menus", "&Preview what will be spoken"),
                    window.preview,
                ),
                Entry(
                    "text.pronunciations",
                    QT_TRANSLATE_NOOP("Menus", "P&ronunciations..."),
                    window.open_pronunciations,
                ),
                None,
                Entry(
                    "text.read_clipboard",
                    QT_TRANSLATE_NOOP("Menus", "Read the &clipboard aloud"),
                    lambda: window.anywhere.reader.read_clipboard(),
                ),
                Entry(
                    "text.anywhere",
                    QT_TRANSLATE_NOOP("Menus", "Reading from &anywhere (tray, hotkey)..."),
                    lambda: window.anywhere.open_dialog(),
                ),
            ],
        ),
        Menu(
            "model",
            QT_TRANSLATE_NOOP("Menus", "&Model"),
            [
                Entry(
                    "model.download",
                    QT_TRANSLATE_NOOP("Menus", "&Download the model..."),
                    lambda: folders.open_download(),
                ),
                Entry(
                    "model.import",
                    QT_TRANSLATE_NOOP("Menus", "&Import a model folder..."),
                    lambda: folders.import_folder(),
                ),
                Entry(
                    "model.choose",
                    QT_TRANSLATE_NOOP("Menus", "Choose model &folder..."),
                    lambda: folders.choose(),
                ),
                None,
                *_device_choices(model, settings),
                None,
                *_choices(
                    "precision", PRECISION_LABELS, lambda: settings.precision, model.set_precision
                ),
                None,
                Entry(
                    "model.server",
                    QT_TRANSLATE_NOOP("Menus", "Speech &server (OpenAI-compatible API)..."),
                    window.open_speech_server,
                    checked_when=lambda: window.speech_server.running,
                ),
            ],
        ),
        Menu(
            "audio",
            QT_TRANSLATE_NOOP("Menus", "&Audio"),
            fill=lambda menu: fill_outputs(menu, settings, speech),
        ),
        Menu(
            "playback",
            QT_TRANSLATE_NOOP("Menus", "&Playback"),
            [
                Entry(
                    "playback.pause",
                    QT_TRANSLATE_NOOP("Menus", "&Pause / resume"),
                    window.read_along.toggle_pause,
                    shortcut="Space",
                ),
                Entry(
                    "playback.next",
                    QT_TRANSLATE_NOOP("Menus", "&Next sentence"),
                    window.read_along.next_sentence,
                    shortcut="Alt+Right",
                ),
                Entry(
                    "playback.previous",
                    QT_TRANSLATE_NOOP("Menus", "P&revious sentence"),
                    window.read_along.previous_sentence,
                    shortcut="Alt+Left",
                ),
                None,
                *_choices(
                    "speed",
                    SPEED_LABELS,
                    lambda: settings.playback_speed,
                    window.read_along.set_speed,
                ),
            ],
        ),
        Menu(
            "language",
            QT_TRANSLATE_NOOP("Menus", "&Language"),
            _choices("language", LANGUAGE_LABELS, lambda: settings.language, window.set_language),
        ),
        Menu(
            "help",
            QT_TRANSLATE_NOOP("Menus", "&Help"),
            [
                Entry(
                    "help.diagnostics",
                    QT_TRANSLATE_NOOP("Menus", "&Diagnostics..."),
                    window.open_doctor,
                ),
                Entry(
                    "help.wizard",
                    QT_TRANSLATE_NOOP("Menus", "&First-run wizard..."),
                    window.open_wizard,
                ),
                Entry(
                    "help.shortcuts",
                    QT_TRANSLATE_NOOP("Menus", "&Keyboard shortcuts..."),
                    window.read_along.show_shortcuts,
                ),
                None,
                Entry(
                    "help.logs", QT_TRANSLATE_NOOP("Menus", "Open the &log folder"), open_log_folder
                ),
                Entry(
                    "help.about", QT_TRANSLATE_NOOP("Menus", "&About"), lambda: show_about(window)
                ),
            ],
        ),
    ]


def fill_outputs(menu: QMenu, settings, speech) -> None:
    """The sound devices present now, the one in use checked."""
    menu.clear()
    names, default = list_output_devices()
    if not names:
        menu.addAction(QCoreApplication.translate("Menus", "No output device found")).setEnabled(
            False
        )
        return
    group = QActionGroup(menu)
    for name in [""] + names:
        label = (
            QCoreApplication.translate("Menus", "System default (%1)").replace("%1", default or "?")
            if name == ""
            else name
        )
        action = menu.addAction(label)
        action.setCheckable(True)
        action.setChecked(name == settings.output_device)
        action.triggered.connect(lambda _=False, n=name: use_output(settings, speech, n))
        group.addAction(action)


def use_output(settings, speech, name: str) -> None:
    settings.output_device = name
    speech.use_output(SoundDeviceOutput(name or None))


def open_log_folder() -> None:
    folder = paths.log_dir()
    folder.mkdir(parents=True, exist_ok=True)
    QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def show_about(parent) -> None:
    QMessageBox.about(
        parent,
        QCoreApplication.translate("Menus", "About ChatTTS Studio"),
        QCoreApplication.translate(
            "Menus",
            "<b>ChatTTS Studio %1</b><br>Text to speech on your own computer with the ChatTTS model."
            "<br>Logs: %2",
        )
        .replace("%1", __version__)
        .replace("%2", str(paths.log_dir())),
    )
