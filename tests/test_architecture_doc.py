"""ARCHITECTURE.md stays true: every file and folder it names exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"`([\w./]+(?:\.py|/))`|\(([\w/]+\.py)")


def named_paths(text: str) -> set[str]:
    found = set()
    for match in NAMED.finditer(text):
        name = match.group(1) or match.group(2)
        if "/" in name:
            found.add(name)
    return found


def test_every_path_the_architecture_page_names_exists():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    names = named_paths(text)
    assert len(names) > 20  # the page really names its parts
    missing = sorted(
        n for n in names if not any((base / n).exists() for base in (ROOT, ROOT / "app"))
    )
    assert missing == []


def test_a_path_that_does_not_exist_is_caught():
    assert named_paths("see `engine/nowhere.py` and (app/gone.py)") == {
        "engine/nowhere.py",
        "app/gone.py",
    }
