"""A benchmark run saved with --save carries its date, machine and commit (bench/support/results.py)."""

from __future__ import annotations

import argparse
import datetime
import json
import re

import torch

from app.decode.int8_levels import row_levels
from bench.support import results


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    results.add_save_argument(parser)
    return parser.parse_args(list(argv))


def test_save_writes_the_run_with_date_machine_and_commit(tmp_path, capsys):
    target = tmp_path / "out" / "decode.json"
    results.emit(
        {"tokens_per_s_b1": 12.5}, _args("--quick", "--save", str(target)), "bench/decode.py"
    )

    assert json.loads(capsys.readouterr().out) == {"tokens_per_s_b1": 12.5}
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["bench"] == "decode" and saved["quick"] is True
    assert saved["result"] == {"tokens_per_s_b1": 12.5}
    assert datetime.datetime.fromisoformat(saved["date"]).tzinfo is not None
    assert re.fullmatch(r"[0-9a-f]{40}", saved["commit"])  # the tests run in a git checkout
    assert isinstance(saved["dirty"], bool)
    machine = saved["machine"]
    assert set(machine) == {
        "cpu",
        "cpu_capability",
        "int8_row_levels",
        "cores",
        "ram_gb",
        "gpu",
        "os",
        "python",
        "torch",
    }
    assert machine["cores"] >= 1 and machine["cpu"] and machine["python"].count(".") == 2
    # One CPU name covers machines with and without AVX-512 and VNNI: the kernels tell them apart.
    assert machine["cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert machine["int8_row_levels"] == row_levels()
    assert saved["command"].startswith("python bench/decode.py")


def test_without_save_nothing_is_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    results.emit({"a": 1}, _args("--quick"), "bench/decode.py")

    assert json.loads(capsys.readouterr().out) == {"a": 1}
    assert list(tmp_path.iterdir()) == []


def test_save_names_the_file_by_bench_and_day_and_never_overwrites(tmp_path, monkeypatch):
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    day = datetime.date(2026, 12, 6)
    first = results.result_path("serve", day)
    assert first == tmp_path / "serve-2026-12-06.json"
    first.write_text("{}", encoding="utf-8")
    second = results.result_path("serve", day)
    assert second == tmp_path / "serve-2026-12-06-2.json"
    second.write_text("{}", encoding="utf-8")
    assert results.result_path("serve", day) == tmp_path / "serve-2026-12-06-3.json"
