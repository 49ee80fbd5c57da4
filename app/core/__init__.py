"""What every domain builds on: failures as the user's sentence, the request and its result,
the device choice, reading hostile files with a cap, and one SQLite file shared by threads.

- errors.py:      StudioError and its kinds, each carrying the sentence we show
- request.py:     SynthesisRequest, SamplingParams, SynthesisResult, AudioChunk
- device.py:      auto / cpu / cuda, with the reason in words
- model_kind.py:  ModelKind, official or random weights (noise, not speech)
- safe_read.py:   reading a file or JSON with a size cap; the first bad field named
- sqlite_file.py: short-lived connections, write transactions, migrations, busy waits
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.core.device import CHOICES as DEVICE_CHOICES
    from app.core.device import (
        MIN_FREE_GPU_MB,
        TORCH_VERSION,
        DeviceChoice,
        DeviceOption,
        choose_device,
        torch_install_command,
    )
    from app.core.errors import (
        DeviceError,
        DiskFullError,
        DownloadCancelled,
        DownloadError,
        InputTextError,
        LibraryError,
        ModelCorruptError,
        ModelMissingError,
        NumericalError,
        OutOfMemoryError,
        OutputError,
        ParameterError,
        RecordError,
        SchemaError,
        SourceError,
        StudioError,
        SynthesisCancelled,
        UnreadableFileError,
        VoiceError,
        is_out_of_memory,
    )
    from app.core.model_kind import ModelKind
    from app.core.request import (
        BREAK_RANGE,
        DEFAULT_SEED,
        LAUGH_RANGE,
        ORAL_RANGE,
        SEED_MAX,
        SPEED_RANGE,
        AudioChunk,
        SamplingParams,
        SynthesisRequest,
        SynthesisResult,
        check_number,
    )
    from app.core.safe_read import first_bad_field, read_bytes_capped, read_json_capped
    from app.core.sqlite_file import (
        SqliteFile,
        connect,
        insert,
        is_busy,
        is_disk_full,
        select,
        use_wal,
    )
    from app.core.sqlite_file import migrate as migrate_schema

__all__ = [
    "BREAK_RANGE",
    "DEFAULT_SEED",
    "DEVICE_CHOICES",
    "LAUGH_RANGE",
    "MIN_FREE_GPU_MB",
    "ORAL_RANGE",
    "SEED_MAX",
    "SPEED_RANGE",
    "TORCH_VERSION",
    "AudioChunk",
    "DeviceChoice",
    "DeviceError",
    "DeviceOption",
    "DiskFullError",
    "DownloadCancelled",
    "DownloadError",
    "InputTextError",
    "LibraryError",
    "ModelCorruptError",
    "ModelKind",
    "ModelMissingError",
    "NumericalError",
    "OutOfMemoryError",
    "OutputError",
    "ParameterError",
    "RecordError",
    "SamplingParams",
    "SchemaError",
    "SourceError",
    "SqliteFile",
    "StudioError",
    "SynthesisCancelled",
    "SynthesisRequest",
    "SynthesisResult",
    "UnreadableFileError",
    "VoiceError",
    "check_number",
    "choose_device",
    "connect",
    "first_bad_field",
    "insert",
    "is_busy",
    "is_disk_full",
    "is_out_of_memory",
    "migrate_schema",
    "read_bytes_capped",
    "read_json_capped",
    "select",
    "torch_install_command",
    "use_wal",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "AudioChunk": "app.core.request",
        "BREAK_RANGE": "app.core.request",
        "DEFAULT_SEED": "app.core.request",
        "DEVICE_CHOICES": "app.core.device:CHOICES",
        "DeviceChoice": "app.core.device",
        "DeviceError": "app.core.errors",
        "DeviceOption": "app.core.device",
        "DiskFullError": "app.core.errors",
        "DownloadCancelled": "app.core.errors",
        "DownloadError": "app.core.errors",
        "InputTextError": "app.core.errors",
        "LAUGH_RANGE": "app.core.request",
        "LibraryError": "app.core.errors",
        "MIN_FREE_GPU_MB": "app.core.device",
        "ModelCorruptError": "app.core.errors",
        "ModelKind": "app.core.model_kind",
        "ModelMissingError": "app.core.errors",
        "NumericalError": "app.core.errors",
        "ORAL_RANGE": "app.core.request",
        "OutOfMemoryError": "app.core.errors",
        "OutputError": "app.core.errors",
        "ParameterError": "app.core.errors",
        "RecordError": "app.core.errors",
        "SEED_MAX": "app.core.request",
        "SPEED_RANGE": "app.core.request",
        "SamplingParams": "app.core.request",
        "SchemaError": "app.core.errors",
        "SourceError": "app.core.errors",
        "SqliteFile": "app.core.sqlite_file",
        "StudioError": "app.core.errors",
        "SynthesisCancelled": "app.core.errors",
        "SynthesisRequest": "app.core.request",
        "SynthesisResult": "app.core.request",
        "TORCH_VERSION": "app.core.device",
        "UnreadableFileError": "app.core.errors",
        "VoiceError": "app.core.errors",
        "check_number": "app.core.request",
        "choose_device": "app.core.device",
        "connect": "app.core.sqlite_file",
        "first_bad_field": "app.core.safe_read",
        "insert": "app.core.sqlite_file",
        "is_busy": "app.core.sqlite_file",
        "is_disk_full": "app.core.sqlite_file",
        "is_out_of_memory": "app.core.errors",
        "migrate_schema": "app.core.sqlite_file:migrate",
        "read_bytes_capped": "app.core.safe_read",
        "read_json_capped": "app.core.safe_read",
        "select": "app.core.sqlite_file",
        "torch_install_command": "app.core.device",
        "use_wal": "app.core.sqlite_file",
    },
)
