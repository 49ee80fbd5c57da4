"""The snapshot's declared shape: each section an object (or null) and the fields the checks,
the recommendation and the report rely on typed. A field that does not fit becomes null (the
checks then say "could not read"), with a note naming the file and the field in
`probe_errors`; the rest of the snapshot is kept.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

Text = str | None
Int = int | None
Flag = bool | None

SECTION_TYPES: dict[str, Any] = {
    "os": dict | None,
    "python": dict | None,
    "env": dict | None,
    "registry": dict | None,
    "nvidia": dict | None,
    "torch": dict | None,
    "wsl": dict | None,
    "dlls": dict | None,
    "paths": dict | None,
    "code_page": int | str | None,
    "disk_free_bytes": dict | None,
    "model": dict | None,
    "network": dict | None,
    "audio": dict | None,
    "hotkeys": dict | None,
    "env_block_bytes": Int,
    "path_missing": list[str] | None,
    "probe_errors": dict[str, str] | None,
}
FIELD_TYPES: dict[str, dict[str, Any]] = {
    "os": {"system": Text, "release": Text, "version": Text, "machine": Text},
    "python": {"version": Text, "bits": Int, "executable": Text, "frozen": Flag},
    "env": {
        "PATH": Text,
        "CUDA_PATH": Text,
        "HF_ENDPOINT": Text,
        "HF_HOME": Text,
        "TEMP": Text,
        "WSL_DISTRO_NAME": Text,
    },
    "nvidia": {"driver_version": Text, "cuda_driver_version": Int, "gpus": list[dict] | None},
    "torch": {
        "version": Text,
        "cuda": Text,
        "cudnn": Int,
        "cuda_available": Flag,
        "arch_list": list[str] | None,
        "kernel_ok": Flag,
        "import_error": Text,
    },
    "wsl": {
        "installed": Flag,
        "distros": list[dict] | None,
        "inside_wsl": Flag,
        "libcuda_paths": list[str] | None,
    },
    "dlls": {},
    "paths": {"home": Text, "app": Text, "models": Text, "temp": Text},
    "disk_free_bytes": {"models": Int},
    "model": {"dir": Text, "files": dict[str, dict] | None},
    "network": {
        "hub_endpoint": Text,
        "hub_reachable": Flag,
        "error": Text,
        "error_kind": Text,
        "http_status": Int,
    },
    "audio": {"portaudio": Flag, "output_devices": list[str] | None, "default_output": Text},
    "hotkeys": {"library": Flag, "error": Text, "session": Text, "hotkey": Text, "taken": Flag},
}
GPU_TYPES: dict[str, Any] = {
    "name": Text,
    "memory_total_mb": int | float | None,
    "memory_free_mb": int | float | None,
    "compute_capability": list[int] | None,
    "driver_model": Text,
}

_ADAPTERS: dict[Any, TypeAdapter] = {}


def _fits(kind, value) -> bool:
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    try:
        adapter.validate_python(value, strict=True)
        return True
    except ValidationError:
        return False


def _clean_fields(
    node: dict, types: dict[str, Any], where: str, notes: dict[str, str], source: str
) -> None:
    for name, kind in types.items():
        if name in node and not _fits(kind, node[name]):
            notes[f"{where}.{name}"] = (
                f"{source}: the field '{where}.{name}' is not valid; it was not used."
            )
            node[name] = None


def clean_snapshot(data: dict, source: str) -> dict:
    """The snapshot with every field that does not fit its declared type set to null."""
    notes: dict[str, str] = {}
    for section, kind in SECTION_TYPES.items():
        if section in data and not _fits(kind, data[section]):
            notes[section] = f"{source}: the section '{section}' is not valid; it was not used."
            data[section] = None
    for section, types in FIELD_TYPES.items():
        node = data.get(section)
        if isinstance(node, dict):
            _clean_fields(node, types, section, notes, source)
    gpus = (data.get("nvidia") or {}).get("gpus")
    for i, gpu in enumerate(gpus or []):
        _clean_fields(gpu, GPU_TYPES, f"nvidia.gpus.{i}", notes, source)
    if notes:
        data["probe_errors"] = {**(data.get("probe_errors") or {}), **notes}
    return data
