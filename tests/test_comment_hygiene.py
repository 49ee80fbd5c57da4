"""Code comments and docstrings give the rule, not the benchmark run that chose it.

Timings, dates, sweeps and "measured on ..." belong in bench/results/ and docs/ (tuned constants:
docs/design/constants.md), where a rerun updates them; a comment points there instead. This
scans the comments (tokenize) and docstrings (ast) of app/, installer/ and build.spec, never the
code or its other strings, and fails on a block that reads like a lab notebook.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = [*sorted((ROOT / "app").rglob("*.py")), *sorted((ROOT / "installer").rglob("*.py"))]
SCANNED.append(ROOT / "build.spec")

# A date that dates a note ("since 2026-12-05"), not one a text normalizer is given as input.
DATE = re.compile(
    r"\b(since|until|till|on|as of|before|after|by|from)\s+"
    r"20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b",
    re.IGNORECASE,
)
# A figure: a number (or a range of them) with a unit of time, speed or share.
FIGURE = re.compile(
    r"(?<![\w.])\d+(\.\d+)?(\s*[-–]\s*\d+(\.\d+)?)?\s*"
    r"(ms|s|sec|seconds?|x|×|tokens?/s|tok/s|RTF|%|dB)(?!\w)",
    re.IGNORECASE,
)
# Words that say, in the same sentence as a figure, that it came from a run on some machine
# ("the median of five frames" is signal processing; "medians of 6 rounds" is a benchmark).
NARRATIVE = re.compile(
    r"\b(measured|measuring|sweeps?|took|interleaved|profiled|in simulation|\d+-core"
    r"|on this machine|on our machine|here|ran dry|waited|slowed|the full model|full[ -]size"
    r"|bench/\w+\.py|medians?\s+(of\s+)?\d+"
    r"|(\d+|two|three|four|five|six|ten)\s+(runs|rounds|launches|plays|seeds|cases|steps))\b",
    re.IGNORECASE,
)
# ... or compares it with another: "0.38 s instead of 0.51 s", "85.5 -> 87.1 %".
COMPARISON = re.compile(r"(instead of|against|->|→|rather than)\s+(about\s+)?\d", re.IGNORECASE)
SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def comment_blocks(source: str) -> list[tuple[int, str]]:
    """(first line, text) of every run of adjacent comment lines."""
    blocks: list[tuple[int, str]] = []
    last = -2
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        line = tok.start[0]
        text = tok.string.lstrip("#").strip()
        alone = tok.line.lstrip().startswith("#")  # not the tail of a line of code
        if blocks and alone and line == last + 1:
            blocks[-1] = (blocks[-1][0], blocks[-1][1] + "\n" + text)
        else:
            blocks.append((line, text))
        last = line if alone else -2
    return blocks


def docstrings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string that stands alone as a statement: module, class and
    function docstrings and the ones that document an attribute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found.append((node.lineno, node.value.value))
    return found


def narrative(text: str) -> str | None:
    """Why `text` reads like a benchmark narrative, or None."""
    date = DATE.search(text)
    if date:
        return f"a dated note ({date.group(0)})"
    for sentence in SENTENCE_END.split(text):
        figure = FIGURE.search(sentence)
        word = figure and (NARRATIVE.search(sentence) or COMPARISON.search(sentence))
        if word:
            return f"a figure ({figure.group(0)!r}) with {word.group(0)!r}"
    return None


def findings(source: str) -> list[tuple[int, str]]:
    """(line, why) of every comment block or docstring of `source` that reads like a run."""
    return [
        (line, why)
        for line, text in comment_blocks(source) + docstrings(source)
        if (why := narrative(text))
    ]


def offences(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).as_posix()
    return [f"{rel}:{line}: {why}" for line, why in findings(path.read_text(encoding="utf-8"))]


def test_no_comment_or_docstring_quotes_a_benchmark_run():
    found = [o for path in SCANNED for o in offences(path)]
    assert not found, (
        "comments should give the rule and point at the test or bench result; move the figures "
        "to docs/design/constants.md or bench/results/:\n" + "\n".join(found)
    )


def test_the_scan_covers_the_code_it_is_meant_to():
    rels = {p.relative_to(ROOT).as_posix() for p in SCANNED}
    assert {"app/audio/buffering.py", "app/audio/piece_grid.py"} <= rels
    assert "build.spec" in rels and any(r.startswith("installer/") for r in rels)
    assert any(r.startswith("app/text/") for r in rels)


# Blocks that were in the code before issue 40 moved their figures to docs/design/constants.md.
REMOVED = [
    # audio/buffering.py: the 18 lines above RATE_SAFETY
    """# Act as if production were this fraction of what was measured. A segment starts on a rate
