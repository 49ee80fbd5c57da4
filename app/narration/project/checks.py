"""What the take checker found in each try of a sentence, as the project keeps it: one row per
take (table take_checks), read back through the same checks as every other row. The findings
are stored as values (kind, measured value, limit) and said again in the reader's language."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

from app.audio import Finding, FindingKind, TakeReport
from app.core import SEED_MAX

MAX_FINDINGS_JSON = 4_000  # eight kinds of three numbers each; a hostile row is not read
MAX_ATTEMPT = 1_000
KEY_LENGTH = 16


def retake_seed(seed: int, attempt: int) -> int:
    """The seed of a sentence's `attempt`-th try: its own seed first, then a sequence derived
    from it alone, so the same sentence re-taken twice gets the same takes."""
    if attempt == 0:
        return int(seed)
    key = f"{int(seed)}:retake:{int(attempt)}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % (SEED_MAX + 1)


def attempt_key(text: str, seed: int, speed: int, speaker: str | None) -> str:
    """What a sentence's tries belong to: a new text, seed, speed or voice starts them again."""
    key = json.dumps([text, int(seed), int(speed), speaker or ""], ensure_ascii=False)
    return hashlib.blake2b(key.encode(), digest_size=KEY_LENGTH // 2).hexdigest()


@dataclass(frozen=True)
class TakeCheck:
    """One try of a sentence: its take, its place in the sentence's tries and what was found."""

    take_id: int
    sentence_id: int
    attempt_key: str
    attempt: int
    checked: bool  # False: the checker's models are missing
    score: float
    speech_seconds: float
    findings: tuple[Finding, ...]

    @property
    def flagged(self) -> bool:
        return bool(self.findings)

    def reasons(self) -> list[str]:
        return [str(f.reason) for f in self.findings]

    def kinds(self) -> list[str]:
        return [f.kind.value for f in self.findings]


def check_row(report: TakeReport, sentence_id: int, key: str, attempt: int) -> dict:
    """The row to store for a try (its take id is added when the take is written)."""
    findings = [
        {"kind": f.kind.value, "value": _finite(f.value), "limit": _finite(f.limit)}
        for f in report.findings
    ]
    return {
        "sentence_id": sentence_id,
        "attempt_key": key,
        "attempt": attempt,
        "checked": 1 if report.checked else 0,
        "score": float(report.score),
        "speech_seconds": _finite(report.speech_seconds),
        "findings": json.dumps(findings),
    }


def _finite(value: float) -> float:
    value = float(value)
    return value if math.isfinite(value) else 0.0


def _int(v, high: int = 2**31 - 1) -> bool:
    return type(v) is int and 0 <= v <= high


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _findings(raw) -> tuple[Finding, ...] | None:
    if not isinstance(raw, str) or len(raw) > MAX_FINDINGS_JSON:
        return None
    try:
        items = json.loads(raw)
    except (ValueError, RecursionError):  # "[[[[..." fits the size cap but nests too deep
        return None
    if not isinstance(items, list):
        return None
    kinds = {k.value: k for k in FindingKind}
    found = []
    for item in items:
        if not (
            isinstance(item, dict)
            and item.get("kind") in kinds
            and _number(item.get("value"))
            and _number(item.get("limit"))
        ):
            return None
        found.append(Finding.of(kinds[item["kind"]], float(item["value"]), float(item["limit"])))
    return tuple(found)


def take_check_from_row(row) -> TakeCheck | None:
    """A row read back (named), or None where a field is not valid."""
    take_id, sentence_id, key = row["take_id"], row["sentence_id"], row["attempt_key"]
    attempt, checked, score, speech = (
        row["attempt"],
        row["checked"],
        row["score"],
        row["speech_seconds"],
    )
    if not (
        _int(take_id)
        and _int(sentence_id)
        and isinstance(key, str)
        and len(key) == KEY_LENGTH
        and _int(attempt, MAX_ATTEMPT)
        and checked in (0, 1)
        and type(checked) is int
        and _number(score)
        and 0.0 <= score <= 1.0
        and _number(speech)
        and 0.0 <= speech <= 3600.0
    ):
        return None
    findings = _findings(row["findings"])
    if findings is None:
        return None
    return TakeCheck(
        take_id, sentence_id, key, attempt, bool(checked), float(score), float(speech), findings
    )
