"""Mutation testing of the core modules, each against its own tests (mutmut 3).

For every module group: a scratch copy of the project, a mutmut configuration that mutates
only that group's files and selects only its tests, `mutmut run`, then the verdicts counted.
Prints one JSON object: per group killed / survived / timeout / no tests / total / score, and
writes each survivor's diff to <work>/survivors-<group>.txt for review.

    bash bench/mutation.sh [group ...]        (groups: mutation_groups.py; default all)
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from mutation_groups import CHILDREN, GROUPS

ROOT = Path(__file__).resolve().parents[2]

STATUS = re.compile(r"^\s+(\S+): (.+)$")
_SHOW = """import sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
for arg in sys.argv[1:]:
    key, status = arg.split("|")
    print(f"# {key}: {status}")
    print(get_diff_for_mutant(key, path=find_mutant(key).path))
"""
MODULE = re.compile(
    r"^(.*?)\.x[_\u01c1]"
)  # app.text.prepare.x_split_text__mutmut_3 -> app.text.prepare


def _copy_project(work: Path, source: str) -> None:
    """The committed tree of `source` (a revision; default HEAD), so that others' unfinished
    edits in the work tree are not what gets mutated; MUTATION_SOURCE=worktree copies the work
    tree as it is."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    names = ("app", "tests", "resources", "pyproject.toml", "setup.py", "README.md")
    if source == "worktree":
        skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "screenshots")
        for name in names[:3]:
            shutil.copytree(ROOT / name, work / name, ignore=skip)
        for name in names[3:]:
            shutil.copy(ROOT / name, work / name)
        return
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", source, *names],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(work, filter="data")


def _revision(source: str) -> str:
    if source == "worktree":
        return "worktree"
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", source], capture_output=True, text=True, check=True
    ).stdout.strip()


# Lines never mutated, in every group: user-visible wording (gettext calls and the message
# constants marked N_), logging, and warning filters (which of PyTorch's warnings reach the log).
# Wording is pinned by the catalog tests (tests/test_i18n.py), not by behaviour; a mutant of any
# of them would only count as a survivor that proves nothing.
SKIP_LINES = [
    r"\b(N_|_|ngettext)\(\s*[\"']",
    r"\b(log|logger|_log)\.(debug|info|warning|error|exception)\(",
    r"\bwarnings\.(filterwarnings|simplefilter)\(",
]


# Each mutant's `pytest.main` pays its start-up before the first test; these cut it down
# (bench/mutation/survivors.md has the figures): bench/mutation/mutation_plugin.py (gc.freeze of
# the inherited heap, fastest tests first), no unraisable-exception collection at exit, no scan
# of every installed package for assertion rewriting, and none of the plugins the mutated
# modules' tests do not use (Qt, anyio, schemathesis, hypothesis's reporting, pytest-timeout:
# mutmut bounds each mutant's CPU time).
PYTEST_ARGS = [
    "-q",
    "-p",
    "no:cacheprovider",
    "-p",
    "mutation_plugin",
    "-p",
    "no:unraisableexception",
    "--assert=plain",
    "-p",
    "no:pytest-qt",
    "-p",
    "no:anyio",
    "-p",
    "no:schemathesis",
    "-p",
    "no:hypothesispytest",
    "-p",
    "no:timeout",
]


def _config(files: list[str], tests: list[str]) -> str:
    lines = [
        "[mutmut]",
        "source_paths=app",
        "also_copy=",
        "    resources",
        "    README.md",
        "only_mutate=",
    ]
    lines += [f"    {f}" for f in files]
    lines += ["do_not_mutate_patterns="] + [f"    {p}" for p in SKIP_LINES]
    # A mutant that makes a test loop for ever is stopped after this many CPU seconds per
    # second of its tests (mutmut: (estimate + constant) * multiplier * 2).
    lines += ["timeout_multiplier=5", "timeout_constant=2"]
    lines += ["pytest_add_cli_args_test_selection="] + [f"    {t}" for t in tests]
    lines += ["pytest_add_cli_args="] + [f"    {a}" for a in PYTEST_ARGS]
    return "\n".join(lines) + "\n"


