"""Synthesis parameters: speed, sampling, the refinement levels, refine on/off."""

from __future__ import annotations

import math

from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QFormLayout, QLabel, QSpinBox, QWidget

from app.core import BREAK_RANGE, LAUGH_RANGE, ORAL_RANGE, SPEED_RANGE, SynthesisRequest
from app.ui.retranslate import Retranslating

OFF = -1  # spin boxes for the optional levels show "off" at -1


def _spin(lo: int, hi: int, value: int, name: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setObjectName(name)
    return box


def _dspin(lo: float, hi: float, step: float, value: float, name: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(lo, hi)
    box.setSingleStep(step)
    box.setDecimals(2)
    box.setValue(value)
    box.setObjectName(name)
    return box


def _ranged(label: str, levels: tuple[int, int]) -> str:
    return label.replace("%1", str(levels[0])).replace("%2", str(levels[1]))


class ParamsPanel(Retranslating, QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        r = SynthesisRequest("")  # the engine's defaults
        d = r.sampling
        self.speed = _spin(*SPEED_RANGE, r.speed, "speedInput")
        self.temperature = _dspin(0.01, 1.0, 0.05, d.temperature, "temperatureInput")
        self.top_p = _dspin(0.1, 1.0, 0.05, d.top_p, "topPInput")
        self.top_k = _spin(1, 100, d.top_k, "topKInput")
        self.oral = _spin(OFF, ORAL_RANGE[1], OFF, "oralInput")
        self.laugh = _spin(OFF, LAUGH_RANGE[1], OFF, "laughInput")
        self.break_level = _spin(OFF, BREAK_RANGE[1], OFF, "breakInput")
        self.refine = QCheckBox()
        self.refine.setObjectName("refineCheck")
        self.refine.setChecked(r.refine_text)
        self.voice_lock = QCheckBox()
        self.voice_lock.setObjectName("voiceLockCheck")
        self.voice_lock.setChecked(r.voice_lock)
        self.labels = {}
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        for key in ("speed", "temperature", "top_p", "top_k", "oral", "laugh", "break_level"):
            self.labels[key] = QLabel()
            form.addRow(self.labels[key], getattr(self, key))
        form.addRow("", self.refine)
        form.addRow("", self.voice_lock)
        self.retranslate()

    def values(self) -> dict:
        def level(box):
            return None if box.value() == OFF else box.value()

        return {
            "speed": self.speed.value(),
            "temperature": round(self.temperature.value(), 2),
            "top_p": round(self.top_p.value(), 2),
            "top_k": self.top_k.value(),
            "oral": level(self.oral),
            "laugh": level(self.laugh),
            "break_level": level(self.break_level),
            "refine_text": self.refine.isChecked(),
            "voice_lock": self.voice_lock.isChecked(),
        }

    def set_values(self, values: dict) -> None:
        def setv(box, key):
            # Saved settings are read back: a value of the wrong kind is ignored, never a crash.
            if key in values:
                v = values[key]
                if v is None:
                    box.setValue(OFF)
                elif isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    v = min(max(v, box.minimum()), box.maximum())
                    box.setValue(v if isinstance(box, QDoubleSpinBox) else int(v))

        for key in ("speed", "temperature", "top_p", "top_k", "oral", "laugh", "break_level"):
            setv(getattr(self, key), key)
        if "refine_text" in values:
            self.refine.setChecked(bool(values["refine_text"]))
        if "voice_lock" in values:
            self.voice_lock.setChecked(bool(values["voice_lock"]))

    def apply_to(self, request: SynthesisRequest) -> SynthesisRequest:
        v = self.values()
        request.speed = v["speed"]
        request.oral, request.laugh, request.break_level = v["oral"], v["laugh"], v["break_level"]
        request.refine_text = v["refine_text"]
        request.voice_lock = v["voice_lock"]
        request.sampling.temperature = v["temperature"]
        request.sampling.top_p = v["top_p"]
        request.sampling.top_k = v["top_k"]
        return request

    def load_request(self, request: SynthesisRequest) -> None:
        self.set_values(
            {
                "speed": request.speed,
                "temperature": request.sampling.temperature,
                "top_p": request.sampling.top_p,
                "top_k": request.sampling.top_k,
                "oral": request.oral,
                "laugh": request.laugh,
                "break_level": request.break_level,
                "refine_text": request.refine_text,
                "voice_lock": request.voice_lock,
            }
        )

    def retranslate(self) -> None:
        names = {
            "speed": _ranged(self.tr("Speed (%1-%2)"), SPEED_RANGE),
            "temperature": self.tr("Temperature"),
            "top_p": self.tr("Top-P"),
            "top_k": self.tr("Top-K"),
            "oral": _ranged(self.tr("Oral (%1-%2)"), ORAL_RANGE),
            "laugh": _ranged(self.tr("Laugh (%1-%2)"), LAUGH_RANGE),
            "break_level": _ranged(self.tr("Breaks (%1-%2)"), BREAK_RANGE),
        }
        for key, text in names.items():
            self.labels[key].setText(text)
        for box in (self.oral, self.laugh, self.break_level):
            box.setSpecialValueText(self.tr("off"))
        self.refine.setText(self.tr("Refine text first (natural pauses, slower)"))
        self.voice_lock.setText(self.tr("Keep the voice steady across sentences"))
