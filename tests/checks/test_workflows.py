"""The GitHub workflows, checked offline: each matches GitHub's workflow schema, passes zizmor's
audit and pins its actions by commit; ci.yml tests every change on three systems and runs the
lint checks; the Windows build also runs on pull requests that touch packaging (issue 40)."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
LINT_COMMANDS = ("ruff check", "ruff format --check", "mypy", "lint-imports")


def _tool(name: str) -> str:
    """A console script of the test extra, from this interpreter's environment first."""
    folder = Path(sys.executable).parent
    for candidate in (folder / name, folder / f"{name}.exe"):
        if candidate.is_file():
            return str(candidate)
    found = shutil.which(name)
    assert found, f"{name} is missing: install the test extra (pip install '.[test]')"
    return found


def _load(name: str) -> dict:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads `on` as True
    return workflow


def _runs(job: dict) -> str:
    return "\n".join(step.get("run", "") for step in job["steps"])


def test_the_workflows_are_the_expected_ones():
    assert [w.name for w in WORKFLOWS] == ["ci.yml", "windows.yml"]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_the_github_workflow_schema(workflow):
    proc = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_zizmor_finds_nothing_of_medium_or_high_severity(workflow):
    proc = subprocess.run(
        [_tool("zizmor"), "--offline", "--format=json", str(workflow)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    findings = json.loads(proc.stdout)  # an audit that could not run prints no JSON list
    serious = [
        (f["ident"], f["determinations"]["severity"])
        for f in findings
        if f["determinations"]["severity"] in ("Medium", "High")
    ]
    assert serious == []


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_by_commit_and_permissions_are_read_only(workflow):
    text = workflow.read_text(encoding="utf-8")
    uses = re.findall(r"uses:\s*(\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses)
    assert _load(workflow.name)["permissions"] == {"contents": "read"}
    assert text.count("persist-credentials: false") == text.count("actions/checkout@")


def test_ci_tests_every_push_and_pull_request_on_three_systems():
    ci = _load("ci.yml")
    assert "push" in ci["on"] and "pull_request" in ci["on"]
    assert ci["on"]["push"] is None and ci["on"]["pull_request"] is None  # no branch or path filter
    tests = ci["jobs"]["tests"]
    assert tests["strategy"]["matrix"]["os"] == ["ubuntu-latest", "windows-latest", "macos-latest"]
    setup = next(s for s in tests["steps"] if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.11"
    script = _runs(tests)
    assert 'pip install ".[test]"' in script and "python -m pytest" in script
    # Linux gets the CPU build of PyTorch and the system libraries .ci/run installs.
    assert "download.pytorch.org/whl/cpu" in script
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    libraries = re.search(r"for pkg in ([^;]+);", ci_run).group(1).split()
    assert all(lib in script for lib in libraries)


def test_ci_runs_the_lint_checks():
    lint = _load("ci.yml")["jobs"]["lint"]
    script = _runs(lint)
    assert 'pip install ".[lint]"' in script
    commands = [s["run"].split(" --output-format")[0].split(" .")[0] for s in lint["steps"][-4:]]
    assert commands == list(LINT_COMMANDS)


def test_the_windows_build_runs_on_tags_and_packaging_pull_requests_unsigned():
    windows = _load("windows.yml")
    assert windows["on"]["push"]["tags"] == ["v*"]
    paths = windows["on"]["pull_request"]["paths"]
    for packaging in ("build.spec", "installer/**", "pyproject.toml"):
        assert packaging in paths
    assert ".github/workflows/windows.yml" in paths
    cert = next(s for s in windows["jobs"]["build"]["steps"] if s.get("id") == "cert")
    assert cert["if"] == "github.event_name != 'pull_request'"


def test_a_release_tag_must_name_the_version_the_code_says():
    """The build's tag step, run as the runner would: the code's version passes, another fails."""
    import app

    step = next(
        s
        for s in _load("windows.yml")["jobs"]["build"]["steps"]
        if "refs/tags/v" in str(s.get("if", ""))
    )
    assert step["env"]["TAG"] == "${{ github.ref_name }}"
    bash = shutil.which("bash")
    assert bash, "bash runs the step on the runner and here"
    script = step["run"].replace("python -c", f'"{sys.executable}" -c')

    def run(tag: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [bash, "-c", script],
            cwd=ROOT,
            env={"TAG": tag, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
        )

    assert run(f"v{app.__version__}").returncode == 0
    wrong = run("v99.0.0")
    assert wrong.returncode == 1
    assert f"says {app.__version__}" in wrong.stdout


def test_ci_run_fails_on_each_lint_check():
    """.ci/run runs under `set -e`: each check is a plain command of the venv's, after the tests."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "\nset -euo pipefail\n" in text
    test_command = text.index('eval "$test_command"')
    assert '.venv/bin/python -m pip install ".[lint]"' in text
    for command in LINT_COMMANDS:
        line = re.search(rf"^\.venv/bin/{re.escape(command)}\b.*$", text, re.MULTILINE)
        assert line and line.start() > test_command, command
        assert "||" not in line.group(0)


def test_pre_commit_runs_the_same_checks_offline():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [r["repo"] for r in config["repos"]] == ["local"]  # nothing to fetch
    hooks = {h["id"]: h for h in config["repos"][0]["hooks"]}
    assert all(h["language"] == "system" for h in hooks.values())
    assert set(hooks) == {
        "ruff",
        "ruff-format",
        "mypy",
        "lint-imports",
        "workflow-schema",
        "zizmor",
    }
    assert hooks["workflow-schema"]["entry"].endswith("--builtin-schema vendor.github-workflows")
    assert "--offline" in hooks["zizmor"]["entry"]
