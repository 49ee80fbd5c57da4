"""Survivors of bench/mutation.sh as Markdown: per module, file:line and the mutation.

    .venv/bin/python bench/mutation/mutation_survivors.py [work folder]   (default /tmp/chattts-studio-mutation)

Reads the survivors-<group>.txt files bench/mutation/mutation.py writes (mutmut's diffs, whose line
numbers count from the mutated function's `def`) and turns each into the line of the source
file, each with its reason from bench/mutation/mutation_reasons.py (UNEXPLAINED: a new survivor, or a line
that moved: give it a reason or a test), for bench/mutation/survivors.md.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = re.compile(r"^# (\S+): (.+)$")
HUNK = re.compile(r"^@@ -(\d+)")
KEY = re.compile(
    r"^(?P<module>.*?)\.x(?:\u01c1(?P<cls>[^\u01c1]+)\u01c1|_)(?P<func>.+?)__mutmut_\d+$"
)


def _def_lines(path: Path) -> dict[str, int]:
    """'func' and 'Class.method' -> line of the def (decorators excluded, as mutmut shows it)."""
    lines: dict[str, int] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines[node.name] = node.lineno
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines[f"{node.name}.{item.name}"] = item.lineno
    return lines


def _entries(text: str):
    """(mutant key, status, diff lines) for each diff in a survivors file."""
    key = status = None
    diff: list[str] = []
    for line in text.splitlines():
        found = HEADER.match(line)
        if found:
            if key:
                yield key, status, diff
            key, status, diff = found.group(1), found.group(2), []
        elif key:
            diff.append(line)
    if key:
        yield key, status, diff


def _where(
    key: str, diff: list[str], cache: dict, base: Path = ROOT
) -> tuple[str, int | None, str, str]:
    found = KEY.match(key)
    module, func = found.group("module"), found.group("func")
    if found.group("cls"):
        func = f"{found.group('cls')}.{func}"
    rel = module.replace(".", "/") + ".py"
    if (base, rel) not in cache:
        cache[base, rel] = _def_lines(base / rel) if (base / rel).exists() else {}
    start = cache[base, rel].get(func)
    line, old, new = None, [], []
    offset = 0
    for text in diff:
        hunk = HUNK.match(text)
        if hunk:
            offset = int(hunk.group(1)) - 1
            continue
        if text.startswith(("---", "+++")):
            continue
        if text.startswith("-"):
            if line is None and start is not None:
                line = start + offset
            old.append(text[1:].strip())
        elif text.startswith("+"):
            new.append(text[1:].strip())
        if not text.startswith("+"):
            offset += 1
    return rel, line, " / ".join(old), " / ".join(new)


def reason(rel: str, line: int | None, new: str) -> str:
    """bench/mutation/mutation_reasons.py's reason for this survivor, or UNEXPLAINED."""
    from mutation_reasons import REASONS

    for key, why in REASONS.items():
        if key[0] != rel:
            continue
        if len(key) == 3 and key[1] == line and key[2] in new:
            return why
    for key, why in REASONS.items():
        if (
            key[0] == rel
            and len(key) == 2
            and (key[1] == line or (isinstance(key[1], str) and key[1] in new))
        ):
            return why
    return "UNEXPLAINED"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    work = Path(argv[0] if argv else "/tmp/chattts-studio-mutation")
    cache: dict = {}
    for survivors in sorted(work.glob("survivors-*.txt")):
        group = survivors.stem.removeprefix("survivors-")
        print(f"\n## {group}\n")
        current = None
        for key, status, diff in _entries(survivors.read_text(encoding="utf-8")):
            # Line numbers of the mutated revision (the group's copy), not of the work tree.
            copy = work / group
            rel, line, old, new = _where(key, diff, cache, copy if copy.is_dir() else ROOT)
            if rel != current:
                print(f"\n### {rel}\n")
                current = rel
            note = "" if status == "survived" else f" ({status})"
            print(f"- {rel}:{line}{note}: `{old}` -> `{new}`  \n  {reason(rel, line, new)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
