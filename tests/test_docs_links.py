"""The documentation stays true: every relative link and every repository path that README.md,
CHANGELOG.md, CONTRIBUTING.md, ARCHITECTURE.md, docs/, bench/README.md and installer/README.md
name exists, every heading anchor they link to is a heading, and README stays a page for users
(short, no dated measurements: those live in docs/performance.md and CHANGELOG.md)."""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "ARCHITECTURE.md")
PAGES_ELSEWHERE = ("bench/README.md", "installer/README.md")
README_MAX_LINES = 250

FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target "title") and ![alt](target); [label]: target (a reference definition).
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.I)
# A path into the repository named in prose or in a command: it starts at one of the top-level
# folders (what a reader would open from the repository root), and is not part of an address.
ROOTS = ("app", "bench", "tests", "docs", "installer", "resources", "scripts", ".github", ".ci")
_ROOT_NAMES = "|".join(re.escape(r) for r in ROOTS)
PATH = re.compile(rf"(?<![\w./~:@\\-])((?:{_ROOT_NAMES})/[\w./*-]*)")
# GitHub's own pages of this repository, reached from the top-level pages as ../../releases etc.
GITHUB_PAGES = ("releases", "issues", "pulls", "actions", "tags", "wiki")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")


def documentation_pages() -> list[Path]:
    pages = [ROOT / name for name in PAGES + PAGES_ELSEWHERE]
    return pages + sorted((ROOT / "docs").rglob("*.md"))


def prose_lines(text: str) -> list[tuple[bool, str]]:
    """Each line with whether it lies inside a fenced code block (the fence lines count as code)."""
    lines, fence = [], None
    for line in text.splitlines():
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            lines.append((True, line))
        elif fence is not None:
            lines.append((True, line))
            if line.strip().startswith(fence):
                fence = None
        else:
            lines.append((False, line))
    return lines


def without_code_spans(line: str) -> str:
    return re.sub(r"(`+)(.+?)\1", " ", line)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as shown, lower case, without punctuation
    other than hyphens and underscores, spaces as hyphens."""
    shown = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    shown = re.sub(r"<[^>]+>", "", shown).replace("`", "").lower()
    kept = "".join(
        ch
        for ch in shown
        if ch in " -_" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc"
    )
    return kept.strip().replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page has: its headings' (duplicates numbered as GitHub does) and HTML ones."""
    found, seen = set(), {}
    for in_code, line in prose_lines(text):
        if in_code:
            continue
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        found.update(HTML_ANCHOR.findall(line))
    return found


def links(text: str) -> list[str]:
    """The targets of a page's Markdown links and images, outside code."""
    targets = []
    for in_code, line in prose_lines(text):
        if not in_code:
            targets += INLINE_LINK.findall(without_code_spans(line))
    prose = "\n".join(line for in_code, line in prose_lines(text) if not in_code)
    return targets + REFERENCE.findall(prose)


def named_paths(text: str) -> list[str]:
    """Repository paths a page names outside its links: in prose, in code spans and in commands."""
    names = []
    for _, line in prose_lines(text):
        line = INLINE_LINK.sub(" ", line)  # a link's target is checked as a link
        line = re.sub(r"\w+://\S+", " ", line)  # addresses are not repository paths
        for name in PATH.findall(line):
            names.append(name.rstrip(".,;:"))
    return names


def _exists(path: Path) -> bool:
    text = path.as_posix()
    if "*" in text:
        first = next(i for i, part in enumerate(path.parts) if "*" in part)
        base = Path(*path.parts[:first])
        return any(base.glob(str(Path(*path.parts[first:]))))
    return path.exists()


def broken(page: Path, text: str) -> list[str]:
    """What the page points at that does not exist, one line per problem."""
    problems, where = [], page.relative_to(ROOT).as_posix()
    own = anchors(text)
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...
            continue
        target = target.split("?", 1)[0]
        name, _, anchor = target.partition("#")
        if not name:
            if anchor not in own:
                problems.append(f"{where}: no heading for #{anchor}")
            continue
        resolved = (page.parent / name).resolve()
        if not resolved.is_relative_to(ROOT):
            # From a top-level page on GitHub, ../../ is the repository's own site.
            site = Path(os.path.relpath(resolved, ROOT.parent.parent)).parts
            if page.parent == ROOT and name.startswith("../../") and site[0] in GITHUB_PAGES:
                continue
            problems.append(f"{where}: {target} leaves the repository")
            continue
        if not _exists(resolved):
            problems.append(f"{where}: {target} does not exist")
        elif anchor and resolved.suffix == ".md" and resolved.is_file():
            if anchor not in anchors(resolved.read_text(encoding="utf-8")):
                problems.append(f"{where}: {target} has no such heading")
    for name in named_paths(text):
        if not (_exists(ROOT / name) or _exists(page.parent / name)):
            problems.append(f"{where}: path {name} does not exist")
    return problems


def test_every_documentation_page_exists():
    missing = [p.relative_to(ROOT).as_posix() for p in documentation_pages() if not p.is_file()]
    assert missing == []


def test_every_link_path_and_anchor_in_the_documentation_resolves():
    problems, checked = [], 0
    for page in documentation_pages():
        if page.is_file():
            text = page.read_text(encoding="utf-8")
            checked += len(links(text)) + len(named_paths(text))
            problems += broken(page, text)
    assert checked > 200  # the pages really link their parts
    assert problems == []


def test_the_checker_catches_a_missing_file_a_missing_heading_and_a_missing_path():
    page = ROOT / "docs" / "example.md"
    text = (
        "# A page\n\n## Its part\n\n"
        "[ok](../README.md) [ok](#its-part) [ok](../README.md#set-up) [ok](https://example.org/x)\n"
        "[gone](gone.md) [gone](#no-part) [gone](../README.md#no-such-part)\n"
        "See `bench/no_such_bench.py` and bench/decode.py, then `app/engine/nowhere/`.\n"
        "```sh\n# a shell comment is no heading\npython bench/also_gone.py\n```\n"
        "[gone]: ../nothing-here.md\n"
    )
    assert sorted(broken(page, text)) == sorted(
        [
            "docs/example.md: gone.md does not exist",
            "docs/example.md: no heading for #no-part",
            "docs/example.md: ../README.md#no-such-part has no such heading",
            "docs/example.md: ../nothing-here.md does not exist",
            "docs/example.md: path bench/no_such_bench.py does not exist",
            "docs/example.md: path app/engine/nowhere/ does not exist",
            "docs/example.md: path bench/also_gone.py does not exist",
        ]
    )


def test_anchors_are_github_s():
    text = (
        "# Speech server (OpenAI-compatible)\n## `chattts-studio synth`\n## 诊断面板\n## A\n## A\n"
    )
    assert anchors(text) == {
        "speech-server-openai-compatible",
        "chattts-studio-synth",
        "诊断面板",
        "a",
        "a-1",
    }


def test_readme_is_short_and_holds_no_dated_measurement():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < README_MAX_LINES
    assert DATE.findall(text) == []  # figures with their dates live in docs/performance.md


def test_a_dated_figure_is_caught():
    assert DATE.findall("ran 2.5x slower on 2026-12-01") == ["2026-12-01"]
    assert DATE.findall("version 9.8.7, 24 kHz, 2026") == []