def run_group(name: str, work_root: Path, children: int, limit_s: float, source: str) -> dict:
    files, tests = GROUPS[name]
    work = work_root / name
    _copy_project(work, source)
    (work / "setup.cfg").write_text(_config(files, tests))
    # The tiny model and the loaded synthesizer are made once and inherited by each mutant's
    # fork (tests/conftest.py), not loaded again per mutant.
    # One thread per mutant process: GNU OpenMP's pool does not survive fork (each forked mutant
    # that touched torch hung until its time-out), and the workers already use every core.
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        HF_HUB_OFFLINE="1",
        CHATTTS_STUDIO_TEST_REUSE=str(work / "reused"),
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONPATH=os.pathsep.join(
            filter(None, [str(ROOT / "bench" / "mutation"), os.environ.get("PYTHONPATH")])
        ),
    )
    (work / "reused").mkdir()
    # The tests' temporary folders (tmp_path) in memory where there is /dev/shm: the download and
    # store tests write, hash and fsync model files, and on a shared disk each mutant's I/O
    # waits would cost more than its CPU.
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and "MUTATION_TMP" not in os.environ:
        env["TMPDIR"] = str(Path(tempfile.mkdtemp(prefix=f"mutation-{name}-", dir=shm)))
    elif os.environ.get("MUTATION_TMP"):
        env["TMPDIR"] = os.environ["MUTATION_TMP"]
    started = time.monotonic()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    log = open(work_root / f"run-{name}.log", "w")  # noqa: SIM115 (closed after the child ends)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)],
        cwd=work,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        exit_code = proc.wait(timeout=limit_s)
    except subprocess.TimeoutExpired:
        # Out of time: stop mutmut and its workers; what they finished is still counted and
        # the rest shows as "not checked".
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        exit_code = "time limit"
    log.close()
    if env.get("TMPDIR", "").startswith("/dev/shm/"):
        shutil.rmtree(env["TMPDIR"], ignore_errors=True)
    # CPU seconds of mutmut and every worker it reaped: on a quiet machine the wall time is about
    # this divided by the workers (MUTATION_CHILDREN), whatever the load was during this run.
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    result = collect(name, work_root)
    result.update(
        seconds=round(time.monotonic() - started), cpu_seconds=round(cpu), mutmut_exit=exit_code
    )
    return result


def _score(counts: dict) -> float | None:
    done = counts.get("killed", 0) + counts.get("timeout", 0)
    tested = sum(v for k, v in counts.items() if k not in ("skipped", "not checked"))
    return round(100 * done / tested, 1) if tested else None


def collect(name: str, work_root: Path) -> dict:
    """Verdicts of a finished (or stopped) run; survivors' diffs go to survivors-<group>.txt."""
    work = work_root / name
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    mutmut = [sys.executable, "-m", "mutmut"]
    listed = subprocess.run(
        mutmut + ["results", "--all", "true"], cwd=work, env=env, capture_output=True, text=True
    ).stdout
    verdicts = {m.group(1): m.group(2) for m in map(STATUS.match, listed.splitlines()) if m}
    modules: dict[str, dict] = {}
    for key, status in verdicts.items():
        found = MODULE.match(key)
        entry = modules.setdefault(found.group(1) if found else "?", {})
        entry[status] = entry.get(status, 0) + 1
    for entry in modules.values():
        entry["score"] = _score(entry)
    survivors = sorted(k for k, v in verdicts.items() if v in ("survived", "no tests"))
    with open(work_root / f"survivors-{name}.txt", "w") as out:
        for key in survivors:
            out.write(f"{key}: {verdicts[key]}\n")
        out.flush()
        # Every diff from one process (a `mutmut show` per survivor costs a second each).
        subprocess.run(
            [sys.executable, "-c", _SHOW] + [f"{k}|{verdicts[k]}" for k in survivors],
            cwd=work,
            env=env,
            stdout=out,
            stderr=subprocess.DEVNULL,
            text=True,
        )
    totals: dict[str, int] = {}
    for status in verdicts.values():
        totals[status] = totals.get(status, 0) + 1
    return {"total": len(verdicts), "counts": totals, "score": _score(totals), "modules": modules}


def main(argv: list[str]) -> int:
    work_root = Path(os.environ.get("MUTATION_WORK", "/tmp/chattts-studio-mutation"))
    work_root.mkdir(parents=True, exist_ok=True)
    children = int(os.environ.get("MUTATION_CHILDREN", "0"))  # 0: CHILDREN's, else 2
    # The whole run has 30 minutes (MUTATION_TOTAL_LIMIT_S); each group at most
    # MUTATION_GROUP_LIMIT_S of what is left. A group stopped by either shows the mutants it did
    # not reach as "not checked"; a group with no time left is reported as not run.
    total_s = float(os.environ.get("MUTATION_TOTAL_LIMIT_S", "1800"))
    limit_s = float(os.environ.get("MUTATION_GROUP_LIMIT_S", "900"))
    names = argv or list(GROUPS)
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        print(f"unknown group(s) {unknown}; choose from {list(GROUPS)}", file=sys.stderr)
        return 2
    collect_only = os.environ.get("MUTATION_COLLECT_ONLY") == "1"
    # One revision for every group, though others may commit while the run goes on.
    revision = _revision(os.environ.get("MUTATION_SOURCE", "HEAD"))
    report = {}
    started = time.monotonic()
    for name in names:
        left = total_s - (time.monotonic() - started)
        if collect_only:
            report[name] = collect(name, work_root)
        elif left < 30:
            report[name] = {"not run": f"the run's {total_s:g} s were spent"}
        else:
            report[name] = run_group(
                name, work_root, children or CHILDREN.get(name, 2), min(limit_s, left), revision
            )
        print(f"{name}: {json.dumps(report[name])}", file=sys.stderr, flush=True)
    print(
        json.dumps(
            {
                "work": str(work_root),
                "revision": revision,
                "seconds": round(time.monotonic() - started),
                "groups": report,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
