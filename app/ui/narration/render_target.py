"""Where the narration view renders: with the window's own model, on local worker processes
(each with its own copy of the model), or on a Ray cluster (when Ray is installed; the Windows
bundle leaves it out)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QSpinBox, QWidget

from app.ui.retranslate import Retranslating

MAX_WORKERS = 64


class TargetKind(StrEnum):
    """Which engine renders: the window's own model, local worker processes or Ray actors."""

    WINDOW = "window"
    LOCAL = "local"
    RAY = "ray"


@dataclass(frozen=True)
class RenderTarget:
    kind: TargetKind = TargetKind.WINDOW
    workers: int = 2  # local worker processes
    address: str = "auto"  # Ray: auto, local or ray://HOST:PORT

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", TargetKind(self.kind))  # "local" from a test or setting


def ray_installed() -> bool:
    return importlib.util.find_spec("ray") is not None


def farm_factory(target: RenderTarget, model_dir, device: str, precision: str):
    """A function that starts the farm (on the narration worker's thread, since starting
    workers takes a while) and returns its FarmEngine."""

    def start():
        if target.kind is TargetKind.RAY:
            from app.narration.farm.ray_pool import ray_farm, ray_specs

            return ray_farm(target.address, lambda ray: ray_specs(ray, model_dir, precision))
        from app.narration.farm.local import local_farm
        from app.narration.farm.plan import worker_specs

        return local_farm(worker_specs(target.workers, model_dir, device, precision))

    return start


class RenderTargetBox(Retranslating, QWidget):
    changed = Signal(object)  # RenderTarget

    def __init__(self, parent=None):
        super().__init__(parent)
        self.kind = QComboBox()
        self.kind.setObjectName("renderTarget")
        self.workers = QSpinBox()
        self.workers.setObjectName("renderWorkers")
        self.workers.setRange(2, MAX_WORKERS)
        self.address = QLineEdit("auto")
        self.address.setObjectName("rayAddress")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.kind, self.workers, self.address):
            layout.addWidget(widget)
        self.kind.currentIndexChanged.connect(self._changed)
        self.workers.valueChanged.connect(self._changed)
        self.address.editingFinished.connect(self._changed)
        self.retranslate()

    def target(self) -> RenderTarget:
        kind = TargetKind(self.kind.currentData() or TargetKind.WINDOW)
        return RenderTarget(kind, self.workers.value(), self.address.text().strip() or "auto")

    def set_enabled_for_render(self, idle: bool) -> None:
        self.setEnabled(idle)

    def _changed(self, *_args) -> None:
        kind = self.target().kind
        self.workers.setVisible(kind is TargetKind.LOCAL)
        self.address.setVisible(kind is TargetKind.RAY)
        self.changed.emit(self.target())

    def retranslate(self) -> None:
        current = self.kind.currentData() or TargetKind.WINDOW
        self.kind.blockSignals(True)
        self.kind.clear()
        self.kind.addItem(self.tr("With this window's model"), TargetKind.WINDOW.value)
        self.kind.addItem(self.tr("On local worker processes"), TargetKind.LOCAL.value)
        self.kind.addItem(self.tr("On a Ray cluster"), TargetKind.RAY.value)
        if not ray_installed():
            item = self.kind.model().item(2)
            item.setEnabled(False)
            item.setToolTip(
                self.tr('Needs Ray: pip install "chattts-studio[farm]" (not in the Windows bundle)')
            )
        self.kind.setCurrentIndex(max(0, self.kind.findData(current)))
        self.kind.blockSignals(False)
        self.kind.setToolTip(
            self.tr(
                "Where to render: local workers each load their own copy of the model "
                "(more memory, more speed on several GPUs or many cores)"
            )
        )
        self.workers.setToolTip(self.tr("Worker processes"))
        self.address.setToolTip(self.tr("Ray address: auto, local or ray://HOST:PORT"))
        self._changed()
