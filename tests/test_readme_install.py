"""README's set-up says how to install PyTorch's CPU build on Linux (PyPI's Linux torch is the
CUDA build: `pip install .` fetched about 4 GB of NVIDIA wheels on a CPU-only machine)."""

import re
from pathlib import Path

from app.core.device import TORCH_WHEEL_URL

ROOT = Path(__file__).resolve().parents[1]


def set_up_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^## Set up\n(.*?)^## ", text, re.S | re.M).group(1)


def test_the_set_up_shows_the_cpu_build_install_line_with_the_index_the_program_names():
    cpu = TORCH_WHEEL_URL.format(tag="cpu")
    lines = [
        line for line in set_up_section().splitlines() if "pip install ." in line and cpu in line
    ]
    assert lines, "README's Set up has no `pip install .` line with the CPU index"
    assert all(f"--extra-index-url {cpu}" in line for line in lines)  # PyPI still gives the rest


def test_the_set_up_says_what_to_do_with_an_nvidia_gpu_on_linux_too():
    section = set_up_section()
    assert "With an NVIDIA GPU, the plain `pip install .` is right" in section
    assert "cu128" in section and "cu126" in section
