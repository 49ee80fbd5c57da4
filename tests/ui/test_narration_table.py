"""The sentence table model over plain sentence records: what each column shows, and that an
edit or a lock is asked of the project rather than made in the table."""

from dataclasses import dataclass, replace

from PySide6.QtCore import Qt

from app.ui.narration.sentence_model import SentenceRow, SentenceTableModel


@dataclass(frozen=True)
class S:
    id: int
    index: int
    text: str
    status: str = "pending"
    duration: float | None = None
    locked: bool = False
    speaker: str | None = None
    error: str | None = None


def _model(qtbot):
    model = SentenceTableModel()
    model.set_rows(
        [
            SentenceRow(S(10, 0, "First.", "done", 2.25), takes=3, take_number=2),
            SentenceRow(S(11, 1, "Second.", speaker="Alice")),
            SentenceRow(S(12, 2, "Third.", "failed", error="The text was empty.")),
        ]
    )
    return model


def _show(model, row, column, role=Qt.ItemDataRole.DisplayRole):
    return model.data(model.index(row, column), role)


def test_rows_show_text_status_duration_and_take(qtbot):
    m = _model(qtbot)
    assert m.rowCount() == 3 and m.columnCount() == 6
    assert [_show(m, 0, c) for c in range(5)] == ["1", "First.", "Done", "2.2 s", "2 of 3"]
    assert [_show(m, 1, c) for c in range(5)] == ["2", "Alice: Second.", "To render", "", ""]
    assert _show(m, 2, m.STATUS) == "Failed"
    assert _show(m, 2, m.STATUS, Qt.ItemDataRole.ToolTipRole) == "The text was empty."
    assert _show(m, 0, m.LOCK, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    assert _show(m, 1, m.TEXT, Qt.ItemDataRole.EditRole) == "Second."  # the speaker is not edited
    assert m.headerData(m.STATUS, Qt.Orientation.Horizontal) == "Status"


def test_an_edit_is_asked_for_and_the_project_s_answer_updates_the_row(qtbot):
    m = _model(qtbot)
    asked = []
    m.editRequested.connect(lambda sid, text: asked.append((sid, text)))
    assert m.setData(m.index(1, m.TEXT), "  Second, again.  ") is False
    assert asked == [(11, "Second, again.")]
    assert _show(m, 1, m.TEXT) == "Alice: Second."  # unchanged until the project answers
    m.setData(m.index(1, m.TEXT), "Second.")  # same text: nothing to ask
    assert len(asked) == 1
    with qtbot.waitSignal(m.dataChanged):
        assert m.update_sentence(S(11, 1, "Second, again.", speaker="Alice"))
    assert _show(m, 1, m.TEXT) == "Alice: Second, again."
    assert not m.update_sentence(S(99, 0, "Not here."))


def test_a_lock_is_asked_for(qtbot):
    m = _model(qtbot)
    asked = []
    m.lockRequested.connect(lambda sid, locked: asked.append((sid, locked)))
    m.setData(m.index(0, m.LOCK), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert asked == [(10, True)]
    row = m.rows()[0]
    m.update_row(replace(row, sentence=replace(row.sentence, locked=True)))
    assert _show(m, 0, m.LOCK, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert m.flags(m.index(0, m.TEXT)) & Qt.ItemFlag.ItemIsEditable
    assert not m.flags(m.index(0, m.STATUS)) & Qt.ItemFlag.ItemIsEditable


def test_take_counts_are_asked_only_for_rows_shown_and_once(qtbot):
    asked = []

    def take_info(sentence):
        asked.append(sentence.id)
        return 2, 1

    m = SentenceTableModel(take_info=take_info)
    m.set_rows([SentenceRow(S(i, i, f"Sentence {i}.")) for i in range(100)])
    assert asked == []  # opening a chapter reads no takes
    assert _show(m, 5, m.TAKE) == "1 of 2" and _show(m, 5, m.TAKE) == "1 of 2"
    assert asked == [5]
