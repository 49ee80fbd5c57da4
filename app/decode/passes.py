"""What a decode pass takes and gives (the loop's plain data), and the sentence for a pass whose
numbers went bad."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from app.core import NumericalError
from app.decode.precision import HALF
from app.i18n import _
from app.model import VERIFY_COMMAND


@dataclass
class PassParams:
    temperature: float
    top_p: float
    top_k: int
    repetition_penalty: float
    max_new_tokens: int
    min_new_tokens: int = 0
    greedy: bool = False  # argmax instead of a draw (equivalence tests)


@dataclass
class Progress:
    """Streaming event: `lengths[r]` tokens of row r are final; `finished[r]` once it ended
    (its end token, or `cut[r]`: the token limit)."""

    hiddens: torch.Tensor  # (B, steps so far, H) view; valid up to lengths[r] per row
    lengths: list[int]
    finished: list[bool]
    cut: list[bool] = field(default_factory=list)


@dataclass
class Generated:
    tokens: list[torch.Tensor]  # per row: (n, num_vq) audio codes or (n,) text ids
    hiddens: list[torch.Tensor]  # per row: (n, H) fp32 (audio pass only)
    hit_limit: list[bool] = field(default_factory=list)


def nonfinite_error(precision: str, rows: torch.Tensor) -> NumericalError:
    first = int(rows.nonzero()[0, 0]) + 1
    if precision in HALF:
        text = _(
            "Decoding stopped at sentence {n} of the batch because its numbers overflowed in {precision}; "
            "choose fp32 precision ({option}, or Model > Precision: fp32) and try again."
        )
    else:
        text = _(
            "Decoding stopped at sentence {n} of the batch because its numbers became invalid; the model "
            "files may be damaged: verify them ({command})."
        )
    return NumericalError(
        text.format(n=first, precision=precision, option="--precision fp32", command=VERIFY_COMMAND)
    )
