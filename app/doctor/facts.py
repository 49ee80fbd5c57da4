"""Tables the checks rely on, with their sources. Change them here, never in a check."""

from __future__ import annotations

# Values the program acts on live in their domain packages; the checks judge by the same ones.
# (The domains never import Qt, so the doctor can import them.)
from app.core import MIN_FREE_GPU_MB, TORCH_VERSION, torch_install_command  # noqa: F401
from app.model import (  # noqa: F401
    HF_DEFAULT,
    HF_MIRROR,
    OFFICIAL_MODEL_BYTES,
    OFFICIAL_URL,
)

SOURCES = {
    "driver_min": "NVIDIA CUDA Toolkit release notes, Table 3 (minimum driver per toolkit)",
    "minor_compat": "NVIDIA CUDA compatibility guide (minor-version compatibility)",
    "wheel_arch": "PyTorch wheel builds: cu126 covers sm_50-sm_90, cu128 covers sm_70-sm_120",
    "path_limits": "SetEnvironmentVariable docs (32,767); cmd.exe line limit (8,191)",
    "tdr": "Microsoft Learn: TDR registry keys",
}

# CUDA toolkit (major, minor) -> minimum driver (Linux, Windows), GA releases.
DRIVER_MIN: dict[tuple[int, int], tuple[str, str | None]] = {
    (11, 8): ("520.61.05", "520.06"),
    (12, 0): ("525.60.13", "527.41"),
    (12, 1): ("530.30.02", "531.14"),
    (12, 2): ("535.54.03", "536.25"),
    (12, 3): ("545.23.06", "545.84"),
    (12, 4): ("550.54.14", "551.61"),
    (12, 5): ("555.42.02", "555.85"),
    (12, 6): ("560.28.03", "560.76"),
    (12, 8): ("570.26", "570.65"),
    (12, 9): ("575.51.03", "576.02"),
    (13, 0): ("580.65.06", None),
    (13, 1): ("590.44.01", None),
}

# PyTorch CUDA wheel indexes we recommend: tag -> (CUDA version, lowest sm, highest sm).
WHEEL_INDEXES: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {
    "cu126": ((12, 6), (5, 0), (9, 0)),
    "cu128": ((12, 8), (7, 0), (12, 0)),
}

DRIVER_URL = "https://www.nvidia.com/Download/index.aspx"
VC_REDIST_URL = "https://aka.ms/vs/17/release/vc_redist.x64.exe"

# Limits (characters unless noted).
ENV_VAR_MAX = 32_767
CMD_LINE_MAX = 8_191
LEGACY_PATH_DIALOG_MAX = 2_047  # unverified: our own threshold for a warning
ENV_BLOCK_MAX_BYTES = 65_535
MAX_PATH = 260
LONG_PATH_MARGIN = 80  # room for asset/gpt/model.safetensors and temp names

TDR_DEFAULT_DELAY = 2
TDR_DEFAULT_DDI_DELAY = 5
TDR_RECOMMENDED = 60

VRAM_COMFORTABLE_MB = 4096
DISK_MARGIN_BYTES = 1_000_000_000


def parse_version(text: str | None) -> tuple[int, ...] | None:
    if not isinstance(text, (str, int)) or isinstance(text, bool) or text == "":
        return None
    try:
        parts = tuple(int(p) for p in str(text).strip().split(".")[:8])
    except ValueError:
        return None
    return parts if all(0 <= p < 10**9 for p in parts) else None


def cuda_from_driver_code(code: int | None) -> tuple[int, int] | None:
    """NVML's 12080 -> (12, 8), the "CUDA Version" nvidia-smi prints."""
    if not isinstance(code, int) or isinstance(code, bool) or not 0 < code < 10**7:
        return None
    return code // 1000, (code % 1000) // 10


def min_driver(cuda: tuple[int, int], windows: bool) -> str | None:
    """The lowest driver for this CUDA version (the nearest listed release at or below)."""
    if not (isinstance(cuda, tuple) and len(cuda) == 2 and all(isinstance(p, int) for p in cuda)):
        return None
    known = sorted(k for k in DRIVER_MIN if k <= cuda)
    if not known:
        return None
    linux, win = DRIVER_MIN[known[-1]]
    return win if windows else linux


def wmi_driver_to_nvidia(wmi: str) -> str | None:
    """Windows' "31.0.15.7652" -> NVIDIA's "576.52" (last five digits, dot before the last two)."""
    if not isinstance(wmi, str):
        return None
    digits = "".join(wmi.split(".")[-2:])[-5:]
    return f"{digits[:3]}.{digits[3:]}" if len(digits) == 5 and digits.isdigit() else None
