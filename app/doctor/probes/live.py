"""The real probe: reads this machine. Every system access of the doctor lives under probes/."""

from __future__ import annotations

import sys
from pathlib import Path

from app import paths
from app.doctor.probes import gpu, system, windows
from app.doctor.probes.base import Probe


class LiveProbe(Probe):
    def __init__(self, model_dir: str | Path | None = None, verify_model: bool = True,
                 offline: bool = False):
        self.model_dir = paths.model_dir(model_dir)
        self.verify_model = verify_model
        self.offline = offline

    def read_os(self):
        return system.read_os()

    def read_python(self):
        return system.read_python()

    def read_env(self):
        return system.read_env()

    def read_registry(self):
        return windows.read_registry()

    def read_nvidia(self):
        return gpu.read_nvidia()

    def read_torch(self):
        return gpu.read_torch()

    def read_wsl(self):
        return windows.read_wsl_from_windows() if sys.platform == "win32" else system.read_wsl_inside()

    def read_dlls(self):
        return windows.read_dlls()

    def read_paths(self):
        return system.read_paths(self.model_dir)

    def read_code_page(self):
        return windows.read_code_page()

    def read_disk_free_bytes(self):
        return system.read_disk_free(self.model_dir)

    def read_model(self):
        return system.read_model(self.model_dir, self.verify_model)

    def read_network(self):
        return system.read_network(self.offline)

    def read_audio(self):
        return system.read_audio()

    def extras(self) -> dict:
        return {"env_block_bytes": system.env_block_bytes(), "path_missing": system.missing_path_entries()}
