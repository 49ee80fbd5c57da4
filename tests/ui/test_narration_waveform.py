"""The narration view's waveform: min/max per pixel column, sentence boundaries, click to select."""

import numpy as np
from PySide6.QtCore import QPoint, Qt

from app.ui.narration.waveform import Waveform, WaveformView, envelope, reduce_columns


def test_each_column_holds_the_min_and_max_of_its_span():
    audio = np.array([0.1, -0.5, 0.3, 0.9, -0.2, 0.0, 0.4, -0.8], np.float32)
    mins, maxs = reduce_columns(audio, audio, 4)
    assert mins.tolist() == np.float32([-0.5, 0.3, -0.2, -0.8]).tolist()
    assert maxs.tolist() == np.float32([0.1, 0.9, 0.0, 0.4]).tolist()


def test_more_columns_than_samples_repeat_the_sample_under_each_column():
    audio = np.array([0.5, -0.5], np.float32)
    mins, maxs = reduce_columns(audio, audio, 4)
    assert mins.tolist() == maxs.tolist() == [0.5, 0.5, -0.5, -0.5]


def test_the_envelope_of_blocks_keeps_every_peak():
    rng = np.random.default_rng(1)
    audio = rng.uniform(-1, 1, 1000).astype(np.float32)
    lo, hi = envelope(audio, 256)
    assert len(lo) == 4  # 3 full blocks and the rest
    assert lo[3] == audio[768:].min() and hi[1] == audio[256:512].max()
    # Columns over the envelope equal columns over the samples when blocks tile the columns.
    assert np.array_equal(reduce_columns(lo, hi, 2)[1], [audio[:512].max(), audio[512:].max()])


def test_a_chapter_marks_where_each_sentence_starts_and_a_click_finds_it():
    parts = [
        ("a", np.full(256 * 3, 0.2, np.float32)),
        ("empty", np.zeros(0, np.float32)),
        ("b", np.full(256, -0.4, np.float32)),
    ]
    wave = Waveform.of_parts(parts, block=256)
    assert (
        wave.points == 4 and wave.starts == [0, 3] and wave.keys == ["a", "b"]
    )  # no audio, no part
    assert wave.boundary_x(400) == [0.0, 300.0]
    assert (
        wave.part_at(10, 400) == "a"
        and wave.part_at(299, 400) == "a"
        and wave.part_at(300, 400) == "b"
    )
    assert wave.part_at(400, 400) is None
    assert wave.span_x("b", 400) == (300.0, 400.0)
    mins, maxs = wave.columns(4)
    assert maxs.tolist() == np.float32([0.2, 0.2, 0.2, -0.4]).tolist()


def test_the_view_paints_and_a_click_selects_that_sentence(qtbot):
    view = WaveformView()
    qtbot.addWidget(view)
    view.resize(400, 80)
    view.show()
    wave = Waveform.of_parts(
        [(1, np.full(2560, 0.5, np.float32)), (2, np.full(2560, -0.5, np.float32))]
    )
    view.set_waveform(wave, selected=1)
    image = view.grab().toImage()  # paints without error, with the boundary
    assert image.width() == 400
    mins, maxs = view.column_peaks(400)
    assert len(mins) == 400 and maxs[0] == np.float32(0.5) and mins[-1] == np.float32(-0.5)
    with qtbot.waitSignal(view.partClicked) as clicked:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(300, 40))
    assert clicked.args == [2] and view.selected == 2


def test_an_empty_view_says_there_is_no_audio(qtbot):
    view = WaveformView()
    qtbot.addWidget(view)
    view.set_waveform(Waveform.of_parts([]))
    view.grab()
    assert view._empty == "No audio yet"
