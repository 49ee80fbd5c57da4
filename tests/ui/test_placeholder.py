from app.ui.placeholder import PlaceholderWindow


def test_placeholder_window_says_what_to_use_meanwhile(qtbot):
    window = PlaceholderWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "ChatTTS Studio"
    text = window.centralWidget().text()
    assert "chattts-studio synth" in text
