"""Modes, precisions and render states are compared through their enums, never as strings: a
renamed value then fails in one place instead of silently matching nothing elsewhere."""

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
VALUES = (
    "jit|eager|graph|upstream|auto|fp32|fp16|bf16|int8|finished|stopped|cancelled|failed|"
    "idle|rendering|paused|window|local|ray"
)
QUOTED = rf"[\"'](?:{VALUES})[\"']"
COMPARISONS = [
    re.compile(rf"(?:==|!=)\s*{QUOTED}"),  # x == "int8"
    re.compile(rf"{QUOTED}\s*(?:==|!=)"),  # "int8" != x
    re.compile(rf"\bin\s*[(\[{{][^)\]}}]*{QUOTED}"),  # x in ("jit", "eager")
    re.compile(rf"\bcase\s+{QUOTED}"),  # case "int8":
]
# Where the values are defined, and "auto"s that are no mode: a worker count, a Ray address,
# chapter detection.
ALLOWED_FILES = {"decode/modes.py", "decode/precision.py"}
ALLOWED_LINES = {
    ("cli/narrate.py", 'chapters=args.chapters == "auto"'),
    ("cli/narrate_engine.py", 'if text == "auto":'),
    ("cli/narrate_engine.py", 'if args.workers == "auto"'),
    ("narration/farm/ray_pool.py", 'if count == "auto"'),
    ("narration/farm/ray_pool.py", 'if address == "auto":'),
    (
        "narration/farm/ray_pool.py",
        'ray.init(address=None if address == "local" else address, **init)',
    ),
}


def string_comparisons(root: Path = APP) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in ALLOWED_FILES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            if not any(p.search(code) for p in COMPARISONS):
                continue
            if any(name == file and snippet in code for file, snippet in ALLOWED_LINES):
                continue
            found.append(f"app/{name}:{number}: {line.strip()}")
    return found


def test_no_mode_precision_or_state_is_compared_as_a_string():
    assert string_comparisons() == []


def test_the_check_finds_each_form_of_comparison(tmp_path):
    lines = [
        'if precision == "int8": pass',
        'if "jit" != mode: pass',
        'if mode in ("jit", "eager"): pass',
        'if state not in ["finished"]: pass',
        'match mode:\n    case "upstream": pass',
        "if mode == DecodeMode.JIT: pass",  # the enum: allowed
        'label = "int8"',  # not a comparison
    ]
    (tmp_path / "sample.py").write_text("\n".join(lines))
    assert [hit.split(":")[1] for hit in string_comparisons(tmp_path)] == ["1", "2", "3", "4", "6"]


def test_the_normalizer_compares_rule_kinds_through_their_enum():
    from app.text.normalize.kinds import Kind

    values = "|".join(kind.value for kind in Kind)
    compared = re.compile(rf"(?:==|!=)\s*[\"'](?:{values})[\"']|[\"'](?:{values})[\"']\s*(?:==|!=)")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((APP / "text/normalize").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if compared.search(line.split("#")[0])
    ]
    assert found == []
