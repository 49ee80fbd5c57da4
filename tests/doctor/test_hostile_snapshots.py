"""Snapshots with strings where numbers belong (and worse): `error` results, never a crash."""

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.doctor.probes import SnapshotProbe
from app.doctor.report import render_json, render_text
from app.doctor.result import STATUSES
from app.doctor.runner import run_doctor
from app.doctor.snapshot import MAX_SNAPSHOT_BYTES, Snapshot, SnapshotError, load_snapshot

SNAPSHOTS = sorted((Path(__file__).parent / "snapshots").glob("*.json"))
HOSTILE = st.sampled_from(
    [
        "abc",
        "12.x",
        "",
        "９",
        -1,
        0,
        10**30,
        1.5,
        math.nan,
        True,
        None,
        [],
        {},
        [1, "a"],
        {"a": 1},
        "\u0000",
        "../../etc",
    ]
)


def _leaves(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, path + (i,))
    if path:
        yield path


def _set(node, path, value):
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _check_report(snapshot):
    report = run_doctor(SnapshotProbe(snapshot))
    assert all(r.status in STATUSES for r in report.results)
    assert report.recommendation.device in ("cpu", "cuda")
    text = render_text(report, verbose=True)
    assert "Recommended device" in text
    json.loads(render_json(report))
    return report


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), index=st.integers(0, len(SNAPSHOTS) - 1))
def test_mutated_scenario_snapshots_never_crash_the_doctor(data, index):
    base = json.loads(SNAPSHOTS[index].read_text())
    snapshot = copy.deepcopy(base)
    paths = list(_leaves(base))
    for path in data.draw(st.lists(st.sampled_from(paths), min_size=1, max_size=6)):
        try:
            # A copy: sampled_from hands out the same {} / [] each time, and one placed at two
            # paths would let a later mutation make the snapshot contain itself.
            _set(snapshot, path, copy.deepcopy(data.draw(HOSTILE)))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation replaced a parent of this path
    snapshot["snapshot_version"] = 1
    _check_report(load_snapshot_from(snapshot))
    # What a live probe returns is not loaded from a file: the guards alone must hold.
    _check_report(Snapshot(snapshot))


def load_snapshot_from(data, tmp=Path("/tmp")):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(data, f)
    try:
        return load_snapshot(f.name)
    finally:
        Path(f.name).unlink()


@pytest.mark.parametrize(
    "section", ["nvidia", "torch", "os", "env", "paths", "model", "disk_free_bytes"]
)
def test_a_section_of_the_wrong_kind_is_dropped_with_a_note(tmp_path, section):
    data = json.loads((Path(__file__).parent / "snapshots" / "win_fine.json").read_text())
    data[section] = ["not", "an", "object"] if section != "disk_free_bytes" else "lots"
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    snapshot = load_snapshot(path)
    assert snapshot[section] is None
    assert section in snapshot["probe_errors"] and str(path) in snapshot["probe_errors"][section]
    _check_report(snapshot)


def test_an_oversized_or_damaged_snapshot_is_one_sentence(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_SNAPSHOT_BYTES + 1)
    with pytest.raises(SnapshotError, match="larger than"):
        load_snapshot(big)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    with pytest.raises(SnapshotError, match="not valid JSON"):
        load_snapshot(deep)


def test_a_recommendation_that_cannot_be_made_falls_back_to_the_cpu_and_says_so():
    data = json.loads((Path(__file__).parent / "snapshots" / "win_fine.json").read_text())
    data["nvidia"]["gpus"][0]["compute_capability"] = ["8", "x"]  # as a live probe might return it
    report = _check_report(Snapshot(data))
    assert report.recommendation.device == "cpu" and report.recommendation.error
    assert "could not be worked out" in render_text(report)


@given(
    value=st.one_of(
        HOSTILE, st.text(max_size=12), st.integers(), st.tuples(st.integers(), st.text())
    )
)
def test_fact_lookups_never_raise(value):
    from app.doctor import facts

    facts.parse_version(value)
    facts.cuda_from_driver_code(value)
    facts.min_driver(value, True)
    facts.wmi_driver_to_nvidia(value)
