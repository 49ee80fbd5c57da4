"""The doctor in Simplified Chinese: every recorded machine's report has no English sentence left."""

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import i18n
from app.doctor.probes import SnapshotProbe
from app.doctor.report import render_json, render_text
from app.doctor.result import STATUSES
from app.doctor.runner import run_doctor
from app.doctor.snapshot import Snapshot, load_snapshot
from app.doctor.snapshot_schema import clean_snapshot
from tests.doctor.test_hostile_snapshots import HOSTILE, _leaves, _set

SNAPSHOTS = Path(__file__).parent / "snapshots"
ALL = sorted(SNAPSHOTS.glob("*.json"))
HAN = re.compile(r"[\u4e00-\u9fff]")
WORD = r"[A-Za-z][A-Za-z'+]*"
ENGLISH_RUN = re.compile(rf"{WORD}(?:[ \t]+{WORD}){{2,}}")
# Spans that are not prose: `code`, URLs, and single tokens that are paths, registry keys,
# options, assignments or file names (a slash, a backslash, a leading dash, "=", a dot inside).
NOT_PROSE = [
    re.compile(r"`[^`]*`"),
    re.compile(r"https?://\S+"),
    re.compile(r"[^\s，。；：（）“”]*[\\/=][^\s，。；：（）“”]*"),
    re.compile(r"(?<!\S)--?[A-Za-z][\w-]*"),
    re.compile(r"\b\w+(?:\.\w+)+\b"),
]


def machine_values(node) -> list[str]:
    """Every string the snapshot holds: what the machine reported (GPU and device names, paths,
    error messages from the system) is quoted data, shown as read, never translated."""
    if isinstance(node, dict):
        return [v for value in node.values() for v in machine_values(value)]
    if isinstance(node, list):
        return [v for value in node for v in machine_values(value)]
    return [node] if isinstance(node, str) and node else []


def english_runs(text: str, snapshot) -> list[str]:
    """Runs of three or more ASCII words separated only by spaces: an untranslated English
    sentence (or a fragment of one) left in a Chinese report.

    Before looking, the parts that are rightly English are cut out, each replaced by a "|" so
    that it also breaks any run around it: every string from the snapshot (machine data), code
    spans in backticks, URLs, paths and registry keys (a token with a slash or backslash),
    options (--index-url), assignments (HF_ENDPOINT=...) and dotted names (torch.jit.load).
    Names of two words ("NVIDIA GPU", "ChatTTS Studio", "Visual C++") stay below the threshold;
    a short untranslated phrase could too, which is why the tests below also require Chinese
    characters in every summary and fix, and tests/test_i18n.py requires a translation for every
    string marked in the sources."""
    for value in sorted(set(machine_values(snapshot)), key=len, reverse=True):
        text = text.replace(value, "|")
    for pattern in NOT_PROSE:
        text = pattern.sub("|", text)
    return ENGLISH_RUN.findall(text)


def reports(language):
    i18n.set_language(language)
    for path in sorted(SNAPSHOTS.glob("*.json")):
        snapshot = load_snapshot(path)
        yield path.stem, snapshot, run_doctor(SnapshotProbe(snapshot))


def test_the_heuristic_finds_english_in_the_english_report():
    """Not vacuous: the same reports in English are flagged, in every scenario."""
    for name, snapshot, report in reports("en"):
        assert english_runs(render_text(report, verbose=True), snapshot), name


@pytest.mark.parametrize("name", sorted(p.stem for p in SNAPSHOTS.glob("*.json")))
def test_every_scenario_renders_in_chinese_without_english_sentences(name):
    i18n.set_language("zh_CN")
    snapshot = load_snapshot(SNAPSHOTS / f"{name}.json")
    report = run_doctor(SnapshotProbe(snapshot))
    text = render_text(report, verbose=True)
    assert english_runs(text, snapshot) == []
    assert english_runs(render_text(report, verbose=False), snapshot) == []
    for r in report.results:  # every sentence of ours is Chinese
        assert HAN.search(r.summary), (r.id, r.summary)
        assert not r.fix or HAN.search(r.fix), (r.id, r.fix)
    assert HAN.search(report.recommendation.reason)
    assert "推荐设备" in text
    if any(r.fix and r.status not in ("ok", "skip") for r in report.results):
        assert "解决方法：" in text
    # JSON keeps its keys and statuses (for scripts) with the sentences in Chinese.
    data = json.loads(render_json(report))
    assert {c["status"] for c in data["checks"]} <= {"ok", "warn", "fail", "skip", "error"}
    assert all(HAN.search(c["summary"]) for c in data["checks"])


def test_the_report_columns_line_up_with_chinese_titles():
    """Wide characters take two columns: the summaries start in one column on a terminal."""
    from app.doctor.report import display_width

    i18n.set_language("zh_CN")
    report = run_doctor(SnapshotProbe(load_snapshot(SNAPSHOTS / "win_fine.json")))
    lines = render_text(report).splitlines()[: len(report.results)]
    starts = {
        display_width(line[: line.index(r.summary)]) for line, r in zip(lines, report.results)
    }
    assert len(starts) == 1


def test_a_check_that_crashes_is_reported_in_chinese():
    from app.doctor.runner import run_checks

    class Broken:
        ID, TITLE = "broken", "Disk space"

        @staticmethod
        def check(snapshot):
            raise RuntimeError("boom")

    i18n.set_language("zh_CN")
    [result] = run_checks(load_snapshot(SNAPSHOTS / "win_fine.json"), modules=(Broken,))
    assert result.status == "error" and result.title == "磁盘空间"
    assert result.summary == "该检查未能完成。" and "doctor --save-snapshot FILE" in result.fix


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), index=st.integers(0, len(ALL) - 1))
def test_hostile_snapshots_render_in_chinese_without_a_crash(data, index):
    """The Chinese sentences take the same strange values as the English ones (a translation's
    placeholders are the English ones: tests/test_i18n.py)."""
    base = json.loads(ALL[index].read_text())
    snapshot = copy.deepcopy(base)
    paths = list(_leaves(base))
    for path in data.draw(st.lists(st.sampled_from(paths), min_size=1, max_size=6)):
        try:
            _set(snapshot, path, copy.deepcopy(data.draw(HOSTILE)))  # never one {} at two paths
        except (KeyError, IndexError, TypeError):
            pass
    i18n.set_language("zh_CN")
    # As loaded from a file (typed fields cleaned), and as a live probe returns it (guards only).
    for snap in (
        Snapshot(clean_snapshot(copy.deepcopy(snapshot), "hostile.json")),
        Snapshot(snapshot),
    ):
        report = run_doctor(SnapshotProbe(snap))
        assert all(r.status in STATUSES for r in report.results)
        assert "推荐设备" in render_text(report, verbose=True)
        json.loads(render_json(report))