# measured over its first pieces, but later pieces can be larger and take longer to arrive:
# with 0.8 (start at 1.25x real time and two typical pieces queued) a sentence made at
# 1.20-1.28x on our token grid ran dry once or twice mid-way in simulation; from 0.77 down
# none did, and 0.72 (1.39x) keeps a margin. On the grid the player also knows the pieces to
# come and may start earlier if each will arrive in time; GRID_RATE_SAFETY covers only how the
# machine's speed wavers within a sentence, on both parts of a piece's making (its tokens and
# its vocoder call, VOCODER_CALL_TOKENS). On the 2-core CPU one sentence's 12-token pieces
# came within +-6% of each other; in simulation (tests/engine/test_playback_buffering.py,
# test_playback_vocoder_cost.py) the token speed redrawn every 12 tokens within +-10% never
# ran dry with 0.9, with or without the vocoder's time reported (a wider sweep, the calls'
# cost wavering too, 1.2-1.8x, 60-450 tokens: +-12%, 0 of 210 sentences; +-15%, 4 of 210 with
# it reported, 0 without). Told the vocoder's time, 0.9 starts at its second piece a sentence
# whose tokens come at 1.5x and 12-token pieces at about 1.2x (without it: 1.3x pieces). In
# the window on the 2-core CPU, Play sounded after 0.43-0.49 s in all 10 Plays whose second
# piece showed 1.2x or more, where the rate of the pieces alone waited 0.51-0.78 s at
# 1.20-1.26x (bench/startup.py, README). Each rule alone never ran dry in the sweeps, so
# starting when either allows does not either.""",
    # audio/piece_grid.py, the history of GROWTH
    """# ... to a GROWTH-th of what was sent. Growing to half, a sentence made at 1.25x could not
# have started before about 0.53 s without running dry. Price: the streamed vocoder's time for
# a 290-token sentence, 0.63 s instead of 0.50 (medians of 6 interleaved rounds, full model)""",
    # synthesis/engine.py
    """the same int8 sentence took 2.4 s decoded on the engine thread after a live loader
against 1.4 s on the thread that loaded it (2-core CPU, bench/engine_thread.py).""",
    # decode/unoptimized.py
    """a token takes at most a few percent longer (one process alternating both ways 6 times,
twice: medians 15.8 and 15.2 ms against 15.6 and 14.8).""",
    # narration/export/aac_writer.py
    """# FFmpeg's default AAC coder ("twoloop") took 23 s for 30 s of speech-like bursts here""",
    # decode/int8_rows.py
    """(against a symmetric [-peak, peak] per row: top-1 agreement with fp32 85.5 -> 87.1 % on
the outlier stress model, full size, 300 steps, bench/precision_quality.py).""",
    # decode/speech.py
    """TorchScript optimizes a function on its first runs (about 0.7 s on the full model)""",
    # a dated note
    """# Since 2026-12-05 pieces grow to a quarter of what was sent.""",
]

# Comments that state a rule with a number in it and must stay legal.
RULES = [
    "# A failed request or a broken transfer is tried again this many times, after 1, 2, 4, 8 s.",
    """pyloudnorm's `integrated_loudness` for mono (BS.1770-4: 400 ms blocks, 75 % overlap,
    -70 LUFS absolute and -10 LU relative gates), with the filters run chunk by chunk.""",
    "# Stop closures last about 50-150 ms; a comma's pause 200 ms or more.",
    "# Stop cancels requests in progress after 2 s instead of waiting for them to end.",
    "# The true peak is estimated at 4x oversampling (ITU-R BS.1770-4 annex 2).",
    "# figures: docs/design/constants.md#rate_safety-and-grid_rate_safety",
]


@pytest.mark.parametrize("text", REMOVED)
def test_a_removed_narrative_that_came_back_fails_the_scan(text):
    assert narrative(text) is not None


@pytest.mark.parametrize("text", RULES)
def test_a_rule_with_a_number_in_it_passes(text):
    assert narrative(text) is None


def test_comments_and_docstrings_are_found_but_not_other_strings():
    source = '''"""Module: took 3 s here."""
X = "took 3 s here"  # took 4 s here
# took 5 s here
# and 6 s there


def f():
    """took 6 s here"""
    return f"took {X} 7 s here"
'''
    texts = [t for _, t in comment_blocks(source) + docstrings(source)]
    assert texts == [
        "took 4 s here",
        "took 5 s here\nand 6 s there",
        "Module: took 3 s here.",
        "took 6 s here",
    ]


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_pointer_to_the_constants_page_names_one_of_its_sections():
    page = ROOT / "docs" / "design" / "constants.md"
    anchors = {
        _anchor(line.lstrip("#"))
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    pointers = {
        (path.relative_to(ROOT).as_posix(), anchor)
        for path in SCANNED
        for anchor in re.findall(r"constants\.md#([\w-]+)", path.read_text(encoding="utf-8"))
    }
    assert pointers, "the comments point at docs/design/constants.md"
    assert {p for p in pointers if p[1] not in anchors} == set()


def test_the_old_block_above_rate_safety_fails_where_it_stood():
    """The 18 lines that stood above RATE_SAFETY in audio/buffering.py, put back above the
    constant in a module: the scan names the block's first line."""
    source = f'''"""Adaptive buffering."""

import collections

{REMOVED[0]}
RATE_SAFETY = 0.72
GRID_RATE_SAFETY = 0.9  # the margin on the grid
'''
    assert [line for line, _ in findings(source)] == [5]
    assert findings(source.replace(REMOVED[0], "# A margin on the measured rate.")) == []
