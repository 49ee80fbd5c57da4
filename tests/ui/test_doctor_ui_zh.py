"""The Diagnostics panel in Simplified Chinese: the rows (from the Qt-free doctor) follow the
window's language, including when it changes after the checks ran."""

import re

from app import i18n
from tests.doctor.test_report_zh import english_runs
from tests.ui.conftest import LOAD_TIMEOUT_MS
from tests.ui.test_doctor_ui import recording_synthesizer, snapshot_probe

HAN = re.compile(r"[\u4e00-\u9fff]")


def rows(panel):
    """(title, summary, {child label: text}) for every check in the tree."""
    out = []
    for i in range(panel.tree.topLevelItemCount()):
        item = panel.tree.topLevelItem(i)
        out.append(
            (
                item.text(0),
                item.text(1),
                {item.child(j).text(0): item.child(j).text(1) for j in range(item.childCount())},
            )
        )
    return out


def test_the_panel_shows_chinese_rows_and_follows_a_language_change(qtbot, make_window):
    window = make_window(
        doctor_probe_factory=snapshot_probe("win_cpu_torch_rtx"),
        synthesizer_factory=recording_synthesizer(),
    )
    assert "CPU-only build" in window.doctor_banner.text()
    window.menus.actions["language.zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
    assert i18n.current_language() == "zh_CN"
    panel = window.doctor_panel
    snapshot = window.last_report.snapshot
    found = rows(panel)
    assert len(found) == 18  # every check, the global hotkey included
    for title, summary, children in found:
        assert HAN.search(summary), summary
        assert (
            english_runs(" ".join([title, summary, *children, *children.values()]), snapshot) == []
        )
    torch_row = panel.item_for("torch_build")
    assert torch_row.text(0) == "[✗] PyTorch 版本类型"
    assert "仅支持 CPU" in torch_row.text(1)
    fix = {
        torch_row.child(j).text(0): torch_row.child(j).text(1)
        for j in range(torch_row.childCount())
    }["解决方法"]
    assert fix.startswith("请安装 CUDA 版本：") and "download.pytorch.org/whl/cu128" in fix
    assert "仅支持 CPU" in window.doctor_banner.text()  # the banner quotes the check too
    assert "推荐设备" in panel.report_text()  # Copy / Save give the Chinese report
    window.menus.actions["language.en"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "Play", timeout=5_000)
    assert panel.item_for("torch_build").text(0) == "[✗] PyTorch build"
    assert "CPU-only build" in window.doctor_banner.text()


def test_a_window_started_in_chinese_runs_the_checks_in_chinese(qtbot, make_window, settings):
    from app.ui.i18n import apply_language

    settings.language = "zh_CN"
    apply_language(settings.language)  # what run_window does before building the window
    window = make_window(
        doctor_probe_factory=snapshot_probe("linux_cpu_only"),
        synthesizer_factory=recording_synthesizer(),
    )
    assert window.last_report.language == "zh_CN"
    assert window.doctor_panel.item_for("tdr").text(1) == "TDR 是 Windows 显示驱动的设置。"
    folded = rows(window.doctor_panel)[-1]  # the Windows checks, folded
    assert (
        folded[0] == "[-] 不适用于本机" and folded[1].endswith("。") and folded[1].count("、") == 5
    )
    try:
        window.open_wizard()  # the wizard's diagnostics page: a full check, in Chinese
        wizard = window.wizard
        with qtbot.waitSignal(window.doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
            wizard.next()
        page = wizard.currentPage()
        qtbot.waitUntil(lambda: "推荐设备" in page.panel.summary.text(), timeout=5_000)
        found = rows(page.panel)
        assert (
            len(found) == 18 - 6 + 1 and page.panel.report.language == "zh_CN"
        )  # six folded in one
        for title, summary, children in found:
            assert HAN.search(summary), summary
            for text in (
                title,
                summary,
                *children,
                *children.values(),
            ):  # one by one: "WSL" + "Visual C++"
                assert english_runs(text, page.panel.report.snapshot) == [], text
        wizard.close()
    finally:
        apply_language("en")
