"""Doctor in the window: start-up checks pick the device, banner, panel, first-run wizard."""

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox

from app.doctor.probes import SnapshotProbe
from app.doctor.snapshot import load_snapshot
from app.synthesis.synthesizer import Synthesizer
from tests.ui.conftest import LOAD_TIMEOUT_MS, RUN_TIMEOUT_MS

SNAPSHOTS = Path(__file__).parents[1] / "doctor" / "snapshots"


def snapshot_probe(name):
    calls = []

    def factory(model_dir, quick):
        calls.append(quick)
        return SnapshotProbe(load_snapshot(SNAPSHOTS / f"{name}.json"))

    factory.calls = calls
    return factory


def recording_synthesizer():
    devices = []

    def factory(root, device, precision="auto"):
        devices.append(device)
        return Synthesizer(root, device="cpu")  # this machine has no GPU to honour "cuda" with

    factory.devices = devices
    return factory


def test_startup_checks_run_quick_then_their_recommendation_picks_the_device(make_window):
    probe, synth = snapshot_probe("win_fine"), recording_synthesizer()
    window = make_window(doctor_probe_factory=probe, synthesizer_factory=synth)
    assert probe.calls == [True]  # the quick checks, before the model loads
    assert synth.devices == ["cuda"]  # the doctor found a working GPU
    assert window.doctor_banner.isHidden()


def test_a_device_chosen_in_settings_overrides_the_doctor(make_window, settings):
    settings.device = "cpu"
    synth = recording_synthesizer()
    make_window(doctor_probe_factory=snapshot_probe("win_fine"), synthesizer_factory=synth)
    assert synth.devices == ["cpu"]


def test_a_failed_check_shows_a_banner_that_opens_the_panel(qtbot, make_window):
    window = make_window(
        doctor_probe_factory=snapshot_probe("win_cpu_torch_rtx"),
        synthesizer_factory=recording_synthesizer(),
    )
    assert "CPU-only build" in window.doctor_banner.text()
    qtbot.mouseClick(window.doctor_banner.button, Qt.MouseButton.LeftButton)
    assert window.doctor_dialog.isVisible()
    item = window.doctor_panel.item_for("torch_build")
    assert item.text(0).startswith("[✗]")
    assert item.isExpanded()
    children = {item.child(i).text(0): item.child(i).text(1) for i in range(item.childCount())}
    assert "download.pytorch.org/whl/cu128" in children["Fix"]
    assert "Recommended device: CPU" in window.doctor_panel.summary.text()


def test_on_linux_the_panel_folds_the_windows_checks_into_one_closed_row(make_window):
    from tests.doctor.test_runner import WINDOWS_ONLY

    window = make_window(
        doctor_probe_factory=snapshot_probe("linux_cpu_only"),
        synthesizer_factory=recording_synthesizer(),
    )
    tree, report = window.doctor_panel.tree, window.last_report
    titles = {r.id: r.title for r in report.results}
    top = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    assert len(top) == len(report.results) - len(WINDOWS_ONLY) + 1
    folded = top[-1]
    assert folded.text(0) == "[-] Not applicable here" and not folded.isExpanded()
    assert folded.text(1) == ", ".join(titles[i] for i in WINDOWS_ONLY) + "."
    assert not any(item.text(0).endswith(" " + titles[i]) for item in top for i in WINDOWS_ONLY)
    under = {folded.child(j).text(0): folded.child(j).text(1) for j in range(folded.childCount())}
    assert list(under) == [titles[i] for i in WINDOWS_ONLY]
    assert under[titles["tdr"]] == "TDR is a Windows display-driver setting."
    assert window.doctor_panel.item_for("tdr").text(1) == "TDR is a Windows display-driver setting."
    assert "GPU memory" in " ".join(item.text(0) for item in top)  # a skip that applies here stays


def test_on_windows_the_panel_folds_nothing(make_window):
    window = make_window(
        doctor_probe_factory=snapshot_probe("win_fine"), synthesizer_factory=recording_synthesizer()
    )
    tree = window.doctor_panel.tree
    assert tree.topLevelItemCount() == len(window.last_report.results)
    assert "Not applicable here" not in [
        tree.topLevelItem(i).text(0)[4:] for i in range(tree.topLevelItemCount())
    ]


def test_panel_rerun_copy_and_save(qtbot, make_window, tmp_path, monkeypatch):
    probe = snapshot_probe("win_tdr_default")
    window = make_window(doctor_probe_factory=probe, synthesizer_factory=recording_synthesizer())
    panel = window.doctor_panel
    with qtbot.waitSignal(window.doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
        qtbot.mouseClick(panel.rerun_button, Qt.MouseButton.LeftButton)
    assert probe.calls == [True, False]  # re-run is the full check
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert "[!] GPU timeout (TDR)" in copied and "TdrDelay" in copied
    assert panel.save_report_to(str(tmp_path / "report.txt"))
    assert (tmp_path / "report.txt").read_text(encoding="utf-8").strip() == copied.strip()
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    (tmp_path / "file").write_text("x")
    assert panel.save_report_to(str(tmp_path / "file" / "r.txt")) is False
    assert shown and "could not be saved" in shown[0]


def test_first_run_wizard_walks_through_checks_model_and_a_test_sentence(
    qtbot, make_window, settings
):
    settings.first_run_done = False
    window = make_window(
        doctor_probe_factory=snapshot_probe("linux_cpu_only"),
        synthesizer_factory=recording_synthesizer(),
    )
    window.open_wizard()
    wizard = window.wizard
    assert wizard.isVisible()
    with qtbot.waitSignal(window.doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
        wizard.next()  # diagnostics page starts a full check
    diagnostics = wizard.currentPage()
    assert diagnostics.panel.item_for("torch_build").text(0).startswith("[✓]")
    wizard.next()
    assert "Model ready" in wizard.currentPage().status.text()
    wizard.next()
    test_page = wizard.currentPage()
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(test_page.play, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Played" in test_page.result.text(), timeout=5_000)
    assert "noise, not speech" in test_page.result.text()
    wizard.next()
    wizard.accept()
    assert settings.first_run_done is True
