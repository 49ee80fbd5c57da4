"""The real probe: reads this machine. Every system access of the doctor lives under probes/."""

from __future__ import annotations

import sys
from pathlib import Path

from app import user_settings
from app.doctor.probes import gpu, hotkeys, system, windows
from app.doctor.probes.base import Probe


class LiveProbe(Probe):
    def __init__(
        self, model_dir: str | Path | None = None, verify_model: bool = True, offline: bool = False
    ):
        self.model_dir = user_settings.model_dir(model_dir)
        wsl = windows.read_wsl_from_windows if sys.platform == "win32" else system.read_wsl_inside
        self._readers = {
            "os": system.read_os,
            "python": system.read_python,
            "env": system.read_env,
            "registry": windows.read_registry,
            "nvidia": gpu.read_nvidia,
            "torch": gpu.read_torch,
            "wsl": wsl,
            "dlls": windows.read_dlls,
            "paths": lambda: system.read_paths(self.model_dir),
            "code_page": windows.read_code_page,
            "disk_free_bytes": lambda: system.read_disk_free(self.model_dir),
            "model": lambda: system.read_model(self.model_dir, verify_model),
            "network": lambda: system.read_network(offline),
            "audio": system.read_audio,
            "hotkeys": hotkeys.read_hotkeys,
        }

    def read(self, section: str):
        return self._readers[section]()

    def extras(self) -> dict:
        return {
            "env_block_bytes": system.env_block_bytes(),
            "path_missing": system.missing_path_entries(),
        }
