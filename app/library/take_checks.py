"""What the take checker found in a history result, as stored: JSON
{"checked": bool, "findings": [[kind, value, limit], ...]}; '' where it was never checked.

The sentences are not stored: they are made again from kind, value and limit in the language
of the moment. A stored check that does not fit (hostile or damaged) is dropped with a sentence
in the log and the entry kept, as an unchecked one.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass

from app.audio import Finding, FindingKind, TakeReport
from app.i18n import _

log = logging.getLogger("chattts_studio.history")

MAX_CHECK_CHARS = 10_000  # eight kinds of finding fit in a few hundred characters
_KINDS = {kind.value: kind for kind in FindingKind}


@dataclass(frozen=True)
class TakeCheck:
    """A result's check: `checked` is False where the checker's models were missing."""

    checked: bool
    findings: tuple[Finding, ...] = ()

    @property
    def flagged(self) -> bool:
        return bool(self.findings)

    @classmethod
    def of(cls, report: TakeReport) -> TakeCheck:
        return cls(report.checked, tuple(report.findings))


def write_take_check(check: TakeCheck | None) -> str:
    if check is None:
        return ""
    rows = [[f.kind.value, float(f.value), float(f.limit)] for f in check.findings]
    return json.dumps({"checked": check.checked, "findings": rows}, separators=(",", ":"))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _parse(value) -> TakeCheck | None:
    if not isinstance(value, str) or len(value) > MAX_CHECK_CHARS:
        return None
    try:
        data = json.loads(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("checked"), bool):
        return None
    rows = data.get("findings")
    if not isinstance(rows, list) or len(rows) > len(_KINDS):
        return None
    findings = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)):
            return None
        if row[0] not in _KINDS:
            return None
        if not (_number(row[1]) and _number(row[2])):
            return None
        findings.append(Finding.of(_KINDS[row[0]], float(row[1]), float(row[2])))
    return TakeCheck(data["checked"], tuple(findings))


def read_take_check(value, where: str) -> TakeCheck | None:
    """The stored check, None when there is none or it does not fit (said in the log)."""
    if value == "" or value is None:
        return None
    check = _parse(value)
    if check is None:
        log.warning(
            "%s",
            _("{where}: its take check is not valid and was dropped.").format(where=where),
        )
    return check
