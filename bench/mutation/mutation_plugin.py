"""pytest plugin for bench/mutation/mutation.py's runs (passed with `-p mutation_plugin`), never loaded
by the ordinary test run.

Each mutant runs its tests in a fresh `pytest.main` inside a process forked from one that has
torch, ChatTTS and the tiny model in memory. Two things make that cheaper:
- gc.freeze(): the inherited heap (hundreds of thousands of objects) moves to the permanent
  generation, so the collections pytest runs at its end (unraisable-exception checks) and
  during the tests scan only what this run made;
- the tests run fastest first (by the durations mutmut measured in its stats run), so a killed
  mutant usually stops (-x) at its cheapest failing test instead of after a slow one.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

_STATS = Path("mutmut-stats.json")  # pytest runs in mutants/, where mutmut keeps its stats


def _durations() -> dict[str, float]:
    try:
        return json.loads(_STATS.read_text(encoding="utf-8")).get("duration_by_test", {})
    except (OSError, ValueError):
        return {}


def pytest_configure(config):
    gc.freeze()


def pytest_collection_modifyitems(session, config, items):
    durations = _durations()
    if durations:
        # Unknown tests last; a stable sort keeps a file's order among equals.
        items.sort(
            key=lambda item: durations.get(
                item.nodeid, durations.get(f"mutants/{item.nodeid}", 1e9)
            )
        )
