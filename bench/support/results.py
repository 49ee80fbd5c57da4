"""How a benchmark reports: its JSON on stdout and, with --save, the same run under
bench/results/ with the date, the machine and the commit, so figures are data, not prose.

    python bench/<name>.py ... --save            -> bench/results/<name>-<YYYY-MM-DD>.json
    python bench/<name>.py ... --save FILE.json  -> that file

A saved run: {"bench", "date", "commit", "dirty", "machine": {cpu, cpu_capability, int8_row_levels,
cores, ram_gb, gpu, os, python, torch}, "command", "quick", "result"}. A quick (smoke) run never
saves unless asked.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"


def add_save_argument(parser) -> None:
    parser.add_argument(
        "--save",
        nargs="?",
        const="",
        metavar="FILE",
        help="also write the run with its date, machine and commit to "
        "bench/results/<bench>-<date>.json (or FILE)",
    )


def _cpu() -> str:
    from app.decode.row_cap import cpu_name

    return cpu_name()


def _ram_gb() -> float | None:
    try:
        import psutil

        return round(psutil.virtual_memory().total / 2**30, 1)
    except ImportError:
        return None


def _gpu_and_torch() -> tuple[str | None, str | None]:
    try:
        import torch
    except ImportError:
        return None, None
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return gpu, torch.__version__


def _cpu_kernels() -> tuple[str | None, int | None]:
    """PyTorch's vector kernels here (AVX2, AVX512, ...) and the int8 step's activation levels:
    one CPU name can stand for machines with and without AVX-512 and VNNI."""
    try:
        import torch
    except ImportError:
        return None, None
    from app.decode.int8_levels import row_levels

    return torch.backends.cpu.get_cpu_capability(), row_levels()


def machine() -> dict:
    """What ran it: enough to tell two machines' figures apart."""
    gpu, torch_version = _gpu_and_torch()
    capability, levels = _cpu_kernels()
    return {
        "cpu": _cpu(),
        "cpu_capability": capability,
        "int8_row_levels": levels,
        "cores": os.cpu_count(),
        "ram_gb": _ram_gb(),
        "gpu": gpu,
        "os": platform.platform(),
        "python": platform.python_version(),
        "torch": torch_version,
    }


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def record(bench: str, result: dict, quick: bool, argv: list[str] | None = None) -> dict:
    """The saved form of one run."""
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {
        "bench": bench,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "HEAD"),
        "dirty": None if status is None else bool(status),
        "machine": machine(),
        "command": " ".join(["python", f"bench/{bench}.py", *(argv or sys.argv[1:])]),
        "quick": quick,
        "result": result,
    }


def result_path(bench: str, day: datetime.date | None = None) -> Path:
    """bench/results/<bench>-<YYYY-MM-DD>.json; a second run that day gets -2, -3, ..."""
    stem = f"{bench}-{(day or datetime.date.today()).isoformat()}"
    path, n = RESULTS / f"{stem}.json", 2
    while path.exists():
        path, n = RESULTS / f"{stem}-{n}.json", n + 1
    return path


def emit(report: dict, args, script: str) -> None:
    """Print the report as JSON; with --save also write its record (see the module's doc)."""
    print(json.dumps(report, indent=2, ensure_ascii=False), flush=True)
    save = getattr(args, "save", None)
    if save is None:
        return
    bench = Path(script).stem
    path = Path(save) if save else result_path(bench)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = record(bench, report, bool(getattr(args, "quick", False)))
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"saved {path}", file=sys.stderr)
