"""Settings of the decode loop that benchmarks and tests vary; the product runs the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DecodeOptions:
    # How int8 is made (decode/int8.py); None: its RECIPE. Part of the step cache's key.
    int8_recipe: Any = None
    # Compiled int8 runs without the executor's optimization (decode/unoptimized.py); False
    # only to measure what that saves (bench/first_call.py).
    int8_unoptimized: bool = True


DEFAULT = DecodeOptions()
