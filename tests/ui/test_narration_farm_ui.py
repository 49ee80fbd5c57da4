"""The narration view renders on local worker processes when asked (the render farm, issue 16):
every sentence gets a take made by one of the workers, and a new take stays in the window."""

import pytest

from app.ui.narration.render_target import RenderTarget
from tests.ui.conftest import RUN_TIMEOUT_MS

# Each worker process loads its own model (seconds on a quiet machine, minutes on a busy one).
FARM_TIMEOUT_MS = 1_200_000
pytestmark = pytest.mark.timeout(1800)


def test_the_view_renders_on_two_local_workers(qtbot, window, tmp_path):
    source = tmp_path / "story.txt"
    source.write_text("The first line. The second line. The third line.", encoding="utf-8")
    window.settings.precision = "fp32"
    assert window.narration.create(str(source), str(tmp_path / "story.ctsproj"))
    view = window.narration.window
    box = view.render_target
    box.kind.setCurrentIndex(box.kind.findData("local"))
    box.workers.setValue(2)
    assert view.controller.target == RenderTarget("local", 2, "auto")
    assert box.workers.isVisibleTo(view) and not box.address.isVisibleTo(view)
    c = view.controller
    with qtbot.waitSignal(c.renderEnded, timeout=FARM_TIMEOUT_MS) as ended:
        view.actions["render"].trigger()
        assert not box.isEnabled()  # the choice is fixed while it renders
    assert ended.args[0] == "finished"
    project = c.project
    makers = {
        t.worker.rsplit(" on ", 1)[-1] for s in project.sentences() for t in project.takes(s.id)
    }
    assert makers and makers <= {"cpu0", "cpu1"}
    assert box.isEnabled()
    # A new take of one sentence is rendered by the window's own model, not a new farm.
    first = project.sentences()[0]
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_TIMEOUT_MS):
        view.table.selectRow(0)
        view.regenerate()
    newest = max(project.takes(first.id), key=lambda t: t.id)
    assert " on cpu" not in newest.worker


def test_the_ray_choice_says_how_to_get_ray_when_it_is_missing(window, tmp_path, monkeypatch):
    monkeypatch.setattr("app.ui.narration.render_target.ray_installed", lambda: False)
    from app.ui.narration.render_target import RenderTargetBox

    box = RenderTargetBox()
    item = box.kind.model().item(box.kind.findData("ray"))
    assert not item.isEnabled() and 'pip install "chattts-studio[farm]"' in item.toolTip()
