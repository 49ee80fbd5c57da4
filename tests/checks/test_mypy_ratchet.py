"""The type-check ratchet ([tool.mypy] in pyproject.toml, docs/checks.md): the modules whose type
errors mypy ignores may only become fewer, and no per-module setting loosens a check."""

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]

# The ignore list as recorded when the ratchet began. Remove a module here and in pyproject.toml
# once it is clean; never add one (a new module is checked from its first commit).
RECORDED = frozenset(
    {
        "app.__main__",
        "app.bootstrap",
        "app.cli.doctor",
        "app.cli.narrate",
        "app.cli.narrate_progress",
        "app.cli.parser",
        "app.cli.serve",
        "app.doctor.probes.base",
        "app.doctor.probes.gpu",
        "app.doctor.probes.system",
        "app.doctor.probes.windows",
        "app.doctor.report",
        "app.i18n",
        "app.selftest.steps",
        "app.selftest.tokenizer",
        "app.server.encoders",
        "app.ui.app",
        "app.ui.doctor_panel",
        "app.ui.download_dialog",
        "app.ui.i18n",
        "app.ui.main_menu",
        "app.ui.main_window",
        "app.ui.narration.launcher",
        "app.ui.narration.sentence_model",
        "app.ui.narration.status",
        "app.ui.narration.waveform",
        "app.ui.narration.window",
        "app.ui.pronunciation_dialog",
        "app.ui.settings",
        "app.workers.download_worker",
        "app.workers.narration_worker",
        "app.workers.synthesis_worker",
    }
)
# Per-module options that only make mypy stricter; ignore_errors is allowed on the list alone.
TIGHTENING = {
    "check_untyped_defs",
    "disallow_any_generics",
    "disallow_incomplete_defs",
    "disallow_untyped_calls",
    "disallow_untyped_decorators",
    "disallow_untyped_defs",
    "extra_checks",
    "strict_equality",
    "warn_return_any",
    "warn_unreachable",
    "warn_unused_ignores",
}


def _modules(override: dict) -> list[str]:
    module = override["module"]
    return [module] if isinstance(module, str) else list(module)


def _ignore_list() -> list[str]:
    lists = [_modules(o) for o in MYPY["overrides"] if o.get("ignore_errors")]
    assert len(lists) == 1, "one ignore list, in one place"
    return lists[0]


def _module_file(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def test_the_ignore_list_only_shrinks():
    ignored = _ignore_list()
    assert len(ignored) == len(set(ignored)), "a module named twice"
    joined = sorted(set(ignored) - RECORDED)
    assert joined == [], f"modules may leave the ignore list, never join it: {joined}"


def test_the_ignore_list_names_single_modules_that_exist():
    """A pattern (app.ui.*) would also silence modules written later; a renamed module is a new
    one and is checked."""
    for module in _ignore_list():
        assert "*" not in module and module.startswith("app"), module
        assert _module_file(module).is_file(), f"{module} no longer exists: drop it from the list"


def test_per_module_settings_only_tighten():
    for override in MYPY["overrides"]:
        options = set(override) - {"module"}
        first_party = [m for m in _modules(override) if m == "app" or m.startswith("app.")]
        if not first_party:
            assert options == {"ignore_missing_imports"}, override  # untyped third parties
        elif override.get("ignore_errors"):
            assert options == {"ignore_errors"}, override
        else:
            assert options <= TIGHTENING, options - TIGHTENING
            assert all(override[o] is True for o in options), override


def test_every_module_of_app_is_checked():
    assert MYPY["packages"] == ["app"]
    for loosening in ("ignore_errors", "follow_imports", "disallow_untyped_defs", "exclude"):
        assert loosening not in MYPY, loosening  # the global settings stay as strict as mypy's
