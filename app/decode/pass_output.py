"""What a pass yields, read off its rows' table: Progress while it runs, Generated at its end."""

from __future__ import annotations

from app.decode.passes import Generated, Progress
from app.decode.rows_state import RowTable


def progress(table: RowTable, audio: bool, steps: int) -> Progress:
    """Every row is at most `steps` tokens in (the first rows began at step 0)."""
    seen = table.audio_hiddens()[:, :steps] if audio else table.generated[:, :steps]
    return Progress(seen, table.lengths.tolist(), table.done.tolist(), table.cut())


def generated(table: RowTable, audio: bool) -> Generated:
    """Each row's tokens (and, for audio, hidden states) up to its length; every row is done."""
    counts = table.lengths.tolist()
    rows = table.count
    if audio:
        tokens = [
            table.generated.view(rows, table.per_row, -1)[r, :, : counts[r]].t()
            for r in range(rows)
        ]
        hiddens = table.audio_hiddens()
        rows_hidden = [hiddens[r, : counts[r]] for r in range(rows)]
    else:
        tokens = [table.generated[r, : counts[r]] for r in range(rows)]
        rows_hidden = []
    return Generated(tokens, rows_hidden, table.cut())
